"""Fixed windows (seed 000): windows of ``size`` units advancing by ``size - overlap``.

In token units each window is the longest run of whole characters (whole grapheme
clusters, in fact) whose own token count is at most ``size``, so no window starts or ends
inside a character: naive token windows decode to U+FFFD in Japanese and map nowhere.
"""
from __future__ import annotations

from typing import Iterator

from ..boundaries import Boundaries, Level
from ..sizing import Sizer
from .packer import Packer, Span


def fixed_spans(text: str, sizer: Sizer, size: int, overlap: int = 0,
                boundaries: Boundaries | None = None, **packer_kw) -> Iterator[Span]:
    return Packer(text, sizer, size, overlap, end_levels=(Level.GRAPHEME,),
                  overlap_levels=(Level.GRAPHEME,), boundaries=boundaries, **packer_kw).spans()
