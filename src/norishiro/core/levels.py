"""The boundary levels a text can be cut at, coarsest first, and their names."""

from __future__ import annotations

from enum import IntEnum

__all__ = ["Level", "LEVELS", "LEVEL_NAMES", "parse_level"]


class Level(IntEnum):
    """Boundary levels, coarsest first. A cut at a coarser level is also a cut at finer ones."""

    PARAGRAPH = 0
    LINE = 1
    SENTENCE = 2
    LOWER_SENTENCE = 3
    CLAUSE = 4
    WORD = 5
    GRAPHEME = 6


# The members as module names, and all of them in order. Reading a member off the class
# (``Level.LINE``) or iterating the class goes through the enum's metaclass, unspecialized
# in Python 3.11, and the packer compares levels at every window.
PARAGRAPH, LINE, SENTENCE, LOWER_SENTENCE, CLAUSE, WORD, GRAPHEME = LEVELS = tuple(Level)

LEVEL_NAMES = [lv.name.lower() for lv in LEVELS]


def parse_level(name: str | Level) -> Level:
    if isinstance(name, Level):
        return name
    try:
        return Level[name.upper()]
    except KeyError:
        raise ValueError(f"unknown level {name!r}; choose one of {', '.join(LEVEL_NAMES)}") from None
