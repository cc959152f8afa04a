#!/usr/bin/env python3
"""Loader speed and memory: pages/s and MB/s of each loader, each run in a new process
(peak RSS of that process), on generated documents and on the Debian Reference PDFs.

    python benchmarks/loaders.py [--pages 500] [--reps 3]

Generated: a PDF of --pages pages (Japanese and English paragraphs, a table, headings, a
running header and page numbers, written with reportlab as the tests do), the same text
as an HTML page and as a Word file. Real: /usr/share/debian-reference/*.pdf when the
debian-reference packages are installed. Time is the best of --reps runs of loading
(reading and building the document text), not of chunking.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

# run in a child process: load one file, print seconds, pages, characters, peak RSS
CHILD = """
import json, resource, sys, time
from norishiro.loaders import LoadOptions, load_document
path, engine = sys.argv[1], sys.argv[2]
t0 = time.perf_counter()
doc = load_document(path, options=LoadOptions(pdf_engine=engine))
dt = time.perf_counter() - t0
print(json.dumps({"seconds": dt, "pages": len(doc.pages or [1]), "text_mb": len(doc.text.encode()) / 1e6,
                  "rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def generated(dest: Path, pages: int) -> list[tuple[str, Path, str]]:
    from docgen import CLINICAL, make_pdf

    per_page = [list(p) for p in CLINICAL]
    plan = [per_page[k % len(per_page)] for k in range(pages)]
    pdf = dest / f"generated-{pages}p.pdf"
    make_pdf(pdf, pages=plan)
    html = dest / "generated.html"
    body = []
    for page in plan:
        for kind, text in page:
            if kind == "row":
                body.append("<table><tr>" + "".join(f"<td>{c}</td>" for c in text.split("|")) + "</tr></table>")
            else:
                tag = {"h1": "h1", "h2": "h2"}.get(kind, "p")
                body.append(f"<{tag}>{text}</{tag}>")
    html.write_text("<html><body>" + "\n".join(body) + "</body></html>", encoding="utf-8")
    import docx

    d = docx.Document()
    for page in plan:
        for kind, text in page:
            if kind in ("h1", "h2"):
                d.add_heading(text, level=int(kind[1]))
            else:
                d.add_paragraph(text.replace("|", "\t"))
    word = dest / "generated.docx"
    d.save(str(word))
    return [("pdf", pdf, "pypdf"), ("pdf", pdf, "pdfium"), ("html", html, "auto"), ("docx", word, "auto")]


def real() -> list[tuple[str, Path, str]]:
    found = sorted(Path("/usr/share/debian-reference").glob("debian-reference.*.pdf"))
    return [("pdf", p, engine) for p in found for engine in ("pypdf", "pdfium", "auto")]


def measure(path: Path, engine: str, reps: int) -> dict:
    runs = []
    for _ in range(reps):
        out = subprocess.run([sys.executable, "-c", CHILD, str(path), engine], check=True, capture_output=True)
        runs.append(json.loads(out.stdout))
    best = min(runs, key=lambda r: r["seconds"])
    best["rss_mib"] = max(r["rss_mib"] for r in runs)
    return best


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pages", type=int, default=500)
    ap.add_argument("--reps", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="norishiro-loaders-") as tmp:
        items = generated(Path(tmp), args.pages) + real()
        cols = "file, format, engine, file MB, text MB, pages, seconds, pages/s, file MB/s, text MB/s, peak RSS (MiB)"
        print("| " + " | ".join(cols.split(", ")) + " |")
        print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        for fmt, path, engine in items:
            r = measure(path, engine, args.reps)
            mb = path.stat().st_size / 1e6
            pages = r["pages"] if fmt == "pdf" else "-"
            rate = f"{r['pages'] / r['seconds']:.0f}" if fmt == "pdf" else "-"
            print(
                f"| {path.name} | {fmt} | {engine} | {mb:.2f} | {r['text_mb']:.2f} | {pages} | {r['seconds']:.2f} | "
                f"{rate} | {mb / r['seconds']:.2f} | {r['text_mb'] / r['seconds']:.2f} | {r['rss_mib']:.0f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
