"""Where a text may be cut, level by level: paragraph > line > sentence > clause > word > grapheme.

A *cut* is a position ``p`` (a Python ``str`` index, ``0 < p <= len(text)``) such that the
separator stays attached to the piece before it: the text is split into ``text[:p]`` and
``text[p:]``. Every cut returned here is a grapheme-cluster boundary, so a chunker that only
uses these cuts never splits an emoji sequence, a combining mark or a CRLF.

Sentence rules cover Japanese, English and both mixed (see ``sentence_cuts``). They are
regex-driven: candidate terminators are found with one pass of a compiled pattern, then
checked locally, so the cost grows with the number of terminators, not characters.
"""
from __future__ import annotations

import bisect
import re
from enum import IntEnum
from typing import Iterator

import regex

__all__ = ["Level", "Boundaries", "LEVEL_NAMES", "parse_level"]


class Level(IntEnum):
    """Boundary levels, coarsest first. A cut at a coarser level is also a cut at finer ones."""

    PARAGRAPH = 0
    LINE = 1
    SENTENCE = 2
    CLAUSE = 3
    WORD = 4
    GRAPHEME = 5


LEVEL_NAMES = [lv.name.lower() for lv in Level]


def parse_level(name: str | Level) -> Level:
    if isinstance(name, Level):
        return name
    try:
        return Level[name.upper()]
    except KeyError:
        raise ValueError(f"unknown level {name!r}; choose one of {', '.join(LEVEL_NAMES)}") from None


# Characters that must never start a piece: they extend the grapheme before them.
_EXTEND = regex.compile(
    r"[\p{Grapheme_Cluster_Break=Extend}\p{Grapheme_Cluster_Break=ZWJ}"
    r"\p{Grapheme_Cluster_Break=SpacingMark}]+"
)
_GRAPHEME = regex.compile(r"\X", regex.DOTALL)

_NL = r"(?>\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029])"
_HSPACE = r"[^\S\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]"
# A blank-line run: a newline followed by at least one more (whitespace-only lines included).
_PARAGRAPH = regex.compile(rf"{_NL}(?:{_HSPACE}*{_NL})+")
# The same for texts whose only line break is "\n" (nearly all): a literal first character
# lets the engine skip ahead, about eight times faster.
_PARAGRAPH_LF = re.compile(r"\n(?:[^\S\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]*\n)+")
_RARE_BREAKS = ("\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")
# A line ends after its newline; a run of blank lines is one separator (no cut inside it).
_LINE = regex.compile(rf"{_NL}(?:{_HSPACE}*{_NL})*")
_LINE_LF = re.compile(r"\n(?:[^\S\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]*\n)*")

# Where a new line evidently begins although its newline was lost (PDF/EHR exports):
# after a sentence end, before a label ("病理結果（2/20）：", "S）", "Impression:"), a bullet,
# a numbered item, a 【header】 or a date; between the rows of a flattened Markdown table
# ("| a || b |"); before a dated row glued to the previous row of a tab-separated table.
_LINE_START = regex.compile(
    r"(?:[\p{Han}\p{Katakana}\p{Hiragana}A-Za-z0-9ー・/\- ]{1,16}(?:[（(][^）)\n]{1,20}[）)])?[：:](?![/\d])"
    r"|[SOAP][）)]|[・●○■□◆◇▶►•※]|[-*] |#\d|[（(]\d{1,2}[）)]|\d{1,2}[.．)）]\s?(?=\D)|[①-⑳]|【|\d{4}[/年.-]\d{1,2})"
)

