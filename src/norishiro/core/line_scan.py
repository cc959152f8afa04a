"""Where the lines a structure pattern can match start, found in one pass: the compiled
scans of ``_sentscan.c`` (a line that may be a heading, fence or table), or, without them,
the regular expressions' own search. Either way the patterns of ``structure`` decide; the
scans only spare them the lines where they cannot match (tests compare both ways).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from . import compiled

__all__ = ["heading_lines", "starting_lines", "line_matches"]


@lru_cache(maxsize=8)
def _label_initials(labels: tuple[str, ...]) -> tuple[str, int]:
    """The labels' initials in lower case, and the longest label's length when every label
    is word characters (0 otherwise): what the compiled line filter needs."""
    initials = "".join(sorted({x[0].lower() for x in labels if x}))
    wordy = all(re.fullmatch(r"\w+", x) for x in labels if x)
    return initials, max((len(x) for x in labels), default=0) if wordy else 0


def heading_lines(nl_text: str, labels: tuple[str, ...], quick: re.Pattern) -> Iterable[int]:
    """Where the lines that may be headings start (the newline before each, in ``nl_text``):
    compiled, one pass that also reads a label's word; else the quick filter's matches."""
    if compiled.active():
        try:
            return compiled.native.heading_lines(nl_text, *_label_initials(labels))
        except ValueError:  # more than 16 initials beyond U+FFFF: the pattern handles any
            pass
    return (q.start() for q in quick.finditer(nl_text))


def starting_lines(t: str, chars: str, table: bool = False) -> list[int] | None:
    """Compiled: where (the newline before) every line of ``t`` starts with one of
    ``chars`` after spaces and tabs, with ``table`` only those whose next line starts like a
    table's delimiter row; None without the compiled module (search the whole text)."""
    return compiled.native.line_starts(t, chars, table) if compiled.active() else None


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
