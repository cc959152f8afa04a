"""Line starts lost in flattened text: rows of a table, a 【header】 or a lab value glued to
the row before when a PDF or EHR export dropped their newlines.

Most windows hold nothing any of the patterns needs: a quick look (compiled) says so before
a pattern runs.
"""

from __future__ import annotations

import re

import regex

from . import compiled

__all__ = ["glued_line_cuts", "glued_near"]

_GLUED_PIPE = regex.compile(r"\|\|")
_GLUED_HEADER = regex.compile(r"(?<=\S)[【■◆●]")
_GLUED_DATE_ROW = regex.compile(r"\t\d{4}/\d{1,2}/\d{1,2}\t|\d{4}/\d{1,2}/\d{1,2}\t")
# a dated row of a flattened tab-separated table glued to the previous row's last cell
# (単位2026/1/10<TAB>, mg/dL2026/1/17<TAB>)
_GLUED_CELL_DATE = regex.compile(r"(?<=[^\s\d/.,\-])\d{4}/\d{1,2}/\d{1,2}\t")
_ROW_CELL = regex.compile(r"[A-Za-z]{1,3}\d{0,3}$")
# what a date or a unit needs, found from its slash (a literal first character is fast)
_GLUED_SLASH = re.compile(r"/(?:(?<=\d{4}/)\d|[dmμu]?[Ll][A-Z]|分[A-Z])")
_GLUED_UNIT = regex.compile(r"(?:/[dmμu]?[Ll]|mmHg|/分)(?=[A-Z][A-Za-z0-9-]{1,7} ?[\d<>≦≧])")


def _maybe_glued(text: str, a: int, b: int) -> bool:
    """``text[a:b]`` holds something every glued pattern needs; most windows have none."""
    if compiled.active():  # the same tests, _GLUED_SLASH's included
        return compiled.native.glued_hint(text, a, b) == 1
    seg = text[a:b]
    if "||" in seg or "mmHg" in seg or _GLUED_SLASH.search(seg):
        return True
    return not seg.isascii() and any(c in seg for c in "【■◆●")


def glued_near(text: str, lo: int, hi: int) -> bool:
    """What a glued row needs lies around ``(lo, hi]``, where ``glued_line_cuts`` looks:
    where nothing does, it finds none."""
    return _maybe_glued(text, max(0, lo - 16), min(len(text), hi + 16))


def glued_line_cuts(text: str, lo: int, hi: int) -> list[int]:
    """Where a line evidently began before its newline was lost (PDF/EHR exports).

    Between the rows of a flattened Markdown table (``| a || b |``); before a glued
    【header】; before a dated row of a flattened tab-separated table (``0.71|2026/02/24<TAB>``,
    ``75%|C5<TAB>2026/1/8<TAB>``); after a lab unit glued to the next test name
    (``mEq/L|CRP 18.6``).
    """
    if compiled.active():  # the same patterns compiled; None where a character's class is not known there
        got = compiled.native.glued_cuts(text, lo, hi)
        if got is not None:
            return got
    if not glued_near(text, lo, hi):
        return []
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
    if "\t" in text[a:b]:
        for m in _GLUED_CELL_DATE.finditer(text, a, b):
            if text.rfind("\t", max(0, m.start() - 40), m.start()) >= 0:  # inside a table row
                out.append(m.start())
    return [p for p in out if lo < p <= hi and p < n]