_OPENERS = "「『（(【［〈《〔｛[{“‘"
_CLOSERS = "」』）)】］〉》〕｝]}”’"
_PAIR = dict(zip(_CLOSERS, _OPENERS))
_BRACKETS = re.compile("[" + re.escape(_OPENERS + _CLOSERS) + "]")
_LAST_BREAK = regex.compile(r"[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]", regex.REVERSE)
# A run of terminators, the brackets/quotes that close right after it, trailing spaces.
_SENTENCE_CAND = regex.compile(
    r"(?P<term>[。｡！？!?．.]+)(?P<close>[" + regex.escape(_CLOSERS) + r"\"']*)(?P<space>" + _HSPACE + "*)"
)
_CLAUSE = regex.compile(r"(?:[、，；：､](?P<sp1>" + _HSPACE + r"*)|[,;:](?P<sp2>" + _HSPACE + r"+|(?=[^\x00-\x7f])))")
# Word level: after a run of white space; between a kana/kanji run and the next script
# (Japanese has no spaces, and a cut after particles is the least harmful place).
_WORD = regex.compile(
    r"\s+(?=\S)|(?<=\p{Hiragana})(?=[\p{Han}\p{Katakana}A-Za-z0-9Ａ-Ｚａ-ｚ０-９])"
    r"|(?<=[\p{Han}\p{Katakana}ー])(?=[A-Za-z0-9(（「【])|(?<=[・／/])(?=\S)"
)
# After a closing bracket (or a terminator) these continue the sentence: 「…。」と言った,
# 「…！」って, 「…。」などと, 「…。」が口癖, 「…。」を繰り返す (not がん, which can start one).
_QUOTATIVE = regex.compile(r"と|っ|など|なんて|が(?!ん)|を")
# Abbreviations that never end a sentence (titles, Latin, dosing, months, organisations).
# Units (mg, min) are not here: "3.5 mg. Next" ends, and "5 mg. of" is kept by the
# lower-case rule.
_ABBREVIATIONS = frozenset(
    """mr mrs ms dr prof sr jr st vs etc al ver ed eds approx dept
    inc ltd co corp jan feb mar apr jun jul aug sep sept oct nov dec e.g i.e cf ca rp op cit
    resp b.i.d t.i.d q.d q.i.d p.o p.r.n h.s col gen gov viz univ""".split()
)
# Abbreviations that introduce a number (No. 5, Fig. 3, Eq. (2)): not an end before a digit,
# "(" or "#", an end otherwise ("No. I disagree.").
_NUMBER_ABBREVIATIONS = frozenset("no nos fig figs vol vols p pp eq eqs sec ch tab ref refs art".split())
_MAX_QUOTE = 240  # an opening bracket left open longer than this is treated as stray
_LATIN_LOWER = regex.compile(r"\p{Ll}")
_CJK = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}]")


def _snap(text: str, p: int) -> int:
    """Move a cut forward past combining marks / joiners so it sits on a grapheme boundary."""
    if p < len(text):
        m = _EXTEND.match(text, p)
        if m:
            return m.end()
    return p


