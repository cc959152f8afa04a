"""``core.plain``: plain text in characters packed without a packer gives the packer's
spans, and the packer resumed after any chunk gives the rest of them."""

from hypothesis import given, settings
from hypothesis import strategies as st

from norishiro.chunkers import CHUNKERS, Region
from norishiro.core.boundaries import Boundaries
from norishiro.core.measure import CharMeasure
from norishiro.core.packer import Packer
from norishiro.core.plain import NO_LINE_CUT, line_end, paragraph_end, plain_spans, sentence_end
from test_properties import texts

# clinical text with its single newlines lost: paragraphs, sentences, glued rows and dates
_PIECES = ["。", "\n\n", "\n", "所見：異常なし", "2026/1/8\t", "CRP 0.3mg/dL", "||", " ", "ない。", "Dr. Ito. "]
_clinical = st.lists(st.sampled_from(_PIECES), max_size=200).map("".join)
# paragraphs of a few pieces each: most chunks end at a paragraph cut (the plain path's case)
_paragraphs = st.lists(
    st.lists(st.sampled_from(_PIECES[2:]), min_size=1, max_size=8).map("".join), min_size=2, max_size=40
).map("\n\n".join)

# prose that lost its lines: sentences, abbreviations, labels and list marks on one line
_LOST = ["The scan was clear. ", "Dr. Ito agreed. ", "it was not", "所見なし。", "1. Rest ", "- item ", "3.5 mg", ", "]
_lost = st.lists(
    st.sampled_from(_LOST + ["NOTE: ", "S）", "（2）", "・", "2026年1月8日 ", "e.g. ", "   ", "。"]), max_size=120
)
_one_line = _lost.map("".join)
# sentences that each begin a line where the export kept none (numbered items, labels, bullets)
_lined = st.lists(
    st.sampled_from(["所見なし。", "1. 経過良好。", "NOTE: no change. ", "・安静。", "It held. "]), max_size=80
)
_lined = _lined.map("".join)


# hard-wrapped text: paragraphs of words broken into lines of a few words (soft wraps), lists,
# labels, indented lines and runs of spaces; most windows of a long paragraph end at a line
_WORDS = ["the", "scan", "was", "clear.", "It", "held", "-", "Note:", "所見なし。", "    ", "1.", "e.g."]
_wrapped = st.lists(
    st.lists(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=6).map(" ".join), min_size=1, max_size=12).map(
        "\n".join
    ),
    min_size=1,
    max_size=12,
).map("\n\n".join)


def _packer(text: str, size: int, overlap: int, balance: bool):
    chunker = CHUNKERS["recursive"]

    def make(boundaries: Boundaries | None = None) -> Packer:
        return Packer(
            text,
            CharMeasure(text),
            size,
            overlap,
            end_levels=chunker.end_levels,
            overlap_levels=chunker.overlap_levels,
            boundaries=boundaries,
            balance=balance,
        )

    return make


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(texts, _clinical, _paragraphs, _paragraphs, _one_line, _one_line, _wrapped, _wrapped),
    st.integers(1, 120),
    st.integers(0, 60),
    st.booleans(),
)
def test_plain_spans_are_the_packers(text, size, overlap, balance):
    """Also with ``lost_lines`` (the recursive chunker's levels: paragraph, line, sentence)."""
    overlap = min(overlap, size - 1) if size > 1 else 0
    make = _packer(text, size, overlap, balance)
    want = list(make().spans())
    if len(text) > size:
        assert list(plain_spans(make, text, CharMeasure(text), size, overlap, balance)) == want
        assert list(plain_spans(make, text, CharMeasure(text), size, overlap, balance, True)) == want
    for k, (s, e, _n) in enumerate(want):  # resumed after any chunk: the rest
        assert list(make().spans(after=(s, e))) == want[k + 1 :]


