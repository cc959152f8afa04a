"""The compiled overlap search and soft-wrap decisions give what the Python rules give.

``_sentscan.overlap_start`` finds where an overlapping chunk begins in one pass, and
``soft_hint`` / ``line_width`` / ``soft_full`` decide the plain soft-wrap cases; each says
"ask Python" where it cannot be sure. Where it answers, the answer must be Python's.
"""

import contextlib
import random
import textwrap

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from compiled_mode import compiled_helpers
from norishiro.core import compiled, softwrap
from norishiro.core.boundaries import Boundaries, Level
from norishiro.core.measure import CharSizer
from norishiro.core.packer import Packer
from norishiro.core.sentence_windows import SentenceWindows
from norishiro.core.sentences import lower_case_text
from norishiro.core.softwrap import SoftWraps, _Paragraph, soft_wraps

pytestmark = pytest.mark.skipif(not compiled.active(), reason="the compiled module is not built here")


@pytest.fixture(autouse=True, scope="module")
def _columns():
    softwrap.columns_compiled()  # as the first paragraph beyond ASCII does


_EN = st.sampled_from(["the", "line", "goes", "on", "and", "wraps", "over", "words", "Next", "a,", "x;", "so-", "end."])
_JA = st.sampled_from(
    ["所見", "を認めるが", "増大は", "ない。", "から", "および", "及び", "ため", "です", "日本語の", "テスト", "ーー"]
    + ["なし", "あり", "して", "ので", "けど", "または", "よび", "に", "は", "、", "漢字", "かな", "カナ"]
)
_ODD = st.sampled_from(
    ["e.g.", "Dr.", "ends!", "why?", "Label:", "値：", "|", "||", "| a |", "\t", "【注】", "- item", "* x", "# H"]
    + ["1.", "(2)", "Na 140", "mg/dL", "CRP 3", "👍", "(笑)", "^_^", "é", "e\u0301", "\u3000", "\xa0", "“quoted.”"]
    + [
        "(see p. 4).",
        "``",
        "~~",
        "\r",
        "\x1f",
        "々",
        "〆",
        "ゝ",
        "Ab12",
        "T-3 <5",
        "\n```\n",
        "\n ~~~x\n",
        "\n    ```\n",
    ]
)
_WORDS = st.one_of(_EN, _EN, _EN, _JA, _JA, _ODD)


def _wrapped(words: list[str], width: int, indent: str, joiner: str) -> str:
    return textwrap.fill(joiner.join(words), width, initial_indent=indent, subsequent_indent=indent)


_PARAGRAPH = st.builds(
    _wrapped,
    st.lists(_WORDS, min_size=8, max_size=80),
    st.integers(12, 70),
    st.sampled_from(["", "  ", "    ", "\xa0\xa0\xa0 "]),
    st.sampled_from([" ", " ", ""]),
)
_LINES = st.lists(st.lists(_WORDS, max_size=6).map(" ".join), min_size=1, max_size=8).map("\n".join)
_TEXT = st.lists(_PARAGRAPH | _PARAGRAPH | _LINES | st.text(max_size=12), min_size=1, max_size=6).flatmap(
    lambda parts: st.lists(st.sampled_from(["\n\n", "\n", "\n \n", " "]), min_size=len(parts), max_size=len(parts)).map(
        lambda seps: "".join(p + s for p, s in zip(parts, seps))
    )
)


def _paragraphs(text: str):
    b = Boundaries(text)
    bounds = [0, *b.paragraph_cuts(), len(text)]
    return [(s, e) for s, e in zip(bounds, bounds[1:]) if e > s]


def _fenced(text: str, s: int, e: int) -> bool:
    return "``" in text[s:e] or "~~" in text[s:e]


