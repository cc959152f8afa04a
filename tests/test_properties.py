"""Invariants as properties over arbitrary Unicode (CRLF, ZWJ emoji, combining marks, CJK, RTL)."""

from __future__ import annotations

import itertools
import re
from array import array
from bisect import bisect_left, bisect_right

import pytest
import regex
from hypothesis import example, given, settings
from hypothesis import strategies as st

import norishiro
from compiled_mode import compiled_helpers
from invariants import check_chunks, tiktoken_count
from norishiro.core.measure import TiktokenSizer

PIECES = [
    "\r\n",
    "\n",
    "\n\n",
    " ",
    "。",
    "、",
    "「",
    "」",
    "（",
    "）",
    ". ",
    "? ",
    "！",
    "👨\u200d👩\u200d👧",
    "🇯🇵",
    "e\u0301",
    "\u0915\u094d\u0937",
    "שלום ",
    "مرحبا",
    "肺癌の疑いなし。",
    "The biopsy was negative for malignancy. ",
    "1. ",
    "\t",
    "|",
    "||",
    "\u3000",
    "Dr. ",
    "3.5 mg",
    "ｶﾞ",
    "\u200d",
    "\ufe0f",
    "\U0001f44d\U0001f3fd",
]

texts = st.lists(
    st.one_of(st.text(st.characters(blacklist_categories=("Cs",)), max_size=30), st.sampled_from(PIECES)),
    max_size=60,
).map("".join)

_o200k = TiktokenSizer("o200k_base")


@given(
    texts,
    st.integers(1, 80),
    st.integers(0, 40),
    st.sampled_from(["recursive", "sentences", "fixed"]),
    st.booleans(),
    st.booleans(),
)
# a balanced end once fell before the end of the chunk that the overlap started in
@example("\x850000000000000000000000000\x1e00", 27, 26, "recursive", False, True)
def test_char_invariants(text, size, overlap, strategy, structure, balance):
    overlap = min(overlap, size - 1)
    opts = dict(size=size, overlap=overlap, strategy=strategy, structure=structure, balance=balance)
    chunks = norishiro.chunk(text, **opts)
    check_chunks(text, chunks, size, len, overlap)
    again = norishiro.chunk(text, **opts)
    assert [(c.start, c.end, c.id) for c in again] == [(c.start, c.end, c.id) for c in chunks]


@given(texts, st.integers(1, 40), st.integers(0, 20), st.sampled_from(["recursive", "sentences", "fixed"]))
def test_token_invariants_o200k(text, size, overlap, strategy):
    overlap = min(overlap, size - 1)
    chunks = norishiro.chunk(text, size=size, overlap=overlap, strategy=strategy, unit="tokens", tokenizer="o200k_base")
    check_chunks(text, chunks, size, tiktoken_count("o200k_base"), overlap)


@given(texts, st.integers(2, 30))
def test_callable_sizer(text, size):
    # a sizer with no index: utf-8 bytes
    nbytes = lambda s: len(s.encode("utf-8"))  # noqa: E731
    chunks = norishiro.chunk(text, size=size, tokenizer=nbytes)
    check_chunks(text, chunks, size, nbytes)


