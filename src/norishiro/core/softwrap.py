"""Soft wraps: newlines that a PDF text layer, an e-mail or a plain-text export put inside a
sentence because the line was full.

Such a newline is not a line boundary: it ranks with word boundaries, so a chunk does not
end there when a sentence end fits. It stays in the text (offsets do not move). The decision
is made per paragraph, from evidence:

* **width**: in a paragraph of three lines or more whose lines mostly end near one width (in
  characters or in display columns, where CJK counts two), a full line continues on the
  next line, whatever stands at the break (a label's colon, a table cell, a list number),
  unless it ends a sentence (。．.!?！？ and closing brackets) or the next line evidently
  begins a block (a heading, 【label】, a bullet, a fence);
* **rows stay rows**: table rows, tab-separated rows with the same number of cells, rule
  lines, a line that closes a 【label】, ``label：value`` lines one under another, and lab
  values one test per line are real lines even when they are all about as long;
* **hard lines stay hard**: a line that is not full is a real line when it ends a sentence,
  ends with a colon (a label, a lead-in), is a heading, a table row (``|`` or tabs) or
  indented code, or comes before a list item, numbered item, 【label】, SOAP line or
  ``label：``; fenced code is never joined;
* **continuation**: otherwise a line continues when it evidently stops inside a sentence:
  Japanese ending on a particle, a conjunctive form or 、, or a kanji run followed by kana
  (lines of at least eight characters: a verse or a name is not taken as broken off);
  English ending on a word or comma with the next line starting in lower case; or, in a
  paragraph with a width, when the next line's first Latin word would not have fitted on
  it (word wrap).

Poems, addresses and lists have short lines of varying length that end without such cues,
so they are not joined.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from itertools import accumulate

import regex

from . import compiled
from .chars import WIDE, columns

__all__ = ["soft_wraps", "SoftWraps"]

_TERMINAL = regex.compile(r"(?:[。｡!?！？…‥]|(?<![0-9０-９])[．.])[」』）)】］〉》〕｝\]}”’\"']*\s*$")
# a line that starts like this begins a new block even after a full line
_STRONG_NEXT = regex.compile(r"^\s*(?:#{1,6}\s|【|[■□◆◇●◎▼▶►•※]|・|[-*+]\s|```|~~~)")
# (?r): a pattern anchored at the line's end is searched from there (the regex module's
# reverse search) instead of from every position of the line; for the four marked so
# that was faster (for the terminator and the Japanese endings it was not)
_COLON_END = regex.compile(r"(?r)[:：]\s*$")
_HEADING = regex.compile(r"^\s*(?:#{1,6}\s|【[^】]{1,24}】\s*$|[■□◆◇●◎▼▶]\s*\S{1,30}$|={3,}\s*$|-{3,}\s*$)")
_NEXT_HARD = regex.compile(
    r"^\s*(?:[#＃]|【|\[|［|[■□◆◇●◎▼▶►•※・]|[\-*+]\s|\d{1,2}[.．)）](?!\d)|[（(]\d{1,2}[)）]|[①-⑳]"
    r"|[SOAP]\s*[:：)）]|\|"
    r"|[\p{Han}\p{Katakana}\p{Hiragana}A-Za-z0-9ー・/ ]{1,16}(?:[（(][^）)\n]{1,20}[）)])?[：:](?![/\d]))"
)
# a Japanese line that stops on these stops inside a sentence (not し, り: なし, あり end notes)
_JA_CONTINUES = regex.compile(
    r"(?:[はがをにのでともへやて、，]|から|ので|けど|ため|および|及び|または|又は|並びに)\s*$"
)
_KANJI_END = regex.compile(r"(?r)\p{Han}\s*$")
_KANA_START = regex.compile(r"^\p{Hiragana}")
_EN_CONTINUES = regex.compile(r"(?r)[A-Za-z0-9,;\-]\s*$")
_LOWER_START = regex.compile(r"^\s*\p{Ll}")
_FENCE = regex.compile(r"^ {0,3}(?:`{3,}|~{3,})")
_FIRST_WORD = regex.compile(r"[A-Za-z0-9][^\s]*")
_LABEL_START = regex.compile(
    r"^[\p{Han}\p{Katakana}\p{Hiragana}A-Za-z0-9ー・/ ]{1,12}(?:[（(][^）)\n]{1,20}[）)])?[：:]"
)
_UNIT_END = regex.compile(r"(?r)\d\s*(?:%|[μmnpkdg]?[gLl]|/[dmμ]?L|U/L|mEq/L|IU/L|mmHg|/分|万/μL|/μL|ng/mL|pg/mL)$")
_TEST_START = regex.compile(r"^[A-Z][A-Za-z0-9-]{0,7} ?[\d<>≦≧]")


class _Paragraph:
    """What one paragraph's lines say as a whole: its lines, whether they end near one width
    (in characters, in display columns), and where its fenced blocks are."""

    __slots__ = ("ends", "texts", "top_c", "top_w", "by_chars", "by_cols", "fences")

    def __init__(self, text: str, start: int, end: int):
        body = text[start:end]
        self.texts = body.split("\n")
        self.ends = [start + n + i + 1 for i, n in enumerate(accumulate(map(len, self.texts)))]
        self.ends[-1] = end  # the last line has no newline of its own
        if "\r" in body:
            self.texts = [t.rstrip("\r") for t in self.texts]
        while self.texts and not self.texts[-1].strip():  # the blank lines that close it
            self.texts.pop()
            self.ends.pop()
        # one character looked for first: a search for two is many times slower
        fenced = ("`" in body and "``" in body) or ("~" in body and "~~" in body)
        self.fences = [i for i, t in enumerate(self.texts) if _FENCE.match(t)] if fenced else []
        body_lines = [t.rstrip() for t in self.texts[:-1]]
        chars = [len(t) for t in body_lines]
        self.top_c, self.by_chars = _width(chars, body_lines)
        self.top_w, self.by_cols = 0, False
        if not self.by_chars and not body.isascii():
            # wrapped by display columns (CJK counts two)? widen wide characters once
            cols = [len(t.rstrip()) for t in WIDE.sub("ww", body).split("\n")[: len(chars)]]
            self.top_w, self.by_cols = _width(cols, body_lines)

    def full(self, i: int) -> bool:
        t = self.texts[i].rstrip()
        share = _share(t)
        return (self.by_chars and len(t) >= share * self.top_c) or (self.by_cols and columns(t) >= share * self.top_w)

    def soft(self, i: int) -> bool:
        """The newline after line ``i`` is a soft wrap."""
        cur, nxt = self.texts[i], self.texts[i + 1]
        if bisect_right(self.fences, i) % 2 or _FENCE.match(nxt):  # inside or before a fence
            return False
        if not cur.strip() or not nxt.strip() or _rows(cur, nxt):
            return False
        if self.full(i):
            # a full line: where it broke is the width's doing, whatever stands there (a
            # label's colon, a table cell, a list number), unless a sentence ends or a new
            # block evidently begins
            return not _TERMINAL.search(cur) and not _STRONG_NEXT.match(nxt)
        widest = self.top_c if (self.by_chars or self.by_cols) else 0
        return not _hard(cur, nxt) and (_continues(cur, nxt) or _next_word_did_not_fit(cur, nxt, widest))


def _share(line: str) -> float:
    """How close to the widest line a full line comes: a line broken anywhere (Japanese, no
    spaces) reaches the width within a character or two; one broken at spaces (English) falls
    short by up to a word."""
    return 0.8 if line.count(" ") * 12 >= len(line) else 0.95


def _width(widths: list[int], lines: list[str]) -> tuple[int, bool]:
    """The widest line, and whether the lines (all but the last) mostly end near it: within
    ``_share`` of it, which needs a line's spaces counted only between the two shares."""
    top = max(widths) if widths else 0
    if len(widths) < 2 or top < 16:
        return top, False
    low, high = 0.8 * top, 0.95 * top
    near = sum(w >= high or (w >= low and w >= _share(t) * top) for w, t in zip(widths, lines))
    return top, near >= 0.6 * len(widths)


