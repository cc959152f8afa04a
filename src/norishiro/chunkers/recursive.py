"""Recursive splitting: cut at the largest boundary that fits the budget.

Paragraph, then line, sentence (Japanese 。！？ included), clause, word, and grapheme as the
last resort. Separators stay with the text before them, so without overlap the chunks
concatenate back to the document. Overlap repeats the last whole sentences (else clauses,
else words) of the previous chunk. When what is left of a section needs at most four
chunks, they share it evenly (``balance``, on by default): no short last chunk.
"""

from __future__ import annotations

from .base import PackingChunker


class RecursiveChunker(PackingChunker):
    """Every level, coarsest first (the defaults of :class:`PackingChunker`); the last
    chunks of a section share it evenly unless ``balance`` is off."""

    balances = True