@given(st.text(st.sampled_from("あいう。、\n 」「ab.🇯🇵e\u0301"), max_size=2000), st.integers(1, 300))
def test_long_mixed(text, size):
    chunks = norishiro.chunk(text, size=size, overlap=size // 5)
    check_chunks(text, chunks, size, len, size // 5)


@given(texts)
def test_fast_counter_equals_tiktoken(text):
    from norishiro.core.tokenizers_offline import fast_tokenizer, get_encoding

    fast = fast_tokenizer("o200k_base")
    if fast is None:  # pragma: no cover - no native module on this platform
        return
    for name in ("o200k_base", "cl100k_base"):  # the sizer tokenizes and counts with it
        ref = get_encoding(name).encode_ordinary(text)
        fast = fast_tokenizer(name)
        assert fast.encode(text) == ref and fast.count(text) == len(ref)


MD_PIECES = [
    "# 見出し\n",
    "## Sub\n",
    "【所見】\n",
    "■ 2026/1/20\n",
    "S：",
    "O）",
    "所見：",
    "```\n",
    "| a | b |\n",
    "|---|---|\n",
    "| 1 | 2 |\n",
    "以下の所見は認めない：\n",
    "・胸水\n",
    "a\tb\tc\n",
    "Title\n=====\n",
    "\n\n",
    "肺癌の疑いなし。",
    "The biopsy was negative. ",
]
md_texts = st.lists(
    st.one_of(
        st.sampled_from(MD_PIECES),
        st.sampled_from(PIECES),
        st.text(st.characters(blacklist_categories=("Cs",)), max_size=10),
    ),
    max_size=50,
).map("".join)


@given(
    md_texts,
    st.integers(30, 200),
    st.integers(0, 40),
    st.booleans(),
    st.sampled_from(["recursive", "sentences", "fixed"]),
    st.sampled_from(["chars", "tokens"]),
)
def test_structure_and_header_invariants(text, size, overlap, cross, strategy, unit):
    from hypothesis import assume

    from norishiro.errors import ContextHeaderError

    overlap = min(overlap, size - 1)
    doc = norishiro.Document(text, id="p", metadata={"patient_id": "P1"})
    try:
        chunks = norishiro.chunk(
            doc,
            size=size,
            overlap=overlap,
            strategy=strategy,
            cross_sections=cross,
            header_keys=["patient_id", "section"],
            unit=unit,
        )
    except ContextHeaderError:
        assume(False)
    check_chunks(text, chunks, size, len if unit == "chars" else tiktoken_count(), overlap)


# characters at the edges of the cut-safe rule: spaces and newlines next to "/", "'",
# contractions, marks, CJK punctuation, white space Python and Rust disagree on (\x1c)
EDGE = list("  \n\n\r\t/'\u2019\"aZé\u0301あアか\u3099漢。、「」（）.,!?;:1２ー・\u3000\x1c\x85\xa0-_|+") + [
    "'s",
    "'ll",
    "'D",
    "\r\n",
    "\u200d",
    "🇯🇵",
    "\U0001f44d\U0001f3fd",
    "ｶﾞ",
    "²",
    "Ⅻ",
    "\U000309ff",
]
edge_texts = st.lists(
    st.one_of(st.sampled_from(EDGE), st.text(st.characters(blacklist_categories=("Cs",)), max_size=3)), max_size=300
).map("".join)


@settings(max_examples=300)
@given(
    edge_texts,
    st.data(),
    st.sampled_from(["o200k_base", "cl100k_base"]),
    st.sampled_from(["", "# H\n\n", " ", "a"]),
    st.sampled_from([1, 64]),
    st.booleans(),
)
def test_exact_span_counts_from_the_index_equal_tiktoken(text, data, name, head, short, native):
    """A span's count from the whole-text index plus its two recounted ends is tiktoken's
    (compiled, and its Python twin)."""
    from unittest import mock

    from norishiro.core import token_index as sizing

    with compiled_helpers(native):
        index = TiktokenSizer(name).measure(text)
    count = tiktoken_count(name)
    with mock.patch.object(sizing, "_SHORT", short):  # 1: use cut-safe points in tiny spans
        for _ in range(5):
            a = data.draw(st.integers(0, len(text)))
            b = data.draw(st.integers(a, len(text)))
            assert index.count(a, b, head) == count(head + text[a:b])


def test_the_compiled_cut_safe_test_is_the_patterns_on_every_character():
    """``_sentscan.cut_safe`` against ``_CUT_SAFE`` for every character of the BMP and a
    few beyond, before and after a letter, a space, a newline and itself, and at the end
    of the text the lookahead may read (``stop``)."""
    from norishiro.core import compiled
    from norishiro.core.token_index import _CUT_SAFE

    if compiled.native is None:
        pytest.skip("no compiled helpers")
    chars = [chr(c) for c in range(0x10000) if not 0xD800 <= c < 0xE000] + ["\U0001f44d", "\U00020000"]
    wrong = []
    for c in chars:
        for other in ("a", " ", "\n", c):
            for t in (other + c + "x", c + other + "x"):
                for stop in (1, 2, 3):
                    if bool(_CUT_SAFE.search(t, 1, stop) and _CUT_SAFE.search(t, 1, stop).start() == 1) != (
                        compiled.native.cut_safe(t, 1, stop)
                    ):
                        wrong.append((t, stop))
    assert not wrong, wrong[:5]


@pytest.mark.parametrize("native", [True, False])
@pytest.mark.parametrize("name", ["o200k_base", "cl100k_base"])
def test_exact_span_counts_on_every_triple_of_edge_units(name, native):
    """Exhaustive where hypothesis is thin: every cut-safe rule meets every neighbour."""
    from unittest import mock

    from norishiro.core import token_index as sizing

    units = [
        "a",
        "Z",
        " ",
        "\n",
        "\r",
        "/",
        "'",
        "s",
        "。",
        "、",
        "漢",
        "あ",
        "\u0301",
        "1",
        ".",
        "\t",
        "\x1c",
        "\u3000",
        "ll",
        "「",
        ",",
        "\u2019",
        "\xa0",
        "\u0915\u094d",
    ]
    sizer, count = TiktokenSizer(name), tiktoken_count(name)
    wrong = []
    with mock.patch.object(sizing, "_SHORT", 1):
        for triple in itertools.product(units, repeat=3):
            text = "x " + "".join(triple) + " y"
            with compiled_helpers(native):
                index = sizer.measure(text)
            n = len(text)
            # spans from the start, to the end, and with both ends inside (each may be cut-safe itself)
            spans = [(a, n) for a in range(n)] + [(0, b) for b in range(1, n)]
            spans += [(a, b) for a in range(2, n - 2) for b in range(a + 1, n - 1)]
            for a, b in spans:
                if index.count(a, b) != count(text[a:b]):
                    wrong.append((text, a, b))
            for a in range(1, n):  # a head in front: the span's start is no piece boundary then
                if index.count(a, n, "a") != count("a" + text[a:]):
                    wrong.append(("a", text, a))
    assert not wrong, wrong[:5]


@given(texts, st.integers(4, 60), st.integers(1, 30), st.sampled_from(["recursive", "sentences", "fixed"]))
def test_token_overlap_stays_within_its_budget(text, size, overlap, strategy):
    overlap = min(overlap, size - 1)
    count = tiktoken_count("o200k_base")
    chunks = norishiro.chunk(text, size=size, overlap=overlap, strategy=strategy, tokenizer="o200k_base")
    for prev, cur in zip(chunks, chunks[1:]):
        if cur.start < prev.end:
            assert count(text[cur.start : prev.end]) <= overlap


def _lower_case_text_reference(text: str, sample: int = 200_000) -> bool:
    """The first implementation, kept as the reference: one pattern, a Python loop."""
    import regex

    starts = regex.compile(r"(?:[.!?][\"'’”)\]]*[ \t]+|(?:^|\n[ \t]*\n)[ \t]*)(?=\p{L})")
    head = text[:sample]
    low = up = 0
    for m in starts.finditer(head):
        ch = head[m.end()]
        if ch.islower():
            low += 1
        elif ch.isupper():
            up += 1
    return low >= 2 and up * 4 <= low


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from(list(".!?\"')] \t\naAbBéÉ1²Ⅻ日ßǅ\u0301ª")), max_size=60))
def test_lower_case_text_agrees_with_its_reference(text):
    from norishiro.core.sentences import lower_case_text

    assert lower_case_text(text) == _lower_case_text_reference(text)
    assert lower_case_text(text, sample=7) == _lower_case_text_reference(text, sample=7)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.sampled_from(["Dr. Smith", " (see p. 4", ").", " 「はい。」と", "言った。", "\n", "\n\n", " 1. ", "a"]),
        max_size=40,
    )
)
def test_sentence_cuts_of_any_window_are_the_whole_texts(pieces):
    """Sentence cuts are found a paragraph at a time: a window's cuts are the whole text's
    cuts inside that window, whatever window is asked for first."""
    from norishiro.core.boundaries import Boundaries, Level

    text = "".join(pieces)
    whole = Boundaries(text).cuts(Level.SENTENCE)
    for lo in range(0, len(text), 7):
        hi = lo + 23
        assert Boundaries(text).window_cuts(Level.SENTENCE, lo, hi) == [p for p in whole if lo < p <= hi]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(["a", "word", ",", ";", "、", "，", " ", "   ", "\t", "\u3000", "\n", "あ", "漢", "/"])
        | st.just("x\u0301"),
        max_size=40,
    ),
    st.integers(1, 9),
)
def test_clause_and_word_cuts_of_any_window_are_the_whole_texts(pieces, width):
    """A window's clause and word cuts are the whole text's cuts inside it, also when the
    comma and the spaces after it begin before the window (the overlap search and balancing
    look in short windows)."""
    from norishiro.core.boundaries import Boundaries, Level

    text = "".join(pieces)
    for level in (Level.CLAUSE, Level.WORD):
        whole = Boundaries(text).cuts(level)
        for lo in range(0, len(text)):
            hi = lo + width
            assert Boundaries(text).window_cuts(level, lo, hi) == [p for p in whole if lo < p <= hi], (level, lo)


