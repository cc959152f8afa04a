"""``core.token_lines``: a chunk of plain text in tokens that ends at a paragraph cut, or
whose window lost its lines, ends where the packer's own search ends it (the reference)."""

from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from norishiro.core import compiled, token_lines
from norishiro.core.measure import TiktokenSizer
from norishiro.core.packer import Packer
from norishiro.core.token_lines import serves, token_end
from test_plain import _clinical, _lined, _one_line, _paragraphs, _wrapped
from test_properties import texts

_o200k = TiktokenSizer("o200k_base")
# sentences (some where a line evidently begins), labels, list marks, and commands with no
# sentence end (the finer levels); long enough for many chunks before the balanced tail
_PIECES = ["The scan was clear. ", "Dr. Ito agreed. ", "it was not", "所見なし。", "1. Rest ", "- item ", "3.5 mg"]
_PIECES += [", ", "NOTE: no change. ", "・安静。", "It held. ", "2026/1/8 ", "   ", "（2）", "e.g. ", "S）"]
_PIECES += ["||", "2026/1/8\t", "CRP 0.3mg/dL", "BP 120/80mmHg"]  # rows glued together
_COMMANDS = ["apt-get install -y foo ", "ls -la /etc ", "x=1; ", "--help ", "a/b/c ", "$(id -u) "]
_prose = st.one_of(
    st.lists(st.sampled_from(_PIECES), min_size=150, max_size=400).map("".join),
    st.lists(st.sampled_from(_PIECES + _COMMANDS), min_size=150, max_size=400).map("".join),
    st.lists(st.sampled_from(_COMMANDS), min_size=150, max_size=400).map("".join),
    _one_line,
    _lined,
    _paragraphs,  # the paragraph level
    _clinical,
    _wrapped,  # hard-wrapped paragraphs
    # one paragraph of lines of prose: windows with a newline but no paragraph cut
    st.lists(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=6).map("".join), min_size=2, max_size=60).map(
        "\n".join
    ),
    texts,  # any text: CRLF, emoji, combining marks ("\r": the search alone)
)


def _spans(text: str, size: int, overlap: int, balance: bool, fast: bool) -> list[tuple[int, int, int]]:
    p = Packer(text, _o200k.measure(text), size, overlap, balance=balance)
    if not fast:
        p._token_end = p.find_end  # the search alone
    return list(p.spans())


