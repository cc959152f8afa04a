"""The regions of a document as ``norishiro.api`` hands them to a chunker: a region that is
one chunk is a ``OneChunk`` whether the chunker is asked (``one_chunk``) or, in characters,
its length answers (``by_length``), and sections that are one chunk of their text alone come
as a ``OneChunkRun``, made chunks by ``section_chunks`` (compiled, and its Python twin); the
chunks of a longer section's spans are made by ``span_chunks`` (the same)."""

from __future__ import annotations

import types

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from compiled_mode import compiled_helpers
from norishiro import api
from norishiro.chunk import section_chunks, span_chunks
from norishiro.core import compiled
from norishiro.core.atoms import ScannedAtoms, find_atoms
from norishiro.core.boundaries import Boundaries
from norishiro.core.structure import LabelledText, Section
from norishiro.document import Document
from norishiro.regions import OneChunk, OneChunkRun, Regions, atom_lists
from norishiro.section_runs import one_chunk_run, short_sections

_LINES = [
    "# Title",
    "## Part",
    "【所見】",
    "所見：異常なし",
    "",
    "",
    "Some prose that runs on for a while.",
    "短い文。次の文。",
    "| a | b |",
    "|---|---|",
    "| 1 | 2 |",
    "+-----+",
    "```",
    "code",
    "- item",
]


def _regions(doc: Document, by_length: bool, **options) -> list[tuple]:
    config, sizer, runtime = api.resolve(None, **options)
    renderer = api._renderer(config.header_keys, config.header_template)
    chunker = api.chunker_class(config.strategy)(config, **runtime)
    regions = Regions(doc, config, sizer, LabelledText(), renderer, False, chunker.one_chunk, by_length)
    out = []
    for region, one in regions:
        if type(region) is OneChunkRun:  # as the OneChunks its sections are
            for sec in regions.sections[region.start : region.stop]:
                a, b = sec.start, sec.end
                out.append(("one", (doc.text[a:b], a, b - a, ""), sec))
        elif type(region) is OneChunk:
            out.append(("one", tuple(region), one))
        else:
            got = (region.text, region.offset, region.size, list(region.atoms), list(region.heads))
            out.append(("region", got, region.prefix(0) if region.prefix else "", one))
    return out


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(_LINES) | st.text(max_size=12), min_size=1, max_size=25),
    st.integers(min_value=8, max_value=200),
    st.booleans(),
)
def test_a_region_that_is_one_chunk_by_length_is_the_one_the_chunker_says(lines, size, header):
    """With ``by_length`` the regions are made without a measure where the length says a
    region is one chunk; they are what asking the chunker gives (sections, table headers and
    a context header of their own length)."""
    doc = Document("\n".join(lines), metadata={"patient_id": "p-1"})
    options = {"size": size, "header_keys": ["patient_id", "section"] if header else None}
    if header:  # a header over 3/4 of the budget is an error, asked the same either way
        options["size"] = max(size, 120)
    assert _regions(doc, True, **options) == _regions(doc, False, **options)


def test_only_a_chunker_whose_one_chunk_is_the_length_test_is_asked_by_length():
    """A chunker of its own ``one_chunk``, or one that ends no chunk at a paragraph, is
    asked; the recursive one (in characters) is answered by length."""
    from norishiro.chunkers.base import PackingChunker

    class Asked(PackingChunker):
        def one_chunk(self, text, measure, size, head):
            return None

    config, _, _ = api.resolve(None, size=100)
    assert api.chunker_class("recursive")(config).whole_by_length
    assert not Asked(config).whole_by_length
    assert not api.chunker_class("fixed")(config).whole_by_length


_TABLE = st.builds(
    lambda rows: ["| h | i |", "|---|---|"] + [f"| {r} | x |" for r in rows],
    st.lists(st.text(alphabet="ab1", max_size=3), max_size=4),
)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(_TABLE | st.lists(st.sampled_from(_LINES) | st.text(max_size=12), max_size=3), max_size=8), st.booleans()
)
def test_a_table_prefix_is_the_regions_look_up_at_every_position(blocks, header):
    """A region's prefix (context header, and a table's header rows inside its body) at
    each of its positions is what the regions look up there: the quick answer outside the
    tables' bodies, the look-up inside, the body's first character included."""
    doc = Document("\n".join(line for block in blocks for line in block), metadata={"patient_id": "p-1"})
    config, sizer, _ = api.resolve(None, size=400, header_keys=["patient_id"] if header else None)
    renderer = api._renderer(config.header_keys, config.header_template)
    regions = Regions(doc, config, sizer, LabelledText(), renderer, True)
    for region, _one in regions:
        if region.prefix is None:
            continue
        for p in range(len(region.text) + 1):
            assert region.prefix(p) == regions.prefix_at(region.offset + p), p


