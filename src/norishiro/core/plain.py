"""Plain text in characters, packed without a :class:`~norishiro.core.packer.Packer` while
every chunk ends at a paragraph cut, the text's end, a sentence cut of a window that lost
its lines or a line cut (a hard-wrapped paragraph longer than a chunk), and every overlap
starts where the compiled pass says: the common case of a short document, where making the
packer (its lists, dicts and levels) and its generator is a measurable share of the time,
and of one-line prose, whose every chunk would need the packer's search down to the
sentence level. Where anything else is needed, the packer takes over from the last chunk
given, with the same boundaries: the spans are the packer's (tests compare both).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Sequence
from itertools import chain
from typing import TYPE_CHECKING

from . import compiled
from .boundaries import Boundaries
from .levels import GRAPHEME, LINE, SENTENCE, Level
from .line_starts import FIRSTS, may_start_lines
from .measure import Measure
from .newlines import no_newline_cut

if TYPE_CHECKING:
    from .packer import Packer

__all__ = [
    "paragraph_end",
    "sentence_end",
    "finer_end",
    "line_end",
    "window_line_end",
    "NO_LINE_CUT",
    "NO_CUT",
    "find_ink",
    "past_blank",
    "plain_spans",
    "BALANCED_TAIL",
]

Span = tuple[int, int, int]
NO_LINE_CUT = -2  # sentence_end: the search must look, and line_end would find nothing
NO_CUT = -3  # sentence_end: no line and no sentence cut in the window (finer_end may answer)
BALANCED_TAIL = 4  # with ``balance``, the last chunks of a text (at most this many) share it evenly
# find_ink(text, s, e): the first character of text[s:e] that is not white space, or None
find_ink = re.compile(r"\S").search


def past_blank(text: str, s: int, lo: int, stop: int | None = None) -> int:
    """``lo``, or the first character from ``s`` on that is not white space when that is
    later (``s``: the end of a chunk of white space alone): an end past it gives the chunk
    something to embed. Where an end search gives a chunk
    of white space alone (the blank lines after a table that filled the budget), it looks again
    past them, and keeps the blank chunk only where no level has an end there. ``stop``:
    where the search may end, ``stop`` itself the answer when none is before it (the
    chunk's reach, past which no end can be: a run of white space longer than a chunk is not
    read to its end for every chunk of it)."""
    m = find_ink(text, s, len(text) if stop is None else stop)
    return max(lo, m.start() if m else len(text) if stop is None else stop)


def _share_end(n: int, size: int, s: int, lo: int) -> int:
    """Where the chunk from ``s`` may end at the earliest when the last chunks of a text of
    ``n`` characters share it evenly (the packer's ``_balanced``), past ``lo``; ``n`` where
    the rest is more than ``BALANCED_TAIL`` budgets or fits one."""
    rest = n - s
    k = -(-rest // size)
    return max(min(n, s + -(-rest // k)), lo + 1) if 2 <= k <= BALANCED_TAIL else n


def paragraph_end(text: str, para: list[int], size: int, balance_from: int, s: int, lo: int) -> int | None:
    """The packer's end for a chunk of plain text in characters starting at ``s`` that must
    reach past ``lo``, where the paragraph level comes first: the text's end when it is
    within reach, else the farthest paragraph cut that is, moved back to an even share of
    the rest when the last chunks share it (``s >= balance_from``); -1 where no paragraph
    cut serves (the packer's search must look), None where no end can reach past ``lo``.
    A chunk of white space alone looks again past it, as ``find_end`` does."""
    n = len(text)
    hi = s + size
    if hi >= n:
        e, alone = (n if n > lo else None), True
    else:
        j = bisect_right(para, hi) - 1
        if j < 0 or para[j] <= lo:
            return -1
        e = para[j]
        if s >= balance_from and (t := _share_end(n, size, s, lo)) < e:  # the packer's balancing
            j = bisect_left(para, t)  # e itself is one of the paragraph cuts from t on
            e = para[j]
        # a paragraph (a line with something on it) between s and e: not white space alone
        alone = j == 0 or para[j - 1] <= s
    if e is not None and alone and text[s].isspace() and find_ink(text, s, e) is None:  # white space alone
        again = paragraph_end(text, para, size, balance_from, s, past_blank(text, e, lo, min(n, hi)))
        return e if again is None else again
    return e


def sentence_end(bnd: Boundaries, size: int, balance_from: int, s: int, lo: int) -> int:
    """The packer's end where no paragraph cut serves and the window ``(lo, s + size]``, before
    the text's end, lost its lines (no newline's cut, no glued row: one-line prose, or the
    start of a paragraph longer than the budget): its farthest sentence cut where a line
    evidently begins (the line level), else its farthest sentence cut, each moved back to an
    even share as ``paragraph_end`` does; -1 where the packer's search must look (a newline,
    a glued row), ``NO_LINE_CUT`` where it must and the window has no line cut either (a chunk
    of white space alone), ``NO_CUT`` where the window has no sentence cut at all (then none
    of the line level either: without a newline or a glued row, the line cuts are sentence
    cuts; ``finer_end`` looks at the finer levels). For the levels paragraph, line, sentence
    in this order: one-line prose, whose every chunk would need the search."""
    text = bnd.text
    n, hi = len(text), s + size
    if hi >= n or not bnd.lf or not no_newline_cut(text, lo, hi) or bnd.glued_near(lo, hi):  # glued: a whole-text look
        return -1
    cuts = bnd.window_cuts(SENTENCE, lo, hi)
    level, e = LINE, next((c for c in reversed(may_start_lines(text, cuts)) if bnd.line_start(c)), -1)
    if e < 0:
        if not cuts:
            return NO_CUT
        level, e = SENTENCE, cuts[-1]
    if s >= balance_from and (t := _share_end(n, size, s, lo)) < e:  # balanced at the level of e
        e = next((c for c in bnd.window_cuts(level, t - 1, e, packing=True) if c >= t), e)
    # white space alone up to e: up to the line cut, if any, too (it is e or before it)
    return NO_LINE_CUT if text[s].isspace() and find_ink(text, s, e) is None else e


def finer_end(bnd: Boundaries, size: int, balance_from: int, s: int, lo: int, levels: Sequence[Level]) -> int:
    """The packer's end where ``sentence_end`` said ``NO_CUT`` (a window with no line and no
    sentence cut: a table or a listing joined into one line): the farthest cut of the first
    of ``levels`` (the end levels after the sentence, in order) that has one in the window,
    moved back to an even share as ``sentence_end`` does; -1 where the packer's search must
    look (the grapheme level, a chunk of white space alone)."""
    text = bnd.text
    hi = s + size
    for level in levels:
        if level is GRAPHEME:
            return -1
        cuts = bnd.window_cuts(level, lo, hi, tail_only=True, packing=True)
        if cuts:
            e = cuts[-1]
            if s >= balance_from and (t := _share_end(len(text), size, s, lo)) < e:  # balanced
                e = next((c for c in bnd.window_cuts(level, t - 1, e, packing=True) if c >= t), e)
            return -1 if text[s].isspace() and find_ink(text, s, e) is None else e
    return -1


def line_end(bnd: Boundaries, size: int, balance_from: int, s: int, lo: int) -> int:
    """The packer's end where no paragraph cut serves and the line level comes next, before
    the balanced tail and the text's end: the farthest line cut of the window ``(lo, s +
    size]`` (a newline that is no soft wrap, a line start inferred at a sentence end, a glued
    row), the first the search takes; -1 where the search must look (no line cut, a window
    of spaces alone, a chunk of white space alone). A hard-wrapped paragraph longer than a
    chunk ends so: the search's round of every level costs more than its line cut."""
    text = bnd.text
    hi = s + size
    if hi >= len(text) or s >= balance_from or hi <= lo:
        return -1
    if text[s] in " \t" and not text[s : hi + 1].strip(" \t"):
        return -1  # spaces alone: the packer's quick window
    got = window_line_end(bnd, s, lo, hi)
    return -1 if got is None else got


