"""Fixed windows: windows of ``size`` units advancing by ``size - overlap``.

In token units each window is the longest run of whole characters (whole grapheme
clusters, in fact) whose own token count is at most ``size``, so no window starts or ends
inside a character: naive token windows decode to U+FFFD in Japanese and map nowhere.
Windows run over the whole text, across sections, and keep nothing whole.
"""

from __future__ import annotations

from ..core.boundaries import Level
from .base import PackingChunker


class FixedWindows(PackingChunker):
    sectioned = False
    end_levels = (Level.GRAPHEME,)
    overlap_levels = (Level.GRAPHEME,)
    keeps_structure = False
