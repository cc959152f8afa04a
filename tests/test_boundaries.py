import json
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

import norishiro
from clinical import FIXTURES
from norishiro.core.boundaries import Boundaries, Level

CASES = json.loads((FIXTURES / "ja-sentences.json").read_text(encoding="utf-8"))["cases"]
# our own cases for the classes the shared set lacks (emoji, titles in brackets, labels, TSV)
EXTRA = json.loads((FIXTURES / "sentences-extra.json").read_text(encoding="utf-8"))["cases"]


def _norm(xs):
    return [unicodedata.normalize("NFKC", "".join(x.split())) for x in xs if "".join(x.split())]


def _sentences(text):
    return [u["text"] for u in norishiro.segment(text, "sentence")]


@pytest.mark.parametrize("case", EXTRA, ids=lambda c: c["category"])
def test_extra_sentence_classes(case):
    got = [u["text"] for u in norishiro.segment(case["text"], case.get("level", "sentence"))]
    assert _norm(got) == _norm(case["sentences"]), got


def test_every_fixture_case_passes_soft_wraps_included():
    assert len(CASES) == 72 and sum(c["category"] == "softwrap" for c in CASES) == 4
    failed = [c["text"] for c in CASES if _norm(_sentences(c["text"])) != _norm(c["sentences"])]
    assert not failed, failed


@pytest.mark.parametrize(
    "text,expected",
    [
        ("彼は「もう帰る。」と言った。次。", ["彼は「もう帰る。」と言った。", "次。"]),
        ("Dr. Smith came. He left.", ["Dr. Smith came. ", "He left."]),
        ("The dose was 3.5 mg. e.g. this stays.", ["The dose was 3.5 mg. e.g. this stays."]),
        ("See https://a.example.com/x.html now. Next", ["See https://a.example.com/x.html now. ", "Next"]),
        ("すごい!!本当に!?", ["すごい!!", "本当に!?"]),
        # units are not abbreviations; number abbreviations only before a number
        ("The dose was 3.5 mg. Next day it stopped.", ["The dose was 3.5 mg. ", "Next day it stopped."]),
        ("What? No. Yes!", ["What? ", "No. ", "Yes!"]),
        ("No. 5 was used. Eq. (2) holds.", ["No. 5 was used. ", "Eq. (2) holds."]),
        # an e-mail address or URL can end a sentence
        ("Contact a.b@example.co.jp. Thanks.", ["Contact a.b@example.co.jp. ", "Thanks."]),
        # a list number inside a Japanese line, and particles that continue a quotation
        ("1. 高血圧 2. 糖尿病", ["1. 高血圧 2. 糖尿病"]),
        ("「痛い。」などと訴えた。次。", ["「痛い。」などと訴えた。", "次。"]),
        ("「大丈夫。」が口癖だ。「行く。」がんの話。", ["「大丈夫。」が口癖だ。", "「行く。」", "がんの話。"]),
        # a full-width period after a digit: decimal or list number, else an end
        ("術後POD1．発熱なし．体重６５．５ｋｇ．", ["術後POD1．", "発熱なし．", "体重６５．５ｋｇ．"]),
        ("1．血液検査 異常なし．", ["1．血液検査 異常なし．"]),
    ],
)
def test_sentence_rules(text, expected):
    assert _sentences(text) == expected


def test_units_concatenate_back_and_keep_separators():
    text = "段落一の文。二文目！\n\n段落二、節あり。\r\nEnd. Of text"
    for level in ("paragraph", "line", "sentence", "clause", "word"):
        units = norishiro.segment(text, level)
        assert "".join(u["text"] for u in units) == text
        assert all(text[u["start"] : u["end"]] == u["text"] for u in units)
    assert [u["text"] for u in norishiro.segment(text, "paragraph")] == [
        "段落一の文。二文目！\n\n",
        "段落二、節あり。\r\nEnd. Of text",
    ]


