"""Recursive splitting: cut at the largest boundary that fits the budget.

Paragraph, then line, sentence (Japanese 。！？ included), clause, word, and grapheme as the
last resort. Separators stay with the text before them, so without overlap the chunks
concatenate back to the document. Overlap repeats the last whole sentences (else clauses,
else words) of the previous chunk.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..core.boundaries import Level
from ..core.packer import Packer
from .base import Region, Span


class RecursiveChunker:
    sectioned = True
    needs_embedder = False

    def __init__(self, config=None, **_runtime):
        self.config = config

    def spans(self, region: Region) -> Iterator[Span]:
        return Packer(
            region.text,
            region.measure,
            region.size,
            region.overlap,
            end_levels=tuple(Level),
            overlap_levels=(Level.SENTENCE, Level.CLAUSE, Level.WORD),
            prefix=region.prefix,
            atoms=region.atoms,
            heads=region.heads,
        ).spans()
