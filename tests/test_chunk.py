import pytest

import norishiro
from invariants import check_chunks, tiktoken_count
from seeds import needs_seeds, seed002_body, seed002_text


@needs_seeds
def test_seed002_example_three_chunks():
    text = seed002_text()
    assert len(text) == 665
    chunks = norishiro.chunk(text, size=300, overlap=0)
    assert [(c.start, c.size) for c in chunks] == [(0, 294), (294, 202), (496, 169)]
    assert [c.text for c in chunks] == seed002_body()["input"]
    check_chunks(text, chunks, 300)


@needs_seeds
def test_overlap_is_whole_units_and_within_budget():
    text = seed002_text()
    chunks = norishiro.chunk(text, size=200, overlap=60)
    check_chunks(text, chunks, 200, overlap=60)
    for a, b in zip(chunks, chunks[1:]):
        shared = a.end - b.start
        assert 0 <= shared <= 60
        if shared:
            # the repeated part starts at a sentence, clause or word boundary
            assert text[b.start - 1] in " \n、。,.;:" or b.start == 0


def test_japanese_sentences_are_not_cut_when_they_fit():
    text = "右肺上葉に明らかな結節影は認めない。" * 3 + "肺癌の疑いなし。" * 4
    chunks = norishiro.chunk(text, size=40)
    for c in chunks:
        assert c.text.endswith("。")


def test_chunk_ids_are_deterministic_and_positional():
    a = norishiro.chunk("同じ文。同じ文。", size=4)
    b = norishiro.chunk("同じ文。同じ文。", size=4)
    assert [c.id for c in a] == [c.id for c in b]
    assert a[0].text == a[1].text and a[0].id != a[1].id


def test_document_metadata_travels():
    doc = norishiro.Document.from_text("---\npatient_id: P1\ndate: 2026-02-18\n---\n本文。", front_matter=True)
    assert doc.text == "本文。"
    assert doc.metadata == {"patient_id": "P1", "date": "2026-02-18"}
    (c,) = norishiro.chunk(doc, size=10)
    assert c.metadata["patient_id"] == "P1" and c.doc_id == doc.id


@pytest.mark.parametrize("size,overlap", [(0, 0), (-5, 0), (10, -1), (10, 10), (10, 11)])
def test_bad_options(size, overlap):
    with pytest.raises(norishiro.OptionError):
        norishiro.chunk("text", size=size, overlap=overlap)


def test_empty_text_gives_no_chunks():
    assert norishiro.chunk("", size=10) == []


def test_grapheme_larger_than_budget_is_kept_whole():
    family = "👨\u200d👩\u200d👧"
    chunks = norishiro.chunk("ab" + family + "cd", size=2)
    assert family in [c.text for c in chunks]


def test_fixed_windows_char_mode():
    text = "0123456789" * 5
    chunks = norishiro.chunk(text, size=10, overlap=3, strategy="fixed")
    assert [c.start for c in chunks][:4] == [0, 7, 14, 21]
    assert all(c.size <= 10 for c in chunks)


