"""Token-mode start-up: what a new process pays to chunk a short text in o200k tokens over
what it pays in characters (issue #15's bar: at most 0.3 s).

Runs ``norishiro chunk SHORT -q`` with and without ``--tokenizer o200k_base`` in new
processes, alternating, and prints best and median wall times. ``--against SRC`` runs
another checkout's ``src`` folder (through ``PYTHONPATH``) in the same rounds, for a before
and after on one machine at one time.

    python benchmarks/startup.py [--rounds 20] [--against /path/to/old/checkout/src]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _run(src: Path, short: Path, tokens: bool) -> float:
    env = dict(os.environ, PYTHONPATH=str(src))
    args = [sys.executable, "-m", "norishiro.cli", "chunk", str(short), "-q"]
    if tokens:
        args += ["--tokenizer", "o200k_base"]
    t = time.perf_counter()
    subprocess.run(args, stdout=subprocess.DEVNULL, env=env, check=True)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--against", type=Path, help="another checkout's src folder, timed in the same rounds")
    a = ap.parse_args()
    trees = {"this": HERE.parent / "src"}
    if a.against:
        trees["against"] = a.against
    with tempfile.TemporaryDirectory() as tmp:
        short = Path(tmp) / "short.txt"
        short.write_text("A short note. It has two sentences.\n", encoding="utf-8")
        times: dict[tuple[str, bool], list[float]] = {(t, k): [] for t in trees for k in (False, True)}
        for _ in range(a.rounds):
            for name, src in trees.items():
                for tokens in (False, True):
                    times[name, tokens].append(_run(src, short, tokens))
    for name in trees:
        c, t = times[name, False], times[name, True]
        gap_median = statistics.median(t) - statistics.median(c)
        print(
            f"{name}: characters best {min(c):.3f} s, median {statistics.median(c):.3f} s; "
            f"tokens best {min(t):.3f} s, median {statistics.median(t):.3f} s; "
            f"tokens - characters best {min(t) - min(c):.3f} s, median {gap_median:.3f} s"
        )


if __name__ == "__main__":
    main()
