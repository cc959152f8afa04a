"""The packer's end for a chunk of plain text in tokens, in its common cases, without the
search's look at every level: the farthest paragraph cut that fits (a document of
paragraphs), and, where the window lost its lines (one-line prose: no newline, no glued
row), the farthest line or sentence cut that fits, from one sentence look (the line
level's cuts are the sentence cuts where a line evidently begins, and the near window's,
where the index predicts the budget runs out, are the wide window's past its start).
Both are compiled (``_sentscan.token_para_end`` and ``token_sentence_end`` read the token
index in place, the sentence cuts from the paragraph's memo, and ask Python only the
packer's exact count and ``line_start``); the Python below is their twin and answers
where they do not (a paragraph that the search would scan line by line, a glued row in the
window). In Python, a window with no newline's cut that may hold a glued row, or whose
newlines lie just before it (a long paragraph's first chunk), takes the search's own steps
per level and window, without its round of the levels above; compiled, where no glued row
is found, the line level's cuts are the same sentence ends there as in a window that lost
its lines. The packer's own search stays the
reference (tests compare) and answers where none of these does: a chunk of white space
alone, a window whose paragraph cuts (or the text's end) do not fit, or one with a
newline's cut but no paragraph cut.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Sequence
from typing import TYPE_CHECKING

from . import compiled
from .levels import LINE, PARAGRAPH, SENTENCE, Level
from .line_starts import FIRSTS
from .newlines import no_newline, no_newline_cut
from .plain import BALANCED_TAIL, find_ink
from .token_index import TokenIndexMeasure

if TYPE_CHECKING:
    from .packer import Packer

__all__ = ["serves", "token_end"]

NONE_FITS = -3  # token_sentence_end: no line or sentence cut of the window fits
_LEARN = -4  # token_sentence_end: the paragraph's scan or the text's case is not known yet


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
    m, para = p.m, p.bnd.paragraph_cuts()
    if _indexed(m):  # the paragraph, line and sentence levels compiled; their twins below
        call = compiled.native.token_para_end
        got = call(m.ends, para, p.n, s, lo, p.size, p.count, p._balance_from, BALANCED_TAIL) if para else -2
        if got != -2:  # -2: the window has no paragraph cut; the end comes balanced
            return got
        got = _sentence_end(p, s, lo)
        if type(got) is tuple:
            return _ended(p, s, lo, got[1], got[0])
        if got == NONE_FITS:
            return _each_window(p, s, lo, *_windows(p, s, lo), p.end_levels[3:])
    return _levels(p, s, lo)


def _windows(p: Packer, s: int, lo: int) -> tuple[int, tuple[int, ...]]:
    """The window's end (generous) and where its searches begin: near where the index
    predicts the budget runs out, then at ``lo``."""
    hi = p._reach(s, p.size)
    near = max(lo, s + (p.m.reach(s, p.size) - s) * 3 // 4)
    return hi, ((near, lo) if near > lo else (lo,))


def _levels(p: Packer, s: int, lo: int) -> int:
    """``_end`` in Python: the paragraph level, else for a window that lost its lines the
    line, sentence and finer levels."""
    text, n, bnd = p.text, p.n, p.bnd
    hi, windows = _windows(p, s, lo)
    if hi <= lo:
        return -1
    para = bnd.paragraph_cuts()
    cuts = para[bisect_right(para, lo) : bisect_right(para, hi)]
    if hi >= n and (not cuts or cuts[-1] != n):  # the text's end is the coarsest cut of all
        cuts.append(n)
    if cuts:  # the paragraph level; where none fits, the finer levels are the search's
        return _ended(p, s, lo, PARAGRAPH, _farthest(p, s, lo, windows, cuts))
    if not no_newline_cut(text, lo, hi):  # a newline's cut in the window: the search's
        return -1
    if not no_newline(text, lo, hi) or bnd.glued_near(lo, hi):  # a newline just before lo, a glued row
        return _each_window(p, s, lo, hi, windows, p.end_levels[1:])
    cuts = bnd.window_cuts(SENTENCE, lo, hi)
    lines = bnd.line_starts_among(cuts)
    for level, level_cuts in ((LINE, lines), (SENTENCE, cuts)):
        got = _farthest(p, s, lo, windows, level_cuts) if level_cuts else None
        if got is not None:
            return _ended(p, s, lo, level, got)
    return _each_window(p, s, lo, hi, windows, p.end_levels[3:])


def _each_window(p: Packer, s: int, lo: int, hi: int, windows: tuple[int, ...], levels: Sequence[Level]) -> int:
    """The farthest cut that fits of the first of ``levels`` that has one, each level's cuts
    looked for per window (the near one first) as the packer's search does: the finer levels
    where no line or sentence cut fits (a command line), and every level from the line on
    for a window with no newline's cut that may hold a glued row (a flattened table: the
    near window's rows are found in it alone) or whose newlines lie just before it (a long
    paragraph's first chunk)."""
    for level in levels:
        for w in windows:
            got = p._largest_fitting(s, p.bnd.window_cuts(level, w, hi, packing=True), p.size)
            if got is not None:
                return _ended(p, s, lo, level, got)
    return -1


def _sentence_end(p: Packer, s: int, lo: int) -> tuple[int, Level] | int:
    """The line and sentence levels of ``_end`` compiled (``_sentscan.token_sentence_end``)
    for a window with no paragraph cut: ``(end, level)``; ``NONE_FITS`` where no cut of
    either fits; -1 where Python must look (the text's end within reach, a newline's cut or
    a glued row in the window, or a paragraph that the search would scan line by line).
    Where the compiled reader lacks the paragraph's scan or the text's case, they are learnt
    as the search's first look at the window would learn them, and it is asked again."""
    bnd = p.bnd
    sw = bnd.sentences
    call, text, paras = compiled.native.token_sentence_end, p.text, bnd.paragraph_cuts()
    while True:
        case = -1 if sw.lower_text is None else int(sw.lower_text)
        got = call(text, paras, sw.memo, case, bnd.line_start, FIRSTS, p.m.ends, s, lo, p.size, p.count)
        if got != _LEARN:
            return (got[0], LINE if got[1] == 1 else SENTENCE) if type(got) is tuple else got
        if not sw.learn(lo, p._reach(s, p.size)):  # at most twice: the scan, then the case
            return -1


def _indexed(m: object) -> bool:
    """The compiled paragraph search may answer for the measure ``m``: its index and
    estimates are ``TokenIndexMeasure``'s, which that search reads in place."""
    t = type(m)
    return (
        compiled.active()
        and isinstance(m, TokenIndexMeasure)
        and t.estimate is TokenIndexMeasure.estimate
        and t.reach is TokenIndexMeasure.reach
        and t.last_within is TokenIndexMeasure.last_within
        and type(m.ends) is array
    )


def _farthest(p: Packer, s: int, lo: int, windows: tuple[int, ...], cuts: list[int]) -> int | None:
    """The farthest of ``cuts`` (a level's cuts of the window from ``lo``) that fits, looked
    for in the near window first, as the packer's search does."""
    for w in windows:
        got = p._largest_fitting(s, [c for c in cuts if c > w] if w > lo else cuts, p.size)
        if got is not None:
            return got
    return None


def _ended(p: Packer, s: int, lo: int, level: Level, e: int | None) -> int:
    """The end ``e`` found at ``level``, balanced by the packer's own ``_balanced`` where the
    last chunks share the rest; -1 for none."""
    if e is None:
        return -1
    if s < p._balance_from:
        return e
    p._level = level
    return p._balanced(s, lo, e, False)
