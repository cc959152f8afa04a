"""Newline searches for texts whose only line break is "\\n" (nearly all): the string
library's own searches, forwards and backwards, in place of a pattern over the window."""

from __future__ import annotations

from .chars import EXTEND, snap

__all__ = ["lf_only", "no_newline", "last_lf_cut"]


def lf_only(text: str) -> bool:
    """No line break in the text but "\\n" (one search per character, written out: a
    generator over the characters costs as much again as the searches on a short text)."""
    return not (
        "\r" in text
        or "\x0b" in text
        or "\x0c" in text
        or "\x1c" in text
        or "\x1d" in text
        or "\x1e" in text
        or "\x85" in text
        or "\u2028" in text
        or "\u2029" in text
    )


def no_newline(text: str, lo: int, hi: int) -> bool:
    """No newline where a line cut in ``(lo, hi]`` could follow one (the newline search
    starts at ``lo - 1`` too): the window needs no search."""
    return text.find("\n", max(0, lo - 1), hi) < 0


def last_lf_cut(text: str, lo: int, hi: int) -> list[int]:
    """The farthest newline cut in ``(lo, hi]`` for "\\n"-only texts, found backwards."""
    n = len(text)
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
        if text[p] >= "\u0300" and EXTEND.match(text, p):
            p = snap(text, p)
            if p > hi:
                end = j
                continue
        return [p]