# lines blank to the paragraph rule, or nearly
_BLANKS = ["", " ", "\t", "\u3000 ", "\xa0", " \u0301", "\u0301x", "\r", "x\r"]


class _SectionsAt:
    """Sections that start and end at the given positions (anywhere: inside a line, on a
    blank one), and the line scan's paragraph ends of the whole text."""

    def __init__(self, cuts: list[int]):
        self.cuts, self.scan = cuts, LabelledText()

    def sections(self, text: str) -> list[Section]:
        self.scan.sections(text)
        pos = sorted({min(c, len(text)) for c in self.cuts} | {0, len(text)})
        return [Section(a, b) for a, b in zip(pos, pos[1:])] or [Section(0, 0)]

    def atoms(self, text: str) -> list:
        return []

    def paragraph_ends(self, text: str):
        return self.scan.paragraph_ends(text)


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.sampled_from(_LINES + _BLANKS) | st.text(max_size=8), min_size=1, max_size=30),
    st.sampled_from(["\n", "\n", "\r\n"]),
    st.lists(st.integers(min_value=0, max_value=200), max_size=6),
    st.booleans(),
)
@example(["x", "", " ", "y"], "\n", [4], False)  # the last line cut short is blank, the whole one too
@example(["x", " ", "y"], "\n", [2], False)  # the first line is blank: the text's run starts before it
@example(["x", "", "\u0301y"], "\n", [], True)  # a cut before a combining mark moves past it
def test_a_regions_paragraph_cuts_from_the_line_scan_are_its_own(lines, eol, cuts, labelled):
    """Where a region takes its paragraph cuts from the whole text's line scan, they are the
    cuts its boundaries find in its own text: blank lines of every kind of white space, a
    region that starts or ends inside a line or on a blank one, a cut before a combining
    mark, a text with other breaks. Compiled, the scan gives most regions theirs."""
    doc = Document(eol.join(lines))
    config, sizer, _runtime = api.resolve(None, size=40)
    renderer = api._renderer(config.header_keys, config.header_template)
    structure = LabelledText() if labelled else _SectionsAt(cuts)
    for region, _one in Regions(doc, config, sizer, structure, renderer, False, None, False):
        if region.paragraphs is not None:
            given_cuts = Boundaries(region.text, paragraphs=list(region.paragraphs))
            assert given_cuts.paragraph_cuts() == Boundaries(region.text).paragraph_cuts()


def test_regions_of_an_lf_text_take_their_paragraph_cuts_from_the_line_scan():
    text = "# A\n\npara one\n\n\npara two\n \u3000\nthree\n\n# B\n\nfour\n\n"
    config, sizer, _runtime = api.resolve(None, size=12)
    renderer = api._renderer(config.header_keys, config.header_template)
    regions = [r for r, _ in Regions(Document(text), config, sizer, LabelledText(), renderer, False, None, False)]
    if not compiled.active():  # the patterns find them, per region
        assert all(r.paragraphs is None for r in regions)
        return
    assert [(r.offset, r.paragraphs) for r in regions] == [(0, [5, 16, 28]), (35, [5])]
    assert [Boundaries(r.text).paragraph_cuts() for r in regions] == [r.paragraphs for r in regions]


_needs_compiled = pytest.mark.skipif(compiled.native is None, reason="no compiled helpers in this install")


@_needs_compiled
@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 30), st.integers(-2, 30)), max_size=12),
    st.lists(st.tuples(st.integers(0, 20), st.integers(0, 20)), max_size=5),
    st.integers(0, 13),
    st.integers(0, 25),
)
def test_the_compiled_one_chunk_run_is_its_python_twin(steps, tables, k, size):
    """Where a run of one-chunk sections stops: an empty section, one over the size, one
    that starts in a table's body (or at its first position), the list's end."""
    starts, ends, p = [], [], 0
    for gap, length in steps:
        p += gap
        starts.append(p)
        ends.append(p + length)
    t_starts, t_ends, q = [], [], 0
    for gap, length in tables:
        q += gap
        t_starts.append(q)
        t_ends.append(q + length)
    want = one_chunk_run(starts, ends, k, size, t_starts, t_ends)
    assert compiled.native.one_chunk_run(starts, ends, k, size, t_starts, t_ends) == want