_SENTENCE_PIECES = [
    "Dr. Smith",
    " (see p. 4",
    ").",
    " 「はい。」と",
    "言った。",
    "『猫。』の",
    "（注。）に",
    "\n",
    "\r\n",
    "\x1c",
    " 1. ",
    "#2. ",
    "１．",
    "65．5",
    "Yahoo!ニュース",
    "e.g. bla",
    "U.S. ",
    "a.html",
    "3.5 mg. Next",
    "up. to",
    "モーニング娘。は",
    "？！",
    "...",
    '"',
    "'",
    "] ",
    "[",
    "x@y.org. ",
    "www.a. b",
    "E. coli",
    "No. (2)",
    "A. ",
    "ok 😀 Next",
    "e\u0301. É",
    "．",
    "。 ",
    "  ",
    "\u3000",
    "a" * 45 + ". B",
    "Eq. #3",
    "1.5%. The",
    "日本",
    "楽しかった(笑)また",
    "行くよ♪♪ 次",
    "ok ^_^ Yes",
    "だ（泣）で",
    "すごい👍🏽明日",
    "など",
    "なんて",
    "がん",
    "が",
    "を",
    "っ",
    "\t",
    "\x00",
    "\x7f",
    "’s. ",
    "１. ",
    "Ｘ. y",
    ". 高",
    "１２．３",
    "(1). ",
    "#(3). ",
    "http://x. ",
    "a.b.c. D",
    "abcdefg.hi. J",
    "ä. b",
    "」",
    "『",
    "（",
    "は",
    "の",
    "から",
    "\u3099",
    "\u302a",
    "\u0301",
    "\u200d",
    "\x85",
    "\u2028",
    "\u00a0",
    "\x1f",
]

# characters the compiled loop tests one by one: terminators, closers, spaces, particles,
# marks, digits of other scripts
_SENTENCE_CHARS = (
    "。｡！？!?．.」』）)】］〉》〕｝]}”’\"'「『（(【［〈《〔｛[{“‘ \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\u2028\u2029"
    "\u00a0\u3000\u2003とっなどんてがをはのにでへもやからまよ漢カナaAbZz019１٣#@:/w\u0301\u3099\u302a\u200d\ufe0f😀ä"
)


def test_sentence_loops_agree_on_every_short_combination():
    """Every terminator, closer and spacing before every kind of next word (particles,
    quotes, letters, digits, marks), inside and outside brackets: both loops as the reference."""
    import itertools

    from reference_sentences import reference_sentence_and_lower_cuts

    loops = _sentence_loops()
    nexts = [
        "と",
        "っ",
        "など",
        "なんて",
        "なに",
        "が",
        "がん",
        "を",
        "は",
        "はい",
        "の",
        "「x」と",
        "『y』",
        "（z）に",
    ]
    nexts += ["から", "まで", "A", "a", "1", "１", "漢", "カ", "\u3099", "\u0301", "\n", "", "(2)", "#3", "é"]
    for head, term, close, space, nxt in itertools.product(
        ["", "「", "(", "word", "No", "e.g", "1", "x 12", "Yahoo", "ＰＯＤ１", "言った"],
        ["。", ".", "!", "？", "．", "...", "?!"],
        ["", "」", ")", '"'],
        ["", " "],
        nexts,
    ):
        text = head + term + close + space + nxt + "次。"
        want = reference_sentence_and_lower_cuts(text)
        for cuts in loops:
            assert cuts(text) == want, text


def test_compiled_character_classes_are_the_python_ones():
    """The compiled loop's fixed character tests (and the table its searches read), over
    every code point, against the patterns the Python loop uses."""
    import re

    import regex

    from norishiro.core import chars, compiled, sentences

    if compiled.native is None:
        pytest.skip("the compiled sentence loop was not built (no C compiler at install)")
    term = re.compile("[。｡！？!?．.]")
    hspace = re.compile(chars.HSPACE_STD)
    cjk = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}]")
    lower = regex.compile(r"\p{Ll}")
    pictographic = regex.compile(r"\p{Extended_Pictographic}")
    rx_digit, rx_space = regex.compile(r"\d"), regex.compile(r"\s")
    assert sentences._SENTENCE_CAND.pattern.startswith(r"([。｡！？!?．.]+)")
    classes = compiled.native.classes
    for cp in range(0x110000):
        ch = chr(cp)
        is_term, is_break, is_hspace, no_extend, kanji_kana, emote_hint, bracket, glued_first, *more = classes(cp)
        emote_start, digit, space = more
        if digit >= 0:  # regex's \d where the compiled tests know it (the glued rows' dates)
            assert digit == bool(rx_digit.match(ch)), hex(cp)
        assert space == bool(rx_space.match(ch)), hex(cp)
        assert emote_hint == bool(sentences._EMOTE_HINT.match(ch)), hex(cp)
        # every character an emote match can begin with (but the bracket of (笑)) is a start,
        # and every start a hint
        if pictographic.match(ch) or ch in "^♪☆★♡♥":
            assert emote_start, hex(cp)
        if emote_start:
            assert emote_hint, hex(cp)
        assert bracket == bool(sentences._BRACKETS.match(ch)), hex(cp)
        assert glued_first == (ch in "|H/【■◆●"), hex(cp)
        assert is_term == bool(term.match(ch)), hex(cp)
        assert is_break == bool(chars.BREAK.match(ch)), hex(cp)
        assert is_hspace == bool(hspace.match(ch)), hex(cp)
        if no_extend:
            assert not chars.EXTEND.match(ch), hex(cp)
        if kanji_kana:
            assert cjk.match(ch) and not lower.match(ch) and not ch.isdigit() and not chars.EXTEND.match(ch), hex(cp)


def test_the_compiled_sentence_loop_is_built_where_ci_runs():
    """.ci/run installs with a C compiler and says so: the compiled loop must then be there
    (a silent fallback to Python would hide a build that broke)."""
    import os

    from norishiro.core import compiled

    if not os.environ.get("NORISHIRO_EXPECT_COMPILED"):
        pytest.skip("NORISHIRO_EXPECT_COMPILED is not set (only .ci/run promises a compiler)")
    assert compiled.native is not None, "src/norishiro/core/_sentscan.c was not built: see pip's output"


def test_sentence_loops_agree_on_words_after_japanese_marks():
    """The word before a full stop where it follows a kanji, a kana, an opening bracket or
    the marks a word's start drops (る。2. 昼食, 【手順】1. 仰臥位): both loops as the reference."""
    import itertools

    from reference_sentences import reference_sentence_and_lower_cuts

    loops = _sentence_loops()
    for before, marks, word, nxt in itertools.product(
        ["", "る", "漢", "カ", "ー", "「", "【", "（", "x", " ", "\u3000", "\u00a0", "é"],
        ["", "。", "、", "．", "！", "？", "，", "。!", "!。", "(。", '"。', "】", "」。"],
        ["", "2", "12", "#1", "(3)", "e.g", "Dr", "x", "a。b", "No", "U.S", "a@b", "】1", "：1", "x・y", "』e.g", "é"],
        ["昼", "A", "a", "1", "(", "「"],
    ):
        text = before + marks + word + ". " + nxt + "次。"
        want = reference_sentence_and_lower_cuts(text)
        for cuts in loops:
            assert cuts(text) == want, text


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=_SENTENCE_CHARS, max_size=300), st.integers(0, 300), st.integers(0, 300))
def test_sentence_loops_agree_char_by_char(text, a, b):
    """Both loops and the reference agree on texts dense in what the rules look at."""
    from reference_sentences import reference_sentence_and_lower_cuts

    lo, hi = min(a, b), max(a, b)
    for cuts in _sentence_loops():
        assert cuts(text) == reference_sentence_and_lower_cuts(text)
        assert cuts(text, lo, hi) == reference_sentence_and_lower_cuts(text, lo, hi)


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.one_of(st.sampled_from(_SENTENCE_PIECES), st.text(max_size=4)), max_size=60),
    st.integers(0, 400),
    st.integers(0, 400),
)
def test_sentence_rules_agree_with_their_reference(pieces, a, b):
    """The fast candidate loop (bracket stack touched only at brackets, the word before a
    full stop read by one reversed match) finds exactly the reference loop's cuts."""
    from reference_sentences import reference_sentence_and_lower_cuts

    text = "".join(pieces)
    lo, hi = min(a, b), max(a, b)
    for cuts in _sentence_loops():
        assert cuts(text) == reference_sentence_and_lower_cuts(text)
        assert cuts(text, lo, hi) == reference_sentence_and_lower_cuts(text, lo, hi)


