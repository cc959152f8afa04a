"""Runs of sections that are one chunk each, of their text alone: where such a run stops
(``one_chunk_run``) and its chunks (``short_sections``), the short sections of a Markdown
page or a clinical note made chunks in one call. The compiled twins are ``_sentscan``'s
(``one_chunk_run``, ``walk_sections``).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Mapping
from typing import Any

from .chunk import Chunk, section_chunks
from .core.structure import Section
from .document import Document

__all__ = ["one_chunk_run", "short_sections"]


def one_chunk_run(starts: list[int], ends: list[int], k: int, size: int, t_starts: list[int], t_ends: list[int]) -> int:
    """The first section from ``k`` on (indices into ``starts`` / ``ends``) that is not one
    chunk of its text alone: empty, longer than ``size``, or starting in a table's body
    (whose header rows go in front). Compiled: ``_sentscan.one_chunk_run``."""
    n = len(starts)
    while k < n:
        a, b = starts[k], ends[k]
        if not a < b <= a + size:
            break
        if t_starts:
            t = bisect.bisect_right(t_starts, a) - 1
            if t >= 0 and a < t_ends[t]:
                break
        k += 1
    return k


def short_sections(
    text: str,
    sections: list[Section],
    k: int,
    size: int,
    t_starts: list[int],
    t_ends: list[int],
    index: int,
    doc: Document,
    metadata: Mapping[str, Any] | None,
    canonical: Callable[[list[str]], str | None],
    memo: dict[tuple[str, ...], str | None] | None = None,
) -> tuple[list[Chunk], int]:
    """The chunks of the sections from ``k`` on that are one chunk of their text alone
    (``one_chunk_run``), numbered from ``index`` (``section_chunks``), and the first section
    that is not. Compiled: ``_sentscan.walk_sections`` without lists, which reads the sections
    themselves."""
    j = one_chunk_run([x.start for x in sections], [x.end for x in sections], k, size, t_starts, t_ends)
    return section_chunks(text, sections, k, j, index, doc, metadata, canonical, memo), j
