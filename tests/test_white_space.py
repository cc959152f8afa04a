"""Long runs of white space (a padded page, thousands of blank lines) are read a run at a
time, not a character at a time: each quick search against the character-by-character
reading it replaced, over texts where runs are longer than a chunk and than the 256
characters a search looks back."""

from __future__ import annotations

import re

import regex
from hypothesis import example, given, settings
from hypothesis import strategies as st

from invariants import check_chunks
from norishiro import chunk
from norishiro.core import boundaries, newlines
from norishiro.core.chars import EXTEND, snap
from norishiro.core.levels import CLAUSE, WORD
from norishiro.core.plain import find_ink, past_blank

_PIECES = [" " * 300, " ", "  ", "\t", "\n", "\n\n", " \n", "\u3000", "\r\n", "\xa0", "\u0301", "e\u0301", "a", "word"]
_PIECES += ["文。", "/", "\x1c", "\r"]
texts = st.lists(st.sampled_from(_PIECES), max_size=40).map("".join)


def _search_start(text: str, lo: int) -> int:
    start = min(max(0, lo - 1), len(text))
    while start > 0 and lo - start < 256:
        c = text[start - 1]
        if not (c.isspace() or (c >= "\u0300" and EXTEND.match(c))):
            break
        start -= 1
    return max(0, start - 1)


def _last_lf_cut(text: str, lo: int, hi: int) -> list[int]:
    n, end = len(text), hi
    while True:
        j = text.rfind("\n", lo, end)
        if j < 0 or j + 1 <= lo:
            return []
        p = k = j + 1
        while k < n and text[k] in " \t\u3000":
            k += 1
        if k < n and text[k] == "\n":
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


@settings(max_examples=400, deadline=None)
@given(texts, st.integers(0, 4000), st.integers(0, 400))
@example("a\n\u3000\nb", 0, 3)  # a line of U+3000 alone is blank
def test_a_search_starts_where_the_reading_back_a_character_at_a_time_started(text, lo, width):
    lo = min(lo, len(text))
    assert newlines.search_start(text, lo) == _search_start(text, lo)
    hi = min(len(text), lo + width)
    assert newlines.last_lf_cut(text, lo, hi) == _last_lf_cut(text, lo, hi)


@settings(max_examples=400, deadline=None)
@given(texts, st.integers(0, 4000), st.integers(0, 400))
@example("a\u0301", 0, 1)  # the window is ASCII, its last grapheme is not
def test_grapheme_cuts_of_a_window_are_the_graphemes_ends(text, lo, width):
    """Every ASCII character is a grapheme but a CR before a LF; a combining mark right past
    the window makes its last character's grapheme end beyond it."""
    bnd = boundaries.Boundaries(text)
    starts = {m.start() for m in regex.finditer(r"\X", text)}
    lo = max((p for p in starts if p <= min(lo, len(text))), default=0)  # a chunk starts at a boundary
    hi = min(len(text), lo + width)
    want = [m.end() for m in regex.finditer(r"\X", text, pos=lo) if m.end() <= hi]
    assert bnd.window_cuts(boundaries.Level.GRAPHEME, lo, hi) == want


@settings(max_examples=300, deadline=None)
@given(texts, st.integers(0, 4000), st.integers(0, 4000), st.integers(0, 4000))
def test_past_blank_with_a_stop_is_past_blank_up_to_it(text, s, lo, stop):
    s, stop = min(s, len(text)), min(stop, len(text))
    got, whole = past_blank(text, s, lo, stop), past_blank(text, s, lo)
    m = find_ink(text, s)
    if m is not None and m.start() < stop:
        assert got == whole
    else:
        assert got == max(lo, stop) and whole >= got


@settings(max_examples=150, deadline=None)
@given(texts, st.sampled_from([20, 64, 300]), st.booleans())
def test_chunks_of_text_with_long_runs_of_white_space_keep_the_invariants(text, size, structure):
    chunks = chunk(text, size=size, structure=structure)
    check_chunks(text, chunks, size)


