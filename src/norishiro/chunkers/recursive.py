"""Recursive splitting (seed 002): cut at the largest boundary that fits the budget.

Paragraph, then line, sentence (Japanese 。！？ included), clause, word, and grapheme as the
last resort. Separators stay with the text before them, so without overlap the chunks
concatenate back to the document. Overlap repeats the last whole sentences (else clauses,
else words) of the previous chunk.
"""
from __future__ import annotations

from typing import Iterator

from ..boundaries import Boundaries, Level
from ..sizing import Sizer
from .packer import Packer, Span


def recursive_spans(text: str, sizer: Sizer, size: int, overlap: int = 0,
                    boundaries: Boundaries | None = None, **packer_kw) -> Iterator[Span]:
    """``packer_kw``: ``prefix`` (text counted in front of each chunk) and ``atoms``
    (spans kept whole when they fit), see :class:`Packer`."""
    return Packer(text, sizer, size, overlap, end_levels=tuple(Level),
                  overlap_levels=(Level.SENTENCE, Level.CLAUSE, Level.WORD),
                  boundaries=boundaries, **packer_kw).spans()
