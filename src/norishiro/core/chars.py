"""Character classes shared by the boundary and sentence rules."""

from __future__ import annotations

import re

import regex

__all__ = ["EXTEND", "NL", "HSPACE", "HSPACE_STD", "BREAK", "WIDE", "columns", "snap"]

# Characters that must never start a piece: they extend the grapheme before them.
EXTEND = regex.compile(
    r"[\p{Grapheme_Cluster_Break=Extend}\p{Grapheme_Cluster_Break=ZWJ}"
    r"\p{Grapheme_Cluster_Break=SpacingMark}]+"
)
_BREAKS = r"\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"  # what str.splitlines breaks at
NL = rf"(?>\r\n|[{_BREAKS}])"
HSPACE = rf"[^\S{_BREAKS}]"
# HSPACE for the standard ``re`` engine, whose \s also takes \x1f (as str.isspace does)
HSPACE_STD = rf"[^\S{_BREAKS}\x1f]"
BREAK = re.compile(rf"[{_BREAKS}]")
# characters a terminal or a fixed-width layout draws two columns wide (CJK and others)
WIDE = regex.compile(r"[\p{East_Asian_Width=W}\p{East_Asian_Width=F}]")


def columns(line: str) -> int:
    """Display columns: CJK and other wide characters count two."""
    return len(line) if line.isascii() else len(line) + len(WIDE.findall(line))


def snap(text: str, p: int) -> int:
    """Move a cut forward past combining marks / joiners so it sits on a grapheme boundary."""
    if p < len(text):
        m = EXTEND.match(text, p)
        if m:
            return m.end()
    return p