def _hard(cur: str, nxt: str) -> bool:
    if not cur.strip() or not nxt.strip():
        return True
    if "\t" in cur or "\t" in nxt or cur.startswith(("    ", "\t")) or nxt.startswith(("    ", "\t")):
        return True
    if cur.lstrip().startswith("|") or _TERMINAL.search(cur) or _COLON_END.search(cur) or _HEADING.match(cur):
        return True
    return bool(_NEXT_HARD.match(nxt))


def _rows(cur: str, nxt: str) -> bool:
    """Lines that are rows of one block even when they are all about as long: table rows,
    tab-separated rows with the same number of cells, a rule line, a line closing a 【label】,
    ``label：value`` lines one under another, lab values one test per line."""
    c, x = cur.strip(), nxt.strip()
    if c.startswith("|") and c.endswith("|"):
        return True
    if cur.count("\t") >= 2 and cur.count("\t") == nxt.count("\t"):
        return True
    if len(c) >= 3 and not c[0].isalnum() and len(set(c)) == 1:
        return True
    if c.endswith("】") or (_LABEL_START.match(c) and _LABEL_START.match(x)):
        return True
    return bool(_UNIT_END.search(c) and _TEST_START.match(x))


def _continues(cur: str, nxt: str) -> bool:
    if len(cur.strip()) < 8:  # a short line (a verse, a name) is not taken as broken off
        return False
    if _EN_CONTINUES.search(cur) and _LOWER_START.match(nxt):
        return True
    return bool(_JA_CONTINUES.search(cur) or (_KANJI_END.search(cur) and _KANA_START.match(nxt)))


def _next_word_did_not_fit(cur: str, nxt: str, width: int) -> bool:
    """Word wrap: the line ended early because the next line's first (Latin) word would not
    have fitted within the paragraph's width."""
    m = _FIRST_WORD.match(nxt)
    return bool(width and m and len(cur.rstrip()) + 1 + len(m.group()) > width)


