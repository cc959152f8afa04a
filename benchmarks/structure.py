#!/usr/bin/env python3
"""What structure-aware chunking (the default for documents and the CLI) costs over plain
text: the same texts chunked with ``structure=False`` and ``structure=True``.

    python benchmarks/structure.py [--reps 5]
    python benchmarks/structure.py --shapes [--against /path/to/old/checkout/src] [--rounds 2]

Prints the best time of ``--reps`` runs over each corpus (sections, tables and lists are
found, chunks do not cross sections, headings stay with their text). ``--shapes`` uses the
shapes of ``benchmarks/shapes.py`` at 2,000 characters (CPU time); ``--against SRC`` runs
another checkout's ``src`` folder too, each in its own process, alternating for ``--rounds``
rounds, for a before and after on one machine at one time (best over the rounds).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHAPES = [
    ("one-line", "en"),
    ("hard-wrapped", "en"),
    ("hard-wrapped", "ja"),
    ("paragraphs", "en"),
    ("paragraphs", "ja"),
    ("markdown", "en"),
    ("markdown", "ja"),
    ("clinical-flat", "ja"),
]


def best_time(texts: list[str], reps: int, clock=time.perf_counter, **kw) -> float:
    import norishiro

    list(norishiro.iter_chunks(texts[0], **kw))  # warm-up (tokenizer tables)
    times = []
    for _ in range(reps):
        t0 = clock()
        for t in texts:
            for _c in norishiro.iter_chunks(t, **kw):
                pass
        times.append(clock() - t0)
    return min(times)


def corpus_table(reps: int) -> None:
    from run import load_corpus

    print("| corpus | budget | plain (ms) | structure-aware (ms) |")
    print("|---|---|---:|---:|")
    for lang in ("en", "ja"):
        texts = load_corpus(lang)
        for label, kw in (("2,000 characters", {"size": 2000}), ("512 o200k tokens", {"size": 512, "unit": "tokens"})):
            plain = best_time(texts, reps, structure=False, **kw)
            structured = best_time(texts, reps, structure=True, **kw)
            print(f"| {lang} | {label} | {plain * 1000:.0f} | {structured * 1000:.0f} |")


def shape_times(reps: int) -> dict[str, list[float]]:
    """{"shape lang": [plain ms, structure-on ms]} with the norishiro on sys.path."""
    from shapes import shape_docs

    out = {}
    for shape, lang in SHAPES:
        docs = shape_docs(shape, lang)
        plain = best_time(docs, reps, time.process_time, size=2000, structure=False)
        on = best_time(docs, reps, time.process_time, size=2000)
        out[f"{shape} {lang}"] = [plain * 1000, on * 1000]
    return out


def _child(src: Path, reps: int) -> dict[str, list[float]]:
    env = dict(os.environ, PYTHONPATH=str(src))
    args = [sys.executable, str(Path(__file__).resolve()), "--child", str(src), "--reps", str(reps)]
    return json.loads(subprocess.run(args, env=env, check=True, capture_output=True, text=True).stdout)


def shapes_table(reps: int, rounds: int, against: Path | None) -> None:
    trees = {"this": HERE.parent / "src"}
    if against:
        trees["against"] = against
    best: dict[str, dict[str, list[float]]] = {}
    for _ in range(rounds):
        for name, src in trees.items():
            got = _child(src, reps)
            keep = best.setdefault(name, got)
            for k, (p, s) in got.items():
                keep[k] = [min(keep[k][0], p), min(keep[k][1], s)]
    names = list(trees)
    head = " | ".join(f"{n}: plain / structure on (ms), ratio" for n in names)
    print(f"| shape | {head} |")
    print("|---|" + "---|" * len(names))
    for key in best[names[0]]:
        cells = []
        for n in names:
            p, s = best[n][key]
            cells.append(f"{p:.2f} / {s:.2f}, {s / p:.2f}x")
        print(f"| {key} | " + " | ".join(cells) + " |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--shapes", action="store_true", help="the shapes of benchmarks/shapes.py, characters at 2,000")
    ap.add_argument("--against", type=Path, help="another checkout's src folder, timed in the same rounds")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    a = ap.parse_args()
    sys.path.insert(0, str(HERE))
    if a.child:
        sys.path.insert(0, str(a.child))
        import norishiro  # this checkout's, before shapes.py puts its own src first

        assert Path(norishiro.__file__).resolve().is_relative_to(a.child.resolve()), norishiro.__file__
        print(json.dumps(shape_times(a.reps)))
        return
    sys.path.insert(0, str(HERE.parent / "src"))
    if a.shapes or a.against:
        shapes_table(a.reps, a.rounds, a.against)
    else:
        corpus_table(a.reps)


if __name__ == "__main__":
    main()
