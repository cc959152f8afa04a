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
