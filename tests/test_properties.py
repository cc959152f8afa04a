"""Invariants as properties over arbitrary Unicode (CRLF, ZWJ emoji, combining marks, CJK, RTL)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import norishiro
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
    texts, st.integers(1, 80), st.integers(0, 40), st.sampled_from(["recursive", "sentences", "fixed"]), st.booleans()
)
def test_char_invariants(text, size, overlap, strategy, structure):
    overlap = min(overlap, size - 1)
    chunks = norishiro.chunk(text, size=size, overlap=overlap, strategy=strategy, structure=structure)
    check_chunks(text, chunks, size, len, overlap)
    again = norishiro.chunk(text, size=size, overlap=overlap, strategy=strategy, structure=structure)
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
    assert fast.count(text) == len(get_encoding("o200k_base").encode_ordinary(text))


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
)
def test_exact_span_counts_from_the_index_equal_tiktoken(text, data, name, head, short):
    """A span's count from the whole-text index plus its two recounted ends is tiktoken's."""
    from unittest import mock

    from norishiro.core import measure as sizing

    index = TiktokenSizer(name).measure(text)
    count = tiktoken_count(name)
    with mock.patch.object(sizing, "_SHORT", short):  # 1: use cut-safe points in tiny spans
        for _ in range(5):
            a = data.draw(st.integers(0, len(text)))
            b = data.draw(st.integers(a, len(text)))
            assert index.count(a, b, head) == count(head + text[a:b])


@pytest.mark.parametrize("name", ["o200k_base", "cl100k_base"])
def test_exact_span_counts_on_every_triple_of_edge_units(name):
    """Exhaustive where hypothesis is thin: every cut-safe rule meets every neighbour."""
    from unittest import mock

    from norishiro.core import measure as sizing

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
            index = sizer.measure(text)
            for a, b in [(a, len(text)) for a in range(len(text))] + [(0, b) for b in range(1, len(text))]:
                if index.count(a, b) != count(text[a:b]):
                    wrong.append((text, a, b))
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
]


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.one_of(st.sampled_from(_SENTENCE_PIECES), st.text(max_size=4)), max_size=60),
    st.integers(0, 400),
    st.integers(0, 400),
)
def test_sentence_rules_agree_with_their_reference(pieces, a, b):
    """The fast candidate loop (bracket stack touched only at brackets, the word before a
    full stop read by one reversed match) finds exactly the reference loop's cuts."""
    from norishiro.core.sentences import sentence_and_lower_cuts
    from reference_sentences import reference_sentence_and_lower_cuts

    text = "".join(pieces)
    assert sentence_and_lower_cuts(text) == reference_sentence_and_lower_cuts(text)
    lo, hi = min(a, b), max(a, b)
    assert sentence_and_lower_cuts(text, lo, hi) == reference_sentence_and_lower_cuts(text, lo, hi)


@pytest.mark.parametrize("gap", range(235, 246))
@pytest.mark.parametrize("opener,closer", [("「", "」"), ("(", ")")])
def test_stale_brackets_are_dropped_where_the_reference_drops_them(gap, opener, closer):
    """An opening bracket left open longer than the limit stops hiding sentence ends at the
    same candidate in both loops, and its late closer then pops the same stack."""
    from norishiro.core.sentences import sentence_and_lower_cuts
    from reference_sentences import reference_sentence_and_lower_cuts

    for text in (
        opener + "あ" * gap + "。い。" + closer + "う。え。",
        "x " + opener + "word " * (gap // 5) + "w" * (gap % 5) + ". Next. Then" + closer + ". Last. End",
        opener + "「" + "あ" * gap + "。」と" + closer + "。お。",
    ):
        assert sentence_and_lower_cuts(text) == reference_sentence_and_lower_cuts(text)


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
    from norishiro.core import sentences

    text = "".join(pieces)
    fast = [sentences.glued_line_cuts(text, lo, lo + 17) for lo in range(0, len(text) + 1, 5)]
    original = sentences._maybe_glued
    sentences._maybe_glued = lambda seg: True
    try:
        slow = [sentences.glued_line_cuts(text, lo, lo + 17) for lo in range(0, len(text) + 1, 5)]
    finally:
        sentences._maybe_glued = original
    assert fast == slow