def test_no_cut_between_cr_and_lf_or_before_combining_mark():
    text = "a。\u0301b\r\n\r\nc、\u200dd"
    b = Boundaries(text)
    cuts = set()
    for lv in (Level.PARAGRAPH, Level.LINE, Level.SENTENCE, Level.CLAUSE):
        cuts.update(b.cuts(lv))
    cuts.update(b.window_cuts(Level.WORD, 0, len(text)))
    for p in cuts:
        assert not (text[p - 1] == "\r" and text[p] == "\n")
        assert text[p] not in "\u0301\u200d"


def test_lost_newlines_still_give_line_cuts():
    # a label after a sentence end, flattened Markdown table rows, a dated TSV row
    text = "退院した。病理結果（2/20）：悪性所見は認めない。| a | 1 || b | 2 |0.712026/02/24\t2.41"
    b = Boundaries(text)
    lines = b.cuts(Level.LINE)
    assert text.index("病理結果") in lines
    assert text.index("|| b") + 1 in lines
    assert text.index("2026/02/24") in lines


_WORDS = st.sampled_from(
    "the fund rose sharply over year while costs were flat and revenue grew we looked at numbers "
    "they moved on to third quarter margins improved board approved dividend".split()
)


@given(st.lists(st.lists(_WORDS, min_size=2, max_size=8), min_size=3, max_size=8))
def test_lower_cased_prose_is_cut_at_every_full_stop_as_capitalised_prose_is(sentences):
    lower = ". ".join(" ".join(s) for s in sentences) + "."
    capital = ". ".join(" ".join(s).capitalize() for s in sentences) + "."
    want = [len(" ".join(s)) + 2 for s in sentences[:-1]]
    for text in (lower, capital):
        got = [len(u["text"]) for u in norishiro.segment(text, "sentence")]
        assert got[:-1] == want, text


def test_a_full_stop_before_lower_case_wins_over_a_comma_in_ordinary_text():
    text = (
        "The lender may grant up to an additional $1.0 billion, subject to approval. the borrower "
        "pays a fee, quarterly, on the unused amount. It was amended in May."
    )
    b = Boundaries(text)
    p = text.index("the borrower")
    assert b.level_of(p) is Level.LOWER_SENTENCE
    assert b.level_of(text.index("subject")) is Level.CLAUSE
    chunks = norishiro.chunk(text, size=100, structure=False)
    assert chunks[0].end == p  # not at the comma after "billion"


def test_level_constants_are_the_members_in_order():
    from norishiro.core import levels

    assert levels.LEVELS == tuple(levels.Level)
    assert [levels.PARAGRAPH, levels.LINE, levels.SENTENCE, levels.LOWER_SENTENCE] == list(levels.Level)[:4]
    assert (levels.CLAUSE, levels.WORD, levels.GRAPHEME) == tuple(levels.Level)[4:]


# long runs without a cut, and text with many
_runs = st.lists(st.sampled_from(["word ", "x" * 700]), min_size=2, max_size=20).map("".join)
_CLAUSE_WORD_PIECES = ["word ", "語、", "a, b", "x;y ", "の漢字", "  ", "\u0301", "/", "https://x.org/a", "x" * 60]


@given(
    st.one_of(
        st.text(max_size=1500),
        st.lists(st.sampled_from(_CLAUSE_WORD_PIECES), min_size=300, max_size=900).map("".join),
        _runs,
        _runs,
    ),
    st.floats(0, 0.5),
    st.integers(500, 2000),
    st.sampled_from([Level.CLAUSE, Level.WORD]),
)
def test_a_tail_only_window_keeps_the_farthest_clause_and_word_cut(text, at, width, level):
    """With ``tail_only`` a long window's clause and word cuts may be those of its tail
    alone: the same cuts there, the farthest one of all among them."""
    b = Boundaries(text)
    lo = int(at * len(text))
    every = b.window_cuts(level, lo, lo + width)
    tail = b.window_cuts(level, lo, lo + width, tail_only=True)
    assert tail == every[len(every) - len(tail) :]
    assert bool(tail) == bool(every)
