"""Where a new line evidently begins in a text that lost its newlines (PDF and EHR exports):
the line level's inferred cuts, tested at sentence ends."""

from __future__ import annotations

import regex

from . import compiled

__all__ = ["LINE_START", "FIRSTS", "may_start_line", "line_start_at", "may_start_lines"]

# Where a new line evidently begins although its newline was lost (PDF/EHR exports):
# after a sentence end, before a label ("病理結果（2/20）：", "S）", "Impression:"), a bullet,
# a numbered item, a 【header】 or a date; between the rows of a flattened Markdown table
# ("| a || b |"); before a dated row glued to the previous row of a tab-separated table.
LINE_START = regex.compile(
    r"(?:[\p{Han}\p{Katakana}\p{Hiragana}A-Za-z0-9ー・/\- ]{1,16}(?:[（(][^）)\n]{1,20}[）)])?[：:](?![/\d])"
    r"|[SOAP][）)]|[・●○■□◆◇▶►•※]|[-*] |#\d|[（(]\d{1,2}[）)]|\d{1,2}[.．)）]\s?(?=\D)|[①-⑳]|【|\d{4}[/年.-]\d{1,2})"
)
# The first characters LINE_START takes other than a label's (a name, then a colon within
# the next 39 characters): most sentence starts have neither, and need no match.
_LINE_START_FIRST = frozenset("・●○■□◆◇▶►•※-*#（(【" + "".join(map(chr, range(0x2460, 0x2474))))


FIRSTS = "".join(sorted(_LINE_START_FIRST))


def may_start_line(text: str, p: int) -> bool:
    """``LINE_START`` can match at ``p``: it starts with one of its first characters, or a
    label's colon follows within 40 characters (most sentence starts have neither)."""
    c = text[p : p + 1]
    if c in _LINE_START_FIRST or c.isdigit() or (c in "SOAP" and text[p + 1 : p + 2] in ("）", ")")):
        return True
    return text.find(":", p, p + 40) >= 0 or text.find("：", p, p + 40) >= 0


def line_start_at(text: str, p: int) -> bool:
    """``LINE_START.match(text, p)``, skipped where it cannot match; compiled, the pattern
    runs only where a character's class is not known there (beyond the BMP, a CJK block's
    rarer characters)."""
    if not may_start_line(text, p):
        return False
    if compiled.active():
        got = compiled.native.line_start_match(text, p)
        if got >= 0:
            return got == 1
    return LINE_START.match(text, p) is not None


def may_start_lines(text: str, positions: list[int]) -> list[int]:
    """The positions where ``may_start_line`` holds, in order (compiled: one call)."""
    if compiled.active():
        return compiled.native.line_start_hints(text, positions, FIRSTS)
    return [p for p in positions if may_start_line(text, p)]