class Boundaries:
    """Cut positions of one text, per level, computed lazily inside the windows asked for.

    Paragraph cuts are found for the whole text at once (one cheap pass); every finer level
    only inside the window a chunker is looking at, because most chunks end at a paragraph
    and the finer levels are needed only where a paragraph is longer than the budget.
    """

    _CONTEXT = 320  # characters of left context for sentence rules (brackets, list numbers)

    def __init__(self, text: str):
        self.text = text
        self._paragraphs: list[int] | None = None
        self._sentence_memo: dict[tuple[int, int], list[int]] = {}
        lf_only = not any(ch in text for ch in _RARE_BREAKS)
        self._para_re = _PARAGRAPH_LF if lf_only else _PARAGRAPH
        self._line_re = _LINE_LF if lf_only else _LINE

    def cuts(self, level: Level) -> list[int]:
        """Sorted cuts of exactly this level over the whole text (end of text excluded)."""
        level = parse_level(level)
        if level is Level.PARAGRAPH:
            if self._paragraphs is None:
                self._paragraphs = self._regex_cuts(self._para_re, 0, len(self.text))
            return self._paragraphs
        return self.window_cuts(level, 0, len(self.text))

    def _regex_cuts(self, pattern: regex.Pattern, lo: int, hi: int) -> list[int]:
        """Match ends of ``pattern`` in ``(lo, hi]``, snapped onto grapheme boundaries."""
        text, n = self.text, len(self.text)
        # extend the search past hi to the next non-space so that a separator run is never
        # seen truncated (which could cut between CR and LF)
        stop = hi
        while stop < n and text[stop].isspace() and stop - hi < 256:
            stop += 1
        stop = min(n, stop + 1)
        ends = [m.end() for m in pattern.finditer(text, max(0, lo - 1), stop)]
        out = []
        for p in ends:
            if p < n and text[p] >= "\u0300" and _EXTEND.match(text, p):
                p = _snap(text, p)
            if lo < p <= hi and p < n and (not out or out[-1] != p):
                out.append(p)
        return out

    def _sentence_window(self, lo: int, hi: int) -> list[int]:
        """Sentence cuts in ``(lo, hi]`` (the last few windows are kept: callers repeat them)."""
        key = (lo, hi)
        got = self._sentence_memo.get(key)
        if got is None:
            text = self.text
            # left context for brackets and list numbers; brackets never span lines, so
            # from the last line break is enough
            ctx = max(0, lo - self._CONTEXT)
            br = _LAST_BREAK.search(text, ctx, lo) if lo else None
            if br is not None:
                ctx = br.end()
            got = [p for p in sentence_cuts(text, ctx, min(len(text), hi + 8)) if lo < p <= hi]
            if len(self._sentence_memo) >= 8:
                del self._sentence_memo[next(iter(self._sentence_memo))]
            self._sentence_memo[key] = got
        return got

    def _line_window(self, lo: int, hi: int, tail_only: bool = False, packing: bool = False) -> list[int]:
        """Newlines, plus sentence ends and glued spots where a new line evidently begins.

        ``packing``: the caller is a chunker looking for an end near ``hi``; when a real
        newline lies in the second half of the window the text kept its lines, and the
        costlier inferred line starts (for text that lost them) are not looked for.
        ``tail_only``: the caller wants the farthest cuts only, so inferred line starts are
        looked for only after the last real newline.
        """
        text = self.text
        if tail_only and self._line_re is _LINE_LF:
            nl = self._last_lf_cut(lo, hi)
        else:
            nl = self._regex_cuts(self._line_re, lo, hi)
        if (packing or tail_only) and nl and nl[-1] >= lo + (hi - lo) // 2:
            return nl
        if tail_only and nl:
            lo = nl[-1]
        cuts = set(nl)
        for p in self._sentence_window(lo, hi):
            if _LINE_START.match(text, p):
                cuts.add(p)
        cuts.update(glued_line_cuts(text, lo, hi))
        return sorted(cuts)

    def _last_lf_cut(self, lo: int, hi: int) -> list[int]:
        """The farthest newline cut in ``(lo, hi]`` for "\\n"-only texts, found backwards."""
        text, n = self.text, len(self.text)
        end = hi
        while True:
            j = text.rfind("\n", lo, end)
            if j < 0 or j + 1 <= lo:
                return []
            p = j + 1
            k = p
            while k < n and text[k] in " \t\u3000":
                k += 1
            if k < n and text[k] == "\n":
                # the blank-line run goes on past hi: its cut is beyond the window
                end = j
                while end > lo and text[end - 1] in "\n \t\u3000":
                    end -= 1
                continue
            if p >= n:
                return []
            if text[p] >= "\u0300" and _EXTEND.match(text, p):
                p = _snap(text, p)
                if p > hi:
                    end = j
                    continue
            return [p]

    def window_cuts(self, level: Level, lo: int, hi: int, tail_only: bool = False,
                    packing: bool = False) -> list[int]:
        """Cuts of exactly ``level`` in the open-closed window ``(lo, hi]`` (text end excluded).

        ``tail_only`` allows leaving out some line cuts before the last newline (for callers
        that take the farthest cut that fits).
        """
        level = parse_level(level)
        text, n = self.text, len(self.text)
        hi = min(hi, n)
        if hi <= lo:
            return []
        if level is Level.PARAGRAPH:
            arr = self.cuts(Level.PARAGRAPH)
            return arr[bisect.bisect_right(arr, lo): bisect.bisect_right(arr, hi)]
        if level is Level.LINE:
            return self._line_window(lo, hi, tail_only, packing)
        if level is Level.SENTENCE:
            return self._sentence_window(lo, hi)
        if level is Level.CLAUSE:
            return self._regex_cuts(_CLAUSE, lo, hi)
        if level is Level.WORD:
            return self._regex_cuts(_WORD, lo, hi)
        # GRAPHEME: lo is always a boundary (every chunk starts at one), so \X is exact here.
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
            return Level.PARAGRAPH
        for level in (Level.PARAGRAPH, Level.LINE, Level.SENTENCE, Level.CLAUSE, Level.WORD):
            if p in self.window_cuts(level, p - 1, p):
                return level
        return Level.GRAPHEME

    def units(self, level: Level) -> Iterator[tuple[int, int]]:
        """Spans ``(start, end)`` of the units at ``level``, covering the text exactly."""
        level = parse_level(level)
        n = len(self.text)
        if n == 0:
            return
        cut_set: set[int] = set()
        for lv in Level:
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


