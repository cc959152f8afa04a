"""Done-when of the core issue on the fictional clinical notes in tests/data, single newlines removed."""

import pytest

import norishiro
from clinical import load_facts, remove_single_newlines, sample_paths
from invariants import check_chunks
from norishiro.core.boundaries import Boundaries, Level


def _flattened():
    for p in sample_paths():
        doc = norishiro.load_document(p)
        facts = load_facts(p)
        text, spans = remove_single_newlines(doc.text, [(f["start"], f["end"]) for f in facts])
        for f, (s, e) in zip(facts, spans):
            assert text[s:e] == f["text"]
        yield p, text, facts, spans


def test_samples_present():
    assert len(sample_paths()) >= 12


def test_facts_whole_and_sentence_ends_at_200_chars_without_overlap():
    lost, n_chunks, sentence_ends = [], 0, 0
    for p, text, facts, spans in _flattened():
        chunks = norishiro.chunk(text, size=200)
        check_chunks(text, chunks, 200)
        b = Boundaries(text)
        n_chunks += len(chunks)
        sentence_ends += sum(b.level_of(c.end) <= Level.SENTENCE for c in chunks)
        for f, (s, e) in zip(facts, spans):
            if not any(c.start <= s and e <= c.end for c in chunks):
                lost.append((p.name, f["text"]))
    assert lost == []
    assert sentence_ends / n_chunks >= 0.95, sentence_ends / n_chunks


@pytest.mark.parametrize("size", [200, 300])
def test_facts_whole_with_newlines_kept(size):
    for p in sample_paths():
        doc = norishiro.load_document(p)
        chunks = norishiro.chunk(doc, size=size)
        for f in load_facts(p):
            assert any(c.start <= f["start"] and f["end"] <= c.end for c in chunks), (p.name, f["text"])
