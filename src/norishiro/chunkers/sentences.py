"""Whole sentences, packed as full as the budget allows.

Where the recursive chunker prefers the coarsest boundary (a paragraph end over a sentence
end farther on), this one ends each chunk at the farthest sentence end that fits, counting
paragraph and line ends as sentence ends too: fewer, fuller chunks of whole sentences.
A sentence longer than the budget is cut at clauses, else words, else graphemes. Overlap
repeats whole sentences.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..core.boundaries import Level
from ..core.packer import Packer
from .base import Region, Span


class SentenceChunker:
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
            end_levels=(Level.SENTENCE, Level.CLAUSE, Level.WORD, Level.GRAPHEME),
            overlap_levels=(Level.SENTENCE, Level.CLAUSE, Level.WORD),
            prefix=region.prefix,
            atoms=region.atoms,
            heads=region.heads,
            merge_coarser=True,
        ).spans()