def _rows(chunks) -> list:
    return [(c.to_dict(), c._doc, type(c)) for c in chunks]


@_needs_compiled
@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(_LINES) | st.text(max_size=12), min_size=1, max_size=25),
    st.sampled_from([None, {}, {"patient_id": "p-1", "n": [1]}]),
    st.integers(0, 5),
    st.integers(0, 40),
)
def test_the_compiled_section_chunks_are_their_python_twins(lines, meta, start, index):
    """Every field of the chunks (their headings and metadata copies of their own), from
    the sections of a labelled text, a mapping that is no dict, and objects that only look
    like sections."""
    text = "\n".join(lines)
    sections = LabelledText().sections(text)
    names = api.section_names(())
    stop = len(sections) + 1  # past the end: the list's end
    doc = Document(text)
    for meta_given in (meta, types.MappingProxyType(meta) if meta is not None else None):
        want = section_chunks(text, sections, start, stop, index, doc, meta_given, names.of_path)
        got = compiled.native.section_chunks(text, sections, start, stop, index, doc, meta_given, names.of_path)
        assert _rows(got) == _rows(want)
        # with the names' memo, read before the look-up (filled by the calls above)
        memo = names.memo
        got = compiled.native.section_chunks(text, sections, start, stop, index, doc, meta_given, names.of_path, memo)
        assert _rows(got) == _rows(want)
        for c, w in zip(got, want):
            assert c.headings is not w.headings and c.metadata is not w.metadata and c.metadata is not meta_given
            if c.headings:
                assert c.headings is not sections[c.index - index + start].headings
    lookalikes = [types.SimpleNamespace(start=x.start, end=x.end, headings=x.headings) for x in sections]
    got = compiled.native.section_chunks(text, lookalikes, start, stop, index, doc, meta, names.of_path)
    assert _rows(got) == _rows(section_chunks(text, sections, start, stop, index, doc, meta, names.of_path))


@_needs_compiled
def test_the_compiled_section_chunks_say_what_is_wrong():
    sections = LabelledText().sections("# A\n\nx")
    with pytest.raises(TypeError, match="section_chunks"):
        compiled.native.section_chunks("# A\n\nx", tuple(sections), 0, 1, 0, None, None, len)
    with pytest.raises(TypeError, match="headings must be a list"):
        bad = [types.SimpleNamespace(start=0, end=1, headings=("A",))]
        compiled.native.section_chunks("# A", bad, 0, 1, 0, None, None, len)
    with pytest.raises(ZeroDivisionError):  # the canonical look-up's own error comes through
        compiled.native.section_chunks("# A\n\nx", sections, 0, 1, 0, None, None, lambda h: 1 / 0)
    with pytest.raises(TypeError, match="memo"):
        compiled.native.section_chunks("# A\n\nx", sections, 0, 1, 0, None, None, len, [])
    # a path the memo holds is named from it, without the look-up; another by the look-up
    got = compiled.native.section_chunks("# A\n\nx", sections, 0, 1, 0, None, None, lambda h: 1 / 0, {("A",): "a"})
    assert got[0].section_canonical == "a"
    got = compiled.native.section_chunks("# A\n\nx", sections, 0, 1, 0, None, None, lambda h: "b", {("B",): "a"})
    assert got[0].section_canonical == "b"
    with pytest.raises(TypeError, match="one_chunk_run"):
        compiled.native.one_chunk_run([0], [], 0, 5, [], [])


