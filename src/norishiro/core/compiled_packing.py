"""The packer's paragraph search, compiled, for a region in characters that has atoms,
headings or a table's repeated header (the long sections of a structured page, where plain
text's quicker path cannot serve): ``_sentscan.para_spans`` finds every chunk end that is
the region's end or a paragraph cut (and, in a "\n"-only text, the farthest hard newline
where ``_line_end`` finds it: a hard-wrapped paragraph's; in the last four budgets, the
first hard newline past an even share, as ``Packer._balanced`` finds it over the line
cuts), and asks the packer's own search for the others (a table's rows, a long
paragraph). ``section_spans`` asks it from a region's lists before any packer is made (one
is made, ``LazyStep``, only if the search asks its own). The packer's search alone is the
reference (tests compare).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING

from . import compiled
from .boundaries import Boundaries
from .levels import LINE, PARAGRAPH
from .plain import BALANCED_TAIL, window_line_end

if TYPE_CHECKING:
    from .packer import Packer, Span

__all__ = ["paragraph_spans", "section_spans", "LazyStep"]


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


def section_spans(
    text: str,
    paragraphs: list[int] | None,
    size: int,
    atoms: Sequence[tuple[int, int]],
    heads: Sequence[tuple[int, int]],
    prefix: Callable[[int], str] | None,
    line_next: bool,
    balance: bool,
    make_packer: Callable[[Boundaries], Packer],
) -> list[Span] | None:
    """``paragraph_spans`` of the packer that ``make_packer(boundaries)`` makes for a region
    in characters without overlap (its first end level the paragraph, none merged; ``atoms``,
    ``heads`` and ``prefix`` as the packer takes them; ``line_next``: the line is its second
    end level), read from these lists: the packer is made only if the compiled search asks
    its search (the long sections of a structured page, each of which made one before).
    None where ``paragraph_spans`` would be None (the packer's loop must run)."""
    n = len(text)
    if not n or not compiled.active():
        return None
    vs: list[int] = []
    ve: list[int] = []
    base_len, plen = 0, _no_prefix
    if prefix is not None:
        if not hasattr(prefix, "spans"):  # a prefix that only a call says, per position
            return None
        vs, ve = prefix.spans()
        base_len = len(prefix.base)
        plen = partial(_prefix_len, prefix)
    fit = _fitting(atoms, size, base_len, vs, ve, prefix) if atoms else ()
    held = sorted((a, b) for a, b in heads if b > a)
    if not (fit or held or prefix is not None):
        return None
    bnd = Boundaries(text, paragraphs=paragraphs)
    return compiled.native.para_spans(
        text,
        bnd.paragraph_cuts(),
        size,
        prefix is not None,
        [a for a, _ in fit],
        [b for _, b in fit],
        [a for a, _ in held],
        [b for _, b in held],
        base_len,
        vs,
        ve,
        plen,
        max(0, n - BALANCED_TAIL * size) if balance else n + 1,  # CharMeasure.back
        LazyStep(make_packer, bnd),
        line_next,
        bnd.soft_wrap_reading() if line_next and bnd.lf else None,
    )


def _fitting(
    atoms: Sequence[tuple[int, int]],
    size: int,
    base_len: int,
    vs: list[int],
    ve: list[int],
    prefix: Callable[[int], str] | None,
) -> list[tuple[int, int]]:
    """``Packer._fitting`` in characters: the atoms that fit ``size`` with the prefix in front
    (``base_len`` long but in the spans ``vs``/``ve``, where ``prefix`` says it), in order."""
    if not vs:
        room = size - base_len
        return sorted((a, b) for a, b in atoms if a < b <= a + room)
    fit = []
    for a, b in atoms:
        if b > a:
            k = bisect_right(vs, a) - 1
            if (base_len if k < 0 or a >= ve[k] else len(prefix(a))) + b - a <= size:  # type: ignore[misc]
                fit.append((a, b))
    fit.sort()
    return fit


def _no_prefix(_s: int) -> int:
    return 0


def _prefix_len(prefix: Callable[[int], str], s: int) -> int:
    """``Packer.plen`` in characters."""
    return len(prefix(s))


class LazyStep:
    """``_next_end`` of a packer made when first asked (most long sections never ask)."""

    __slots__ = ("_make", "_bnd", "_packer")

    def __init__(self, make: Callable[[Boundaries], Packer], bnd: Boundaries):
        self._make, self._bnd, self._packer = make, bnd, None

    def __call__(self, s: int) -> int:
        if self._packer is None:
            self._packer = self._make(self._bnd)
        return _next_end(self._packer, s)


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