def window_line_end(bnd: Boundaries, s: int, lo: int, hi: int) -> int | None:
    """The end of a chunk from ``s`` at the farthest line cut of the window ``(lo, hi]``, as
    the packer's search takes it where the line level comes after the paragraph; None where
    the search must look: a paragraph cut in the window (one the paragraph level left, white
    space alone before it: the search looks past it, from a window of its own), no line cut,
    or a chunk of white space alone."""
    para = bnd.paragraph_cuts()
    j = bisect_right(para, hi)
    if j and para[j - 1] > lo:
        return None
    got = _hard_newline(bnd, lo, hi)
    if got is None:
        got = next(iter(bnd.line_cuts_from_end(lo, hi, tail_only=True)), None)
    if got is not None and bnd.text[s].isspace() and find_ink(bnd.text, s, got) is None:
        return None
    return got


def _hard_newline(bnd: Boundaries, lo: int, hi: int) -> int | None:
    """The first cut of ``bnd.line_cuts_from_end(lo, hi, tail_only=True)`` where it is a
    newline that is no soft wrap in the window's second half of a "\\n"-only text, asked of
    the compiled search at once (without the generator's layers); None: the generator
    must look."""
    if not bnd.lf:
        return None
    got = bnd.last_hard_newline(lo, hi, lo + (hi - lo) // 2)
    return got if got > 0 else None


def plain_spans(
    packer,
    text: str,
    measure: Measure,
    size: int,
    overlap: int,
    balance: bool,
    lost_lines: bool = False,
    paragraphs: list[int] | None = None,
    finer: Sequence[Level] = (),
) -> Iterable[Span]:
    """``packer(boundaries).spans()`` for plain text in characters longer than ``size``,
    with the paragraph level first (and the sentence level first for overlap). A chunk that
    ends at a paragraph cut or the text's end, and an overlap that starts where the compiled
    pass says, need no packer; another end is the packer's ``find_end`` (``packer`` makes
    one, over these boundaries, when first needed), and where that finds none or the
    overlap needs the search's generators, the packer goes on from the last chunk given.
    The spans found without the packer come as a list (a generator resumed per chunk costs
    a share of chunking a short text; the list holds three numbers per chunk), then the
    packer's spans, lazily, where it takes over. ``lost_lines``: the levels after the
    paragraph are the line and the sentence, and ``sentence_end``, then ``line_end``,
    serve where no paragraph cut does, and ``finer_end`` with the end levels ``finer`` (those
    after the sentence) where the window has no sentence cut. ``paragraphs``: the text's
    paragraph cuts, where the caller has them (see ``Boundaries``)."""
    n = len(text)
    bnd = Boundaries(text, paragraphs=paragraphs)
    para = bnd.paragraph_cuts()
    balance_from = measure.back(n, BALANCED_TAIL * size) if balance else n + 1
    made = None
    out: list[Span] = []
    # with overlap, the compiled loop finds the first chunks too, where paragraph cuts serve
    run = bnd.overlap_run(overlap + 1, size, balance_from, lost_lines) if overlap > 0 else None
    # without overlap, the compiled loop that finds the chunks sentence_end would (one-line
    # prose), made when sentence_end first gives an end (a short text's chunks need none)
    ends = None

    def end_of(s: int, lo: int) -> int:
        """The chunk's end where a paragraph cut, or (``lost_lines``) a sentence or line cut
        serves without the packer; -1 where its search must look."""
        nonlocal ends
        got = paragraph_end(text, para, size, balance_from, s, lo)
        if got == -1 and lost_lines:
            got = sentence_end(bnd, size, balance_from, s, lo)
            if got >= 0:
                if ends is None and run is None:
                    ends = _sentence_run(bnd, size, balance_from) or False
            elif got == -1:
                got = line_end(bnd, size, balance_from, s, lo)
            elif got == NO_CUT:
                got = finer_end(bnd, size, balance_from, s, lo, finer) if finer else -1
            elif got == NO_LINE_CUT:
                got = -1
        return got

    s, e, first = run(0, 0, out) if run is not None else (0, 0, 0)
    if not out:
        e = end_of(0, 0)
        if e == -1:
            made = packer(bnd)
            e = made.find_end(0, 0)
        if e is None:  # the packer's own answer (a grapheme larger than the budget)
            return (made or packer(bnd)).spans()
        out.append((s, e, e - s))
        first = None  # the compiled loop not asked yet
    while e < n:
        if ends:
            s, e = ends(s, e, out)
            if e >= n:
                break
        nxt = e
        if run is not None:
            if first is None:
                s, e, first = run(s, e, out)  # the chunks that need no Python round, compiled
                if e >= n:
                    break
            if first <= 0:  # the overlap search's generators must look for the start
                made = made or packer(bnd)
                got = _searched(made, s, e, first, end_of)
                if got is None:
                    return chain(out, made.spans(after=(s, e)))
                s, e, first = got[0], got[1], None
                out.append((s, e, e - s))
                continue
            nxt = first
        got = end_of(nxt, e)
        if got == -1:
            made = made or packer(bnd)
            got = made.find_end(nxt, e)
        if got is None:
            return chain(out, (made or packer(bnd)).spans(after=(s, e)))
        s, e, first = nxt, got, None
        out.append((s, e, e - s))
    return out


def _searched(p: Packer, s: int, e: int, first: int, end_of: Callable[[int, int], int]) -> tuple[int, int] | None:
    """The chunk after ``s..e`` as one round of the packer's ``spans`` finds it where the
    compiled pass found no overlap start at the sentence level (``first`` 0) or left it to
    the search (-1): ``Packer.overlap_next`` with each candidate ended by ``end_of`` or the
    packer's ``find_end``; None where none has an end (the packer goes on). One-line prose
    with long sentences, whose overlap starts at a clause or word."""

    def end(c: int, lo: int) -> int | None:
        got = end_of(c, lo)
        return p.find_end(c, lo) if got == -1 else got

    return p.overlap_next(s, e, first, end)


def _sentence_run(bnd: Boundaries, size: int, balance_from: int):
    """``(s, e, out) -> (s, e)``: from the chunk ``s..e``, the next chunks of a "\\n"-only text
    whose ends ``sentence_end`` gives from a paragraph scanned whole (one-line prose),
    appended to ``out`` in one compiled loop (see ``_sentscan.sentence_run``), and the last
    chunk; None where the compiled module is not there. For a ``bnd`` whose sentence cuts
    were asked for (``sentence_end`` made them)."""
    if not (bnd.lf and compiled.active()):
        return None
    sw, call = bnd.sentences, compiled.native.sentence_run
    text, paras, memo, line_start = bnd.text, bnd.paragraph_cuts(), sw.memo, bnd.line_start

    def ends(s: int, e: int, out: list) -> tuple[int, int]:
        case = -1 if sw.lower_text is None else int(sw.lower_text)
        return call(text, paras, memo, case, line_start, FIRSTS, size, balance_from, s, e, out)

    return ends
