#!/usr/bin/env python3
"""Build the English evaluation set: NAME.qa.json (norishiro eval's format) from
questions.json, where each question names the passage that answers it by quoting it.

    python datasets/en/build.py            # write the .qa.json files
    python datasets/en/build.py --sources  # first copy the three documents taken from installed packages

A quote matches the document with any run of white space standing for a space, and must
occur exactly once; its offsets become the question's reference span.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def copy_sources() -> None:
    import pydoc_data.topics as topics

    (HERE / "apache-license.txt").write_text(Path("/usr/share/common-licenses/Apache-2.0").read_text())
    names = ["try", "with", "import", "raise", "assert", "return", "global", "del"]
    parts = [topics.topics[k].strip("\n") for k in names]
    (HERE / "python-statements.txt").write_text("\n\n\n".join(parts) + "\n")
    parts = [topics.topics[k].strip("\n") for k in ("execmodel", "types")]
    (HERE / "python-types.txt").write_text("\n\n\n".join(parts) + "\n")


def locate(text: str, quote: str, where: str) -> tuple[int, int]:
    pattern = r"\s+".join(re.escape(w) for w in quote.split())
    found = [m.span() for m in re.finditer(pattern, text)]
    if len(found) != 1:
        sys.exit(f"{where}: the quote occurs {len(found)} times: {quote[:60]!r}")
    return found[0]


def main() -> None:
    if "--sources" in sys.argv:
        copy_sources()
    questions = json.loads((HERE / "questions.json").read_text(encoding="utf-8"))
    total = 0
    for stem, items in questions.items():
        doc = next(p for p in HERE.iterdir() if p.stem == stem and p.suffix in (".md", ".txt"))
        text = doc.read_text(encoding="utf-8")
        out = []
        for k, (question, quote) in enumerate(items):
            s, e = locate(text, quote, f"{stem} #{k}")
            out.append({"question": question, "answer": text[s:e], "refs": [{"start": s, "end": e}]})
        (HERE / f"{stem}.qa.json").write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        total += len(out)
        print(f"{stem}: {len(out)} questions")
    print(f"{total} questions")


if __name__ == "__main__":
    main()
