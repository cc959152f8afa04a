"""Where a text may be cut, level by level: paragraph > line > sentence > lower_sentence >
clause > word > grapheme.

A *cut* is a position ``p`` (a Python ``str`` index, ``0 < p <= len(text)``) such that the
separator stays attached to the piece before it: the text is split into ``text[:p]`` and
``text[p:]``. Every cut returned here is a grapheme-cluster boundary, so a chunker that only
uses these cuts never splits an emoji sequence, a combining mark or a CRLF.

Sentence rules cover Japanese, English and both mixed (see ``sentence_cuts``). A full stop
before a lower-case letter (``...up. to an``) is a sentence end in a text that starts its
sentences in lower case, and a level of its own otherwise (``lower_sentence``: weaker than a
sentence end, stronger than a comma, since it is usually one). Candidate terminators are
found in one pass, then checked locally: the cost grows with the terminators, not characters.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator

import regex

from . import compiled
from .chars import EXTEND as _EXTEND
from .chars import HSPACE as _HSPACE
from .chars import NL as _NL
from .chars import snap as _snap
from .first_starts import FirstStarts
from .glued import glued_line_cuts, glued_near
from .lazy import lazy
from .level_ends import compiled_ends
from .levels import CLAUSE, GRAPHEME, LEVELS, LINE, LOWER_SENTENCE, PARAGRAPH, SENTENCE, WORD, Level, parse_level
from .line_starts import line_start_at, may_start_lines
from .newlines import crlf_only, last_lf_cut, lf_only, no_newline, search_start
from .sentence_windows import SentenceWindows
from .softwrap import SoftWraps, columns_compiled

__all__ = ["Level", "Boundaries", "parse_level"]


_GRAPHEME = regex.compile(r"\X", regex.DOTALL)
# A blank-line run: a newline followed by at least one more (whitespace-only lines included).
_PARAGRAPH = regex.compile(rf"{_NL}(?:{_HSPACE}*{_NL})+")
# The same for texts whose only line break is "\n" (nearly all): a literal first character
# lets the engine skip ahead, about eight times faster.
_PARAGRAPH_LF = re.compile(r"\n(?:[^\S\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]*\n)+")
# A line ends after its newline; a run of blank lines is one separator (no cut inside it).
_LINE = regex.compile(rf"{_NL}(?:{_HSPACE}*{_NL})*")
_NEWLINE = re.compile(r"\n")
_LINE_LF = re.compile(r"\n(?:[^\S\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]*\n)*")

# Clause level: after 、，；, and English , ; (not after a colon: 頭部 MRI：異常なし is one
# unit, and a cut between a label and its value parts a finding from its negation).
_CLAUSE = regex.compile(r"(?:[、，；､](?P<sp1>" + _HSPACE + r"*)|[,;](?P<sp2>" + _HSPACE + r"+|(?=[^\x00-\x7f])))")
# Word level: after a run of white space; between a kana/kanji run and the next script
# (Japanese has no spaces, and a cut after particles is the least harmful place).
# White space is matched one character at a time, the last of its run: "\s+(?=\S)" has the
# same ends, but where a run reaches the search's end the engine tried every start inside it
# up to that end (the run's length squared: 0.2 s for a window in 3,000 spaces).
_WORD = regex.compile(
    r"\s(?=\S)|(?<=\p{Hiragana})(?=[\p{Han}\p{Katakana}A-Za-z0-9Ａ-Ｚａ-ｚ０-９])"
    r"|(?<=[\p{Han}\p{Katakana}ー])(?=[A-Za-z0-9(（「【])|(?<=[・／/])(?=\S)"
)

# _CLAUSE and _WORD where the text is ASCII: only a comma or semicolon before spaces, white
# space (the regex module's, without \x1c-\x1f) and a slash remain, and the standard engine
# runs them several times faster
_CLAUSE_ASCII = re.compile(r"[,;][\t ]+")
_WORD_ASCII = re.compile(r"[\t\n\x0b\x0c\r ](?=[^\t\n\x0b\x0c\r ])|(?<=/)(?=[^\t\n\x0b\x0c\r ])")
_IN_C = dict(zip((_CLAUSE_ASCII, _CLAUSE, _WORD_ASCII, _WORD), range(4)))  # compiled_ends' codes


def _no_word_in(read: str) -> bool:
    """No clause or word cut in ``read``: white space alone, none of it \\x1c-\\x1f (a word's character)."""
    return read.isspace() and not ("\x1c" in read or "\x1d" in read or "\x1e" in read or "\x1f" in read)


_TAIL = 200  # CLAUSE and WORD cuts of a window's tail, looked for first by a tail_only caller


class Boundaries(FirstStarts):
    """Cut positions of one text, per level, computed lazily inside the windows asked for.

    Paragraph cuts are found for the whole text at once (one cheap pass); every finer level
    only inside the window a chunker is looking at, because most chunks end at a paragraph
    and the finer levels are needed only where a paragraph is longer than the budget.
    """

    def __init__(self, text: str, soft_wraps: bool = True, paragraphs: list[int] | None = None, lf: bool | None = None):
        """``paragraphs``: the text's paragraph cuts as a "\\n"-only text has them, from a pass the
        caller made anyway (the line scan's), taken where it is one (``lf``: it is, if known)."""
        self.text = text
        self._line_starts: dict[int, bool] = {}  # sentence cut -> a line evidently starts there
        # newlines inside a sentence (hard-wrapped text) are no line cuts: decided per paragraph when first asked
        self._soft_wraps = soft_wraps
        self._widths: dict[int, tuple[int, int, int]] = {}  # the compiled pass's paragraph widths
        lf = self.lf = lf_only(text) if lf is None else lf  # no line break but "\n"
        self._paragraphs: list[int] | None = paragraphs if lf else None
        self._para_re = _PARAGRAPH_LF if lf else _PARAGRAPH
        self._line_re = _LINE_LF if lf else _LINE
        self._ascii = text.isascii()  # no character that could extend a grapheme
        # made when first asked for, read as ``self._sw or self._new_sentences()`` (a lazy
        # descriptor costs more than they do on a short text): sentences, soft wraps, context
        self._sw, self._wr, self._ctx = None, None, None

    @lazy
    def crlf(self) -> bool:
        """The text's only line breaks are "\\r\\n" and "\\n" (and not "\\n" alone: ``lf``)."""
        return not self.lf and crlf_only(self.text)

    @property
    def sentences(self) -> SentenceWindows:
        """The sentence cuts of windows, made when first asked for (plain text often asks none)."""
        return self._sw or self._new_sentences()

    def _new_sentences(self) -> SentenceWindows:
        self._sw = SentenceWindows(self.text, self.paragraph_cuts())
        return self._sw

    def cuts(self, level: Level) -> list[int]:
        """Sorted cuts of exactly this level over the whole text (end of text excluded)."""
        level = parse_level(level)
        if level is PARAGRAPH:
            return self.paragraph_cuts()
        return self.window_cuts(level, 0, len(self.text))

    def paragraph_cuts(self) -> list[int]:
        """``cuts(Level.PARAGRAPH)``, found once (the packer asks for them at every chunk)."""
        got = self._paragraphs
        if got is None:
            got = self._paragraphs = self._paragraph_cuts()
        return got

    def _paragraph_cuts(self) -> list[int]:
        """Every paragraph cut: ``_regex_cuts`` of the paragraph pattern over the whole text,
        or, compiled (a text whose breaks are "\\n", or "\\r\\n" and "\\n"), the same matches
        found in C and only the cuts before a possible combining mark snapped here."""
        text, n = self.text, len(self.text)
        crlf = self._para_re is not _PARAGRAPH_LF
        if not compiled.active() or (crlf and not self.crlf):
            return self._regex_cuts(self._para_re, 0, n)
        ends, suspects = compiled.native.paragraph_ends(text, crlf)
        moved = {p: q for p in suspects if (q := _snap(text, p)) != p} if suspects else None
        if not moved:  # the ends come in order and once each: only the text's end can be one
            if ends and ends[-1] >= n:
                ends.pop()
            return ends
        ends = [moved.get(p, p) for p in ends]
        out: list[int] = []
        for p in ends:  # as _regex_cuts keeps them: inside the text, once each
            if 0 < p < n and (not out or out[-1] != p):
                out.append(p)
        return out

    def _regex_cuts(self, pattern: regex.Pattern, lo: int, hi: int, start: int | None = None) -> list[int]:
        """Match ends of ``pattern`` in ``(lo, hi]``, snapped onto grapheme boundaries
        (``start``: ``search_start(text, lo)`` when the caller has it already)."""
        text, n = self.text, len(self.text)
        # past hi to the next non-space: a separator run is never seen cut short (CR from LF)
        ahead = text[hi : hi + 256]
        stop = min(n, hi + len(ahead) - len(ahead.lstrip()) + 1)
        if start is None:
            start = search_start(text, lo)
        if pattern is _LINE and compiled.active() and self.crlf:  # the same runs, found in C
            ends = compiled.native.line_ends(text, start, stop)
        elif pattern in _IN_C and compiled.active():  # clause and word cuts, found in C
            ends = compiled_ends(pattern, _IN_C[pattern], text, start, stop)
        elif pattern is _LINE_LF and text[start:stop].isspace():
            # white space alone ("\n"-only text): one run, to its last newline (the pattern: 20 µs)
            last = text.rfind("\n", start, stop)
            ends = [last + 1] if last >= 0 else []
        else:
            ends = [m.end() for m in pattern.finditer(text, start, stop)]
        if self._ascii and (pattern is self._para_re or pattern is self._line_re):
            # runs of line breaks: distinct ends in order, none snapped onto a grapheme in ASCII
            return ends[bisect.bisect_right(ends, lo) : bisect.bisect_right(ends, min(hi, n - 1))]
        out = []
        for p in ends:
            if p < n and text[p] >= "\u0300" and _EXTEND.match(text, p):
                p = _snap(text, p)
            if lo < p <= hi and p < n and (not out or out[-1] != p):
                out.append(p)
        return out

    def is_soft(self, p: int) -> bool:
        """``p`` is the cut after a soft-wrap newline (see ``softwrap``)."""
        if not (self._soft_wraps and p > 0 and self.text[p - 1] == "\n"):
            return False
        return (self._wr or self._new_wraps()).at(self.paragraph_cuts(), p)

    def _new_wraps(self) -> SoftWraps:  # the soft-wrap decisions, made when first asked for
        self._wr = SoftWraps(self.text)
        return self._wr

    def soft_wraps(self) -> list[int]:
        """Every soft-wrap cut of the text, in order."""
        nl = [m.end() for m in _NEWLINE.finditer(self.text)]
        return [p for p in nl if self.is_soft(p)]

    def _sentence_window(self, lo: int, hi: int, lower: bool = False) -> list[int]:
        """Sentence cuts in ``(lo, hi]``, or with ``lower`` the lower_sentence ones."""
        return (self._sw or self._new_sentences()).window(lo, hi, lower)

    def _line_window(self, lo: int, hi: int, tail_only: bool = False, packing: bool = False) -> list[int]:
        """Newlines, plus sentence ends and glued spots where a new line evidently begins.

        ``packing``: the caller is a chunker looking for an end near ``hi``; when a real
        newline lies in the second half of the window the text kept its lines, and the
        costlier inferred line starts (for text that lost them) are not looked for.
        ``tail_only``: the caller wants the farthest cuts only, so inferred line starts are
        looked for only after the last real newline.
        """
        text = self.text
        if self._line_re is _LINE_LF and no_newline(text, lo, hi):
            nl = []  # text that lost its lines
        elif tail_only and self._line_re is _LINE_LF:
            nl = self._last_hard_lf_cut(lo, hi)
        else:
            nl = [p for p in self._regex_cuts(self._line_re, lo, hi) if not self.is_soft(p)]
        if (packing or tail_only) and nl and nl[-1] >= lo + (hi - lo) // 2:
            return nl
        if tail_only and nl:
            lo = nl[-1]
        inferred = self.line_starts_among(self._sentence_window(lo, hi))
        glued = self.glued_cuts(lo, hi)
        if not nl and not glued:
            return inferred  # sentence cuts come sorted and once each
        return sorted(set(nl).union(inferred, glued))

    def line_cuts_beside_sentences(self, lo: int, hi: int) -> list[int]:
        """The line cuts in ``(lo, hi]`` that a caller merging line and sentence cuts still
        needs: newlines that are not soft wraps, and glued rows (a line start inferred at a
        sentence end is a sentence cut already, and needs no line-start test)."""
        return [p for p in self.newline_cuts(lo, hi) if not self.is_soft(p)] + self.glued_cuts(lo, hi)

    def newline_cuts(self, lo: int, hi: int) -> list[int]:
        """Cuts after a newline (a run of blank lines is one) in ``(lo, hi]``, soft wraps too."""
        return self._regex_cuts(self._line_re, lo, hi)

    def glued_cuts(self, lo: int, hi: int) -> list[int]:
        """Line starts in ``(lo, hi]`` of rows glued together when their newlines were lost
        (looked for in the window alone: a look in the whole text first read more)."""
        return glued_line_cuts(self.text, lo, hi)

    def glued_near(self, lo: int, hi: int) -> bool:
        """``glued_cuts(lo, hi)`` may find a cut (where this is False it finds none)."""
        return glued_near(self.text, lo, hi)

    def line_cuts_from_end(self, lo: int, hi: int, tail_only: bool) -> Iterator[int]:
        """The cuts of ``window_cuts(LINE, lo, hi, tail_only, packing=True)``, farthest first,
        each tested only when reached: a packer takes the first usable one, so most newlines
        need no soft-wrap test and most sentence ends no line-start test. (For windows that
        end before the text does, as the packer's do.)"""
        soft = self.is_soft
        lf_tail = tail_only and self._line_re is _LINE_LF  # only the last newline is read
        if self._line_re is _LINE_LF:  # found backwards, one at a time: no search of the window
            nl = self._last_hard_lf_cut(lo, hi)
            if nl and nl[0] >= lo + (hi - lo) // 2:
                p = nl[0]
                yield p
                while not tail_only and (nl := last_lf_cut(self.text, lo, p - 1)):
                    p = nl[0]
                    if not soft(p):
                        yield p
                return
        if self._line_re is _LINE_LF and no_newline(self.text, lo, hi):
            raw = []
        else:
            raw = self._regex_cuts(self._line_re, lo, hi)  # newline runs, soft ones included
        k = len(raw) - 1
        while k >= 0 and soft(raw[k]):
            k -= 1
        if k >= 0 and raw[k] >= lo + (hi - lo) // 2:  # the text kept its lines: newlines only
            yield raw[k]
            if not lf_tail:
                yield from (p for p in reversed(raw[:k]) if not soft(p))
            return
        # with inferred line starts (sentence ends where a line evidently begins) and glued
        # rows; from the last newline on when only the tail is asked for
        a = raw[k] if tail_only and k >= 0 else lo
        newlines = raw[k : k + 1] if lf_tail else raw[: k + 1]
        sentences, glued = self._sentence_window(a, hi), sorted(self.glued_cuts(a, hi))
        if not newlines and not glued:  # text that lost its lines: sentence ends only
            # tested from the end, each only when reached: the packer takes the first
            yield from (x for x in reversed(may_start_lines(self.text, sentences)) if self.line_start(x))
            return
        i, j, m = len(newlines) - 1, len(sentences) - 1, len(glued) - 1
        while i >= 0 or j >= 0 or m >= 0:
            x = max(newlines[i] if i >= 0 else -1, sentences[j] if j >= 0 else -1, glued[m] if m >= 0 else -1)
            cut = False
            if m >= 0 and glued[m] == x:
                cut, m = True, m - 1
                while m >= 0 and glued[m] == x:
                    m -= 1
            if i >= 0 and newlines[i] == x:
                cut = cut or i == len(newlines) - 1 or not soft(x)  # the last one is hard
                i -= 1
            if j >= 0 and sentences[j] == x:
                cut = cut or self.line_start(x)
                j -= 1
            if cut:
                yield x

    def line_starts_among(self, cuts: list[int]) -> list[int]:
        """The sentence cuts where a new line evidently begins, in order."""
        return [p for p in may_start_lines(self.text, cuts) if self.line_start(p)]

    def line_start(self, p: int) -> bool:
        """A new line evidently begins at the sentence cut ``p`` (remembered per position:
        a chunker asks about the same cut in several windows)."""
        got = self._line_starts.get(p)
        if got is None:
            got = self._line_starts[p] = line_start_at(self.text, p)
        return got

    def last_hard_newline(self, lo: int, hi: int, floor: int) -> int:
        """``_last_hard_lf_cut(lo, hi)``'s cut of a "\n"-only text where it is ``floor`` or
        beyond, found compiled with the soft-wrap decisions of the newlines passed over (most
        of a hard-wrapped paragraph's are soft); 0: none there; -1: Python must look."""
        got = self.soft_wrap_reading()
        return -1 if got is None else compiled.native.hard_lf_cut(self.text, lo, hi, floor, self.paragraph_cuts(), *got)

    def soft_wrap_reading(self) -> tuple[bool, Callable[[int], bool], dict] | None:
        """What a compiled soft-wrap decision reads: ``(soft_wraps, is_soft, widths)``; None uncompiled."""
        if (active := compiled.active()) and not self._ascii:
            columns_compiled()  # the display columns the compiled width test counts
        return (self._soft_wraps, self.is_soft, self._widths) if active else None

    def _last_hard_lf_cut(self, lo: int, hi: int) -> list[int]:
        """The farthest newline cut in ``(lo, hi]`` that is no soft wrap ("\n"-only texts)."""
        got = self.last_hard_newline(lo, hi, lo)
        if got >= 0:
            return [got] if got else []
        nl = last_lf_cut(self.text, lo, hi)
        while nl and self.is_soft(nl[0]):
            nl = last_lf_cut(self.text, lo, nl[0] - 1)
        return nl

    def window_cuts(self, level: Level, lo: int, hi: int, tail_only: bool = False, packing: bool = False) -> list[int]:
        """Cuts of exactly ``level`` in the open-closed window ``(lo, hi]`` (text end excluded).

        ``tail_only`` allows leaving out some line cuts before the last newline, and the
        clause and word cuts before the window's last ``_TAIL`` characters where those hold
        one (for callers that take the farthest cut that fits: one-line text without a
        sentence end in a window then needs no search of all of it).
        """
        level = parse_level(level)
        text, n = self.text, len(self.text)
        hi = min(hi, n)
        if hi <= lo:
            return []
        if level is PARAGRAPH:
            arr = self.paragraph_cuts()
            return arr[bisect.bisect_right(arr, lo) : bisect.bisect_right(arr, hi)]
        if level is LINE:
            return self._line_window(lo, hi, tail_only, packing)
        if level is SENTENCE:
            return self._sentence_window(lo, hi)
        if level is LOWER_SENTENCE:
            return self._sentence_window(lo, hi, lower=True)
        if level is CLAUSE or level is WORD:
            if tail_only and hi - lo > 3 * _TAIL:  # the farthest cut is asked for: look near hi first
                got = self.window_cuts(level, hi - _TAIL, hi)
                if got:
                    return got
            start = search_start(text, lo)
            read = text[start : min(n, hi + 258)]  # all _regex_cuts reads
            if _no_word_in(read):  # a run of white space (a padded page)
                return []
            plain = read.isascii()
            if level is CLAUSE:
                return self._regex_cuts(_CLAUSE_ASCII if plain else _CLAUSE, lo, hi, start)
            return self._regex_cuts(_WORD_ASCII if plain else _WORD, lo, hi, start)
        # GRAPHEME: lo is always a boundary (every chunk starts at one), so \X is exact here.
        near = text[lo : hi + 1]
        if near.isascii() and "\r" not in near:  # every ASCII character but CR before LF is one
            return list(range(lo + 1, hi + 1))
        out: list[int] = []
        for m in _GRAPHEME.finditer(text, lo, n):
            if m.end() > hi:
                break
            out.append(m.end())
        return out

    def first_grapheme_end(self, lo: int) -> int:
        """End of the grapheme starting at ``lo`` (used when one grapheme exceeds the budget)."""
        m = _GRAPHEME.match(self.text, lo)
        return m.end() if m else min(lo + 1, len(self.text))

    def level_of(self, p: int) -> Level:
        """The coarsest level at which ``p`` is a cut (start and end of text count as paragraph)."""
        n = len(self.text)
        if p >= n or p <= 0:
            return PARAGRAPH
        for level in (PARAGRAPH, LINE, SENTENCE, LOWER_SENTENCE, CLAUSE, WORD):
            if p in self.window_cuts(level, p - 1, p):
                return level
        return GRAPHEME

    def units(self, level: Level) -> Iterator[tuple[int, int]]:
        """Spans ``(start, end)`` of the units at ``level``, covering the text exactly."""
        level = parse_level(level)
        n = len(self.text)
        if n == 0:
            return
        cut_set: set[int] = set()
        for lv in LEVELS:
            if lv > level:
                break
            cut_set.update(self.window_cuts(lv, 0, n))
        prev = 0
        for p in sorted(cut_set):
            if p > prev:
                yield prev, p
                prev = p
        if prev < n:
            yield prev, n
