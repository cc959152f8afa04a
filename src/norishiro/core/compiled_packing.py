"""The packer's paragraph search, compiled, for a region in characters that has atoms,
headings or a table's repeated header (the long sections of a structured page, where plain
text's quicker path cannot serve): ``_sentscan.para_spans`` finds every chunk end that is
the region's end or a paragraph cut, and asks the packer's own search for the others (a
table's rows, a long paragraph). The packer's search alone is the reference (tests compare).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from . import compiled
from .levels import LINE, PARAGRAPH

if TYPE_CHECKING:
    from .packer import Packer, Span

__all__ = ["paragraph_spans"]


def paragraph_spans(p: Packer) -> list[Span] | None:
    """``list(p.spans())`` without overlap; None where the compiled search does not serve
    (tokens, overlap, another first level, a prefix looked up per position, plain text, or
    the compiled module off)."""
    if not (compiled.active() and p.exact and p.overlap <= 0 and not p.merge_coarser):
        return None
    if not p.end_levels or p.end_levels[0] is not PARAGRAPH:
        return None
    prefixed = bool(p._prefix)
    if prefixed and p._base_len is None:  # a prefix that only a call says, per position
        return None
    if not (p._atom_starts or p._head_starts or prefixed):  # plain text: plain_spans' path
        return None
    starts, ends = (p._vary_starts, p._vary_ends) if prefixed else ([], [])
    return compiled.native.para_spans(
        p.text,
        p.bnd.paragraph_cuts(),
        p.size,
        prefixed,
        p._atom_starts,
        p._atom_ends,
        p._head_starts,
        p._head_bodies,
        p._base_len or 0,
        starts,
        ends,
        p.plen,  # asked where a chunk starts in one of those spans
        p._balance_from,
        partial(_next_end, p),
        len(p.end_levels) > 1 and p.end_levels[1] is LINE,
    )


def _next_end(p: Packer, s: int) -> int:
    """The end of the chunk from ``s`` as the packer's loop finds it without overlap."""
    got = p.find_end(s, s)
    return p.bnd.first_grapheme_end(s) if got is None else got