@settings(max_examples=400, deadline=None)
@given(_TEXT, st.booleans())
def test_compiled_soft_wrap_decisions_are_the_profiles(text, crlf):
    """Where a compiled decision answers, it is the paragraph profile's (inside, before and
    around fenced blocks too); where the lines' hint says they do not settle it,
    ``_by_lines`` says so too; a paragraph's width is the profile's; in "\\r\\n" text too."""
    if crlf:
        text = text.replace("\n", "\r\n")  # a "\r" of its own stays: the compiled tests leave it to Python
    native = compiled.native
    for s, e in _paragraphs(text):
        fenced = _fenced(text, s, e)
        soft = set(soft_wraps(text, s, e))
        profile = _Paragraph(text, s, e)
        widths = native.line_width(text, s, e)
        if widths is not None:
            want = (profile.top_c if profile.by_chars else 0, profile.top_w if profile.by_cols else 0)
            assert widths == want, (text[s:e], widths, want)
        for p in (i + 1 for i in range(s, e) if text[i] == "\n"):
            want = p in soft
            hint = native.soft_hint(text, p, s, e, fenced)
            if hint in (0, 1):
                assert hint == want, (text[max(s, p - 60) : p + 40], hint)
            if hint == -2:
                with compiled_helpers(False):
                    assert SoftWraps(text)._by_lines(p, s, e) is None, text[max(s, p - 60) : p + 40]
            if widths is not None:
                full = native.soft_full(text, p, s, e, *widths, fenced)
                if full in (0, 1):
                    assert full == want, (text[max(s, p - 60) : p + 40], full, widths)


_BLANK_RUNS = st.sampled_from(["\n\n", "\n\u3000\n", "\n \t\n\n", "\n``\n", "\n\u0301", "\nx\u0301"])