@given(
    st.lists(st.sampled_from(_LINES) | st.text(alphabet="ab. 。\n", max_size=30), min_size=1, max_size=40),
    st.integers(8, 120),
    st.booleans(),
    st.sampled_from([(), ("section",)]),
)
@settings(max_examples=150, deadline=None)
def test_chunks_of_sections_are_the_same_compiled_and_pure(lines, size, paged, header_keys):
    """End to end: the chunks of a page of sections, short and long, with tables, metadata,
    pages and a context header or none, are the same with the compiled helpers and without."""
    text = "\n".join(lines)
    pages = [0, len(text) // 2] if paged else None
    doc = Document(text, metadata={"patient_id": "p-1"}, pages=pages)
    rows = []
    for on in (True, False):
        with compiled_helpers(on):
            got = api.iter_chunks(doc, size=max(size, 160) if header_keys else size, header_keys=header_keys)
            rows.append([(c.to_dict(), c.page_start, c.page_end) for c in got])
    assert rows[0] == rows[1]


class _Prefix:
    """A table prefix as the regions make it: ``base`` but in its spans."""

    def __init__(self, base: str, starts: list[int], ends: list[int]):
        self.base, self.starts, self.ends = base, starts, ends

    def __call__(self, p: int) -> str:
        return f"<{p}>"


@_needs_compiled
@settings(max_examples=200, deadline=None)
@given(
    st.text(min_size=20, max_size=60),
    st.lists(st.tuples(st.integers(0, 17), st.integers(0, 17), st.integers(0, 99)), max_size=12),
    st.sampled_from([None, {}, {"patient_id": "p-1"}]),
    st.sampled_from([None, [], ["A", "B"]]),
    st.integers(0, 3),
    st.lists(st.tuples(st.integers(0, 5), st.integers(1, 8)), max_size=4),
)
@example("x" * 20, [(0, 2, 2), (2, 4, 2), (4, 6, 2), (6, 9, 3)], None, None, 2, [(2, 2)])  # at a span's start and end
def test_the_compiled_span_chunks_are_their_python_twins(text, spans, meta, heads, kind, vary):
    """Every field of the chunks of a region's spans: no prefix, a prefix asked at every
    start, or a base with spans where the prefix is asked; metadata as no mapping, empty or
    given; headings copied."""
    offset = 3
    spans = [(min(a, b), max(a, b), n) for a, b, n in spans]
    starts, ends, q = [], [], 0
    for gap, length in vary:
        q += gap
        starts.append(q)
        ends.append(q + length)
        q += length
    prefix = [None, _Prefix("", starts, ends), _Prefix("== ", starts, ends), lambda p: "#" * p][kind]
    base = prefix.base if isinstance(prefix, _Prefix) else None
    doc = Document(text)
    args = (text, spans, offset, 7, doc, meta, heads, "B", "b", prefix, base, starts, ends)
    want, got = span_chunks(*args), compiled.native.span_chunks(*args)
    assert _rows(got) == _rows(want)
    for c in got:
        assert c.metadata is not meta and (heads is None or c.headings is not heads)


@_needs_compiled
def test_the_compiled_span_chunks_say_what_is_wrong():
    native = compiled.native.span_chunks
    with pytest.raises(TypeError, match="span_chunks"):
        native("abc", ((0, 1, 1),), 0, 0, None, None, None, None, None, None, None, [], [])
    with pytest.raises(TypeError, match="span 1 is no"):
        native("abc", [(0, 1, 1), (1, 2)], 0, 0, None, None, None, None, None, None, None, [], [])
    with pytest.raises(ValueError, match=r"span \(1, 3\) at offset 1 outside a text of 3"):
        native("abc", [(1, 3, 2)], 1, 0, None, None, None, None, None, None, None, [], [])
    with pytest.raises(ValueError, match="unequal length"):
        native("abc", [(0, 1, 1)], 0, 0, None, None, None, None, None, len, "", [0], [])
    with pytest.raises(ZeroDivisionError):  # the prefix's own error comes through
        native("abc", [(0, 1, 1)], 0, 0, None, None, None, None, None, lambda p: 1 / 0, None, [], [])


@_needs_compiled
@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(_LINES) | st.text(max_size=12), min_size=1, max_size=25),
    st.sampled_from([None, {"patient_id": "p-1"}]),
    st.integers(0, 6),
    st.integers(0, 60),
    st.integers(0, 40),
)
def test_the_compiled_walk_of_short_sections_is_their_python_twin(lines, meta, k, size, index):
    """The chunks of the sections from ``k`` on that are one chunk each, and where that run
    stops (an empty or long section, one that starts in a table's body, the end), read from
    the sections themselves as the twin reads their lists."""
    text = "\n".join(lines)
    labelled = LabelledText()
    sections, atoms, _ = labelled.scan(text)
    tables = [x for x in atoms if x.kind == "table" and x.header]
    t_starts, t_ends = [x.body_start for x in tables], [x.end for x in tables]
    names, doc = api.section_names(()), Document(text)
    want_chunks, want_k = short_sections(text, sections, k, size, t_starts, t_ends, index, doc, meta, names.of_path)
    args = (text, sections, k, size, t_starts, t_ends, index, doc, meta, names.of_path, names.memo)
    short_only = (None, 0, False, None, False, None)  # no document lists: the short sections alone
    got_chunks, got_k, pending = compiled.native.walk_sections(*args, *short_only)
    assert got_k == want_k and _rows(got_chunks) == _rows(want_chunks) and pending is None
    with pytest.raises(TypeError, match="walk_sections"):
        compiled.native.walk_sections(*args)
    with pytest.raises(TypeError, match="walk_sections"):
        compiled.native.walk_sections(text, tuple(sections), *args[2:], *short_only)