_GLUED_PIPE = regex.compile(r"\|\|")
_GLUED_HEADER = regex.compile(r"(?<=\S)[【■◆●]")
_GLUED_DATE_ROW = regex.compile(r"\t\d{4}/\d{1,2}/\d{1,2}\t|\d{4}/\d{1,2}/\d{1,2}\t")
_ROW_CELL = regex.compile(r"[A-Za-z]{1,3}\d{0,3}$")
_GLUED_UNIT = regex.compile(r"(?:/[dmμu]?[Ll]|mmHg|/分)(?=[A-Z][A-Za-z0-9-]{1,7} ?[\d<>≦≧])")


def glued_line_cuts(text: str, lo: int, hi: int) -> list[int]:
    """Where a line evidently began before its newline was lost (PDF/EHR exports).

    Between the rows of a flattened Markdown table (``| a || b |``); before a glued
    【header】; before a dated row of a flattened tab-separated table (``0.71|2026/02/24<TAB>``,
    ``75%|C5<TAB>2026/1/8<TAB>``); after a lab unit glued to the next test name
    (``mEq/L|CRP 18.6``).
    """
    n = len(text)
    a, b = max(0, lo - 16), min(n, hi + 16)
    out = []
    for m in _GLUED_PIPE.finditer(text, a, b):
        out.append(m.start() + 1)
    for m in _GLUED_HEADER.finditer(text, a, b):
        out.append(m.start())
    for m in _GLUED_DATE_ROW.finditer(text, a, b):
        if m.group().startswith("\t"):
            # the row's first cell (C5) is glued to the previous row's last cell (75%)
            cell = _ROW_CELL.search(text, max(0, m.start() - 6), m.start())
            before = text[cell.start() - 1] if cell and cell.start() > 0 else " "
            if cell and not (before.isascii() and before.isalnum()) and not before.isspace():
                out.append(cell.start())
        elif m.start() > 0 and (text[m.start() - 1].isdigit() or text[m.start() - 1] == "%"):
            out.append(m.start())
    for m in _GLUED_UNIT.finditer(text, a, b):
        out.append(m.end())
    return [p for p in out if lo < p <= hi and p < n]


def _token_before(text: str, i: int) -> tuple[str, int]:
    """The run of non-space, non-CJK characters ending at ``i`` (exclusive), and its start."""
    j = i
    while j > 0 and not text[j - 1].isspace() and not _CJK.match(text[j - 1]) and text[j - 1] not in "「『（(【":
        j -= 1
        if i - j > 40:
            break
    return text[j:i], j


def _list_number_before(text: str, i: int, last_cut: int) -> bool:
    """The digits ending at ``i`` are a list number: one or two digits (after an optional
    # or parenthesis) at the start of a sentence or line."""
    j = i
    while j > 0 and text[j - 1].isdigit() and i - j < 3:
        j -= 1
    if j > 0 and text[j - 1] in "#＃(（":
        j -= 1
    return i - j <= 3 and _at_sentence_start(text, j, last_cut)


def _at_sentence_start(text: str, j: int, last_cut: int) -> bool:
    k = j
    while k > 0 and text[k - 1] in " \t\u3000":
        k -= 1
    return k == 0 or k == last_cut or text[k - 1] in "\n\r"


