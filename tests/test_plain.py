"""``core.plain``: plain text in characters packed without a packer gives the packer's
spans, and the packer resumed after any chunk gives the rest of them."""

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from norishiro.chunkers import CHUNKERS, Region
from norishiro.core import compiled
from norishiro.core.boundaries import Boundaries
from norishiro.core.measure import CharMeasure
from norishiro.core.packer import Packer
from norishiro.core.plain import NO_CUT, NO_LINE_CUT, line_end, paragraph_end, plain_spans, sentence_end
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


# the recursive chunker's end levels after the sentence (plain_spans' ``finer``)
_FINER = tuple(sorted(CHUNKERS["recursive"].end_levels)[3:])


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
        assert list(plain_spans(make, text, CharMeasure(text), size, overlap, balance, True, None, _FINER)) == want
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
        want = list(make().spans())
        assert list(plain_spans(make, text, CharMeasure(text), size, overlap, balance, True)) == want
        assert list(plain_spans(make, text, CharMeasure(text), size, overlap, balance, True, None, _FINER)) == want


@settings(max_examples=100, deadline=None)
@given(st.one_of(_clinical, _paragraphs, _one_line), st.integers(20, 200))
# blank lines first: the paragraph level leaves their cut (white space alone before it), and
# the line level must not end the chunk at a newline of the wider window the packer skips
@example("\n\n所見：異常なし\n所見：異常なし||" + "\n" * 35 + "所見：異常なし" * 4, 20)
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
    """``NO_LINE_CUT`` (and ``NO_CUT``) spares ``line_end``: a window without a newline or a glued row, where
    no sentence cut serves, holds no line cut that serves either."""
    p = _packer(text, size, 0, balance)()
    n = len(text)
    if n <= size:
        return
    for _ in range(30):
        s = data.draw(st.integers(0, n - 1))
        lo = min(n, s + data.draw(st.integers(0, size)))
        if sentence_end(p.bnd, size, p._balance_from, s, lo) in (NO_LINE_CUT, NO_CUT):
            assert line_end(p.bnd, size, p._balance_from, s, lo) == -1, (s, lo)


class _Served:
    """``_sentscan.sentence_run`` wrapped to count the chunks it finds (the loop in C must
    serve one-line prose, or the tests comparing spans would not test it)."""

    def __init__(self):
        self.chunks = self.calls = 0

    def __enter__(self):
        self.real = compiled.native.sentence_run

        def run(*args):
            out = args[-1]
            before = len(out)
            got = self.real(*args)
            self.calls += 1
            self.chunks += len(out) - before
            return got

        compiled.native.sentence_run = run
        return self

    def __exit__(self, *exc):
        compiled.native.sentence_run = self.real


# one-line prose whose sentences start in lower case too (its lower-case ends are sentence cuts)
_lower = st.lists(
    st.sampled_from(["it held. ", "then rest. ", "e.g. one ", "Dr. Ito came. ", "ok. ", "所見なし。", "NOTE: ", "3. "]),
    max_size=150,
).map("".join)
_needs_compiled = pytest.mark.skipif(not compiled.active(), reason="the compiled module is not built here")


@_needs_compiled
@settings(max_examples=300, deadline=None)
@given(st.one_of(_one_line, _lined, _lower, _glued_rows, texts), st.integers(16, 160), st.booleans())
def test_the_compiled_sentence_loop_gives_the_packers_chunks(text, size, balance):
    """Without overlap, one-line prose's chunks come from ``_sentscan.sentence_run`` after the
    first (balanced tails, lower-case sentence starts and line starts included)."""
    make = _packer(text, size, 0, balance)
    if len(text) > size:
        with _Served():
            assert list(plain_spans(make, text, CharMeasure(text), size, 0, balance, True)) == list(make().spans())


_PROSE = "".join(
    ["The scan was clear. ", "Dr. Ito agreed, and it was not repeated. ", "NOTE: rest. ", "所見なし。"][i % 4]
    + f"Day {i} passed. "
    for i in range(300)
)
_LINES = _PROSE[:3001] + "\n" + _PROSE[3001:6003] + "\n\n" + _PROSE[6003:9000] + "\n \n" + _PROSE[9000:]
# paragraphs of one line that start with a combining mark: the cut after the newline before
# moves past it, into the window
_MARKED = ("The scan was clear. " * 40 + "\n\u0301") * 3 + "\n\n\u0301\u0301" + "The scan was clear. " * 40
# lower-case sentence starts only from the middle on: the text's case is learnt there
_LATER_LOWER = "The scan was clear. " * 30 + "it held. then rest. " * 200
# windows without a sentence cut: lower-case sentence ends in a text that starts its
# sentences in upper case, a table joined into one line (clause and word cuts), one long word
_FINER_TEXTS = [
    "The scan was clear. " * 200 + "it was done. then more " * 100 + "The scan was clear. " * 200,
    "    |dpkg   |V:919,|5989|low level package management, and more |  " * 60,
    "Intro. " + "x" * 900 + " End. " + "y" * 400,
    # a chunk inside a run of spaces whose window's only sentence cut ends the run: the packer
    # looks past the white space
    "Go. " + " " * 500 + "y is here, and more words here " * 20,
]
_GLUED = "It held. | a || b | then CRP 18.6 mEq/L Na 140. 【所見】所見なし。2026/1/8\t0.3 " * 40


@_needs_compiled
@pytest.mark.parametrize("size", [97, 130, 300])
@pytest.mark.parametrize("balance", [False, True])
@pytest.mark.parametrize(
    "text",
    [
        _PROSE,
        "The scan was clear. " * 100,
        "it held. then rest. " * 100,
        _LATER_LOWER,
        _LINES,
        _MARKED,
        _GLUED,
        *_FINER_TEXTS,
    ],
)
def test_one_line_prose_is_chunked_in_the_compiled_loop(text, balance, size):
    """Sentences of one length make the last chunks' even share move their ends back; a
    text that starts its sentences in lower case cuts at those too; newlines and glued rows
    are left to the packer (the loop stops near one), and windows without a sentence cut to
    ``finer_end``."""
    make = _packer(text, size, 0, balance)
    with _Served() as served:
        got = list(plain_spans(make, text, CharMeasure(text), size, 0, balance, True, None, _FINER))
    assert got == list(make().spans())
    if text not in (_GLUED, _LINES, _MARKED, *_FINER_TEXTS):
        # all but the first (its paragraph scanned then), the last, and one where the case is learnt
        assert served.chunks >= len(got) - 3
    overlap = size // 3  # with overlap the compiled overlap loop takes sentence_end's ends
    make = _packer(text, size, overlap, balance)
    assert list(plain_spans(make, text, CharMeasure(text), size, overlap, balance, True, None, _FINER)) == list(
        make().spans()
    )
