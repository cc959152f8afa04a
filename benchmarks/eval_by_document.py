#!/usr/bin/env python3
"""``norishiro eval``'s paired differences split by document, with each configuration's
chunk sizes per document: where one chunker's lead over another sits (issue #22).

    python benchmarks/eval_by_document.py datasets/en --metric-unit tokens --metric-tokenizer cl100k_base \\
        --config "recursive size=250 tokenizer=cl100k_base" --config "langchain size=214 tokenizer=cl100k_base"

The configurations are taken as given (give the sizes ``eval --match-length`` printed); the
first is the base. Prints, per document: chunks, mean chunk size, mean size of the chunks
retrieved (top k), and the other configurations' recall and IoU minus the base's, in
points, with standard errors over that document's questions. Local embedder, as ``eval``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from norishiro.analysis.evaluate import chunk_dataset, evaluate_config, load_dataset, parse_config  # noqa: E402
from norishiro.core.measure import get_sizer  # noqa: E402
from norishiro.embed import get_embedder  # noqa: E402
from norishiro.embed.cache import EmbeddingCache  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data")
    ap.add_argument("--config", action="append", required=True)
    ap.add_argument("--metric-unit", default="chars", choices=["chars", "tokens"])
    ap.add_argument("--metric-tokenizer", default=None)
    ap.add_argument("-k", type=int, default=5)
    a = ap.parse_args()
    ds = load_dataset(a.data)
    embedder, cache = get_embedder("local"), EmbeddingCache(".norishiro-cache/embeddings.sqlite")
    sizer = get_sizer("tokens", a.metric_tokenizer) if a.metric_unit == "tokens" else None
    size = sizer.count if sizer else len
    cfgs = [parse_config(c) for c in a.config]
    rows = [evaluate_config(ds, c, embedder, a.k, cache, a.metric_unit, a.metric_tokenizer) for c in cfgs]
    doc_of = [q.refs[0][0] for q in ds.questions]
    texts = {d.id: d.text for d in ds.documents}
    print("| document | config | chunks | mean size | mean retrieved | Δ recall | Δ IoU |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for cfg, row in zip(cfgs, rows):
        by_doc = chunk_dataset(ds, cfg, embedder, cache)
        pool = [c for d in ds.documents for c in by_doc[d.id]]
        sizes = np.array([size(texts[c.doc_id][c.start : c.end]) for c in pool])
        sims = (
            cache.embed(embedder, [q.text for q in ds.questions], query=True)
            @ cache.embed(embedder, [c.embed_text for c in pool]).T
        )
        top = np.argsort(-sims, axis=1, kind="stable")[:, : a.k]
        for d in ds.documents:
            qs = [i for i, x in enumerate(doc_of) if x == d.id]
            own = np.array([c.doc_id == d.id for c in pool])
            diffs = []
            for m in ("recall", "iou"):
                x = np.array([row.per_question[m][i] - rows[0].per_question[m][i] for i in qs]) * 100
                se = x.std(ddof=1) / np.sqrt(len(x)) if len(x) > 1 else 0.0
                diffs.append("" if row is rows[0] else f"{x.mean():+.2f} ± {se:.2f}")
            print(
                f"| {d.id} | {row.short} | {own.sum()} | {sizes[own].mean():.0f} | {sizes[top[qs]].mean():.0f} | "
                + " | ".join(diffs)
                + " |"
            )


if __name__ == "__main__":
    main()
