"""Fixed windows: windows of ``size`` units advancing by ``size - overlap``.

In token units each window is the longest run of whole characters (whole grapheme
clusters, in fact) whose own token count is at most ``size``, so no window starts or ends
inside a character: naive token windows decode to U+FFFD in Japanese and map nowhere.
Windows run over the whole text, across sections, and keep nothing whole.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..core.boundaries import Level
from ..core.packer import Packer
from .base import Region, Span


class FixedWindows:
    sectioned = False
    needs_embedder = False

    def __init__(self, config=None, **_runtime):
        self.config = config

    def spans(self, region: Region) -> Iterator[Span]:
        return Packer(
            region.text,
            region.measure,
            region.size,
            region.overlap,
            end_levels=(Level.GRAPHEME,),
            overlap_levels=(Level.GRAPHEME,),
            prefix=region.prefix,
        ).spans()
