"""The packer's end for a chunk in tokens whose window lost its lines (one-line prose: no
newline, no paragraph cut, no glued row in reach), found from one sentence look: the line
level's cuts are the sentence cuts where a line evidently begins, and the near window's
cuts (where the index predicts the budget runs out) are the wide window's past its start.
The packer's own search looks at each level and window anew; it stays the reference
(tests compare), and answers wherever this does not (a chunk starting with white space,
a window that reaches the text's end or holds a newline or a glued row).
"""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING

from .levels import LINE, PARAGRAPH, SENTENCE
from .newlines import no_newline
from .plain import BALANCED_TAIL

if TYPE_CHECKING:
    from .packer import Packer

__all__ = ["serves", "lost_lines_end"]


def serves(p: Packer) -> bool:
    """``lost_lines_end`` may answer for this packer: tokens with an index, plain text (no
    prefix, atom or heading), levels paragraph, line, sentence first, a "\\n"-only text."""
    return (
        p.indexed
        and p.bnd.lf
        and not (p._prefix or p._atom_starts or p._head_starts or p.merge_coarser)
        and p.end_levels[:3] == [PARAGRAPH, LINE, SENTENCE]
    )


def lost_lines_end(p: Packer, s: int, lo: int) -> int:
    """``p.find_end(s, lo)`` where the window lost its lines (for a packer that ``serves``);
    -1 where the packer's search must answer."""
    text, n, m, bnd = p.text, p.n, p.m, p.bnd
    if text[s].isspace():  # perhaps white space alone
        return -1
    hi = min(n, m.reach(s, p.size + 8) + 16)  # Packer._reach
    if hi >= n or hi <= lo:
        return -1
    if not no_newline(text, lo, hi) or bnd.glued_near(lo, hi):  # no newline: no paragraph cut either
        return -1
    guess = m.reach(s, p.size)
    near = max(lo, s + (guess - s) * 3 // 4)
    windows = (near, lo) if near > lo else (lo,)
    cuts = bnd.window_cuts(SENTENCE, lo, hi)
    fitting, size = p._largest_fitting, p.size
    lines = bnd.line_starts_among(cuts)
    for level_cuts in (lines, cuts) if lines else (cuts,):  # the line level, the sentence level
        for w in windows:
            got = fitting(s, [c for c in level_cuts if c > w] if w > lo else level_cuts, size)
            if got is not None:
                t = _even_share(p, s, lo) if s >= p._balance_from else None
                if t is None or t >= got:
                    return got
                c = level_cuts[bisect_left(level_cuts, t)]  # got itself is one of them
                return c if p.fits(s, c, size) else got
    for level in p.end_levels[3:]:  # no sentence cut fits (a command line): the finer levels
        for w in windows:
            got = fitting(s, bnd.window_cuts(level, w, hi, packing=True), size)
            if got is not None:
                t = _even_share(p, s, lo) if s >= p._balance_from else None
                if t is None or t >= got:
                    return got
                c = next((c for c in bnd.window_cuts(level, t - 1, got, packing=True) if c >= t), got)
                return c if p.fits(s, c, size) else got
    return -1


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
