#!/usr/bin/env python3
"""Text with long runs of white space (issue #15: speed on every shape): a PDF text layer
or a fixed-width report pads with spaces, a bad export leaves thousands of blank lines. Each
text is built from the English Debian Reference's paragraphs (as ``shapes.py`` reads them)
with such a run between every few of them; every chunker chunks it at 300 and 2,000
characters, structure off, in the same run. CPU seconds a text (median) and norishiro's
ratio to each peer.

    python benchmarks/white_space.py [--reps 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "src"))

from run import char_chunkers  # noqa: E402
from shapes import shape_docs  # noqa: E402

RUNS = {
    "spaces": " " * 20_000,  # a padded page: one run of spaces
    "blank lines": " \n" * 10_000,  # lines of one space
    "tabs and newlines": "\t\n" * 10_000,
}


def texts() -> dict[str, str]:
    """One text per kind of run: the corpus' first fifty paragraphs, a run of 20,000
    characters after every fifth (0.21 M characters, 97% of them white space)."""
    paras = "\n\n".join(shape_docs("paragraphs", "en")[:2]).split("\n\n")[:50]
    out = {}
    for name, run in RUNS.items():
        out[name] = "".join(p + ("\n\n" + run + "\n\n" if k % 5 == 4 else "\n\n") for k, p in enumerate(paras))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=3)
    args = ap.parse_args(argv)
    print("| text | size | CPU s a text (norishiro's ratio) |")
    print("|---|---|---|")
    for name, text in texts().items():
        for size in (300, 2000):
            chunkers = char_chunkers(size)
            times = {}
            for n, fn in chunkers.items():
                got = []
                for _ in range(args.reps):
                    t = time.process_time()
                    fn(text)
                    got.append(time.process_time() - t)
                times[n] = statistics.median(got)
            own = times["norishiro"]
            cells = [f"{n} {t:.3f}" + ("" if n == "norishiro" else f" ({t / own:.2f}x)") for n, t in times.items()]
            print(f"| {name}, {len(text) / 1e6:.2f} M chars | {size} | " + " · ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
