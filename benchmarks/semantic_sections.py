#!/usr/bin/env python3
"""How often do semantic breakpoints fall at section changes? (issue: semantic chunking)

    python benchmarks/semantic_sections.py [--embedder local|hash] [--window 0] [--method percentile]

On tests/data/ja-clinical, each document is chunked as plain text (no section
boundaries imposed, size 1000 characters so that the size limit rarely forces a cut), and
the semantic breakpoints are compared with the section starts that norishiro.core.structure finds
(Markdown headings, 【labels】, SOAP lines ...). A breakpoint counts as "at a section change"
when it lies within one character of a section start.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

import norishiro  # noqa: E402
from norishiro.chunkers.semantic import SemanticTrace  # noqa: E402
from norishiro.core.structure import find_sections  # noqa: E402
from norishiro.embed import get_embedder  # noqa: E402
from norishiro.embed.cache import EmbeddingCache  # noqa: E402

SAMPLES = HERE.parent / "tests" / "data" / "ja-clinical"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--embedder", default="local")
    ap.add_argument("--window", type=int, default=0)
    ap.add_argument("--method", default="percentile")
    ap.add_argument("--param", type=float, default=None)
    ap.add_argument(
        "--structure",
        action="store_true",
        help="chunk the documents as norishiro does by default (sections are not crossed) "
        "and count every chunk end, not only the semantic breakpoints",
    )
    ap.add_argument("--cache", default=".norishiro-cache/embeddings.sqlite")
    args = ap.parse_args()
    emb, cache = get_embedder(args.embedder), EmbeddingCache(args.cache)
    t0 = time.time()
    bps = at = starts_total = found = 0
    for p in sorted(SAMPLES.glob("s*.md")):
        doc = norishiro.load_document(p)
        starts = [s.start for s in find_sections(doc.text)[1:]]
        tr = SemanticTrace()
        chunks = norishiro.chunk(
            doc,
            structure=args.structure,
            size=1000 if not args.structure else 256,
            unit="chars" if not args.structure else "tokens",
            strategy="semantic",
            semantic={
                "embedder": emb,
                "cache": cache,
                "trace": tr,
                "window": args.window,
                "method": args.method,
                "param": args.param,
            },
        )
        cuts = [c.end for c in chunks[:-1]] if args.structure else [tr.pair_ends[i] for i in tr.breakpoints]
        bps += len(cuts)
        at += sum(any(abs(c - s) <= 1 for s in starts) for c in cuts)
        starts_total += len(starts)
        found += sum(any(abs(c - s) <= 1 for c in cuts) for s in starts)
    what = "chunk ends (size 256 tokens, sections kept)" if args.structure else "breakpoints"
    print(
        f"embedder {emb.name}, window {args.window}, {args.method} {args.param or 'default'}: "
        f"{bps} {what}, {at} ({at / max(1, bps):.0%}) at section changes; "
        f"{found} of {starts_total} section changes ({found / max(1, starts_total):.0%}) got a breakpoint; "
        f"{time.time() - t0:.1f} s"
    )


if __name__ == "__main__":
    main()