_READ_LINES = ["Title", "=====", "-----", "Intro", "*****", "~~~", "所見：異常なし", "S: stable", "	# x"]
_READ_LINES += ["Steps:", "a\tb\tc", "| x | y |"]  # a lead-in and tab-separated lines: find_atoms' to read
_READ_LINES += ["````", "   ```", "\t```", "~~~~ x"]  # longer fences, closed by fewer; indents a fence may not have


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(_LINES + _READ_LINES) | st.text(max_size=10), min_size=1, max_size=30), st.booleans())
def test_a_structures_scan_is_its_sections_atoms_and_paragraph_ends(lines, outlined):
    """``LabelledText.scan`` gives in one call what its three methods give one after another,
    with an outline and without, compiled and not: setext and reStructuredText titles, fences
    and field labels, which the heading reader reads (made only when a line needs it)."""
    text = "\n".join(lines)
    outline = [0, text.find("# ")] if outlined and text.find("# ") > 0 else None
    for on in (True, False):
        with compiled_helpers(on):
            a, b = LabelledText(outline=outline), LabelledText(outline=outline)
            want = (a.sections(text), a.atoms(text), a.paragraph_ends(text))
            got = b.scan(text)
            assert got == want
            assert (type(got[1]) is ScannedAtoms) == bool(compiled.active() and want[1])
            if type(got[1]) is ScannedAtoms:  # the atoms as their lists: the regions read atom_lists' lists there
                starts, ends, tables, t_starts, t_ends, sizes = atom_lists(want[1], len(text))
                assert (got[1].starts, got[1].ends, got[1].t_starts, got[1].t_ends) == (starts, ends, t_starts, t_ends)
                assert got[1].sizes == sizes and got[1].tables == [x.body_start - len(x.header) for x in tables]


_ATOM_LINES = ["Steps:", "所見：", "Note: ", "a:\r", "- one", "-x", "- ", "・ b", "1. one", "12) two", "123. no"]
_ATOM_LINES += ["（1）x", "(2) y", "① a", "⑳b", "  * deep", "+\u3000no", "１．全角", "a\tb\tc", "\ta\tb", "x\ty"]
_ATOM_LINES += ["| a | b |", "|---|---|", "+---+", "```", "~~~~", "code", "", "prose", "x\ty\tz:", "-\ta\tb"]


@_needs_compiled
@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(_ATOM_LINES) | st.text(max_size=6), min_size=1, max_size=30),
    st.sampled_from(["\n", "\r\n"]),
)
@example(["Steps:", "- one", "- two", "a\tb\tc", "a\tb\tc", "a\tb\tc", "```", "x", "```"], "\n")
@example(["a:", "- x", "b:", "- y"], "\n")  # a lead-in right after a list: find_atoms does not start one there
@example(["x\ty\tz:", "-\ta\tb", "-\tc\td", "p"], "\n")  # tab-separated lines and a list from one line: the first kind
@example(["```\ta\tb", "x\ty\tz", "```\t\t"], "\n")  # a fence and tab-separated lines from one line
def test_the_compiled_scan_makes_the_atoms_find_atoms_makes(lines, eol):
    """``scan_labelled`` makes every atom ``find_atoms`` makes, from its line scan's lists: code
    blocks, Markdown tables, runs of tab-separated lines, lead-in lists; disjoint where two kinds
    or more are there (the Python patterns, compiled helpers off, are the reference)."""
    text = eol.join(lines)
    labelled = LabelledText()
    args = (labelled._initials, labelled.labels, True, labelled._reader, labelled._patterns[3])
    with compiled_helpers(False):
        want = find_atoms(text)
    got = compiled.native.scan_labelled(text, *args)[1]
    assert (ScannedAtoms(text, *got) if got is not None else []) == want and (got is None) == (not want)