@settings(max_examples=400, deadline=None)
@given(_TEXT, st.lists(st.tuples(st.floats(0, 1), _BLANK_RUNS), max_size=3), st.floats(0, 1), st.integers(1, 500))
@example("a\n\n\nb", [], 0.0, 3)  # a blank run that goes on past the window
@example("ab\n\u0301c\nd", [], 0.0, 9)  # a mark after the newline: Python moves the cut
def test_the_compiled_last_hard_newline_is_the_python_walks(text, inserts, at, span):
    """``Boundaries.last_hard_newline`` (``_sentscan.hard_lf_cut``) finds the cut the Python
    walk back over the newlines finds (``newlines.last_lf_cut`` and each newline's soft-wrap
    decision), for every floor; where it says Python must look, a mark follows a newline."""
    for where, piece in inserts:
        k = int(where * len(text))
        text = text[:k] + piece + text[k:]
    lo = int(at * len(text))
    hi = min(len(text), lo + span)
    with compiled_helpers(False):
        want = Boundaries(text)._last_hard_lf_cut(lo, hi)
    with compiled_helpers(True):
        bnd = Boundaries(text)
        if not bnd.lf:
            return
        got = bnd.last_hard_newline(lo, hi, lo)
        if got < 0:  # a character after a newline in the window that may extend a grapheme
            assert any(text[i - 1] == "\n" and text[i] >= "\u0300" for i in range(lo + 1, min(hi + 1, len(text))))
            return
        assert ([got] if got else []) == want, (text[lo:hi], got, want)
        assert bnd._last_hard_lf_cut(lo, hi) == want
        for floor in (lo, lo + (hi - lo) // 2, hi, hi + 1):
            assert bnd.last_hard_newline(lo, hi, floor) == (want[0] if want and want[0] >= floor else 0)
        off = Boundaries(text, soft_wraps=False)
        with compiled_helpers(False):
            want_hard = Boundaries(text, soft_wraps=False)._last_hard_lf_cut(lo, hi)
        assert off.last_hard_newline(lo, hi, lo) == (want_hard[0] if want_hard else 0)


_ATOMS = st.lists(st.tuples(st.floats(0, 1), st.integers(1, 120)), max_size=3)


@settings(max_examples=400, deadline=None)
@given(_TEXT, st.floats(0, 1), st.integers(1, 400), st.booleans(), st.booleans(), st.booleans(), _ATOMS, st.booleans())
# a line of \x1f alone in CRLF text is no blank line (the regex module's white space lacks it)
@example("the the\n\n000000\n\x1f\n\nthe the\n", 0.4, 14, False, False, False, [], True)
def test_the_compiled_overlap_start_is_the_python_searchs_first(text, at, span, classified, memo, wraps, atoms, crlf):
    """``overlap_start`` gives the first start the Python search yields (none: 0), in any
    state of the text's caches (lower case classified or not, paragraph scanned or not),
    with spans kept whole or none, in "\\n" and in "\\r\\n" text, and the lazy search yields
    the same starts with it as without."""
    if crlf:
        text = text.replace("\r", "").replace("\n", "\r\n")
    n = len(text)
    lo = int(at * n)
    e = min(n, lo + span)
    if e - 1 <= lo:
        return
    kept = [(int(a * n), min(n, int(a * n) + k)) for a, k in atoms]

    def packer():
        m = CharSizer().measure(text)
        return Packer(text, m, 400, overlap=200, boundaries=Boundaries(text, soft_wraps=wraps), atoms=kept)

    with compiled_helpers(False):
        want = list(packer()._overlap_iter(Level.SENTENCE, 0, e, lo, e - 1))
    p = packer()
    if classified:
        p.bnd.sentences.lower_text = lower_case_text(text)
    if memo:
        p.bnd.sentences.scanned(lo, scan=True)
    held = (p._atom_starts, p._atom_ends) if p._atom_starts else None
    asked = p.bnd.lf or p.bnd.crlf
    if memo and asked:  # the paragraphs' widths measured before, for another window
        p.bnd.first_start(lo // 2, e - 1, held)
    got = p.bnd.first_start(lo, e - 1, held) if asked else -1
    if asked:
        assert p.bnd.first_start(lo, e - 1, held) == got  # the same with the widths remembered
    if got == 0:
        assert want == [], (text, lo, e)
    elif got > 0:
        assert want and got == want[0], (text, lo, e, got, want[:3])
    assert list(packer()._sentence_starts(0, e, lo)) == want


@settings(max_examples=300, deadline=None)
@given(_TEXT, st.floats(0, 1), st.integers(0, 600))
def test_a_windows_lines_scanned_alone_give_the_paragraphs_sentence_cuts(text, at, span):
    """The sentence rules need nothing from before a line: the lines a window covers,
    scanned alone, give the cuts the whole paragraph's scan gives there."""
    lo = int(at * len(text))
    hi = min(len(text), lo + span)
    for on in (True, False):
        ctx = contextlib.nullcontext() if on else compiled_helpers(False)
        with ctx:
            b = Boundaries(text)
            local, whole = SentenceWindows(text, b.paragraph_cuts()), SentenceWindows(text, b.paragraph_cuts())
            whole.local = False
            assert local.pair(lo, hi) == whole.pair(lo, hi), (text, lo, hi)


# pieces of sentence starts: each end mark, closers, spaces and blank lines before letters of
# each case (and none), so that most texts hold several starts
_START_PIECES = [".", "!", "?", ". ", "? ", "! ", '." ', "?) ", "!’ ", " ", "  ", "\t", "\n", "\n\n", "\n \n  "]
_START_PIECES += ["a", "B", "é", "É", "ß", "ǅ", "1", "²", "Ⅻ", "日", "\u0301", "ª", '"', "'", ")", "]", "’", "”"]
_START_PIECES += ["𝐀", "𝐚", "🙂", "word ", "Word "]  # beyond the BMP (a 4-byte text) and plain runs


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet=st.sampled_from(list(".!?\"')]’” \t\naAbBéÉ1²Ⅻ日ßǅ\u0301ª")), max_size=80)
    | st.lists(st.sampled_from(_START_PIECES), max_size=40).map("".join)
    | st.lists(st.sampled_from([x for x in _START_PIECES if x.isascii()]), max_size=40).map("".join),
    st.integers(0, 90),
)
def test_compiled_sentence_start_cases_are_the_patterns(text, limit):
    from norishiro.core.sentences import _start_cases

    assert compiled.native.sentence_start_cases(text, limit) == _start_cases(text[:limit])


@pytest.mark.parametrize("spaces", [True, False])
@pytest.mark.parametrize("share", [0.78, 0.8, 0.82, 0.88, 0.92, 0.94, 0.95, 0.96])
@pytest.mark.parametrize("near", [1, 2, 3])
def test_the_compiled_paragraph_width_is_the_profiles_at_its_thresholds(spaces, share, near):
    """Lines about as wide as the widest, a few a little shorter: the compiled width agrees
    with the profile on either side of the 0.8 and 0.95 shares and of the 60% rule."""
    top = 50
    short = max(1, int(top * share))

    def line(n):
        return ("ab " * n)[:n].rstrip("x") if spaces else "x" * n

    lines = [line(top)] * near + [line(short)] * (5 - near) + ["last"]
    text = "\n".join(lines)
    profile = _Paragraph(text, 0, len(text))
    widths = compiled.native.line_width(text, 0, len(text))
    assert widths == (profile.top_c if profile.by_chars else 0, 0), (share, near, spaces)


