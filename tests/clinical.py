"""Helpers for tests on the fictional clinical samples and fixtures copied into tests/data."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parent / "data"
SAMPLES = DATA / "ja-clinical"
FIXTURES = DATA / "fixtures"


def sample_paths() -> list[Path]:
    return sorted(p for p in SAMPLES.glob("*.md") if p.name != "README.md")


def load_facts(md: Path) -> list[dict]:
    return json.loads(md.with_name(md.stem + ".facts.json").read_text(encoding="utf-8"))


def remove_single_newlines(body: str, spans: list[tuple[int, int]]) -> tuple[str, list[tuple[int, int]]]:
    """Drop newlines that are not part of a blank-line run (as PDF/EHR exports do), and
    map the given spans to the new text."""
    keep = []
    removed_before = [0] * (len(body) + 1)
    gone = 0
    for i, ch in enumerate(body):
        removed_before[i] = gone
        single = ch == "\n" and not (i > 0 and body[i - 1] == "\n") and not (i + 1 < len(body) and body[i + 1] == "\n")
        if single:
            gone += 1
        else:
            keep.append(ch)
    removed_before[len(body)] = gone
    new = "".join(keep)
    mapped = [(s - removed_before[s], e - removed_before[e]) for s, e in spans]
    return new, mapped


def hard_wrap(body: str, width: int, spans: list[tuple[int, int]]) -> tuple[str, list[tuple[int, int]]]:
    """Break every line longer than ``width`` characters into lines of ``width`` (as PDF text
    layers and plain-text exports do: Japanese anywhere, English at the last space that fits,
    which the newline replaces), and map the given spans to the new text."""
    out: list[str] = []
    shift = [0] * (len(body) + 1)  # characters added before each position
    added = 0
    col = 0
    i = 0
    n = len(body)
    while i < n:
        ch = body[i]
        shift[i] = added
        if ch == "\n":
            out.append(ch)
            col = 0
            i += 1
            continue
        if col >= width:
            # English: go back to the last space on this line and turn it into the newline
            j = len(out) - 1
            while j >= 0 and out[j] != "\n" and out[j] != " " and len(out) - j < width:
                j -= 1
            if j >= 0 and out[j] == " " and ch.isascii() and ch.isalnum():
                out[j] = "\n"
                col = len(out) - j - 1
            else:
                out.append("\n")
                added += 1
                shift[i] = added
                col = 0
        out.append(ch)
        col += 1
        i += 1
    shift[n] = added
    return "".join(out), [
        (s + shift[s], e + shift[e] - (1 if e > s and shift[e] > shift[e - 1] else 0)) for s, e in spans
    ]
