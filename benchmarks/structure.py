#!/usr/bin/env python3
"""What structure-aware chunking (the default for documents and the CLI) costs over plain
text: the same texts chunked with ``structure=False`` and ``structure=True``.

    python benchmarks/structure.py [--reps 5]
    python benchmarks/structure.py --shapes [--parts] [--overlap] [--greedy] [--against OLD/src] [--rounds 2]

Prints the best time of ``--reps`` runs over each corpus (sections, tables and lists are
found, chunks do not cross sections, headings stay with their text). ``--shapes`` uses the
shapes of ``benchmarks/shapes.py`` at 2,000 characters (CPU time); ``--against SRC`` runs
another checkout's ``src`` folder too, each in its own process, alternating for ``--rounds``
rounds, for a before and after on one machine at one time (best over the rounds).
``--parts`` adds where structure-on time goes: ``find_sections`` and ``find_atoms`` alone,
and structure on with the provider answering no atoms, or one section for the whole text.
``--overlap`` adds a 12.5% overlap (250 characters), on plain text and with structure on.
``--greedy`` chunks with ``balance=False`` (only for checkouts that have the option).
``NORISHIRO_PURE_PYTHON=1`` in front times the pure-Python path.
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


def _best(fn, reps: int, clock=time.process_time) -> float:
    """The best of ``reps`` timed calls of ``fn``, after one call to warm up (tokenizer
    tables, compiled patterns)."""
    fn()
    times = []
    for _ in range(reps):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return min(times)


def best_time(texts: list[str], reps: int, clock=time.perf_counter, **kw) -> float:
    import norishiro

    return _best(lambda: [list(norishiro.iter_chunks(t, **kw)) for t in texts], reps, clock)


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


def shape_times(reps: int, parts: bool, greedy: bool, overlap: bool = False) -> dict[str, dict[str, float]]:
    """{"shape lang": {column: ms}} with the norishiro on sys.path."""
    from norishiro.core import structure
    from shapes import shape_docs

    opts = {"size": 2000, **({"balance": False} if greedy else {})}
    out = {}
    for shape, lang in SHAPES:
        docs = shape_docs(shape, lang)
        row = out[f"{shape} {lang}"] = {
            "plain": best_time(docs, reps, time.process_time, structure=False, **opts),
            "structure on": best_time(docs, reps, time.process_time, **opts),
        }
        if overlap:
            row["overlap 250"] = best_time(docs, reps, time.process_time, structure=False, overlap=250, **opts)
            row["structure on, overlap 250"] = best_time(docs, reps, time.process_time, overlap=250, **opts)
        if not parts:
            continue
        for name, fn in (("find_sections", structure.find_sections), ("find_atoms", structure.find_atoms)):
            row[name] = _best(lambda fn=fn, docs=docs: [fn(d) for d in docs], reps)
        lt = structure.LabelledText
        for name, attr, answer in (
            ("on, no atoms", "atoms", lambda self, text: []),
            ("on, one section", "sections", lambda self, text: [structure.Section(0, len(text), [])]),
        ):
            kept = getattr(lt, attr)
            setattr(lt, attr, answer)
            try:
                row[name] = best_time(docs, reps, time.process_time, **opts)
            finally:
                setattr(lt, attr, kept)
    return {k: {c: v * 1000 for c, v in row.items()} for k, row in out.items()}


def _child(src: Path, reps: int, parts: bool, greedy: bool, overlap: bool) -> dict[str, dict[str, float]]:
    env = dict(os.environ, PYTHONPATH=str(src))
    args = [sys.executable, str(Path(__file__).resolve()), "--child", str(src), "--reps", str(reps)]
    args += ["--parts"] * parts + ["--greedy"] * greedy + ["--overlap"] * overlap
    return json.loads(subprocess.run(args, env=env, check=True, capture_output=True, text=True).stdout)


def shapes_table(reps: int, rounds: int, against: Path | None, parts: bool, greedy: bool, overlap: bool) -> None:
    trees = {"this": HERE.parent / "src"}
    if against:
        trees["against"] = against
    best: dict[str, dict[str, dict[str, float]]] = {}
    for _ in range(rounds):
        for name, src in trees.items():
            got = _child(src, reps, parts, greedy, overlap)
            keep = best.setdefault(name, got)
            for key, row in got.items():
                keep[key] = {c: min(keep[key][c], v) for c, v in row.items()}
    for name in trees:
        rows = best[name]
        cols = list(next(iter(rows.values())))
        print(f"{name} (ms, and structure on over plain)")
        print("| shape | " + " | ".join(cols) + " | ratio |")
        print("|---|" + "---:|" * (len(cols) + 1))
        for key, row in rows.items():
            cells = " | ".join(f"{row[c]:.2f}" for c in cols)
            print(f"| {key} | {cells} | {row['structure on'] / row['plain']:.2f}x |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--shapes", action="store_true", help="the shapes of benchmarks/shapes.py, characters at 2,000")
    ap.add_argument("--parts", action="store_true", help="with --shapes: where structure-on time goes")
    ap.add_argument("--greedy", action="store_true", help="with --shapes: balance=False")
    ap.add_argument(
        "--overlap", action="store_true", help="with --shapes: 250 characters of overlap, structure off and on"
    )
    ap.add_argument("--against", type=Path, help="another checkout's src folder, timed in the same rounds")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    a = ap.parse_args()
    sys.path.insert(0, str(HERE))
    if a.child:
        sys.path.insert(0, str(a.child))
        import norishiro  # this checkout's, before shapes.py puts its own src first

        assert Path(norishiro.__file__).resolve().is_relative_to(a.child.resolve()), norishiro.__file__
        print(json.dumps(shape_times(a.reps, a.parts, a.greedy, a.overlap)))
        return
    sys.path.insert(0, str(HERE.parent / "src"))
    if a.shapes or a.against or a.parts or a.greedy or a.overlap:
        shapes_table(a.reps, a.rounds, a.against, a.parts, a.greedy, a.overlap)
    else:
        corpus_table(a.reps)


if __name__ == "__main__":
    main()
