"""The regions of a document as ``norishiro.api`` hands them to a chunker: a region that is
one chunk is a ``OneChunk`` whether the chunker is asked (``one_chunk``) or, in characters,
its length answers (``by_length``)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from norishiro import api
from norishiro.core.structure import LabelledText
from norishiro.document import Document
from norishiro.regions import OneChunk, Regions

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
        if type(region) is OneChunk:
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