def _sentence_loops():
    """``sentence_and_lower_cuts`` with the Python loop, and with the compiled one when it
    was built (CI builds it: setup.py, and a test below says when it is missing)."""
    from norishiro.core import compiled, sentences

    def with_loop(native):
        def cuts(text, lo=0, hi=None):
            with compiled_helpers(native):
                return sentences.sentence_and_lower_cuts(text, lo, hi)

        return cuts

    return [with_loop(False)] + ([with_loop(True)] if compiled.native is not None else [])


def _pure(function, *args):
    """``function(*args)`` with the compiled helpers off."""
    with compiled_helpers(False):
        return function(*args)


@pytest.mark.parametrize("gap", range(235, 246))
@pytest.mark.parametrize("opener,closer", [("「", "」"), ("(", ")")])
def test_stale_brackets_are_dropped_where_the_reference_drops_them(gap, opener, closer):
    """An opening bracket left open longer than the limit stops hiding sentence ends at the
    same candidate in both loops, and its late closer then pops the same stack."""
    from reference_sentences import reference_sentence_and_lower_cuts

    for text in (
        opener + "あ" * gap + "。い。" + closer + "う。え。",
        "x " + opener + "word " * (gap // 5) + "w" * (gap % 5) + ". Next. Then" + closer + ". Last. End",
        opener + "「" + "あ" * gap + "。」と" + closer + "。お。",
    ):
        for cuts in _sentence_loops():
            assert cuts(text) == reference_sentence_and_lower_cuts(text)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["a", " ", "|", "||", "【注", "■", "/dL", "/L", "Na", "CRP 3", "2026/1/10", "\t", "mmHg", "9", "/分"]
        )
        | st.text(max_size=3),
        max_size=40,
    )
)
def test_glued_line_cuts_agree_without_their_quick_look(pieces):
    """The quick look for what a glued row needs never hides a cut the patterns find."""
    from norishiro.core import glued

    text = "".join(pieces)
    looks = []
    for on in (False, True):  # the quick look in Python, and compiled
        with compiled_helpers(on):
            looks.append([glued.glued_line_cuts(text, lo, lo + 17) for lo in range(0, len(text) + 1, 5)])
    original = glued._maybe_glued
    glued._maybe_glued = lambda text, a, b: True
    try:
        slow = [glued.glued_line_cuts(text, lo, lo + 17) for lo in range(0, len(text) + 1, 5)]
    finally:
        glued._maybe_glued = original
    assert looks[0] == slow and looks[1] == slow


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["S", "O）", "A)", "・", "■", "- ", "* ", "#1", "(2)", "（3）", "12.", "１)", "⑳", "【", "2026/1/5"]
        )
        | st.sampled_from(["所見", "Impression", ":", "：", "（注）", "(note)", " ", "\n", "x", "٣", "²"])
        | st.sampled_from(["Blood pressure x", "(measured twice, at 9)", "（朝と夕の二回、安静時に測定した値）"])
        | st.text(max_size=3),
        max_size=30,
    ),
)
@example(["Blood pressure x", "(measured twice, at 9)", ":"])  # the farthest colon a label may have
@example(["血圧", "（朝と夕の二回、安静時に測定した値）", "：", "S", "）", "2026/1/5", "⑳"])
def test_line_start_quick_look_never_hides_a_match(pieces):
    """The first-character and colon look before LINE_START agrees with the pattern, at
    every position."""
    from norishiro.core import line_starts

    text = "".join(pieces)
    for p in range(len(text) + 1):
        assert line_starts.line_start_at(text, p) == (line_starts.LINE_START.match(text, p) is not None), p


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from([". ", "! ", "? ", ".. ", '." ', "’) ", "\t", "\n\n", "a", "B", "7", "é", "x"]), max_size=40
    )
)
def test_sentence_start_letters_are_found_per_terminator_as_by_one_pattern(pieces):
    """lower_case_text's three literal-first patterns find the letters one class-first
    pattern finds (matches cannot overlap: none holds a terminator after its first)."""
    import re

    from norishiro.core import sentences

    text = "".join(pieces)
    one = re.compile(r"[.!?][\"'’”)\]]*[ \t]+([^\W\d_])").findall(text)
    assert sorted(x for p in sentences._STARTS_AFTER_END for x in p.findall(text)) == sorted(one)


# the word patterns as runs of white space (their ends are the cuts): where a run reached the
# search's end, the engine tried every start inside it, so a long run cost its length squared
_WORD_RUNS = regex.compile(
    r"\s+(?=\S)|(?<=\p{Hiragana})(?=[\p{Han}\p{Katakana}A-Za-z0-9Ａ-Ｚａ-ｚ０-９])"
    r"|(?<=[\p{Han}\p{Katakana}ー])(?=[A-Za-z0-9(（「【])|(?<=[・／/])(?=\S)"
)
_WORD_RUNS_ASCII = re.compile(r"[\t\n\x0b\x0c\r ]+(?=[^\t\n\x0b\x0c\r ])|(?<=/)(?=[^\t\n\x0b\x0c\r ])")


_WORD_PIECES = [" ", "   ", "\t", "\r", "\n", "\x0b", "\x0c", "\x1c", "\x1f", "\x85", "\u3000", "\xa0", "a", "x1"]
_WORD_PIECES += ["A", "/", "・", "あ", "ひら", "漢", "カナ", "ー", "(", "「"]


@settings(max_examples=1000, deadline=None)
@given(
    st.lists(st.sampled_from(_WORD_PIECES) | st.text(max_size=2), max_size=30).map("".join),
    st.integers(0, 60),
    st.integers(0, 60),
)
def test_word_cuts_are_the_ends_of_white_space_runs(text, a, b):
    """The word pattern matches the last white space of a run (one character and one look
    ahead per position, linear in the window): the same cuts in every window as the ends of
    the whole runs the earlier pattern matched, and the script changes of Japanese text."""
    from norishiro.core import boundaries

    bnd = boundaries.Boundaries(text)
    for lo, hi in ((min(a, b), max(a, b)), (0, len(text))):
        assert bnd._regex_cuts(boundaries._WORD, lo, hi) == bnd._regex_cuts(_WORD_RUNS, lo, hi)


