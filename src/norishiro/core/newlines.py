"""Newline searches for texts whose only line break is "\\n" (nearly all): the string
library's own searches, forwards and backwards, in place of a pattern over the window; and
where any search for a window's cuts must begin (``search_start``)."""

from __future__ import annotations

import re

from . import compiled
from .chars import EXTEND, snap

__all__ = ["lf_only", "crlf_only", "no_newline", "no_newline_cut", "last_lf_cut", "search_start"]


def _no_other_break(text: str) -> bool:
    """No line break in the text but "\\n" and "\\r" (one search per character, written out:
    a generator over the characters costs as much again as the searches on a short text)."""
    return not (
        "\x0b" in text
        or "\x0c" in text
        or "\x1c" in text
        or "\x1d" in text
        or "\x1e" in text
        or "\x85" in text
        or "\u2028" in text
        or "\u2029" in text
    )


def lf_only(text: str) -> bool:
    """No line break in the text but "\\n" (compiled: one pass for every break)."""
    if compiled.active():
        return not compiled.native.line_breaks(text)
    return "\r" not in text and _no_other_break(text)


def crlf_only(text: str) -> bool:
    """No line break in the text but "\\r\\n" and "\\n" (Windows exports): every "\\r" comes
    before a "\\n", and no other break is there."""
    if compiled.active():  # 2: another break, 4: a "\r" alone
        return not compiled.native.line_breaks(text) & 6
    return _no_other_break(text) and text.count("\r") == text.count("\r\n")


def search_start(text: str, lo: int) -> int:
    """Where a search for the cuts in ``(lo, ...]`` must begin: before ``lo`` by the white
    space and combining marks there, and one character more. A clause cut (a comma and the
    spaces after it) or a newline's cut snapped past combining marks ends inside the window
    although its first character stands before it."""
    start = min(max(0, lo - 1), len(text))
    floor = max(0, lo - 256)  # at most 256 back
    while start > floor:
        c = text[start - 1]
        if c.isspace():  # a run of white space at once (a padded page holds long ones)
            start = floor + len(text[floor:start].rstrip())
        elif c >= "\u0300" and EXTEND.match(c):
            start -= 1
        else:
            break
    return max(0, start - 1)


def no_newline(text: str, lo: int, hi: int) -> bool:
    """No newline where a line cut in ``(lo, hi]`` could follow one (searched from
    ``search_start``): the window needs no search."""
    return text.find("\n", search_start(text, lo), hi) < 0


def no_newline_cut(text: str, lo: int, hi: int) -> bool:
    """No cut after a run of newlines of a "\\n"-only text falls in ``(lo, hi]``: no "\\n" in
    ``[lo, hi)``, and no combining mark at ``lo`` onto whose end the cut of a run that ends at
    ``lo`` would be moved. (``no_newline`` says more: no newline even shortly before ``lo``.)
    The window at a paragraph's start is one: its newlines all lie before it, so its line
    cuts are its sentence ends and glued rows alone."""
    return text.find("\n", lo, hi) < 0 and not (lo < len(text) and text[lo] >= "\u0300" and EXTEND.match(text, lo))


_BLANK = re.compile(r"[ \t\u3000]*")  # what last_lf_cut skips after a newline


def last_lf_cut(text: str, lo: int, hi: int) -> list[int]:
    """The farthest newline cut in ``(lo, hi]`` for "\\n"-only texts, found backwards."""
    n = len(text)
    end = hi
    while True:
        j = text.rfind("\n", lo, end)
        if j < 0 or j + 1 <= lo:
            return []
        p = j + 1
        k = _BLANK.match(text, p).end()
        if k < n and text[k] == "\n":
            # the blank-line run goes on past hi: its cut is beyond the window
            end = lo + len(text[lo:j].rstrip("\n \t\u3000"))
            continue
        if p >= n:
            return []
        if text[p] >= "\u0300" and EXTEND.match(text, p):
            p = snap(text, p)
            if p > hi:
                end = j
                continue
        return [p]