def test_the_compiled_soft_wrap_character_classes_are_the_patterns():
    """Over every code point: display width as ``WIDE`` says (the Basic Multilingual Plane;
    beyond it the compiled tests ask Python), kana and kanji only where the scripts are
    (and every other kanji marked "maybe"), and the fixed sets of softwrap's patterns."""
    import regex

    from norishiro.core.chars import WIDE

    han, hira, kata = (regex.compile(rf"\p{{{n}}}") for n in ("Han", "Hiragana", "Katakana"))
    term = regex.compile(r"[。｡!?！？…‥]")
    closer = regex.compile(r"[」』）)】］〉》〕｝\]}”’\"']")
    bullet = regex.compile(r"[【■□◆◇●◎▼▶►•※・]")
    particle = regex.compile(r"[はがをにのでともへやて、，]")
    digit = regex.compile(r"[0-9０-９]")
    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        ch = chr(cp)
        wide, is_hira, is_kata, is_han, maybe, t, c, b, part, dig = compiled.native.soft_classes(cp)
        assert wide == (bool(WIDE.match(ch)) if cp < 0x10000 else -1), hex(cp)
        assert not is_hira or hira.match(ch), hex(cp)
        assert not is_kata or kata.match(ch), hex(cp)
        assert not is_han or han.match(ch), hex(cp)
        assert not han.match(ch) or is_han or maybe, hex(cp)
        assert (t, c, b, part, dig) == tuple(bool(p.match(ch)) for p in (term, closer, bullet, particle, digit)), hex(
            cp
        )


@settings(max_examples=300, deadline=None)
@given(_TEXT, st.floats(0, 1), st.integers(2, 400), _ATOMS, st.booleans(), st.booleans())
def test_overlap_starts_are_the_first_level_with_any(text, at, span, atoms, pure, crlf):
    """In characters the overlap search yields, in order, every start of the first overlap
    level that has one (each level's merged cuts), whatever spans are kept whole (nested or
    overlapping ones too), and nothing when no level has one: the compiled first start and
    the early way out of a window that one kept span holds change nothing, nor does the
    search's being told the compiled pass's answer; in "\\r\\n" text too."""
    _check_overlap_levels(text.replace("\r", "").replace("\n", "\r\n") if crlf else text, at, span, atoms, pure)


# long lines whose windows often hold no sentence start but a sentence end before a lower-case
# word (a lower_sentence cut), in texts that start their sentences in upper case
_LOWER_PIECES = ["Next one ends here. ", "Words go on ", "and on ", "e.g. ", "end. the ", "so, ", "x; ", "Dr. Who "]
_LOWER_PIECES += ["why? no ", "over ", "end. So ", "\n\n"]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(_LOWER_PIECES), min_size=1, max_size=80).map("".join),
    st.floats(0, 1),
    st.integers(2, 400),
    _ATOMS,
    st.booleans(),
    st.booleans(),
)
def test_overlap_starts_where_only_finer_levels_have_one(text, at, span, atoms, pure, crlf):
    """The same where the sentence level has no start and the lower_sentence level does."""
    _check_overlap_levels(text.replace("\n", "\r\n") if crlf else text, at, span, atoms, pure)


def _check_overlap_levels(text, at, span, atoms, pure):
    n = len(text)
    s = int(at * n)
    e = min(n, s + span)
    if e - s < 2:
        return
    kept = [(int(a * n), min(n, int(a * n) + k)) for a, k in atoms]
    ctx = compiled_helpers(False) if pure else contextlib.nullcontext()
    with ctx:
        p = Packer(text, CharSizer().measure(text), 400, overlap=200, atoms=kept)
        lo = p._overlap_lo(s, e)
        want: list[int] = []
        for level in p.overlap_levels:
            want = p._overlap_cands(level, s, e, lo, e - 1)
            if want:
                break
        assert list(p.overlap_starts(s, e)) == want, (text, s, e, kept)
        first = p.first_starts()(s, e)  # the sentence level's first start, or 0: it has none
        if first >= 0:
            assert p._overlap_cands(p.overlap_levels[0], s, e, lo, e - 1)[:1] == ([first] if first else [])
        # the search told what the compiled pass found (a start, or none: the finer levels
        # then look at their own cuts only) yields the same
        assert list(p.overlap_starts(s, e, first)) == want, (text, s, e, kept, first)


