#!/usr/bin/env python3
"""Build the English and Japanese benchmark corpora from Debian packages (no downloads
beyond the package registry).

Recipe:
    apt-get install debian-reference-en debian-reference-ja
    python benchmarks/build_corpus.py          # writes benchmarks/corpus/{en,ja}/NN.txt

The Debian Reference ships a plain-text edition in both languages
(/usr/share/debian-reference/debian-reference.{en,ja}.txt.gz, about 0.9 and 1.0 million
characters). Each is split into one document per chapter/appendix, so throughput is
measured per document, as a RAG ingestion job sees it.
"""

from __future__ import annotations

import gzip
import re
import sys
from pathlib import Path

SRC = Path("/usr/share/debian-reference")
OUT = Path(__file__).resolve().parent / "corpus"
HEADINGS = {
    "en": re.compile(r"^(?:Chapter|Appendix)[ \u00a0][0-9A-Z]+\.[ \u00a0]", re.M),
    "ja": re.compile(r"^(?:第\d+章|付録 ?[A-Z]\.?)", re.M),
}


def build(lang: str) -> list[Path]:
    src = SRC / f"debian-reference.{lang}.txt.gz"
    if not src.exists():
        sys.exit(f"{src} not found: run 'apt-get install debian-reference-{lang}' first")
    text = gzip.open(src, "rt", encoding="utf-8").read()
    starts = [m.start() for m in HEADINGS[lang].finditer(text)]
    # the table of contents repeats the headings: keep the last run, where the chapters are
    starts = [s for s in starts if s > len(text) * 0.05] or [0]
    bounds = starts + [len(text)]
    out_dir = OUT / lang
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for i, (a, b) in enumerate(zip(bounds, bounds[1:])):
        p = out_dir / f"{i:02d}.txt"
        p.write_text(text[a:b], encoding="utf-8")
        paths.append(p)
    return paths


if __name__ == "__main__":
    for lang in ("en", "ja"):
        paths = build(lang)
        total = sum(len(p.read_text(encoding="utf-8")) for p in paths)
        print(f"{lang}: {len(paths)} documents, {total:,} characters -> {OUT / lang}")
