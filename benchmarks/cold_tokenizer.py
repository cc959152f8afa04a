"""Which o200k tokenizer is faster, warm and with the CPU's caches flushed (issue #15).

norishiro tokenizes with bpe-openai's Rust tokenizer; the peers use tiktoken. In
``shapes.py``'s per-document runs the peers' tiktoken runs just before norishiro, so its
tables are warm and norishiro's are not. This runs both tokenizers over each document of
a shape alone: warm (the same tokenizer just ran), and with 64 MB written before every
document (the caches flushed, as between two documents of a pipeline that reads files,
parses PDFs or calls an embedder). Best of ``--reps`` passes over the corpus, in ms.

    python benchmarks/cold_tokenizer.py [--shapes clinical-flat:ja,markdown:en,one-line:en] [--reps 5]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "src"))

from norishiro.core.tokenizers_offline import fast_tokenizer, get_encoding  # noqa: E402
from shapes import shape_docs  # noqa: E402

_FLUSH = bytearray(64_000_000)


def _flush() -> None:
    """Write a byte in every 64-byte line of 64 MB: what was cached is pushed out."""
    _FLUSH[::64] = bytes(len(_FLUSH) // 64)


def _pass(encode, docs: list[str], cold: bool) -> float:
    total = 0.0
    for d in docs:
        if cold:
            _flush()
        t0 = time.perf_counter()
        encode(d)
        total += time.perf_counter() - t0
    return total * 1e3


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shapes", default="clinical-flat:ja,markdown:en,one-line:en")
    ap.add_argument("--reps", type=int, default=5)
    a = ap.parse_args()
    fast, enc = fast_tokenizer("o200k_base"), get_encoding("o200k_base")
    print("| shape | bpe-openai warm | tiktoken warm | bpe-openai flushed | tiktoken flushed |")
    print("|---|---:|---:|---:|---:|")
    for spec in a.shapes.split(","):
        shape, lang = spec.split(":")
        docs = shape_docs(shape, lang)
        cells = []
        for cold in (False, True):
            for encode in (fast.encode, enc.encode_ordinary):
                encode(docs[0])
                cells.append(min(_pass(encode, docs, cold) for _ in range(a.reps)))
        print(f"| {shape} {lang} | " + " | ".join(f"{c:.2f} ms" for c in cells) + " |")


if __name__ == "__main__":
    main()