_BREAKS = ["\r", "\n", "\r\n", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
_NEAR_BREAKS = ["\x1f", "\x0e", "\x1b", "\x84", "\x86", "\u2027", "\u202a", "\u0a0b", "\u850b", "\u2028"[:0]]


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.sampled_from(_BREAKS + _NEAR_BREAKS) | st.sampled_from(["a", "ab cd ", "日本", "𝐀", "x" * 17, "é" * 9]),
        max_size=30,
    ).map("".join)
)
def test_the_compiled_line_break_scan_is_the_character_searches(text):
    """One compiled pass (thirty-two or sixteen characters at a time) finds the "\\r" and the other
    line breaks that ``lf_only`` and ``crlf_only`` search for one by one."""
    from norishiro.core import newlines

    lone = text.count("\r") != text.count("\r\n")
    want = (1 if "\r" in text else 0) | (0 if newlines._no_other_break(text) else 2) | (4 if lone else 0)
    assert compiled.native.line_breaks(text) == want
    with compiled_helpers(False):
        pure = newlines.lf_only(text), newlines.crlf_only(text)
    assert (newlines.lf_only(text), newlines.crlf_only(text)) == pure


@pytest.mark.parametrize("fill", ["a", "é", "日", "𝐀"])  # each width of str, ASCII and Latin-1
@pytest.mark.parametrize("mark", _BREAKS + _NEAR_BREAKS[:-1])
def test_the_compiled_line_break_scan_finds_one_break_anywhere(fill, mark):
    """A lone break (or a character next to one) at every place of a text, in and after the
    blocks the compiled pass reads at once."""
    from norishiro.core import newlines

    for n in (0, 7, 8, 15, 16, 17, 31, 32, 33, 40, 64, 70):
        for at in range(n + 1):
            text = fill * at + mark + fill * (n - at)
            lone = text.count("\r") != text.count("\r\n")
            want = (1 if "\r" in text else 0) | (0 if newlines._no_other_break(text) else 2) | (4 if lone else 0)
            assert compiled.native.line_breaks(text) == want, (fill, mark, n, at)


# short lines kept (list items, labels) before text that lost its line breaks, where line
# starts are inferred at sentence ends
_LINE_PIECES = ["- item one\n", "Heading\n", "1. first\n", "Note:\n", "some words go on ", "end. Next ", "x. The "]
_LINE_PIECES += ["ends here. The ", "「はい。」\n", "所見。次に ", "\n\n", "word " * 6]


@settings(max_examples=300, deadline=None)
@given(
    _TEXT | st.lists(st.sampled_from(_LINE_PIECES), max_size=60).map("".join),
    st.floats(0, 1),
    st.integers(1, 600),
    st.booleans(),
)
def test_the_tail_line_cuts_lead_the_whole_list(text, at, span, pure):
    """In a "\\n"-only text the line cuts asked for the tail only are the first ones of the
    whole list (farthest first): a packer whose window holds an atom looks there first."""
    lo = int(at * len(text))
    hi = min(len(text), lo + span)
    ctx = compiled_helpers(False) if pure else contextlib.nullcontext()
    with ctx:
        b = Boundaries(text)
        if not b.lf or hi <= lo or hi >= len(text):
            return
        tail = list(b.line_cuts_from_end(lo, hi, tail_only=True))
        whole = list(b.line_cuts_from_end(lo, hi, tail_only=False))
    assert whole[: len(tail)] == tail, (text, lo, hi)