@settings(max_examples=1000, deadline=None)
@given(
    st.lists(st.sampled_from(_WORD_PIECES[:10] + ["a", "x1", "A", "/", "   a", "(", ","]), max_size=30).map("".join),
    st.integers(0, 60),
    st.integers(0, 60),
)
def test_ascii_word_cuts_are_the_ends_of_white_space_runs(text, a, b):
    """The same for the pattern of ASCII text."""
    from norishiro.core import boundaries

    bnd = boundaries.Boundaries(text)
    for lo, hi in ((min(a, b), max(a, b)), (0, len(text))):
        assert bnd._regex_cuts(boundaries._WORD_ASCII, lo, hi) == bnd._regex_cuts(_WORD_RUNS_ASCII, lo, hi)


@settings(max_examples=400, deadline=None)
@given(
    st.text(alphabet=st.sampled_from(",; \t\n\r\x0b\x0c\x1c\x1fa/-.") | st.characters(max_codepoint=127), max_size=80),
    st.integers(0, 80),
    st.integers(0, 80),
)
def test_word_cuts_of_ascii_text_match_the_general_pattern(text, a, b):
    """The ASCII clause and word patterns find the general patterns' cuts on ASCII text."""
    from norishiro.core import boundaries

    lo, hi = min(a, b), max(a, b)
    bnd = boundaries.Boundaries(text)
    assert bnd.window_cuts(boundaries.Level.WORD, lo, hi) == bnd._regex_cuts(boundaries._WORD, lo, hi)
    assert bnd.window_cuts(boundaries.Level.CLAUSE, lo, hi) == bnd._regex_cuts(boundaries._CLAUSE, lo, hi)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["Word. ", "Next: ", "- item ", "1. ", "\n", "\n\n", "a line of some text\n", "||", "。", "S）"]
        )
        | st.sampled_from(["wrapped words that go on\nand on. ", "\r\n", "所見：", "2026/1/5 ", "x" * 30])
        | st.sampled_from(["0.71\t2026/02/24\t", "mg/dL2026/1/17\t", "【注】", "mEq/LCRP 18", "| a || b |"])
        | st.text(max_size=4),
        max_size=40,
    ),
    st.integers(0, 600),
    st.integers(0, 600),
)
def test_line_cuts_from_the_end_are_the_window_reversed(pieces, a, b):
    """The packer's line cuts read from the end are the line window's, reversed, whether the
    window is read from its last newline (tail) or whole (windows before the text end, as the
    packer asks)."""
    from norishiro.core import boundaries

    text = "".join(pieces)
    lo, hi = min(a, b, len(text)), min(max(a, b), len(text) - 1)
    if hi <= lo:  # window_cuts answers [] before any line window is read
        return
    for tail in (True, False):
        cuts = boundaries.Boundaries(text)._line_window(lo, hi, tail_only=tail, packing=True)
        assert list(boundaries.Boundaries(text).line_cuts_from_end(lo, hi, tail)) == cuts[::-1]
        # merged with the sentence level, the line level adds only newlines and glued rows
        whole = boundaries.Boundaries(text)
        both = set(whole.window_cuts(boundaries.Level.LINE, lo, hi)) | set(whole._sentence_window(lo, hi))
        fresh = boundaries.Boundaries(text)
        assert set(fresh.line_cuts_beside_sentences(lo, hi)) | set(fresh._sentence_window(lo, hi)) == both
        if not tail:  # the farthest cut does not depend on reading only the tail
            assert next(boundaries.Boundaries(text).line_cuts_from_end(lo, hi, True), None) == (
                cuts[-1] if cuts else None
            )


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(["Word. ", "next, ", "wrapped words go on\nand on. ", "\n", "\n\n", "所見：", "。", "\r\n"])
        | st.sampled_from(["0.71\t2026/02/24\t", "| a || b |", "line of text\n", "e.g. x ", "日本語の文"])
        | st.text(max_size=4),
        max_size=40,
    ),
    st.integers(0, 600),
    st.integers(0, 600),
    st.sampled_from(["sentence", "lower_sentence", "clause", "word"]),
)
def test_overlap_starts_found_one_by_one_are_the_merged_list(pieces, a, b, level):
    """The overlap search's lazy starts (soft-wrap tests only when reached) are the merged
    list of every level up to the overlap level, in order."""
    from norishiro.core.boundaries import Level
    from norishiro.core.measure import CharSizer
    from norishiro.core.packer import Packer

    text = "".join(pieces)
    lo, hi = min(a, b, len(text)), min(max(a, b), len(text))
    lv = Level[level.upper()]
    lazy = Packer(text, CharSizer().measure(text), 50, overlap=10)
    whole = Packer(text, CharSizer().measure(text), 50, overlap=10)
    s, e = 0, len(text)
    assert list(lazy._overlap_iter(lv, s, e, lo, hi)) == whole._overlap_cands(lv, s, e, lo, hi)
    # the search looks in successive windows: split anywhere, they find the same starts
    # (a comma and its spaces, or a newline snapped past combining marks, across a split)
    cut = (lo + hi) // 2
    split = list(lazy._overlap_iter(lv, s, e, lo, cut)) + list(lazy._overlap_iter(lv, s, e, cut, hi))
    assert split == whole._overlap_cands(lv, s, e, lo, hi)


@settings(max_examples=300, deadline=None)
@given(
    texts,
    st.integers(1, 400),
    st.sampled_from([None, "", "# Title > Part\n\n", "見出し：\n"]),
    st.sampled_from(["recursive", "sentences", "fixed"]),
    st.booleans(),
)
def test_a_region_that_fits_whole_gives_the_packers_span(text, size, head, strategy, heads):
    """The whole-region shortcut (no packer for a section that fits) gives exactly the
    packer's spans, whatever the chunker, the header or the headings."""
    from norishiro.chunkers import CHUNKERS
    from norishiro.chunkers.base import Region
    from norishiro.core.measure import CharSizer
    from norishiro.core.packer import Packer

    sizer = CharSizer()
    chunker = CHUNKERS[strategy]()
    prefix = None if head is None else (lambda p, h=head: h)
    hs = [(0, min(3, len(text)))] if heads and text else []
    region = Region(text, 0, sizer, sizer.measure(text), size, prefix=prefix, heads=hs)
    packer = Packer(
        text,
        region.measure,
        size,
        0,
        end_levels=chunker.end_levels,
        overlap_levels=chunker.overlap_levels,
        prefix=prefix,
        heads=hs,
        merge_coarser=chunker.merge_coarser,
        balance=chunker.balances,
    )
    assert list(chunker.spans(region)) == list(packer.spans())


