"""The packer's end for a chunk of plain text in tokens, in its two common cases, without
the search's look at every level and window: the farthest paragraph cut that fits (a
document of paragraphs), and, where the window lost its lines (one-line prose: no newline,
no glued row), the farthest line or sentence cut that fits, from one sentence look (the
line level's cuts are the sentence cuts where a line evidently begins, and the near
window's, where the index predicts the budget runs out, are the wide window's past its
start). The packer's own search stays the reference (tests compare) and answers wherever
this does not: a chunk of white space alone, a window whose paragraph cuts (or the text's
end) do not fit, or one with a newline or a glued row but no paragraph cut.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from .levels import LINE, PARAGRAPH, SENTENCE, Level
from .newlines import no_newline
from .plain import BALANCED_TAIL, find_ink

if TYPE_CHECKING:
    from .boundaries import Boundaries
    from .packer import Packer

__all__ = ["serves", "token_end"]


def serves(p: Packer) -> bool:
    """``token_end`` may answer for this packer: tokens with an index, plain text (no
    prefix, atom or heading), levels paragraph, line, sentence first, a "\\n"-only text."""
    return (
        p.indexed
        and p.bnd.lf
        and not (p._prefix or p._atom_starts or p._head_starts or p.merge_coarser)
        and p.end_levels[:3] == [PARAGRAPH, LINE, SENTENCE]
    )


def token_end(p: Packer, s: int, lo: int) -> int:
    """``p.find_end(s, lo)`` for a packer that ``serves``, where the paragraph level ends the
    chunk or the window lost its lines; -1 where the packer's search must answer."""
    got = _end(p, s, lo)
    if got > 0 and p.text[s].isspace() and find_ink(p.text, s, got) is None:  # white space alone
        return -1  # the search looks past it
    return got


def _end(p: Packer, s: int, lo: int) -> int:
    text, n, m, bnd, size = p.text, p.n, p.m, p.bnd, p.size
    hi = min(n, m.reach(s, size + 8) + 16)  # Packer._reach
    if hi <= lo:
        return -1
    guess = m.reach(s, size)
    near = max(lo, s + (guess - s) * 3 // 4)
    windows = (near, lo) if near > lo else (lo,)
    para = bnd.paragraph_cuts()
    cuts = para[bisect_right(para, lo) : bisect_right(para, hi)]
    if hi >= n and (not cuts or cuts[-1] != n):  # the text's end is the coarsest cut of all
        cuts.append(n)
    if cuts:  # the paragraph level; where none fits, the finer levels are the search's
        got = _farthest(p, s, lo, windows, cuts)
        return -1 if got is None else _balanced(p, s, lo, got, partial(_first_at, para))
    if not no_newline(text, lo, hi) or bnd.glued_near(lo, hi):  # no newline: no paragraph cut either
        return -1
    cuts = bnd.window_cuts(SENTENCE, lo, hi)
    lines = bnd.line_starts_among(cuts)
    for level_cuts in (lines, cuts) if lines else (cuts,):  # the line level, the sentence level
        got = _farthest(p, s, lo, windows, level_cuts)
        if got is not None:
            return _balanced(p, s, lo, got, partial(_first_at, level_cuts))
    for level in p.end_levels[3:]:  # no sentence cut fits (a command line): the finer levels
        for w in windows:
            got = p._largest_fitting(s, bnd.window_cuts(level, w, hi, packing=True), size)
            if got is not None:
                return _balanced(p, s, lo, got, partial(_first_cut, bnd, level, got))
    return -1


def _farthest(p: Packer, s: int, lo: int, windows: tuple[int, ...], cuts: list[int]) -> int | None:
    """The farthest of ``cuts`` (a level's cuts of the window from ``lo``) that fits, looked
    for in the near window first, as the packer's search does."""
    for w in windows:
        got = p._largest_fitting(s, [c for c in cuts if c > w] if w > lo else cuts, p.size)
        if got is not None:
            return got
    return None


def _balanced(p: Packer, s: int, lo: int, e: int, first_from: Callable[[int], int]) -> int:
    """``Packer._balanced`` for the end ``e``: where the last chunks share the rest evenly,
    ``first_from(t)``, the first cut of e's level from the even share ``t`` on (``e`` is one),
    when it fits."""
    if s < p._balance_from or e >= p.n:
        return e
    t = _even_share(p, s, lo)
    if t is None or t >= e:
        return e
    c = first_from(t)
    return c if p.fits(s, c, p.size) else e


def _first_at(cuts: list[int], t: int) -> int:
    """The first of ``cuts`` (sorted, one at ``t`` or after) from ``t`` on."""
    return cuts[bisect_left(cuts, t)]


def _first_cut(bnd: Boundaries, level: Level, e: int, t: int) -> int:
    """The first cut of ``level`` in ``[t, e]`` (``e``: the end it may move back from)."""
    return next((c for c in bnd.window_cuts(level, t - 1, e, packing=True) if c >= t), e)


def _even_share(p: Packer, s: int, lo: int) -> int | None:
    """Where ``Packer._balanced`` lets the chunk from ``s`` end at the earliest (past ``lo``)
    when the last chunks share the rest evenly; None where they need not (the rest is more
    than ``BALANCED_TAIL`` budgets, or fits one)."""
    m, n, size = p.m, p.n, p.size
    rest = m.estimate(s, n)
    k = -(-rest // size)
    if not 2 <= k <= BALANCED_TAIL:
        return None
    return max(min(n, m.reach(s, -(-rest // k) + 8) + 16), lo + 1)  # Packer._reach of the share
