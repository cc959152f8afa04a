#!/usr/bin/env python3
"""Peak memory and time for one 100 MB document with no newline (issue #15).

The text is the Debian Reference (English) with every run of white space made one space,
repeated until it reaches the size asked for. Each chunker runs in a process of its own, so
that its peak resident memory (``ru_maxrss``) is its own; the table gives the peak above the
text itself (measured in the same process right after the text was built) and CPU seconds.

    python benchmarks/memory.py [--mb 100] [--size 2000]
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "src"))

TOOLS = ("norishiro", "norishiro+structure", "semchunk", "semantic-text-splitter", "langchain")


def one_line_text(mb: int) -> str:
    from run import load_corpus

    base = " ".join(re.sub(r"\s+", " ", d).strip() for d in load_corpus("en"))
    return (base + " ") * (mb * 1_000_000 // (len(base) + 1) + 1)


def chunk_count(tool: str, text: str, size: int) -> int:
    """Chunks of ``text``, counted as they come (none is kept)."""
    if tool.startswith("norishiro"):
        import norishiro

        return sum(1 for _ in norishiro.iter_chunks(text, size=size, structure=tool.endswith("+structure")))
    if tool == "semchunk":
        import semchunk

        return len(semchunk.chunkerify(len, size)(text))
    if tool == "semantic-text-splitter":
        from semantic_text_splitter import TextSplitter

        return len(TextSplitter(size).chunks(text))
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    return len(RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=0).split_text(text))


def child(tool: str, mb: int, size: int) -> None:
    text = one_line_text(mb)
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t = time.process_time()
    n = chunk_count(tool, text, size)
    seconds = time.process_time() - t
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    out = {"tool": tool, "mb": len(text.encode()) / 1e6, "chunks": n, "seconds": seconds}
    out.update(text_mib=base / 1024, above_text_mib=(peak - base) / 1024)
    print(json.dumps(out))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mb", type=int, default=100)
    ap.add_argument("--size", type=int, default=2000)
    ap.add_argument("--tools", default=",".join(TOOLS))
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child, args.mb, args.size)
        return
    print(f"| chunker ({args.mb} MB, one line, {args.size} characters) | chunks | CPU s | MB/s | peak above the text |")
    print("|---|---:|---:|---:|---:|")
    for tool in args.tools.split(","):
        cmd = [sys.executable, __file__, "--child", tool, "--mb", str(args.mb), "--size", str(args.size)]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode:
            print(f"| {tool} | failed: {run.stderr.strip().splitlines()[-1] if run.stderr else run.returncode} |")
            continue
        r = json.loads(run.stdout.strip().splitlines()[-1])
        mbs = r["mb"] / r["seconds"]
        print(f"| {tool} | {r['chunks']:,} | {r['seconds']:.1f} | {mbs:.1f} | {r['above_text_mib']:.0f} MiB |")


if __name__ == "__main__":
    main()
