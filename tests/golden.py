"""Golden chunk spans: the proof that a refactor or a speed-up changed no chunk.

``python tests/golden.py --write`` records ``(start, end, size)`` of every chunk for the
examples, the clinical samples (as loaded, and with single newlines removed) and, when it
has been built, the benchmark corpus, in every configuration of ``CONFIGS``;
``tests/test_golden.py`` chunks the same inputs again and compares. The samples and
examples keep their spans (a difference shows where); the benchmark corpus, which is large,
keeps a hash per document and configuration.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
GOLDEN = HERE / "data" / "golden.json"
CORPUS = ROOT / "benchmarks" / "corpus"

# name -> options of norishiro.chunk; "semantic" uses the hash embedder (deterministic, no model)
CONFIGS: dict[str, dict] = {
    "chars-recursive-300": {"size": 300},
    "chars-recursive-200-overlap-40": {"size": 200, "overlap": 40},
    "chars-fixed-256-overlap-32": {"size": 256, "overlap": 32, "strategy": "fixed"},
    "chars-plain-500-overlap-50": {"size": 500, "overlap": 50, "structure": False},
    "o200k-recursive-128-overlap-16": {"size": 128, "overlap": 16, "unit": "tokens", "tokenizer": "o200k_base"},
    "cl100k-fixed-100-overlap-20": {
        "size": 100,
        "overlap": 20,
        "strategy": "fixed",
        "unit": "tokens",
        "tokenizer": "cl100k_base",
    },
    "o200k-headers-200-overlap-30": {
        "size": 200,
        "overlap": 30,
        "unit": "tokens",
        "tokenizer": "o200k_base",
        "header_keys": ["patient_id", "date", "section"],
    },
    "chars-semantic-hash-300": {"size": 300, "strategy": "semantic"},
    "o200k-semantic-hash-150-overlap-20": {
        "size": 150,
        "overlap": 20,
        "strategy": "semantic",
        "unit": "tokens",
        "tokenizer": "o200k_base",
    },
    "chars-cross-sections-400": {"size": 400, "cross_sections": True},
    # greedy packing (balance off): the spans every configuration had before balancing
    "chars-recursive-300-greedy": {"size": 300, "balance": False},
    "o200k-recursive-128-overlap-16-greedy": {
        "size": 128,
        "overlap": 16,
        "unit": "tokens",
        "tokenizer": "o200k_base",
        "balance": False,
    },
}
# the benchmark corpus is large: the configurations the benchmarks run
CORPUS_CONFIGS = (
    "chars-plain-500-overlap-50",
    "o200k-recursive-128-overlap-16",
    "chars-recursive-300",
    "chars-recursive-300-greedy",
)


def chunk_spans(doc, options: dict) -> list[list[int]]:
    """The one place that calls the library: ``[[start, end, size], ...]``."""
    import norishiro
    from norishiro.embed.hashing import HashEmbedder

    opts = dict(options)
    if opts.get("strategy") == "semantic":
        opts["semantic"] = {"embedder": HashEmbedder(512)}
    return [[c.start, c.end, c.size] for c in norishiro.chunk(doc, **opts)]


def inputs() -> dict[str, object]:
    """name -> Document: examples and samples as loaded, samples flattened."""
    import norishiro

    sys.path.insert(0, str(HERE))
    from clinical import remove_single_newlines, sample_paths

    docs: dict[str, object] = {}
    for p in sorted((ROOT / "examples").glob("*")):
        if p.suffix in (".md", ".txt"):  # the chunkers' spans; what a PDF library extracts may vary by version
            docs[f"examples/{p.name}"] = norishiro.load_document(p)
    for p in sample_paths():
        doc = norishiro.load_document(p)
        docs[f"samples/{p.name}"] = doc
        flat, _ = remove_single_newlines(doc.text, [])
        docs[f"flat/{p.name}"] = norishiro.Document(flat, id=f"flat/{p.name}", metadata=doc.metadata)
    return docs


def corpus_inputs() -> dict[str, object]:
    import norishiro

    return {
        f"corpus/{p.parent.name}/{p.name}": norishiro.Document(p.read_text(encoding="utf-8"), id=p.name)
        for p in sorted(CORPUS.glob("*/*.txt"))
    }


def digest(spans: list[list[int]]) -> str:
    return hashlib.sha256(json.dumps(spans).encode()).hexdigest()[:20]


def record() -> dict:
    out: dict = {"spans": {}, "corpus": {}}
    docs = inputs()
    for name, opts in CONFIGS.items():
        out["spans"][name] = {d: chunk_spans(doc, opts) for d, doc in docs.items()}
    corpus = corpus_inputs()
    for name in CORPUS_CONFIGS:
        out["corpus"][name] = {d: digest(chunk_spans(doc, CONFIGS[name])) for d, doc in corpus.items()}
    return out


if __name__ == "__main__":
    if "--write" not in sys.argv:
        sys.exit("usage: python tests/golden.py --write   (records tests/data/golden.json)")
    got = record()
    GOLDEN.write_text(json.dumps(got, separators=(",", ":")) + "\n", encoding="utf-8")
    n = sum(len(v) for cfg in got["spans"].values() for v in cfg.values())
    print(f"{GOLDEN}: {n} spans, {sum(len(v) for v in got['corpus'].values())} corpus digests")
