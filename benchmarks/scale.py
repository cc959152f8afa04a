#!/usr/bin/env python3
"""Scaling figures: serial, --workers 2 and --engine ray on a corpus of many files, with
wall time and peak memory (RSS of the whole process tree) of each run.

    python benchmarks/scale.py [--files 2000]

The corpus is made from benchmarks/corpus (build_corpus.py): every document is cut into
pieces of about 4,000 characters, copied round-robin until --files files exist.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def make_corpus(dest: Path, n: int) -> tuple[int, int]:
    texts = [p.read_text(encoding="utf-8") for p in sorted((HERE / "corpus").glob("*/*.txt"))]
    if not texts:
        sys.exit("run benchmarks/build_corpus.py first")
    pieces = [t[i : i + 4000] for t in texts for i in range(0, len(t), 4000)]
    dest.mkdir(parents=True, exist_ok=True)
    total = 0
    for i in range(n):
        body = pieces[i % len(pieces)]
        (dest / f"doc{i:05d}.txt").write_text(body, encoding="utf-8")
        total += len(body.encode("utf-8"))
    return n, total


def run(cmd: list[str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    dt = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return dt, max(after, before) / 1024  # MiB (max over children so far)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=2000)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="norishiro-scale-"))
    try:
        n, nbytes = make_corpus(tmp / "docs", args.files)
        base = [sys.executable, "-m", "norishiro.cli", "chunk", str(tmp / "docs"), "--size", "2000", "-q"]
        print(f"corpus: {n} files, {nbytes / 1e6:.1f} MB UTF-8 (machine: {os.cpu_count()} cores)")
        print("| run | seconds | MB/s | peak RSS of the largest process (MiB) |")
        print("|---|---:|---:|---:|")
        for label, extra in [
            ("serial, JSONL", ["-o", str(tmp / "a.jsonl")]),
            ("--workers 2, JSONL", ["--workers", "2", "-o", str(tmp / "b.jsonl")]),
            ("serial, Parquet", ["--format", "parquet", "-o", str(tmp / "pq")]),
            (
                "--engine ray (local, 2 CPUs), Parquet",
                ["--engine", "ray", "--format", "parquet", "-o", str(tmp / "ray")],
            ),
        ]:
            try:
                dt, rss = run(base + extra)
            except subprocess.CalledProcessError as e:
                print(f"| {label} | failed ({e.returncode}) | | |")
                continue
            print(f"| {label} | {dt:.2f} | {nbytes / 1e6 / dt:.2f} | {rss:.0f} |", flush=True)
        same = (tmp / "a.jsonl").read_bytes() == (tmp / "b.jsonl").read_bytes()
        print(f"\nserial and --workers 2 outputs identical: {same}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
