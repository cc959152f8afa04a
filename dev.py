#!/usr/bin/env python3
"""Set up a virtual environment and run a task. Needs only python3 (with venv) and pip.

python3 dev.py example   # install, chunk the bundled examples (chunks.jsonl; a PDF with pages), plan,
                         # embed offline into a LanceDB index (./index) and search it
python3 dev.py test      # install with test extras, run the whole test suite
python3 dev.py bench     # install the peers too, run the benchmarks (slow)
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / "python"


def run(*cmd: str | os.PathLike) -> None:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    subprocess.run([str(c) for c in cmd], check=True, cwd=ROOT)


def setup(extras: str = "") -> None:
    if not PY.exists():
        run(sys.executable, "-m", "venv", VENV)
        run(PY, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    spec = f".[{extras}]" if extras else "."
    run(PY, "-m", "pip", "install", "--quiet", "-e", spec)


def main(argv: list[str]) -> int:
    task = argv[1] if len(argv) > 1 else "example"
    try:
        if task == "example":
            setup("local,pdf,lancedb")
            run(BIN / "norishiro", "chunk", "examples/", "--size", "300", "--overlap", "40", "-o", "chunks.jsonl")
            pdf = "examples/discharge_summary_ja.pdf"  # a PDF: every chunk says its page
            run(BIN / "norishiro", "chunk", pdf, "--size", "200", "--format", "text", "-q")
            run(BIN / "norishiro", "plan", "examples/", "--unit", "tokens", "--size", "128", "--overlap", "16")
            # into a vector store keyed by chunk id (a second run writes nothing), then ask it
            run(BIN / "norishiro", "embed", "chunks.jsonl", "--embedder", "local", "--to", "lancedb:./index")
            run(BIN / "norishiro", "search", "心房細動の治療は?", "--in", "lancedb:./index", "-k", "3")
        elif task == "test":
            setup(
                "test,local,parquet,plot,serve,browser,ray,langchain,llamaindex,haystack,pdf,html,html-main,docx,lancedb,postgres"
            )
            run(PY, "-m", "ruff", "check", ".")
            run(PY, "-m", "ruff", "format", "--check", ".")
            run(PY, "-m", "pytest", "-q", *argv[2:])
        elif task == "bench":
            setup(
                "test,local,parquet,plot,serve,browser,ray,langchain,llamaindex,haystack,pdf,html,html-main,docx,lancedb,postgres,bench"
            )
            run(PY, "benchmarks/run.py", *argv[2:])
        else:
            print(__doc__)
            return 2
    except subprocess.CalledProcessError as e:
        return e.returncode or 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