@settings(max_examples=300, deadline=None)
@given(
    texts,
    st.integers(1, 120),
    st.lists(st.tuples(st.integers(0, 400), st.integers(0, 200)), max_size=6),
    st.booleans(),
    st.sampled_from(["recursive", "sentences"]),
    st.booleans(),
)
@example("00||" + "0" * 32 + "\x850", 37, [(4, 34)], False, "recursive", False)
def test_a_window_ending_in_an_atom_is_cut_before_it_with_the_same_spans(text, size, raw, tokens, strategy, balance):
    """The packer skips the part of a window that lies in the atom holding its reach: the
    spans are those of the search over the whole window (atoms may overlap).

    The line cuts are taken whole in both runs: when a newline lies in the second half of a
    window, the packer's line search takes the text for one that kept its lines and looks
    for no inferred or glued line start. That reads the window, not the position: a
    newline inside the atom (cut off by the narrowing) would decide it for the whole window
    (a glued row start before the atom, after "00||", was skipped so)."""
    from unittest import mock

    from norishiro.chunkers import CHUNKERS
    from norishiro.core.boundaries import Boundaries
    from norishiro.core.measure import CharSizer
    from norishiro.core.packer import Packer

    line_window = Boundaries._line_window

    n = len(text)
    atoms = [(min(a, n), min(a + w, n)) for a, w in raw]
    sizer = _o200k if tokens else CharSizer()
    chunker = CHUNKERS[strategy]()

    def spans():
        p = Packer(text, sizer.measure(text), size, 0, end_levels=chunker.end_levels, atoms=atoms, balance=balance)
        return list(p.spans())

    whole = mock.patch.multiple(
        Boundaries,
        _line_window=lambda self, lo, hi, tail_only=False, packing=False: line_window(self, lo, hi),
        line_cuts_from_end=lambda self, lo, hi, tail_only: reversed(line_window(self, lo, hi)),
    )
    # an atom's start that begins a line is a line cut when it holds the window's end (the
    # narrowing finds it; tests/test_softwrap.py): apart from that, the spans are the same
    with whole, mock.patch.object(Packer, "_line_before_atom", lambda self, s, a, avoid: False):
        got = spans()
        with mock.patch.object(Packer, "_before_atom", lambda self, hi: hi):
            assert got == spans()


@given(
    st.lists(
        st.sampled_from(["\n", "\n\n", " \n", "\r\n", "a", "あ", "\u0301", "\u200d", "\uff9e", "\x0c"]), max_size=40
    )
)
def test_line_and_paragraph_cuts_are_the_same_with_and_without_the_quick_path(pieces):
    """In ASCII text the line and paragraph cuts skip the snapping loop: same cuts."""
    from norishiro.core.boundaries import Boundaries, Level

    text = "".join(pieces)
    fast, slow = Boundaries(text), Boundaries(text)
    slow._ascii = False
    n = len(text)
    assert fast.cuts(Level.PARAGRAPH) == slow.cuts(Level.PARAGRAPH)
    for lo in range(0, n, 3):
        assert fast.newline_cuts(lo, n) == slow.newline_cuts(lo, n)
        assert fast.newline_cuts(0, lo) == slow.newline_cuts(0, lo)


@settings(max_examples=200, deadline=None)
@given(texts, st.integers(1, 60), st.booleans())
def test_a_balanced_end_is_never_past_the_greedy_one(text, size, tokens):
    """Balancing moves an end only back (to a cut of the same level), and only when what is
    left needs two to four chunks; every span stays within the budget."""
    from norishiro.core.measure import CharSizer
    from norishiro.core.packer import Packer

    sizer = _o200k if tokens else CharSizer()
    m = sizer.measure(text)
    balanced = Packer(text, m, size, balance=True)
    greedy = Packer(text, m, size)
    for s, e, n in balanced.spans():
        g = greedy.find_end(s, s)
        if g is None:  # one grapheme over the budget: emitted alone by both
            continue
        assert e <= g
        rest = greedy.estimate(s, len(text))
        if e < g:
            assert 2 <= -(-rest // size) <= 4
        assert n <= size or e == greedy.bnd.first_grapheme_end(s)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(["\n", "\n\n", " \n", "a", "あ。", "Dr. ", "S）", "1. ", "\u0301", "\u200d", ". B", "||"]),
        max_size=40,
    ),
    st.booleans(),
)
def test_line_cuts_are_the_same_when_a_window_holds_no_newline(pieces, packing):
    """A window without a newline skips the newline search: the same line cuts (a cut right
    after a newline can be snapped forward past combining marks, into the window)."""
    from unittest import mock

    from norishiro.core import boundaries
    from norishiro.core.boundaries import Boundaries, Level

    text = "".join(pieces)
    n = len(text)
    windows = [(lo, hi) for lo in range(0, n + 1, 2) for hi in range(lo + 1, n + 1, 3)]
    fast = [Boundaries(text).window_cuts(Level.LINE, lo, hi, packing=packing) for lo, hi in windows]
    with mock.patch.object(boundaries, "no_newline", lambda text, lo, hi: False):
        slow = [Boundaries(text).window_cuts(Level.LINE, lo, hi, packing=packing) for lo, hi in windows]
    assert fast == slow


@settings(max_examples=400, deadline=None)
@given(
    st.text(st.sampled_from(list("0123456789٣/dmμuLlAZz分|Hg【■◆● a")), max_size=40)
    # long runs of plain ASCII, which the compiled look skips sixteen or eight at a time
    | st.lists(st.sampled_from(["plain words go ", "mmHg", "||", "12/34", "5 mg/dL", "x" * 20, "【", "é", "日"])).map(
        "".join
    ),
    st.integers(0, 300),
    st.integers(0, 300),
)
def test_the_compiled_glued_row_hint_is_the_patterns(text, a, b):
    """The compiled look for what a glued row needs says yes exactly where the pipes, mmHg,
    【■◆● or _GLUED_SLASH (whose look back may read before the window) are."""
    from norishiro.core import compiled, glued

    if not compiled.active():
        pytest.skip("the compiled module is not built here")
    a, b = min(a, len(text)), min(b, len(text))
    seg = text[a:b]
    want = (
        "||" in seg
        or "mmHg" in seg
        or any(c in seg for c in "【■◆●")
        or glued._GLUED_SLASH.search(text, a, b) is not None
    )
    assert (compiled.native.glued_hint(text, a, b) == 1) == want


