"""Whole sentences, packed as full as the budget allows.

Where the recursive chunker prefers the coarsest boundary (a paragraph end over a sentence
end farther on), this one ends each chunk at the farthest sentence end that fits, counting
paragraph and line ends as sentence ends too: fewer, fuller chunks of whole sentences.
A sentence longer than the budget is cut at clauses, else words, else graphemes. Overlap
repeats whole sentences.
"""

from __future__ import annotations

from ..core.boundaries import Level
from .base import PackingChunker


class SentenceChunker(PackingChunker):
    end_levels = (Level.SENTENCE, Level.LOWER_SENTENCE, Level.CLAUSE, Level.WORD, Level.GRAPHEME)
    merge_coarser = True
