"""Chunks of nothing but white space: how many structure-aware chunking makes, per shape of
text and configuration (a chunk with nothing to embed; ``norishiro lint`` reports it as
``blank``), and chunks that are a table's border or rule lines alone (``+-----+``,
``|----+----|``: nothing to embed either).

Shapes as in shapes.py (from installed packages: debian-reference-en/-ja, the clinical
samples), with structure on, in four configurations; ``--random N`` instead chunks N
generated Markdown-like documents (hard-wrapped prose, pipe tables with and without a border
line above them, code blocks, headings, "\\n" or "\\n\\n" between them) at 80, 150, 300 and
600 characters, recursive and whole sentences: blank lines between blocks that fill the
budget.

    python benchmarks/blank_chunks.py [--shapes hard-wrapped,markdown] [--random 400 --seed 1]
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "src"))

import norishiro  # noqa: E402
from norishiro.core.measure import TiktokenSizer  # noqa: E402
from shapes import SHAPES, shape_docs  # noqa: E402

CONFIGS = {
    "chars 2000": dict(size=2000),
    "chars 500": dict(size=500),
    "sentences 400": dict(size=400, strategy="sentences"),
    "o200k 256, overlap 32": dict(size=256, overlap=32, tokens=True),
}
_WORDS = "the package manager reads lists before it installs anything on system mirrors copy archives".split()


def blank(chunks) -> int:
    return sum(not c.text.strip() for c in chunks)


_RULE = re.compile(r"[ \t]*[+|]?(?:[-=]{3,}[+|]?)+[ \t]*")


def rules_alone(chunks) -> int:
    """Chunks whose lines are all a table's border or rule lines (and at least one is)."""
    return sum(
        bool(c.text.strip()) and all(_RULE.fullmatch(line) for line in c.text.strip("\n").split("\n")) for c in chunks
    )


def generated(rng: random.Random) -> str:
    """One document of prose lines about 70 characters long, tables, code and headings."""
    parts = []
    for _ in range(rng.randint(1, 6)):
        c = rng.random()
        if c < 0.4:
            prose = "".join(" ".join(rng.choice(_WORDS) for _ in range(rng.randint(5, 15))) + ". " for _ in range(6))
            parts.append("\n".join(prose[i : i + rng.choice([60, 70, 72])] for i in range(0, len(prose), 70)))
        elif c < 0.7:
            pad = " " * rng.choice([0, 2, 4])
            border = pad + "+----------+------+\n" if rng.random() < 0.5 else ""
            rows = "".join(f"{pad}| pkg{i:03d}   | {i:4d} |\n" for i in range(rng.randint(1, 30)))
            parts.append(border + pad + "| name     | size |\n" + pad + "|----------+------|\n" + rows)
        elif c < 0.8:
            parts.append("```\n" + "".join(f"line {i} of code\n" for i in range(rng.randint(1, 20))) + "```\n")
        else:
            parts.append("## Heading")
    return "".join(p + rng.choice(["\n", "\n\n"]) for p in parts)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shapes", default=",".join(SHAPES))
    ap.add_argument("--random", type=int, default=0, metavar="N", help="N generated documents instead")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if args.random:
        rng = random.Random(args.seed)
        docs = [generated(rng) for _ in range(args.random)]
        runs = total = found = rules = 0
        for size in (80, 150, 300, 600):
            for strategy in ("recursive", "sentences"):
                for d in docs:
                    chunks = norishiro.chunk(d, size=size, strategy=strategy)
                    runs, total, found = runs + 1, total + len(chunks), found + blank(chunks)
                    rules += rules_alone(chunks)
        print(
            f"{args.random} generated documents, {runs} chunkings: {total} chunks, {found} of white space alone, "
            f"{rules} of table rules alone"
        )
        return 0
    tok = TiktokenSizer("o200k_base")
    print("| shape | configuration | chunks | of white space alone | table rules alone |")
    print("|---|---|---:|---:|---:|")
    for shape in args.shapes.split(","):
        for lang in ("en", "ja") if shape != "clinical-flat" else ("ja",):
            docs = shape_docs(shape, lang)
            for name, opts in CONFIGS.items():
                opts = dict(opts)
                if opts.pop("tokens", False):
                    opts["tokenizer"] = tok
                chunks = [c for d in docs for c in norishiro.chunk(d, **opts)]
                print(f"| {shape} {lang} | {name} | {len(chunks)} | {blank(chunks)} | {rules_alone(chunks)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