def sentence_cuts(text: str, lo: int = 0, hi: int | None = None) -> list[int]:
    """Sentence ends that are not also line ends.

    Rules (Japanese, English, mixed):
    * 。｡！？!?． and runs of them end a sentence; closing brackets/quotes right after stay
      with it, and so do spaces before the next sentence;
    * no end inside 「」『』（）()【】 and similar; a bracket closed by the terminator's run ends
      the sentence unless a quotative particle follows (「…。」と言った); a bracket left open
      for more than a few hundred characters, or across a newline, is treated as stray;
    * ASCII '.' ends a sentence only in English-sentence position: followed by white space
      and not by a lower-case letter or a digit, and not after an abbreviation (Dr., e.g.,
      b.i.d.), a single letter (E. coli, p. 45), or a list number at a sentence start (1.);
    * ！？!? after a Latin word and glued to the next character (Yahoo!ニュース) is not an
      end, nor is ． between digits or after a list number (６５．５, 1．血液).
    """
    n = len(text)
    hi = n if hi is None else min(hi, n)
    out: list[int] = []
    stack: list[tuple[str, int]] = []  # open brackets before the current candidate
    done = lo

    def advance(upto: int) -> None:
        """Bring the bracket stack up to ``upto``: only the text after the last line break
        counts, because brackets never span lines."""
        nonlocal done
        if upto <= done:
            return
        start = done
        br = _LAST_BREAK.search(text, done, upto)
        if br is not None:
            stack.clear()
            start = br.end()
        for b in _BRACKETS.finditer(text, start, upto):
            ch = b.group()
            if ch in _PAIR:
                want = _PAIR[ch]
                for k in range(len(stack) - 1, -1, -1):
                    if stack[k][0] == want:
                        del stack[k:]
                        break
            else:
                stack.append((ch, b.start()))
        done = upto

    last_cut = lo
    for m in _SENTENCE_CAND.finditer(text, lo, hi):
        ts, te = m.span("term")
        advance(ts)
        while stack and stack[0][1] < ts - _MAX_QUOTE:
            stack.pop(0)
        depth_before = len(stack)
        advance(m.end("close"))
        depth_after = len(stack)
        end = m.end()
        term = m.group("term")
        nxt = text[end] if end < n else ""
        spaced = bool(m.group("space"))

        if depth_after > 0:
            continue  # still inside brackets
        if depth_before > 0 and not m.group("close"):
            continue
        if nxt and not spaced and _QUOTATIVE.match(text, end):
            continue  # 「…。」と言った / 行くの？と聞かれた
        if nxt == "" or nxt in "\r\n\x0b\x0c\x85\u2028\u2029":
            continue  # the line or the text ends here anyway: the line level has this cut

        prev = text[ts - 1] if ts > 0 else ""
        if set(term) <= {"."}:
            if not spaced:
                continue  # 3.5, a.html, 2024.3.15, e.g.
            if _LATIN_LOWER.match(nxt) or nxt.isdigit():
                continue  # e.g. bla, Fig. 3, No. 5, Ver. 2.0
            token, tstart = _token_before(text, ts)
            low = token.lower().lstrip("(\"'")
            address = "@" in low or "://" in low or low.startswith("www.")
            if not token or address:
                pass  # a word, or an e-mail address / URL at the end of a sentence
            elif low in _ABBREVIATIONS or "." in low:
                continue  # Dr., et al., U.S., b.i.d.
            elif low in _NUMBER_ABBREVIATIONS:
                if nxt in "(#":
                    continue  # Eq. (2), No. #3
            elif len(low) == 1 and low.isalpha():
                continue  # E. coli, p. 45, initials
            elif low.lstrip("#(").rstrip(")").isdigit() and (
                    _at_sentence_start(text, tstart, last_cut) or _CJK.match(nxt)):
                continue  # 1. 高血圧 / #1. 高血圧症 / 高血圧 2. 糖尿病
        elif set(term) <= {"!", "?"}:
            if prev.isascii() and prev.isalnum() and not spaced:
                continue  # Yahoo!ニュース
        elif set(term) <= {"．"}:
            if prev.isdigit() and not spaced and (nxt.isdigit() or _list_number_before(text, ts, last_cut)):
                continue  # ６５．５ｋｇ, 1．血液検査 (but 術後POD1．発熱なし． ends)
        p = _snap(text, end)
        if 0 < p < n and (not out or out[-1] < p):
            out.append(p)
            last_cut = p
    return out
