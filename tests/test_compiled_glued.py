"""The compiled glued-row patterns (``_sentscan.glued_cuts``) give what ``glued_line_cuts``'
regexes give, or say "not known here" (None), never another answer."""

import random

import pytest

import norishiro
from compiled_mode import compiled_helpers
from norishiro.core import compiled, glued

pytestmark = pytest.mark.skipif(not compiled.active(), reason="the compiled module is not built here")

# the parts of what the patterns look for (pipes, 【headers】, dated rows of tab-separated
# tables, lab units before a test name), their near misses, and characters whose class
# decides (digits of other scripts, spaces that are not \s, marks)
_PIECES = (
    ["||", "|", "【", "■", "◆", "●", " ", "\t", "\n", "2026/1/10", "2026/12/3", "12/3", "/", "/2", "2026", "1"]
    + ["mg/dL", "mmHg", "mmmHg", "/分", "/L", "/l", "/μl", "/uL", "/mL", "/dl", "CRP 18.6", "CRP18", "ALT<", "Hb-A1c "]
    + ["Na", "C5", "ABCD", "75%", "0.71", "単位", "x", "１２３４", "٣", "🏻", "≦", "≧", ">", "A-1", "\u3000", "\x1c"]
    + ["é"]
    + [",", ".", "-", "ｍｇ", "日", "C123", "x12\n", "C5\n", "\t2026/1/8\t", "日C123\t2026/1/8\t"]
    + ["\t2026/1/8\t2026/1/9\t", "5%2026/1/8\t2026/1/9\t", "x2026/1/8\t2026/1/9\t"]
)


def _pure_cuts(text: str, lo: int, hi: int) -> list[int]:
    with compiled_helpers(False):
        return glued.glued_line_cuts(text, lo, hi)


def test_the_compiled_glued_rows_are_the_patterns():
    """Seeded texts dense in the patterns' parts, random windows: the same cuts in the same
    order (the compiled overlap search takes the first free one), or None."""
    rng = random.Random(7)
    found = unknown = 0
    for _ in range(12000):
        text = "".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 14)))
        lo = rng.randint(0, len(text))
        hi = rng.randint(lo, len(text))
        got = compiled.native.glued_cuts(text, lo, hi)
        if got is None:
            unknown += 1
            continue
        assert got == _pure_cuts(text, lo, hi), (text, lo, hi)
        found += bool(got)
    assert found > 1000 and unknown < 600  # the sweep reaches the patterns, and seldom asks Python


def test_the_compiled_glued_rows_hold_windows_with_hundreds_of_marks():
    """The compiled pass keeps the positions of every mark its patterns begin at: more than
    its first buffer holds, same cuts."""
    rng = random.Random(11)
    for _ in range(40):
        text = "".join(rng.choice(_PIECES) for _ in range(rng.randint(150, 400)))
        lo, hi = rng.randint(0, 40), len(text) - rng.randint(0, 40)
        got = compiled.native.glued_cuts(text, lo, hi)
        if got is not None:
            assert got == _pure_cuts(text, lo, hi)
    text = "日C123\t2026/1/8\t" * 120 + "||mmHg/分" * 60
    assert sum(text.count(c) for c in "/|H\t") > 512
    assert compiled.native.glued_cuts(text, 0, len(text)) == _pure_cuts(text, 0, len(text))


def test_glued_line_cuts_answers_through_python_where_a_class_is_not_known():
    """A digit the compiled tests do not know (Arabic-Indic) beside a date's slash: None, and
    glued_line_cuts gives the regexes' answer."""
    text = "値٣٣٣٣/1/2\t2026/1/3\t終"
    assert compiled.native.glued_cuts(text, 0, len(text)) is None
    assert glued.glued_line_cuts(text, 0, len(text)) == _pure_cuts(text, 0, len(text))


