"""The packer's paragraph search, compiled, for a region in characters that has atoms,
headings or a table's repeated header (the long sections of a structured page, where plain
text's quicker path cannot serve): ``_sentscan.para_spans`` finds every chunk end that is
the region's end or a paragraph cut (and, in a "\n"-only text, the farthest hard newline
where ``_line_end`` finds it: a hard-wrapped paragraph's; in the last four budgets, the
first hard newline past an even share, as ``Packer._balanced`` finds it over the line
cuts), and asks the packer's own search for the others (a table's rows, a long
paragraph). The packer's search alone is the reference (tests compare).
"""

from __future__ import annotations

from bisect import bisect_right
from functools import partial
from typing import TYPE_CHECKING

from . import compiled
from .levels import LINE, PARAGRAPH
from .plain import window_line_end

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
    line_next = len(p.end_levels) > 1 and p.end_levels[1] is LINE
    # a "\n"-only text: _line_end's farthest hard newline is found there too
    lines = p.bnd.soft_wrap_reading() if line_next and p.bnd.lf else None
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
        line_next,
        lines,
    )


def _next_end(p: Packer, s: int) -> int:
    """The end of the chunk from ``s`` as the packer's loop finds it without overlap."""
    got = _line_end(p, s)
    if got is not None:
        return got
    got = p.find_end(s, s)
    return p.bnd.first_grapheme_end(s) if got is None else got


def _line_end(p: Packer, s: int) -> int | None:
    """``find_end(s, s)`` where the line level decides it plainly (a hard-wrapped paragraph
    longer than the budget, a table's rows): the line comes after the paragraph, which has
    no cut in the window, no atom lies in the window and no heading is near, no
    balancing, and a line cut in the window that leaves the chunk more than white space; then
    the farthest one is the packer's answer, found without its rounds of every level. None:
    the packer's search must look."""
    if not (p.end_levels[1:2] == [LINE] and s < p._balance_from):
        return None
    hi = p._reach(s, p.size)
    if hi >= p.n or hi <= s or not p._atom_free(s, hi) or (p._atom_starts and p._blocked(hi)):
        return None
    i = bisect_right(p._head_bodies, s)
    if i < len(p._head_bodies) and p._head_starts[i] < hi:  # a heading the search would avoid
        return None
    return window_line_end(p.bnd, s, s, hi)
