"""Character classes shared by the boundary and sentence rules."""

from __future__ import annotations

import regex

__all__ = ["EXTEND", "NL", "HSPACE", "LAST_BREAK", "snap"]

# Characters that must never start a piece: they extend the grapheme before them.
EXTEND = regex.compile(
    r"[\p{Grapheme_Cluster_Break=Extend}\p{Grapheme_Cluster_Break=ZWJ}"
    r"\p{Grapheme_Cluster_Break=SpacingMark}]+"
)
NL = r"(?>\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029])"
HSPACE = r"[^\S\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]"
# the last line break before a position (searched backwards)
LAST_BREAK = regex.compile(r"[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]", regex.REVERSE)


def snap(text: str, p: int) -> int:
    """Move a cut forward past combining marks / joiners so it sits on a grapheme boundary."""
    if p < len(text):
        m = EXTEND.match(text, p)
        if m:
            return m.end()
    return p
