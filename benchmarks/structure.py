#!/usr/bin/env python3
"""What structure-aware chunking (the default for documents and the CLI) costs over plain
text: the same corpus chunked with ``structure=False`` and ``structure=True``.

    python benchmarks/structure.py [--reps 5]

Prints the best time of ``--reps`` runs over each corpus (sections, tables and lists are
found, chunks do not cross sections, headings stay with their text).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

import norishiro  # noqa: E402
from run import load_corpus  # noqa: E402


def best_time(texts: list[str], reps: int, **kw) -> float:
    list(norishiro.iter_chunks(texts[0], **kw))  # warm-up (tokenizer tables)
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for t in texts:
            for _c in norishiro.iter_chunks(t, **kw):
                pass
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args()
    print("| corpus | budget | plain (ms) | structure-aware (ms) |")
    print("|---|---|---:|---:|")
    for lang in ("en", "ja"):
        texts = load_corpus(lang)
        for label, kw in (("2,000 characters", {"size": 2000}), ("512 o200k tokens", {"size": 512, "unit": "tokens"})):
            plain = best_time(texts, args.reps, structure=False, **kw)
            structured = best_time(texts, args.reps, structure=True, **kw)
            print(f"| {lang} | {label} | {plain * 1000:.0f} | {structured * 1000:.0f} |")


if __name__ == "__main__":
    main()
