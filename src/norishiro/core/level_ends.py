"""The clause and word levels' cuts of a window, found in C: the ends of their patterns'
matches (``_sentscan.clause_ends``, ``word_ends``: a tenth of the regular expressions' time
on a window of prose), and the pattern's own search where the window holds a character whose
script the compiled code does not know (tests hold each to its pattern)."""

from __future__ import annotations

import re

import regex

from . import compiled

__all__ = ["compiled_ends"]


def compiled_ends(pattern: re.Pattern | regex.Pattern, code: int, text: str, start: int, stop: int) -> list[int]:
    """``[m.end() for m in pattern.finditer(text, start, stop)]`` for the boundaries' clause
    and word patterns; ``code``: 0 ``_CLAUSE_ASCII``, 1 ``_CLAUSE``, 2 ``_WORD_ASCII``, 3
    ``_WORD``. For a caller that has checked ``compiled.active()``."""
    if code < 2:
        return compiled.native.clause_ends(text, start, stop, code == 1)
    got = compiled.native.word_ends(text, start, stop, code == 3)
    return [m.end() for m in pattern.finditer(text, start, stop)] if got is None else got
