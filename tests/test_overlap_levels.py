"""The overlap's finer levels: a level searched without a start leaves its cuts out of the
next level's windows (``OverlapSearch._finer_cuts``' ``empty``), and the starts are those the
search finds with every level's cuts merged again."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from norishiro.core.measure import CharMeasure
from norishiro.core.overlap import OverlapSearch
from norishiro.core.packer import Packer
from test_compiled_overlap import _TEXT


def _spans(text: str, size: int, overlap: int) -> list:
    return list(Packer(text, CharMeasure(text), size, overlap).spans())


@settings(max_examples=300, deadline=None)
@given(_TEXT, st.integers(8, 300), st.integers(1, 80))
def test_finer_levels_without_a_start_change_no_start(text, size, overlap):
    overlap = min(overlap, size - 1)
    got = _spans(text, size, overlap)
    own = OverlapSearch._finer_cuts

    def every_level(self, level, s, e, lo, hi, empty=()):
        return own(self, level, s, e, lo, hi)

    with pytest.MonkeyPatch.context() as m:
        m.setattr(OverlapSearch, "_finer_cuts", every_level)
        assert got == _spans(text, size, overlap)


def test_a_clause_start_is_found_after_no_lower_sentence_start(monkeypatch):
    """One-line prose with commas and no sentence end in the overlap: the lower sentence is
    searched and has none, and the clause level's windows leave it out."""
    text = "word word word, " * 60
    asked: list[tuple] = []
    own = OverlapSearch._finer_cuts

    def spy(self, level, s, e, lo, hi, empty=()):
        asked.append((level, tuple(empty)))
        return own(self, level, s, e, lo, hi, empty)

    monkeypatch.setattr(OverlapSearch, "_finer_cuts", spy)
    spans = _spans(text, 100, 30)
    assert any(empty for _level, empty in asked)
    assert all(b - a <= 100 for a, b, _ in spans) and spans[1][0] < spans[0][1]  # overlapping, within budget