def test_the_compiled_glued_and_emote_hints_are_the_patterns_in_long_plain_runs():
    """The same, and the emote hints, over seeded texts of long ASCII runs (which the compiled
    looks skip sixteen or eight characters at a time) with the marks among them."""
    import random

    from norishiro.core import compiled, glued, sentences

    if not compiled.active():
        pytest.skip("the compiled module is not built here")
    rng = random.Random(13)
    pieces = ["plain words go ", "x" * 20, "mmHg", "||", "|", "m", "12/34", "/", "^", "^_^", "【", "é", "日", "©", "😀"]
    pieces += ["→", "①", "■", "(", "（", "笑", "泣", ")", "）", "♪", "☆", "★", "⬆", "\u200d", "\ufe0f", "🏻", "た", "A"]
    pieces += ["(笑)", "（泣）"]
    for _ in range(4000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        a = rng.randint(0, len(text))
        b = rng.randint(a, len(text))
        seg = text[a:b]
        want = "||" in seg or "mmHg" in seg or any(c in seg for c in "【■◆●") or glued._GLUED_SLASH.search(text, a, b)
        assert (compiled.native.glued_hint(text, a, b) == 1) == bool(want), (text, a, b)
        # the hints kept are hints, and one left out is where no emote begins, at it or
        # the character before it (the two places sentences._emotes tries)
        hints = [i for i in range(a, b) if sentences._EMOTE_HINT.match(text[i])]
        kept = compiled.native.emote_hints(text, a, b)
        assert set(kept) <= set(hints), (text, a, b)
        for i in set(hints) - set(kept):
            assert not any(sentences._EMOTE.match(text, j, b) for j in (i - 1, i) if j >= 0), (text, a, b, i)
        assert sentences.emote_cuts(text, a, b) == _pure(sentences.emote_cuts, text, a, b), (text, a, b)


@settings(max_examples=400, deadline=None)
@given(
    st.text(st.sampled_from(list("SOAPx)）:：0٣²①【・-* aあ")), max_size=60),
    st.lists(st.integers(-2, 62), max_size=12),
)
def test_the_compiled_line_start_hints_are_the_python_ones(text, positions):
    """Where a lost line may begin (a first character of the line-start pattern, a digit,
    S/O/A/P before a parenthesis, a colon within 40 characters): the compiled filter keeps
    the positions the Python test keeps."""
    from norishiro.core import compiled, line_starts

    if not compiled.active():
        pytest.skip("the compiled module is not built here")
    want = [p for p in positions if 0 <= p < len(text) and line_starts.may_start_line(text, p)]
    assert compiled.native.line_start_hints(text, positions, line_starts.FIRSTS) == want


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(["\n", "\n\n", " \n", "\t\n", "\u3000\n", "a", "あ", "\u0301", "\u200d", " "])
        | st.sampled_from(["\r\n", "\r\n\r\n", " \r\n", "\x1f", "\x1f\n", "\xa0\r\n", "\r"]),
        max_size=40,
    )
)
def test_compiled_paragraph_cuts_are_the_patterns(pieces):
    """The blank-line runs found in C, snapped past combining marks where one may follow,
    are the paragraph pattern's cuts, in text with "\\n" or "\\r\\n" line ends."""
    from unittest import mock

    from norishiro.core import compiled
    from norishiro.core.boundaries import Boundaries, Level

    if not compiled.active():
        pytest.skip("the compiled module is not built here")
    text = "".join(pieces)
    fast = Boundaries(text).cuts(Level.PARAGRAPH)
    with mock.patch.object(compiled, "PURE", True):
        assert Boundaries(text).cuts(Level.PARAGRAPH) == fast


_PARA_PIECES = st.lists(
    st.sampled_from(["word ", "文です。", "A line.\n", "\n\n", "\n \n", "x" * 30, "é\u0301", "\r\n\r\n"]), max_size=60
)


@settings(max_examples=300, deadline=None)
@given(_PARA_PIECES, st.integers(3, 120), st.booleans())
def test_the_plain_packers_end_is_find_ends(pieces, size, balance):
    """In plain text (characters, no prefix, atom or heading) the packer's written-out end,
    balancing included, is the general search's, wherever a chunk starts and must reach
    (from its own start, from each paragraph cut within the budget, and just before one)."""
    from norishiro.core.measure import CharSizer
    from norishiro.core.packer import Packer

    text = "".join(pieces)
    n = len(text)
    if n <= size:
        return
    p = Packer(text, CharSizer().measure(text), size, balance=balance)
    para = p._para = p.bnd.paragraph_cuts()
    for s in range(0, n, max(1, n // 23)):
        reach = [c for c in para if s <= c <= s + size]
        for lo in {s, *reach, *(c - 1 for c in reach if c > s)}:
            assert p._plain_end(s, lo) == p.find_end(s, lo), (text, s, lo)


@given(texts)
def test_the_compiled_token_ends_are_the_numpy_running_sum(text):
    """The token index's character ends: the compiled running sum over the tokenizer's list
    and the numpy one (the pure-Python path) agree, and end at the text's length."""
    from compiled_mode import compiled_helpers
    from norishiro.core import compiled
    from norishiro.core.measure import TiktokenSizer

    if not compiled.active():
        pytest.skip("the compiled module is not built here")
    for name in ("o200k_base", "cl100k_base"):
        sizer = TiktokenSizer(name)
        fast = sizer.measure(text).ends
        with compiled_helpers(False):
            slow = sizer.measure(text).ends
        assert fast == slow and (not text or fast[-1] == len(text))


@given(st.lists(st.integers(-(2**40), 2**40), max_size=60), st.lists(st.integers(-(2**41), 2**41), max_size=20))
@example([5, 5, 5], [4, 5, 6])
@example([], [0])
def test_the_compiled_index_search_is_bisect(values, probes):
    """The token index's compiled searches give bisect_right and bisect_left, duplicates
    and the ends included; anything but an array('q') is refused, not misread."""
    from norishiro.core import compiled

    if not compiled.active():
        pytest.skip("the compiled module is not built here")
    ends = array("q", sorted(values))
    for x in probes + values + [min(values, default=0) - 1, max(values, default=0) + 1]:
        assert compiled.native.ends_right(ends, x) == bisect_right(ends, x)
        assert compiled.native.ends_left(ends, x) == bisect_left(ends, x)
    for wrong in (array("i", [1, 2]), array("d", [1.0]), b"12345678"):
        with pytest.raises(TypeError):
            compiled.native.ends_right(wrong, 1)


@given(texts, st.integers(1, 40), st.data())
def test_a_token_index_from_a_list_or_an_array_answers_alike(text, budget, data):
    """A token index given as a list (a model tokenizer's offsets) is the same measure as
    the array the tiktoken sizer makes, compiled or not."""
    from compiled_mode import compiled_helpers
    from norishiro.core.measure import TiktokenSizer, TokenIndexMeasure

    sizer = TiktokenSizer("o200k_base")
    m = sizer.measure(text)
    n = len(text)
    a = data.draw(st.integers(0, n))
    b = data.draw(st.integers(a, n))
    for compiled_on in (True, False):
        with compiled_helpers(compiled_on):
            other = TokenIndexMeasure(text, list(m.ends), sizer.count)
            assert type(other.ends) is array and other.ends == m.ends
            for x in (m, other):
                est = min(bisect_left(m.ends, b) + 1, len(m.ends)) - bisect_right(m.ends, a)
                assert x.estimate(a, b) == (est if b > a else 0)
                i = bisect_right(m.ends, a) + budget - 1
                assert x.reach(a, budget) == (n if i >= len(m.ends) else m.ends[i])
                i = bisect_right(m.ends, b) - budget - 1
                assert x.back(b, budget) == (m.ends[i] if i >= 0 else 0)
                k = budget + bisect_right(m.ends, a) - 1
                cands = sorted({a, b, n})
                if k >= len(m.ends) - 1:
                    want = len(cands) - 1
                else:
                    want = bisect_right(cands, m.ends[k]) - 1 if k >= 0 else -1
                assert x.last_within(a, cands, budget) == want


def test_the_compiled_token_ends_refuse_an_id_outside_the_table():
    from norishiro.core import compiled

    if not compiled.active():
        pytest.skip("the compiled module is not built here")
    assert array("q", compiled.native.token_ends([0, 2, 1], b"\x01\x02\x03")) == array("q", [1, 4, 6])
    for bad in ([3], [-1]):
        with pytest.raises(ValueError, match="not in the table"):
            compiled.native.token_ends(bad, b"\x01\x02\x03")
    with pytest.raises(TypeError):
        compiled.native.token_ends([1.5], b"\x01\x02\x03")


@pytest.mark.parametrize("wide", ["", "日", "日あア漢〜"])
def test_the_compiled_emote_hints_are_found_at_every_place_of_a_block(wide):
    """A hint (♪, ^, ©, 〰 〽 ㊗ ㊙, 笑 after a bracket) at every place of a block of eight or
    sixteen code units, among characters the block test lets through but that are no hint
    (é, →, ¿, U+00A8) and kana and kanji it passes over: the compiled look finds it as the
    character-by-character look does."""
    from norishiro.core import compiled, sentences

    if not compiled.active():
        pytest.skip("the compiled module is not built here")
    base = wide + "aé→x¿\u00a8 " * 6
    marks = ("^", "©") + (("♪", "〰", "〽", "㊗", "㊙", "（笑", "(泣", "(汗") if wide else ())
    for mark in marks:
        for k in range(len(base) + 1):
            text = base[:k] + mark + base[k:]
            hints = [i for i in range(len(text)) if sentences._EMOTE_HINT.match(text[i])]
            kept = compiled.native.emote_hints(text, 0, len(text))
            assert k + len(mark) - 1 in kept and set(kept) <= set(hints), (text, k)


_LINE_START_ALPHABET = list("SOAPx)）(（:：/0١٣２8 \n・●①⑳【-*#年.．ーアあ漢é々〆ｱ、「」゠")
_LINE_START_ALPHABET += ["𠀋", "𝟘", "ab", "12", "2026"]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(_LINE_START_ALPHABET), max_size=30), st.integers(0, 40))
def test_the_compiled_line_start_match_is_the_pattern(pieces, p):
    """``_sentscan.line_start_match`` says what ``LINE_START.match`` says wherever it knows
    every character it reads (-1 elsewhere: the pattern decides), labels with brackets,
    numbered items, dates and bullets among them."""
    from norishiro.core import compiled, line_starts

    if not compiled.active():
        pytest.skip("the compiled module is not built here")
    text = "".join(pieces)
    got = compiled.native.line_start_match(text, p)
    want = p < len(text) and line_starts.LINE_START.match(text, p) is not None
    assert got in (-1, 0, 1)
    if got >= 0:
        assert got == want, (text, p)