class SoftWraps:
    """Soft-wrap decisions for one text, made per newline when asked: a paragraph is
    profiled once, and only the newlines a caller asks about are classified."""

    def __init__(self, text: str):
        self.text = text
        self._paras: dict[int, _Paragraph] = {}
        self._known: dict[int, bool] = {}  # a chunker asks about the same newline often
        self._fenced: dict[int, bool] = {}  # paragraph start -> a fence mark may be in it
        # paragraph start -> its widths in characters and columns (compiled; () unknown)
        self._widths: dict[int, tuple[int, ...]] = {}
        self._ascii: bool | None = None

    def is_soft(self, p: int, start: int, end: int) -> bool:
        """``p`` (just after a newline) in the paragraph ``text[start:end]`` is a soft wrap."""
        got = self._known.get(p)
        if got is not None:
            return got
        para = self._paras.get(start)
        if para is None:
            # most newlines are decided by their two lines alone: profile the paragraph (its
            # width, its fences) only for one that is not
            got = self._by_lines(p, start, end)
            if got is None and compiled.active():
                got = self._by_width(p, start, end)
            if got is not None:
                self._known[p] = got
                return got
            para = self._paras[start] = _Paragraph(self.text, start, end)
        i = bisect_left(para.ends, p)
        got = self._known[p] = i < len(para.ends) - 1 and para.ends[i] == p and para.soft(i)
        return got

    def at(self, paras: list[int], p: int) -> bool:
        """``p``, just after a newline, is a soft wrap, in the text whose paragraph cuts are
        ``paras`` (``Boundaries.is_soft`` with soft wraps on; its callers ask only there)."""
        i = bisect_right(paras, p - 1)
        return self.is_soft(p, paras[i - 1] if i else 0, paras[i] if i < len(paras) else len(self.text))

    def _by_width(self, p: int, start: int, end: int) -> bool | None:
        """:meth:`_Paragraph.soft` where the paragraph's width and the two lines settle it,
        compiled: a long hard-wrapped paragraph is then measured in one pass and never split
        into lines here. None: profile it."""
        widths = self._widths.get(start)
        if widths is None:
            if self._ascii is None:
                self._ascii = self.text.isascii()
            if not self._ascii:
                columns_compiled()
            widths = self._widths[start] = compiled.native.line_width(self.text, start, end) or ()
        if not widths:
            return None
        got = compiled.native.soft_full(self.text, p, start, end, *widths, self._fenced[start])
        return None if got < 0 else got == 1

    def _by_lines(self, p: int, start: int, end: int) -> bool | None:
        """The decision of :meth:`_Paragraph.soft` for the newline before ``p`` when it does
        not depend on whether the line is full (on the paragraph's width), None otherwise.
        In Python a paragraph with a fence mark in it is left to the profile; the compiled
        tests look for the fenced block around ``p`` and decide the plain cases there too."""
        text = self.text
        if p >= end:
            return False  # after the paragraph's last line
        fenced = self._fenced.get(start)
        if fenced is None:  # one character looked for first, as in the profile
            fenced = self._fenced[start] = any(
                text.find(mark, start, end) >= 0 and text.find(mark * 2, start, end) >= 0 for mark in "`~"
            )
        if compiled.active():  # the plain cases compiled (around fenced blocks too); the rules below
            got = compiled.native.soft_hint(text, p, start, end, fenced)
            if got != -1:
                return None if got == -2 else got == 1
        if fenced:
            return None
        b = text.find("\n", p, end)
        cur = text[max(start, text.rfind("\n", start, p - 1) + 1) : p - 1].rstrip("\r")
        nxt = text[p : end if b < 0 else b].rstrip("\r")
        if not cur.strip() or not nxt.strip() or _rows(cur, nxt) or _TERMINAL.search(cur):
            return False  # so whether the line is full or not
        if _hard(cur, nxt):
            return False if _STRONG_NEXT.match(nxt) else None
        # not hard: a full line is soft unless the next begins a block; a short one, if it
        # evidently continues
        return True if _continues(cur, nxt) and not _STRONG_NEXT.match(nxt) else None


_WIDE_GIVEN = False
_WIDE_RUN = regex.compile(WIDE.pattern + "+")


def columns_compiled() -> None:
    """Give the compiled module ``WIDE`` over the Basic Multilingual Plane, once (a few ms, the
    first time a paragraph beyond ASCII is measured): display columns are then counted there
    as here."""
    global _WIDE_GIVEN
    if _WIDE_GIVEN:
        return
    runs = []
    for first, last in ((0, 0xD800), (0xE000, 0x10000)):  # no surrogates
        plane = "".join(map(chr, range(first, last)))
        runs += [(first + m.start(), first + m.end()) for m in _WIDE_RUN.finditer(plane)]
    compiled.native.configure_wide(runs)
    _WIDE_GIVEN = True


def soft_wraps(text: str, start: int = 0, end: int | None = None) -> list[int]:
    """Cut positions (just after the newline) of the soft wraps in the paragraph
    ``text[start:end]`` (the caller splits at blank lines)."""
    end = len(text) if end is None else end
    para = _Paragraph(text, start, end)
    return [para.ends[i] for i in range(len(para.texts) - 1) if para.soft(i)]