@settings(max_examples=300, deadline=None)
@given(st.one_of(_one_line, _lined), st.integers(16, 160), st.integers(0, 150), st.booleans())
def test_text_that_lost_its_lines_ends_at_the_packers_sentence_and_line_cuts(text, size, overlap, balance):
    """Every chunk of one-line prose needs the line and sentence levels: ``sentence_end``
    answers for most of them, and gives the packer's ends (balanced ones too)."""
    overlap = min(overlap, size - 1)
    make = _packer(text, size, overlap, balance)
    if len(text) > size:
        assert list(plain_spans(make, text, CharMeasure(text), size, overlap, balance, True)) == list(make().spans())


@settings(max_examples=100, deadline=None)
@given(st.one_of(_clinical, _paragraphs, _one_line), st.integers(20, 200))
def test_the_recursive_chunker_takes_the_plain_path_with_the_same_spans(text, size):
    """Through the chunker (which picks the plain path for a region without prefix, atoms
    or headings) and through the packer alone."""
    chunker = CHUNKERS["recursive"]()
    overlap = size // 8
    region = Region(text, 0, None, CharMeasure(text), size, overlap)
    want = list(_packer(text, size, overlap, chunker.balances)().spans())
    if not text or len(text) <= size:
        return
    assert list(chunker.spans(region)) == want


@settings(max_examples=300, deadline=None)
@given(st.integers(4, 30), st.integers(2, 60), st.integers(0, 400), st.integers(0, 200), st.booleans())
def test_overlapping_chunks_of_even_paragraphs_share_the_tail_as_the_packer_does(length, count, size, overlap, ja):
    """Paragraphs of one length: the even share of the last chunks often falls on a cut
    itself, and every overlap starts at a paragraph (the compiled loop's whole case)."""
    text = ("あ" * (length - 3) + "。\n\n" if ja else "x" * (length - 3) + ".\n\n") * count
    size = length + 2 + size % (5 * length)
    overlap = 1 + overlap % (size - 1)
    make = _packer(text, size, overlap, True)
    if len(text) > size:
        assert list(plain_spans(make, text, CharMeasure(text), size, overlap, True)) == list(make().spans())


@settings(max_examples=300, deadline=None)
@given(st.one_of(_wrapped, _clinical, texts), st.integers(8, 200), st.booleans(), st.data())
def test_a_line_end_is_the_packers_end_where_no_paragraph_cut_serves(text, size, balance, data):
    """``line_end`` answers where ``paragraph_end`` cannot (a hard-wrapped paragraph longer
    than a chunk) with the packer's own end, or leaves it to the packer (-1)."""
    p = _packer(text, size, 0, balance)()
    n = len(text)
    if n <= size:
        return
    para = p.bnd.paragraph_cuts()
    for _ in range(20):
        s = data.draw(st.integers(0, n - 1))
        lo = min(n, s + data.draw(st.integers(0, size)))
        if paragraph_end(text, para, size, p._balance_from, s, lo) != -1:
            continue
        got = line_end(p.bnd, size, p._balance_from, s, lo)
        if got != -1:
            assert got == p.find_end(s, lo), (s, lo)


# flattened rows without a sentence end: their line cuts are glued rows alone
_glued_rows = st.lists(
    st.sampled_from(["| a || b |", "|| c |", "【所見】", "mEq/L", "CRP 18.6", "Na 140", " ", "x", "項目", "■"]),
    max_size=80,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(_one_line, _lined, _glued_rows, _paragraphs, _clinical, texts),
    st.integers(8, 200),
    st.booleans(),
    st.data(),
)
def test_where_sentence_end_says_no_line_cut_line_end_finds_none(text, size, balance, data):
    """``NO_LINE_CUT`` spares ``line_end``: a window without a newline or a glued row, where
    no sentence cut serves, holds no line cut that serves either."""
    p = _packer(text, size, 0, balance)()
    n = len(text)
    if n <= size:
        return
    for _ in range(30):
        s = data.draw(st.integers(0, n - 1))
        lo = min(n, s + data.draw(st.integers(0, size)))
        if sentence_end(p.bnd, size, p._balance_from, s, lo) == NO_LINE_CUT:
            assert line_end(p.bnd, size, p._balance_from, s, lo) == -1, (s, lo)
