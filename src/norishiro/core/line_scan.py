"""Where the lines a structure pattern can match start, found in one pass: the compiled
scan of ``_sentscan.c`` (a line that may be a heading, open a fence, start a table or end
with a list's lead-in colon), or, without it, the regular expressions' own search. Either
way the patterns of ``structure`` decide; the scan only spares them the lines where they
cannot match (tests compare both ways).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from . import compiled
from .lazy import by_identity

__all__ = ["TextLines", "line_matches", "label_initials"]


@by_identity
@lru_cache(maxsize=8)
def label_initials(labels: tuple[str, ...]) -> str:
    """The labels' initials in lower case: the compiled line filter skips a line whose first
    character is none of them (nor another heading's mark) before it tries the labels."""
    return "".join(sorted({x[0].lower() for x in labels if x}))


class TextLines:
    """A text and, compiled, where its heading, fence and lead-in lines and its Markdown
    tables (start, body start, end, one after the other, in the text's positions) are, found in
    one pass that ``find_sections``, ``find_atoms`` and the regions' paragraph cuts share
    (``None`` fields: search with the patterns). Positions are those of ``nl_text``, the
    text with a newline put in front (structure patterns start with one): the "\n" before a
    line is where the line starts in the text. ``nl_text`` is made only when a pattern must
    search it: the compiled scans read the text itself (a copy of a 100 MB text is 100 MB or
    more)."""

    __slots__ = ("text", "_nl_text", "headings", "fences", "tables", "lead_hints", "paragraphs", "tsv")

    def __init__(self, text: str, labels: tuple[str, ...], scanned: tuple | None = None):
        """``scanned``: the compiled scan's answer for these labels when made already."""
        self.text = text
        self._nl_text: str | None = None
        self.headings = self.fences = self.tables = self.lead_hints = None
        # and the text's paragraph ends (with those a grapheme may extend past), read as in a
        # text whose only line break is "\n" (Boundaries takes them only for such a text)
        self.paragraphs: tuple[list[int], list[int]] | None = None
        # and the lines with two tabs or more, their starts and ends one after the other
        self.tsv: list[int] | None = None
        if scanned is None and compiled.active():
            scanned = compiled.native.structure_lines(text, label_initials(labels), labels)
        if scanned is not None:
            self.headings, self.fences, self.tables, self.lead_hints, self.paragraphs, self.tsv = scanned

    @property
    def nl_text(self) -> str:
        """``"\n" + text``, made on first use."""
        if self._nl_text is None:
            self._nl_text = "\n" + self.text
        return self._nl_text

    def match(self, pattern: re.Pattern, q: int) -> tuple[re.Match | None, int]:
        """``pattern.match(nl_text, q)`` for a pattern that starts with a newline, at the "\n"
        before a line, as ``(match, shift)``: the match's positions plus ``shift`` are
        ``nl_text``'s. Past the first line the text itself holds that "\n" (one position
        earlier), so ``nl_text`` is not made for it."""
        if q > 0:
            return pattern.match(self.text, q - 1), 1
        return pattern.match(self.nl_text, q), 0


def line_matches(pattern: re.Pattern, t: str, lines: list[int] | None) -> Iterable[re.Match]:
    """``pattern.finditer(t)`` for a pattern that starts with a newline; with ``lines`` (the
    newlines before every line where it can match), tried there only, not overlapping, as
    a search would."""
    if lines is None:
        return pattern.finditer(t)
    out, end = [], 0
    for p in lines:
        if p >= end and (m := pattern.match(t, p)):
            out.append(m)
            end = m.end()
    return out