def test_overlapping_chunks_of_flattened_records_are_the_same_compiled_and_pure():
    """Flattened clinical records (headers, lab rows, dated rows glued together): the same
    chunks with the compiled first start as with the Python search."""
    rng = random.Random(3)
    rows = ["【所見】", "Na 140mEq/L", "CRP 3.2mg/dL", "K 4.1mmol/L", "BP 120/80mmHg", "HR 72/分", "75%"]
    rows += ["C5\t2026/1/8\t", "2026/1/10\t", "発熱なし。", "経過良好である。", "■ 処方", "|| a || b |", "1. 内服"]
    for _ in range(60):
        text = "".join(rng.choice(rows) for _ in range(rng.randint(20, 90)))
        want = None
        for pure in (True, False):
            with compiled_helpers(not pure):
                spans = [(c.start, c.end) for c in norishiro.iter_chunks(text, size=120, overlap=30, structure=False)]
            want = want or spans
            assert spans == want, text


@pytest.mark.parametrize("pure", [False, True])
def test_boundaries_give_the_glued_cuts_of_the_patterns_and_glued_near_hides_none(pure):
    """``Boundaries.glued_cuts`` looks in the window alone and finds what the patterns find;
    ``glued_near`` is true wherever they find a cut."""
    from norishiro.core.boundaries import Boundaries

    rng = random.Random(11)
    with compiled_helpers(not pure):
        for _ in range(3000):
            text = "".join(rng.choice(_PIECES + ["plain words ", "漢字かな"] * 8) for _ in range(rng.randint(0, 10)))
            lo = rng.randint(0, len(text))
            hi = rng.randint(lo, len(text))
            want = glued.glued_line_cuts(text, lo, hi)
            bnd = Boundaries(text)
            assert bnd.glued_cuts(lo, hi) == want, (text, lo, hi)
            if want:
                assert bnd.glued_near(lo, hi), (text, lo, hi)


@pytest.mark.parametrize("wide", ["", "é", "日", "🙂"])
def test_the_compiled_glued_hint_is_the_string_tests_at_every_width(wide):
    """``glued_hint`` (read eight or sixteen characters at a time) says what the string
    tests of ``_maybe_glued`` say of ``text[a:b]``, on Latin-1, two-byte and four-byte texts,
    with each mark at every place of a block and cut by the window's edges. A date's slash
    sees its year before ``a``, as a search from ``a`` in the whole text does."""
    rng = random.Random(len(wide) * 7 + ord(wide or "a"))
    marks = ["||", "mmHg", "【", "■", "◆", "●", "2026/1/8", "5/分", "3/dL", "/L", "m", "/", "|"]
    filler = ["x", "ab ", "12", wide or "y", "mm", "Hg", "\n"]
    for _ in range(4000):
        parts = [rng.choice(filler) for _ in range(rng.randint(0, 40))]
        for _ in range(rng.randint(0, 2)):
            parts.insert(rng.randint(0, len(parts)), rng.choice(marks))
        text = wide + "".join(parts)
        a = rng.randint(0, len(text))
        b = rng.randint(a, len(text))
        seg = text[a:b]
        want = "||" in seg or "mmHg" in seg or any(c in seg for c in "【■◆●")
        want = want or glued._GLUED_SLASH.search(text, a, b) is not None
        assert (compiled.native.glued_hint(text, a, b) == 1) == want, (text, a, b)


@pytest.mark.parametrize("wide", ["", "日"])
def test_the_compiled_glued_hint_passes_over_lone_pipes_but_no_pair(wide):
    """Lone pipes (a flattened table's cells) are passed over a block at a time: a pair of
    them at every place of a block, the pair's second pipe in the next block, or cut by
    the window's edge, is still found, and lone pipes alone are no mark."""
    lone = wide + "a|b" * 30
    assert compiled.native.glued_hint(lone, 0, len(lone)) == 0
    for k in range(len(lone) + 1):
        text = lone[:k] + "|" + lone[k:]
        for a in range(0, len(text), 7):
            for b in (len(text), a + 17, a + 18, k + 1, k + 2):
                b = max(a, min(b, len(text)))
                want = "||" in text[a:b]
                assert (compiled.native.glued_hint(text, a, b) == 1) == want, (text, a, b)