@settings(max_examples=200, deadline=None)
@given(_prose, st.integers(4, 160), st.integers(0, 60), st.booleans())
def test_one_line_prose_in_tokens_gets_the_packers_spans(text, size, overlap, balance):
    overlap = min(overlap, size // 2)
    assert _spans(text, size, overlap, balance, True) == _spans(text, size, overlap, balance, False)


@settings(max_examples=200, deadline=None)
@given(_prose, st.integers(4, 160), st.booleans())
def test_an_end_found_without_the_search_is_the_searchs(text, size, balance):
    """Every chunk start of the reference spans, asked alone: -1 or the search's end."""
    p = Packer(text, _o200k.measure(text), size, 0, balance=balance)
    if not serves(p):  # only a text with another line break than "\n" ("\r", U+2028 ...)
        assert not p.bnd.lf
        return
    for s, e, _n in _spans(text, size, 0, balance, False):
        assert token_end(p, s, s) in (-1, e)


@pytest.mark.skipif(compiled.native is None, reason="no compiled helpers")
@settings(max_examples=200, deadline=None)
@given(_prose, st.integers(4, 160), st.booleans(), st.data())
def test_the_compiled_levels_are_the_pythons(text, size, balance, data):
    """``token_end`` with the compiled paragraph, line and sentence levels and with their
    Python twins (every other compiled helper on in both), at chunk starts and at starts
    anywhere (with a ``lo`` past them, as the overlap asks), on one packer each: the compiled
    levels read the sentence cuts the packer's earlier windows remembered."""
    starts = [s for s, _e, _n in _spans(text, size, 0, balance, False)]
    if text:
        starts += data.draw(st.lists(st.integers(0, len(text) - 1), max_size=8))
    los = [min(len(text), s + data.draw(st.integers(0, 40))) for s in starts]
    answers = []
    for native in (True, False):
        with mock.patch.object(token_lines, "_indexed", lambda m, native=native: native and compiled.active()):
            p = Packer(text, _o200k.measure(text), size, 0, balance=balance)
            answers.append([token_end(p, s, lo) for s, lo in zip(starts, los)] if serves(p) else None)
    assert answers[0] == answers[1]


def test_the_compiled_paragraph_level_ends_at_the_farthest_cut_that_fits():
    text = "\n\n".join(f"Paragraph {i} holds a finding. It was not seen again." for i in range(40))
    p = Packer(text, _o200k.measure(text), 64)
    e = token_end(p, 0, 0)
    assert e > 0 and text[e - 2 : e] == "\n\n" and p.count(0, e) <= 64
    nxt = text.index("\n\n", e) + 2  # the next paragraph cut does not fit
    assert p.count(0, nxt) > 64
    assert (
        compiled.native is None
        or compiled.native.token_para_end(p.m.ends, [], p.n, 0, 0, 64, p.count, p.n + 1, 4) == -2
    )


@pytest.mark.parametrize("size", [100, 130])
@pytest.mark.parametrize("native", [True, False])
def test_a_line_start_early_in_the_window_wins_over_later_sentence_ends(native, size):
    """One-line prose whose only evident line starts (numbered items) lie before the near
    window: the line level's cut is looked for in the whole window before the sentence level."""
    for text, mark in (
        ("".join(f"NOTE: item {i} checked. " + "The scan was clear. " * 12 for i in range(1, 40)), "NOTE"),
        ("".join(f"・項目{i}を確認。" + "検査は問題なし。" * 12 for i in range(1, 40)), "・"),
    ):
        with mock.patch.object(token_lines, "_indexed", lambda m: native and compiled.active()):
            fast = _spans(text, size, 0, False, True)
        assert fast == _spans(text, size, 0, False, False)
        assert sum(text.startswith(mark, s) for s, _e, _n in fast[1:]) >= len(fast) // 2


@pytest.mark.parametrize(
    "text, s",
    [
        ("Intro.\n\n" + "The scan was clear. " * 60, 8),  # a long paragraph's first chunk
        ("BP 120/80mmHg|CRP 0.3mg/dL|所見なし。" * 40, 0),  # glued rows
        ("x\n\n" + "BP 120/80mmHg|CRP 0.3mg/dL|所見なし。" * 40, 3),
    ],
)
def test_a_window_after_a_newline_or_with_glued_rows_is_served(text, s):
    """No newline's cut in the window: served without the search, as the search ends it."""
    p = Packer(text, _o200k.measure(text), 64)
    got = token_end(p, s, s)
    assert got > s
    assert got == Packer(text, _o200k.measure(text), 64).find_end(s, s)


@pytest.mark.skipif(compiled.native is None, reason="no compiled helpers")
@pytest.mark.parametrize(
    "text, s",
    [
        ("Intro.\n\n" + "The scan was clear. " * 60, 8),  # a long paragraph's first chunk, not scanned yet
        ("Intro.\n\n" + "検査は問題なし。" * 90, 8),
        ("The BP was 120/80 and HbA1c fell. " * 40, 0),  # a glued row's marks, no glued row
        ("x\n\n" + "The BP was 120/80 and HbA1c fell. " * 40, 3),
        ("x\n\n" + "The BP was 120/80. it held. " * 40, 3),  # a lower-case start: the text's case learnt
    ],
)
def test_the_compiled_levels_answer_after_a_newline_and_beside_glued_marks(text, s):
    """No newline's cut and no glued row in the window: the compiled line and sentence
    levels answer (the paragraph scanned whole and the text's case learnt first, as the
    search would), without the Python twin, and end the chunk where the search does."""
    p = Packer(text, _o200k.measure(text), 64)
    with mock.patch.object(token_lines, "_levels", side_effect=AssertionError("the Python twin was asked")):
        got = token_end(p, s, s)
    assert got > s
    assert got == Packer(text, _o200k.measure(text), 64).find_end(s, s)


def test_a_long_line_is_served_and_a_newline_is_not():
    text = "The scan was clear and the patient went home. " * 40
    p = Packer(text, _o200k.measure(text), 64, balance=True)
    assert serves(p) and token_end(p, 0, 0) > 0
    lined = text.replace(". The", ".\nThe")
    q = Packer(lined, _o200k.measure(lined), 64, balance=True)
    assert token_end(q, 0, 0) == -1
    assert not serves(Packer(text, _o200k.measure(text), 64, prefix=lambda s: "Section: "))


@pytest.mark.parametrize("size", [40, 97, 200, 333])
@pytest.mark.parametrize("balance", [True, False])
def test_the_balanced_tail_at_the_line_and_sentence_levels(balance, size):
    """Large budgets: the even share of the last four chunks lies well before the farthest cut."""
    text = "".join(f"{i}. Item {i} was checked and found in order. NOTE: fine. Then more. " for i in range(1, 300))
    assert _spans(text, size, 0, balance, True) == _spans(text, size, 0, balance, False)
    words = " ".join(f"apt-get install package{i}" for i in range(600))  # no sentence end: words
    assert _spans(words, size, 0, balance, True) == _spans(words, size, 0, balance, False)
