"""The same chunks before and after a refactor: spans and sizes equal the recorded ones.

Recorded with ``python tests/golden.py --write`` (see that file for the inputs and the
configurations). A change that is meant to move chunks re-records the file in the same
commit and says why in its message.
"""

import json

import pytest

from golden import CONFIGS, CORPUS_CONFIGS, GOLDEN, chunk_spans, corpus_inputs, digest, inputs

RECORDED = json.loads(GOLDEN.read_text(encoding="utf-8"))
DOCS = inputs()


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_same_spans_as_recorded(config):
    want = RECORDED["spans"][config]
    assert set(want) == set(DOCS)
    changed = [d for d, doc in DOCS.items() if chunk_spans(doc, CONFIGS[config]) != want[d]]
    assert not changed, f"{config}: chunks differ from the recorded ones in {changed[:5]}"


@pytest.mark.parametrize("config", CORPUS_CONFIGS)
def test_same_spans_on_the_benchmark_corpus(config):
    corpus = corpus_inputs()
    if not corpus:
        pytest.skip(
            "benchmark corpus not built (apt-get install debian-reference-en debian-reference-ja; "
            "python benchmarks/build_corpus.py)"
        )
    want = RECORDED["corpus"][config]
    changed = [d for d, doc in corpus.items() if digest(chunk_spans(doc, CONFIGS[config])) != want[d]]
    assert not changed, f"{config}: chunks differ on {changed[:5]}"