def _paragraphs(n: int, width: int = 98) -> str:
    return "".join(f"{i:02d} " + "word " * ((width - 5) // 5) + "w\n\n" for i in range(n))


def test_balanced_last_chunks_share_the_rest_evenly():
    text = _paragraphs(11)  # 11 paragraphs of about 100 characters, 1.1 budgets
    greedy = norishiro.chunk(text, size=1000, balance=False)
    balanced = norishiro.chunk(text, size=1000)
    assert [c.size for c in greedy][-1] < 150  # a full chunk and a sliver
    assert len(balanced) == len(greedy) == 2
    assert min(c.size for c in balanced) >= 400
    for chunks in (greedy, balanced):
        check_chunks(text, chunks, 1000)
        assert all(text[c.end - 2 : c.end] == "\n\n" or c.end == len(text) for c in chunks)  # paragraph ends


def test_balance_applies_to_the_tail_only_and_to_each_section():
    long = _paragraphs(57)  # 5.5 budgets: the first chunks fill up, the last four share the rest
    greedy = [c.size for c in norishiro.chunk(long, size=1000, balance=False)]
    sizes = [c.size for c in norishiro.chunk(long, size=1000)]
    assert greedy == [960] * 5 + [672]
    assert sizes[:3] == [960] * 3 and sizes[3:] == [864] * 3
    doc = "# A\n\n" + _paragraphs(11) + "# B\n\n" + _paragraphs(3)
    chunks = norishiro.chunk(doc, size=1000)
    assert [c.headings for c in chunks] == [["A"], ["A"], ["B"]]
    assert min(c.size for c in chunks[:2]) >= 400  # A is two halves; B is whole


def test_balance_in_tokens_and_the_option_round_trip():
    text = _paragraphs(12)
    for bal in (True, False):
        chunks = norishiro.chunk(text, size=200, tokenizer="o200k_base", balance=bal)
        check_chunks(text, chunks, 200, tiktoken_count())
    cfg = norishiro.ChunkConfig.from_spec("recursive size=100 balance=false")
    assert cfg.balance is False and "balance=False" in cfg.label
    assert norishiro.ChunkConfig.from_dict(cfg.to_dict()) == cfg
    with pytest.raises(norishiro.OptionError):
        norishiro.ChunkConfig(size=100, balance="yes")


def test_new_chunk_is_the_chunk_the_class_makes():
    """The library's loop makes chunks without the class call: every field as Chunk() sets it."""
    from norishiro.chunk import Chunk, new_chunk
    from norishiro.document import Document

    doc = Document("abc def", id="d1", metadata={"k": 1})
    cases = [
        ((), {}),
        (
            (["H"], "H", "h", "[H] abc"),
            {"headings": ["H"], "section": "H", "section_canonical": "h", "embed_text": "[H] abc"},
        ),
    ]
    for extra, kw in cases:
        made = new_chunk("abc", 0, 3, 2, 3, doc, {"k": 1}, *extra)
        want = Chunk("abc", 0, 3, 2, 3, doc=doc, metadata={"k": 1}, **kw)
        for slot in Chunk.__slots__:
            assert getattr(made, slot) == getattr(want, slot), slot
        assert made.to_dict() == want.to_dict() and made.id == want.id
    bare = new_chunk("x", 5, 6, 0, 1, None, None)
    assert bare.headings == [] and bare.metadata == {} and bare.embed_text == "x"
    assert bare.headings is not new_chunk("x", 5, 6, 0, 1, None, None).headings  # not shared


def test_resolve_gives_each_caller_its_own_runtime():
    """Resolved options are shared between calls; the runtime dict a caller gets is its own."""
    from norishiro.api import resolve

    a = resolve(None, size=300)[2]
    a["embedder"] = object()
    assert resolve(None, size=300)[2] == {}


def test_options_like_the_last_calls_reuse_its_plan_and_others_do_not():
    """The last call's plan serves a call with equal options and the same config object; a
    call with other options, or another config, resolves its own."""
    from norishiro.config import ChunkConfig

    text = "第一文です。第二文です。第三文です。\n\n" * 20
    spans = lambda chunks: [(c.start, c.end) for c in chunks]  # noqa: E731
    small = spans(norishiro.chunk(text, size=40, structure=False))
    large = spans(norishiro.chunk(text, size=200, structure=False))
    assert small != large
    assert spans(norishiro.chunk(text, size=40, structure=False)) == small
    a, b = ChunkConfig(size=40, structure=False), ChunkConfig(size=200, structure=False)
    assert spans(norishiro.chunk(text, a)) == small
    assert spans(norishiro.chunk(text, b)) == large  # no options, another config
    assert spans(norishiro.chunk(text, a, overlap=10)) != small


def test_a_packing_chunker_whose_init_skips_the_base_class_still_chunks(monkeypatch):
    """What a packing chunker works out once from its config is there for a registered
    subclass whose own ``__init__`` does not call the base class's."""
    from norishiro.chunkers import CHUNKERS
    from norishiro.chunkers.recursive import RecursiveChunker

    class OwnInit(RecursiveChunker):
        def __init__(self, config=None, **_runtime):
            self.config = config

    monkeypatch.setitem(CHUNKERS, "own-init", OwnInit)
    text = "第一文です。第二文です。\n\n" * 60
    for opts in ({"overlap": 20}, {}):
        mine = norishiro.chunk(text, size=200, structure=False, strategy="own-init", **opts)
        base = norishiro.chunk(text, size=200, structure=False, **opts)
        assert [(c.start, c.end) for c in mine] == [(c.start, c.end) for c in base]


@pytest.mark.parametrize("tokens", [False, True])
@pytest.mark.parametrize("opts", [{}, {"structure": False}, {"strategy": "sentences"}])
def test_blank_lines_after_a_chunk_that_fills_the_budget_go_with_the_text_after(opts, tokens):
    """A chunk that ends where the budget runs out, before blank lines, is followed by the
    blank lines and the text after them, not by a chunk of the blank lines alone (the
    farthest paragraph cut of that window is right behind them: the finer levels serve)."""
    from invariants import check_chunks
    from norishiro.core.measure import TiktokenSizer

    table = "| name     | size |\n|----------+------|\n" + "".join(f"| pkg{i:03d}   | {i:4d} |\n" for i in range(2))
    prose = "\n".join(["the copy manager archives the system it installs and more words here."] * 6) + "\n"
    sizer = TiktokenSizer("o200k_base") if tokens else None
    size = sizer.count(table) if tokens else len(table)
    for text in (table + "\n\n" + prose, "A" * (len(table) - 1) + ".\n\n" + prose):
        chunks = norishiro.chunk(text, size=size, tokenizer=sizer, **opts)
        check_chunks(text, chunks, size, sizer.count if tokens else len)
        assert all(c.text.strip() for c in chunks), [c.text for c in chunks]


def test_chunking_leaves_no_reference_cycles():
    """A text's boundaries, sentence windows and soft-wrap decisions refer to no object that
    refers back to them: they are freed when the chunks are made, not by the collector."""
    import gc

    text = "第一文です。第二文です。\n\n" * 40 + "A sentence here. Another one follows.\nwrapped line\n" * 30
    gc.collect()
    gc.disable()
    try:
        for opts in ({"overlap": 40, "structure": False}, {"overlap": 40}, {}):
            norishiro.chunk(text, size=120, **opts)
        assert gc.collect() == 0
    finally:
        gc.enable()