@_needs_compiled
def test_the_compiled_sections_make_their_reader_only_when_a_line_needs_it():
    made = []

    def make(*args):
        made.append(args)
        return lambda q, last: None  # reads no heading

    sections_of = compiled.native.sections_of
    text = "# A\n\nx\n【所見】\ny\n"
    heads = [0, text.index("【")]
    assert [s.start for s in sections_of(text, heads, True, (make, 1, 2))] == [0, heads[1]] and not made
    got = sections_of("Title\n=====\nx\n", [6], True, (make, 1, 2))  # a setext underline: the reader's
    assert made == [(1, 2)] and [s.headings for s in got] == [[]]
    with pytest.raises(TypeError, match="callable reader"):
        sections_of("Title\n=====\nx\n", [6], True, (lambda: 3,))
    with pytest.raises(TypeError, match="sections_of"):
        sections_of(text, heads, True, ())
    # the compiled scan's reader is made of the text and the line scan's lists, made then
    labelled, setext, made = LabelledText(), "Title\n=====\nx\n", []

    def make_from(text, lines):
        made.append((text, lines))
        return lambda q, last: None

    args = (labelled._initials, labelled.labels, True, make_from, labelled._patterns[3])
    assert len(compiled.native.scan_labelled(text, *args)) == 3 and not made
    compiled.native.scan_labelled(setext, *args)
    assert made == [(setext, compiled.native.structure_lines(setext, *args[:2]))]
    with pytest.raises(TypeError, match="scan_labelled"):
        compiled.native.scan_labelled(setext, *args[:-1])


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from(_LINES) | st.text(alphabet="ab. 。\n", max_size=30), min_size=1, max_size=40),
    st.integers(8, 200),
    st.booleans(),
    st.booleans(),
    st.sampled_from([0, 12]),
)
def test_the_common_options_short_way_makes_the_regions_chunks(lines, size, paged, outlined, overlap):
    """``iter_chunks``' short way for the common options (characters, no header, a region per
    section) gives the chunks the regions' loop gives, compiled and not: pages, metadata, a
    loader's outline, overlap."""
    text = "\n".join(lines)
    pages = [0, len(text) // 2] if paged else None
    outline = [0, text.find("# ")] if outlined and text.find("# ") > 0 else None
    doc = Document(text, metadata={"patient_id": "p-1"}, pages=pages, outline=outline)
    plan = api._resolved(None, {"size": size, "overlap": min(overlap, size // 4)})
    assert plan.runs
    for on in (True, False):
        with compiled_helpers(on):
            got = [(c.to_dict(), c.page_start, c.page_end) for c in api.iter_chunks(doc, plan.config)]
            want = [(c.to_dict(), c.page_start, c.page_end) for c in api._chunks(doc, plan, None, None, None, None)]
            assert got == want


@_needs_compiled
@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(_LINES) | st.text(max_size=12), min_size=1, max_size=30))
def test_the_compiled_atom_lists_are_their_python_twin(lines):
    """The atoms' starts and ends, the tables with a header to repeat, their bodies' starts
    and ends: of a text's atoms, and of objects that only look like atoms."""
    from norishiro.core.atoms import Atom

    atoms = list(LabelledText().scan("\n".join(lines))[1])
    atoms += [Atom(10**6, 10**6 + 5, "table", 10**6 + 2, ""), Atom(2 * 10**6, 2 * 10**6 + 5, "list")]
    for half in (0, 3, 10**6):
        assert compiled.native.atom_lists(atoms, half) == atom_lists(atoms, half)
    lookalikes = [types.SimpleNamespace(**{k: getattr(x, k) for k in Atom.__slots__}) for x in atoms]
    got, want = compiled.native.atom_lists(lookalikes, 5), atom_lists(lookalikes, 5)
    assert got[:2] == want[:2] and got[3:] == want[3:] and [id(x) for x in got[2]] == [id(x) for x in want[2]]
    with pytest.raises(TypeError, match="atom_lists"):
        compiled.native.atom_lists(tuple(atoms), 5)


@_needs_compiled
def test_the_compiled_walk_leaves_what_it_does_not_make_to_the_regions():
    """``walk_sections`` makes short sections and long ones whose spans it reads from the
    document's lists, a table's header repeated in its body; it stops where a section has more
    than 256 chunks, a line break other than "\\n" is in one (section_spans says None) or a
    section is plain text's: the chunks are the regions' loop's all the same."""
    table = "| a | b |\n|---|---|\n" + "".join(f"| {k} | x{k} |\n" for k in range(40))
    prose = " ".join(f"Sentence {k} runs on." for k in range(30))
    long_prose = "\n\n".join(prose for _ in range(20))  # over 256 chunks at 40
    text = "\n".join(
        ["# One", "", prose, "", "## Table", "", table, "## Long", "", long_prose, "", "## Crlf", "", "a\r\nb " * 60]
        + ["```", "code", "```", "", "# Short", "", "x"]
    )
    walked: list = []
    original = compiled.native.walk_sections

    def spy(*args):
        got = original(*args)
        walked.append(got[2] if got[2] in (None, False) else "spans")
        assert got[2] in (None, False) or not got[2][1]  # no table's body left to the regions
        return got

    for size in (40, 120, 400):
        plan = api._resolved(None, {"size": size})
        walked.clear()
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(compiled.native, "walk_sections", spy)
            got = [c.to_dict() for c in api.iter_chunks(Document(text), plan.config)]
        assert walked and got == [c.to_dict() for c in api._chunks(Document(text), plan, None, None, None, None)]
        if size == 40:
            assert {"spans", False, None} <= set(walked)
        if size == 120:  # the table's body is a long section's: its chunks made in the walk
            assert any(c["embed_text"].startswith("| a | b |\n|---|---|\n| ") for c in got)
    with pytest.raises(TypeError, match="walk_sections"):
        compiled.native.walk_sections(text, [], 0, 10, [], [], 0, None, None, len, None, (), 0, False, len, False, None)
    doc = Document(text)
    plan = api._resolved(None, {"size": 120})
    regions = plan.regions(doc, plan.scan(doc))
    lists, *rest = regions.walk_args()
    names = plan.names
    args = (text, regions.sections, 0, 120, regions.t_starts, regions.t_ends, 0, doc, None, names.of_path, names.memo)
    assert regions.tables
    with pytest.raises(ValueError, match="differ in length"):  # a table missing
        compiled.native.walk_sections(*args, lists, *rest[:-1], regions.tables[:-1])


@pytest.mark.parametrize("size", [20, 60, 400])
def test_the_regions_of_a_scan_read_its_atom_lists_as_atom_lists_gives_them(size):
    """The regions of a compiled scan take the atoms' lists it made (each header's size whole,
    where each table's header rows start) and hold the sizes to half the budget as
    ``atom_lists`` does: the same lists, headers and prefixes as the regions that ask the
    structure for its atoms (a header over half the budget is 0)."""
    text = "# T\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nx\tyy\tz\nx\ty\tz\nx\ty\tz\n\n```\ncode\n```\n"
    doc = Document(text)
    plan = api._resolved(None, {"size": size})
    scanned = plan.scan(doc)
    assert (type(scanned[1]) is ScannedAtoms) == compiled.active()
    ours = plan.regions(doc, scanned)
    theirs = Regions(doc, plan.config, plan.sizer, LabelledText(), plan.renderer, False)
    assert (ours.atom_starts, ours._atom_ends) == (theirs.atom_starts, theirs._atom_ends)
    assert (ours.t_starts, ours.t_ends, ours._heads) == (theirs.t_starts, theirs.t_ends, theirs._heads)
    assert 0 in ours._heads if size == 20 else 0 not in ours._heads
    # a table's header rows, and what a chunk starting in its body is prefixed with
    heads = [text[x : ours.t_starts[k]] if type(x) is int else x.header for k, x in enumerate(ours.tables)]
    assert heads == [x.header for x in theirs.tables] and len(heads) == 2
    for p in range(len(text)):
        assert ours.prefix_at(p) == theirs.prefix_at(p)