def test_the_tail_line_cuts_lead_the_whole_list_in_many_windows():
    """The same over four thousand seeded windows of those pieces (the windows where a lost
    line start lies between two kept lines are rare for the generator above)."""
    rng = random.Random(5)
    for _ in range(4000):
        text = "".join(rng.choice(_LINE_PIECES + ["A\n", "b\n"]) for _ in range(rng.randint(1, 40)))
        b = Boundaries(text)
        lo = rng.randint(0, len(text))
        hi = min(len(text) - 1, lo + rng.randint(1, 400))
        if hi <= lo:
            continue
        tail = list(b.line_cuts_from_end(lo, hi, tail_only=True))
        assert list(b.line_cuts_from_end(lo, hi, tail_only=False))[: len(tail)] == tail, (text, lo, hi)


_CRLF_PIECES = ["a", "b ", "\r\n", "\n", "  ", "\t", "\xa0", "\u3000", "\x1f", "\u2000", "日", " \r\n", "\r\n\r\n"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_CRLF_PIECES), max_size=30).map("".join), st.integers(0, 200), st.integers(0, 200))
def test_the_compiled_line_runs_of_crlf_text_are_the_pattern(text, a, b):
    """In a text whose breaks are "\\r\\n" and "\\n", the compiled pass ends the line-break runs
    where ``_LINE`` does, wherever the search starts and stops (a stop between CR and LF too)."""
    from norishiro.core.boundaries import _LINE

    a, b = min(a, len(text)), min(b, len(text))
    assert compiled.native.line_ends(text, a, b) == [m.end() for m in _LINE.finditer(text, a, b)]


def test_the_compiled_line_runs_take_the_patterns_white_space():
    """Between two line breaks, a character joins them in one run exactly when it is white
    space to the pattern and no line break (\\x1f is space to Python only)."""
    from norishiro.core.boundaries import _LINE

    for cp in range(0x10000):
        c = chr(cp)
        if not (c.isspace() or cp in (0x180E, 0x200B, 0xFEFF)) or 0xD800 <= cp < 0xE000:
            continue
        for text in ("\r\n" + c + "\r\n", "\n" + c + "\n"):
            if c in "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029":
                continue  # not a text of these two breaks
            assert compiled.native.line_ends(text, 0, len(text)) == [m.end() for m in _LINE.finditer(text)], hex(cp)


@pytest.mark.skipif(not compiled.active(), reason="the compiled module is not built here")
def test_the_first_start_window_is_the_searchs_at_its_edge():
    """``first_starts`` looks where ``_overlap_lo`` says the candidates begin, to the character:
    a sentence start one before that edge is no candidate, one at it is (every chunk end of
    sentence texts whose starts fall on each side of it)."""
    for word in range(1, 9):
        text = "".join(f"S{k} {'w' * word}. " for k in range(60))
        p = Packer(text, CharSizer().measure(text), 120, overlap=20)
        first = p.first_starts()
        for e in range(40, len(text)):
            s = e - 100
            got = first(s, e)
            if got >= 0:
                want = p._overlap_cands(p.overlap_levels[0], s, e, p._overlap_lo(s, e), e - 1)[:1]
                assert ([got] if got else []) == want, (word, e, got)


def test_the_compiled_last_hard_newline_says_what_is_wrong():
    """``hard_lf_cut`` refuses what is no text, list, callable or dict, and paragraph cuts that
    are not the text's; an error of ``is_soft`` comes through as it is."""
    never = lambda p: 1 / 0  # noqa: E731
    text = "a line that goes on\nand wraps over here\nend"
    with pytest.raises(TypeError, match="hard_lf_cut"):
        compiled.native.hard_lf_cut(text, 0, 30, 0, (), True, never, {})
    with pytest.raises(TypeError, match="hard_lf_cut"):
        compiled.native.hard_lf_cut(text, 0, 30, 0, [], True, never, [])
    with pytest.raises(ValueError, match="paras"):
        compiled.native.hard_lf_cut(text, 0, 30, 0, [50], True, never, {})
    assert compiled.native.hard_lf_cut(text, 0, 30, 0, [], False, never, {}) == 20
    assert compiled.native.hard_lf_cut(text, 0, 30, 25, [], False, never, {}) == 0
    with pytest.raises(ZeroDivisionError):  # the two short lines leave it to is_soft, whose error comes through
        compiled.native.hard_lf_cut("x\ny", 0, 3, 0, [], True, never, {})
