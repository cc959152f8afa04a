#!/usr/bin/env python3
"""Instructions per round of chunking one shape, for this checkout and another: a before and
after that the machine's noise does not move (timings on a shared two-core machine drift by
5-10% between runs, more than most single changes gain).

Each checkout chunks the shape's documents in a process of its own under valgrind's
callgrind, once with a warm-up round only and once with ``--rounds`` rounds more; the
difference over the rounds is what one round costs (imports and loading the texts cancel
out). A process's count still moves by about two million instructions from run to run
(memory layout), hence ten rounds.

    python benchmarks/instructions.py --against /tmp/old/src [--modes overlap,chars] \\
        [--shapes markdown:en,clinical-flat:ja] [--rounds 10]

Modes: ``chars`` (2,000 characters, plain text), ``overlap`` (the same, 250 characters of
overlap), ``tokens`` (o200k_base at 512), ``structure`` (2,000 characters, structure on);
and parts of structure on: ``scan`` (the compiled line scan, ``TextLines``), ``sections``
and ``atoms`` (the scan and then ``find_sections`` or ``find_atoms``). ``lc-chars`` and
``lc-overlap`` count LangChain's ``RecursiveCharacterTextSplitter`` at the same size and
overlap, for scale (both columns are then the same program).
Needs ``valgrind`` (``apt-get install valgrind``); a round takes about 50 times as long as it
does natively. The garbage collector is off in the rounds (where a collection falls would
move the count by millions). Each checkout runs with a cache folder of its own
(``NORISHIRO_CACHE_DIR``, in a temporary folder), filled by one run outside valgrind first:
the tokenizer tables' cache keeps one install's files, and a parse of them in one counted
run and not the other would move the count by hundreds of millions. Instructions are not
time (a cache miss costs many), but a change that saves instructions in the same code saves
time.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
MODES = ("chars", "overlap", "tokens", "structure", "scan", "sections", "atoms", "lc-chars", "lc-overlap")


def _round(src: str, mode: str, shape: str, lang: str, rounds: int) -> None:
    """The child: chunk the shape's documents once to warm up, then ``rounds`` times."""
    sys.path.insert(0, str(HERE))
    sys.path.insert(0, src)
    import norishiro
    from shapes import shape_docs

    docs = shape_docs(shape, lang)
    options: dict = {"size": 2000, "structure": mode == "structure"}
    if mode == "overlap":
        options["overlap"] = 250
    if mode == "tokens":
        from norishiro.core.measure import TiktokenSizer

        options = {"size": 512, "structure": False, "tokenizer": TiktokenSizer("o200k_base")}
    gc.disable()  # a collection falls in one run and not the other: millions of instructions of noise
    if mode in ("scan", "sections", "atoms"):  # parts of structure on
        _parts(mode, docs, rounds)
        return
    if mode.startswith("lc-"):  # the peer, for scale
        from langchain_text_splitters import RecursiveCharacterTextSplitter

        lc = RecursiveCharacterTextSplitter(chunk_size=2000, chunk_overlap=250 if mode == "lc-overlap" else 0)
        for _ in range(1 + rounds):
            for d in docs:
                lc.split_text(d)
        return
    for _ in range(1 + rounds):
        for d in docs:
            for _c in norishiro.iter_chunks(d, **options):
                pass


def _parts(mode: str, docs: list[str], rounds: int) -> None:
    """The line scan alone, or with ``find_sections`` or ``find_atoms`` after it."""
    from norishiro.core.labels import DEFAULT_LABELS
    from norishiro.core.line_scan import TextLines
    from norishiro.core.structure import find_atoms, find_sections

    labels = tuple(DEFAULT_LABELS)
    for _ in range(1 + rounds):
        for d in docs:
            lines = TextLines(d, labels)
            if mode == "sections":
                find_sections(d, labels, lines=lines)
            elif mode == "atoms":
                find_atoms(d, lines)


def _env(cache: str) -> dict[str, str]:
    # one thread: an idle BLAS thread spins, and callgrind would count its instructions too.
    # A cache folder of the checkout's own: the tokenizer tables' cache is keyed by the
    # install and keeps one install's files, so two checkouts sharing the user's folder
    # would each parse the tables again (0.4 s) in whichever run comes after the other's
    return dict(
        os.environ, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", NORISHIRO_CACHE_DIR=cache
    )


def warm(src: str, mode: str, shape: str, lang: str, cache: str) -> None:
    """Run the child once outside valgrind, so that the counted runs find the caches made."""
    cmd = [sys.executable, __file__, "--child", src, mode, shape, lang, "0"]
    subprocess.run(cmd, capture_output=True, env=_env(cache), cwd=Path(src).parent, check=True)


def count(src: str, mode: str, shape: str, lang: str, rounds: int, cache: str) -> int:
    """Instructions callgrind counts for the child with ``rounds`` rounds."""
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, __file__]
    cmd += ["--child", src, mode, shape, lang, str(rounds)]
    out = subprocess.run(cmd, capture_output=True, text=True, env=_env(cache), cwd=Path(src).parent, check=True)
    m = re.search(r"Collected : (\d+)", out.stderr)
    if not m:
        raise SystemExit(f"callgrind printed no count for {src}:\n{out.stderr[-2000:]}")
    return int(m.group(1))


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        src, mode, shape, lang, rounds = argv[1:]
        _round(src, mode, shape, lang, int(rounds))
        return 0
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--against", required=True, help="the other checkout's src folder")
    ap.add_argument("--modes", default="overlap", help=f"comma-separated, of {', '.join(MODES)}")
    ap.add_argument("--shapes", default="markdown:en,clinical-flat:ja", help="shape:lang, comma-separated")
    ap.add_argument("--rounds", type=int, default=10)
    args = ap.parse_args(argv)
    if not shutil.which("valgrind"):
        raise SystemExit("valgrind is not installed: apt-get install valgrind")
    modes = args.modes.split(",")
    if bad := [m for m in modes if m not in MODES]:
        raise SystemExit(f"unknown mode {bad[0]!r}: one of {', '.join(MODES)}")
    here = str(HERE.parent / "src")
    print("| shape | mode | other checkout | this checkout | ratio |")
    print("|---|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory(prefix="norishiro-instructions-") as tmp:
        caches = {src: os.path.join(tmp, str(k)) for k, src in enumerate((args.against, here))}
        warmed: set[tuple[str, str]] = set()  # the caches a checkout's mode fills, once
        for mode in modes:
            for item in args.shapes.split(","):
                shape, _, lang = item.partition(":")
                per = []
                for src in (args.against, here):
                    if (src, mode) not in warmed:
                        warm(src, mode, shape, lang, caches[src])
                        warmed.add((src, mode))
                    base = count(src, mode, shape, lang, 0, caches[src])
                    full = count(src, mode, shape, lang, args.rounds, caches[src])
                    per.append((full - base) / args.rounds)
                print(
                    f"| {shape} {lang} | {mode} | {per[0] / 1e6:.2f} M | {per[1] / 1e6:.2f} M | {per[1] / per[0]:.2f} |"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
