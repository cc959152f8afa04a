#!/usr/bin/env python3
"""Throughput on every shape of text, against the peers, in one run (issue #15).

Shapes, all built from installed packages (debian-reference-en/-ja; lxml for Markdown):

* ``one-line``: each Debian Reference chapter with every run of white space made one space
  (scraped pages, PDF text layers, JSON fields: no newline at all);
* ``hard-wrapped``: the plain-text chapters as shipped (lines of about 70 characters);
* ``paragraphs``: the same with single newlines joined (one line per paragraph);
* ``markdown``: the HTML chapters read by norishiro's HTML loader (``#`` headings, lists,
  pipe tables, code blocks);
* ``clinical-flat``: the Japanese clinical samples (tests/data/ja-clinical) with single
  newlines removed, as EHR exports lose them.

Modes: characters at 2,000; o200k_base tokens at 512 (with one bare tiktoken pass as the
floor); characters at 2,000 with a 12.5% overlap (250). norishiro runs with structure off
(plain text, like the peers), and, for characters, once more with structure on (the CLI's
default) to show what structure costs; the two runs are kept apart in the order, each
following a peer's. Timing as in run.py: CPU-interleaved per document,
median over repetitions of the total; MB/s of UTF-8. A corpus under ``MIN_MB`` (the clinical
samples, 0.09 MB: a repetition of it takes about 0.2 ms) is repeated more, so that every
shape's median stands on about ``--reps`` x ``MIN_MB`` of text (at ``--reps 5`` the clinical
samples run 30 repetitions); a line says how many when it is more than ``--reps``.
``--adjacent``: structure on last in the order, so right before plain in the rotation, as
the runs before session 32 had it (plain then mostly chunks a document just after structure
on, in warm caches): for comparison only. ``--blocks``: each chunker chunks the whole corpus
in turn (see ``run.bench``); norishiro's token index comes from another tokenizer than the
peers' (bpe-openai's, with tiktoken's tokens), whose tables the others' runs push out of the
caches between two documents.

    python benchmarks/shapes.py [--reps 3] [--shapes one-line,markdown] [--modes chars,tokens,overlap]
                                [--blocks] [--adjacent]
"""

from __future__ import annotations

import argparse
import math
import re
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "src"))

import norishiro  # noqa: E402
from norishiro.core.measure import TiktokenSizer  # noqa: E402
from run import bench, char_chunkers, load_corpus, token_chunkers  # noqa: E402

SHAPES = ("one-line", "hard-wrapped", "paragraphs", "markdown", "clinical-flat")
MODES = ("chars", "tokens", "overlap")
MIN_MB = 0.5  # a repetition of a smaller corpus is too short to time alone: it is repeated more


def markdown_docs(lang: str) -> list[str]:
    from norishiro.loaders import load_document

    paths = sorted(Path("/usr/share/debian-reference").glob(f"*.{lang}.html"))
    if not paths:
        sys.exit("no /usr/share/debian-reference/*.html: apt-get install debian-reference-en debian-reference-ja")
    return [load_document(p).text for p in paths]


def clinical_flat() -> list[str]:
    folder = HERE.parent / "tests" / "data" / "ja-clinical"
    docs = [p.read_text(encoding="utf-8") for p in sorted(folder.glob("s*.md"))]
    return [re.sub(r"(?<!\n)\n(?!\n)", "", d) for d in docs]


def shape_docs(shape: str, lang: str) -> list[str]:
    if shape == "one-line":
        return [re.sub(r"\s+", " ", d).strip() for d in load_corpus(lang)]
    if shape == "hard-wrapped":
        return load_corpus(lang)
    if shape == "paragraphs":
        return load_corpus(lang, unwrap=True)
    if shape == "markdown":
        return markdown_docs(lang)
    return clinical_flat()


def chunkers_for(mode: str, adjacent: bool = False) -> dict:
    if mode == "tokens":
        sizer = TiktokenSizer("o200k_base")
        out = token_chunkers(512, sizer)
    else:
        out = char_chunkers(2000, 250 if mode == "overlap" else 0)
        if mode == "chars":
            if adjacent:
                out["norishiro, structure on"] = _structured
            else:
                out = _apart(out, "norishiro, structure on", _structured)
    return out


def _structured(text: str) -> list[str]:
    return [c.text for c in norishiro.iter_chunks(text, size=2000)]


def _apart(chunkers: dict, name: str, fn) -> dict:
    """``chunkers`` with ``name`` put half-way round from norishiro's plain run. ``bench``
    rotates the order per document, keeping who follows whom: next to each other, one of
    norishiro's two runs would mostly follow the other on the same text, in caches the other
    has just filled (plain after structure on: about 15% faster on hard-wrapped text)."""
    names = list(chunkers)
    names.insert(len(names) // 2 + 1, name)
    return {n: fn if n == name else chunkers[n] for n in names}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--shapes", default=",".join(SHAPES))
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument(
        "--blocks",
        action="store_true",
        help="each chunker chunks the whole corpus in turn, instead of each document in turn",
    )
    ap.add_argument(
        "--adjacent",
        action="store_true",
        help="structure on last, right before plain in the rotation, as before session 32 (for comparison)",
    )
    args = ap.parse_args(argv)
    rows = []
    for shape in args.shapes.split(","):
        for lang in ("en", "ja") if shape != "clinical-flat" else ("ja",):
            docs = shape_docs(shape, lang)
            mb = sum(len(d.encode("utf-8")) for d in docs) / 1e6
            reps = max(args.reps, math.ceil(args.reps * MIN_MB / mb))
            for mode in args.modes.split(","):
                chunkers = chunkers_for(mode, args.adjacent)
                times = bench(docs, chunkers, reps, blocks=args.blocks)
                speed = {n: mb / statistics.median(t) for n, t in times.items()}
                label = mode + (" (blocks)" if args.blocks else "") + (" (adjacent)" if args.adjacent else "")
                rows.append((f"{shape} {lang}", label, len(docs), mb, speed, reps if reps > args.reps else None))
                print(_line(rows[-1]), flush=True)
    return 0


def _line(row) -> str:
    shape, mode, ndocs, mb, speed, reps = row
    own = speed["norishiro"]
    parts = [f"{n} {v:.1f}" + ("" if n == "norishiro" else f" ({own / v:.2f}x)") for n, v in speed.items()]
    size = f"{ndocs} docs, {mb:.2f} MB" + (f", {reps} repetitions" if reps else "")
    return f"| {shape} | {mode} | {size} | " + " · ".join(parts) + " |"


if __name__ == "__main__":
    sys.exit(main())