@pytest.mark.parametrize(
    "text, want",
    [
        ("所見：異常なし", 1),
        ("血液検査（2/20）：Hb 12.1", 1),
        ("Impression: stable", 1),
        ("S）頭痛", 1),
        ("1. 主訴", 1),
        ("12) 経過", 1),
        ("(3) 方針", 1),
        ("2026/2/20 来院", 1),
        ("2026年2月", 1),
        ("・内服継続", 1),
        ("① 採血", 1),
        ("【経過】", 1),
        ("- item", 1),
        ("#2 高血圧", 1),
        ("時刻 10:30", 0),
        ("URL: http", 1),
        ("see http://x", 0),
        ("12.5 mg", 0),
        ("とても長いラベルの名前がここにあります：", 0),
        ("ratio 3:1", 0),
        ("値（単位がとても長くて二十文字を超えてしまう場合の例）：", 0),
    ],
)
def test_the_compiled_line_start_match_reads_clinical_lines(text, want):
    from norishiro.core import compiled, line_starts

    if not compiled.active():
        pytest.skip("the compiled module is not built here")
    assert (line_starts.LINE_START.match(text, 0) is not None) == bool(want), text
    assert compiled.native.line_start_match(text, 0) == want, text


@settings(max_examples=800, deadline=None)
@given(
    st.text(st.sampled_from(list(",; \t\n\r\x1c\x1f\u3000\u00a0ab日é、，；､")), max_size=50),
    st.integers(0, 55),
    st.integers(0, 55),
)
def test_the_compiled_clause_ends_are_the_patterns(text, start, stop):
    """``_sentscan.clause_ends`` gives the ends of ``_CLAUSE_ASCII``'s matches (a comma or
    semicolon and the spaces and tabs after it) and, with ``full``, of ``_CLAUSE``'s (also
    after 、，；､, white space that is no line break, or before a character beyond ASCII)."""
    from norishiro.core import boundaries, compiled

    if not compiled.active():
        pytest.skip("the compiled module is not built here")
    start, stop = min(start, len(text)), min(stop, len(text))
    for pattern, full in ((boundaries._CLAUSE_ASCII, False), (boundaries._CLAUSE, True)):
        want = [m.end() for m in pattern.finditer(text, start, stop)]
        assert compiled.native.clause_ends(text, start, stop, full) == want, (text, start, stop, full)


def test_the_compiled_word_scripts_are_the_patterns_scripts():
    """Where ``_sentscan.word_script`` knows a character's script it is the regex module's
    (\\p{Hiragana}, \\p{Han}, \\p{Katakana}), over every code point."""
    from norishiro.core import compiled

    if not compiled.active():
        pytest.skip("the compiled module is not built here")
    hira, han, kata = (regex.compile(rf"\p{{{x}}}") for x in ("Hiragana", "Han", "Katakana"))
    for cp in range(0x110000):
        got = compiled.native.word_script(cp)
        if got >= 0:
            ch = chr(cp)
            want = (1 if hira.match(ch) else 0) | (2 if han.match(ch) else 0) | (4 if kata.match(ch) else 0)
            assert got == want, hex(cp)


_WORD_ALPHABET = list(" \t\n\u3000/・／ーあかアカ漢々〆aZ09０Ａ(（「【。é\x1c") + ["𠀋", "ｱ", "ab "]


@settings(max_examples=800, deadline=None)
@given(st.lists(st.sampled_from(_WORD_ALPHABET), max_size=30), st.integers(0, 40), st.integers(0, 40))
def test_the_compiled_word_ends_are_the_patterns(pieces, start, stop):
    """``_sentscan.word_ends`` gives the ends of ``_WORD``'s matches (full) and of
    ``_WORD_ASCII``'s, the look behind reading before ``start``; None only where it met a
    script it does not know."""
    from norishiro.core import boundaries, compiled

    if not compiled.active():
        pytest.skip("the compiled module is not built here")
    text = "".join(pieces)
    start, stop = min(start, len(text)), min(stop, len(text))
    for pattern, full in ((boundaries._WORD_ASCII, False), (boundaries._WORD, True)):
        got = compiled.native.word_ends(text, start, stop, full)
        if got is None:
            assert full and any(compiled.native.word_script(ord(c)) < 0 for c in text), text
            continue
        assert got == [m.end() for m in pattern.finditer(text, start, stop)], (text, start, stop, full)
