"""What a chunker is: something that turns one region of a document into spans.

The caller (``norishiro.api``) splits a document into regions (sections, or the whole
text), measures each one and works out the context-header prefix, the atoms to keep
whole and the headings; a chunker only decides where its chunks start and end. A new
chunker is one module with a class like the ones here plus one line in
``norishiro.chunkers.CHUNKERS``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ..core.measure import Measure, Sizer

__all__ = ["Region", "Chunker", "Span"]

Span = tuple[int, int, int]  # start, end, size (of prefix + text), in the region's coordinates


@dataclass
class Region:
    """One stretch of a document to chunk, in its own coordinates (0 = ``offset``).

    ``prefix(p)``: the text put in front of a chunk starting at ``p`` (context header,
    repeated table header), which counts against ``size``; ``atoms``: spans kept whole when
    they fit (code, tables, lists); ``heads``: ``(start, body)`` of headings, which should
    not end a chunk when their text can follow.
    """

    text: str
    offset: int
    sizer: Sizer
    measure: Measure
    size: int
    overlap: int = 0
    prefix: Callable[[int], str] | None = None
    atoms: Sequence[tuple[int, int]] = field(default_factory=list)
    heads: Sequence[tuple[int, int]] = field(default_factory=list)


class Chunker(Protocol):
    """``sectioned``: one region per section (False: the whole text is one region, as for
    fixed windows, which know nothing of structure). ``needs_embedder``: the caller must
    pass ``embedder=`` when making it."""

    sectioned: bool
    needs_embedder: bool

    def spans(self, region: Region) -> Iterator[Span]:
        """Spans covering ``region.text`` in order, each within ``region.size``."""
        ...