@settings(max_examples=400, deadline=None)
@given(texts, st.integers(0, 2000), st.integers(0, 300), st.sampled_from([8, 40, 300, 700]), st.booleans())
@example(" " * 10 + "\u0301a", 0, 0, 10, False)  # the budget's end falls before a combining mark
@example("a" + " " * 100 + "b", 1, 0, 40, True)  # the last chunks share the text evenly
def test_a_window_of_spaces_alone_ends_where_the_search_ends_it(text, s, ahead, size, balance):
    """A window of spaces and tabs alone ends where the budget does, without the search:
    the end the search finds (a packer that does not take the quick answer)."""
    from norishiro.core.measure import CharMeasure
    from norishiro.core.packer import Packer

    if not text:
        return
    quick = Packer(text, CharMeasure(text), size, balance=balance)
    slow = Packer(text, CharMeasure(text), size, balance=balance)
    slow._plain = False  # the same search, sizes from the measure: no quick answer
    starts = [m.start() for m in regex.finditer(r"\X", text)]
    s = starts[min(s, len(starts) - 1)]
    lo = min(len(text), s + ahead)
    assert quick.find_end(s, lo) == slow.find_end(s, lo)


_LF_PIECES = [
    " " * 300,
    " ",
    "\t",
    "\n",
    "\n\n",
    " \n",
    "\t\n" * 20,
    " \n" * 200,
    "\u3000",
    "\xa0",
    "\x1f",
    "a",
    "word",
    "文。",
    ",",
]
_WORD_PIECES = _LF_PIECES + ["\x1c", "\x1d", "\x1e", "\r\n", "/", "\u0301"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_WORD_PIECES), max_size=40).map("".join), st.integers(0, 4000), st.integers(0, 700))
@example(" " * 5 + "\x1f" + " " * 5, 0, 8)  # \x1f is white space to Python, a word's character to the patterns
@example("\u3000" * 4 + "\x1d", 0, 3)
def test_word_and_clause_cuts_in_white_space_are_the_patterns(text, lo, width):
    """A window of white space alone is answered without the word and clause patterns; the
    cuts are still theirs, wherever the window lies (in a run, at its edge, across ink)."""
    n = len(text)
    lo = min(lo, n)
    hi = min(n, lo + width)
    bnd = boundaries.Boundaries(text)
    start = newlines.search_start(text, lo)
    ascii_ = text[start : min(n, hi + 258)].isascii()
    for level, pattern in (
        (WORD, boundaries._WORD_ASCII if ascii_ else boundaries._WORD),
        (CLAUSE, boundaries._CLAUSE_ASCII if ascii_ else boundaries._CLAUSE),
    ):
        assert bnd.window_cuts(level, lo, hi) == bnd._regex_cuts(pattern, lo, hi, start), (level, lo, hi)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_LF_PIECES), max_size=40).map("".join), st.integers(0, 4000), st.integers(0, 700))
@example("a\n \n\x1f\n b", 1, 6)  # \x1f between newlines: the same run of blank lines
@example("a\n  \n  ", 0, 3)  # the run's last newline lies past the window
@example("\n \n\x1f\n  ", 1, 5)  # white space alone from the text's start to its end
@example(" \n" * 400, 300, 101)  # inside a run longer than the searches' 256 characters each way
@example("a" + " \n" * 400 + "  ", 700, 103)  # a run that ends the text: its cut in the window
def test_line_cuts_in_white_space_are_the_patterns(text, lo, width):
    """In a "\\n"-only text, the line cuts of a search that reads white space alone come from
    its last newline, not the pattern: the same cuts as the pattern's."""
    n = len(text)
    lo = min(lo, n)
    hi = min(n, lo + width)
    bnd = boundaries.Boundaries(text)
    if not bnd.lf:
        return
    # the same pattern as another object (re.compile would give the cached one): read by the pattern itself
    same = re.compile(boundaries._LINE_LF.pattern + "(?#the same)")
    assert bnd._regex_cuts(boundaries._LINE_LF, lo, hi) == bnd._regex_cuts(same, lo, hi)
