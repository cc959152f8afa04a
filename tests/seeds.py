"""Seed 002's example, read from ../shared/seeds (the seed text is not copied into the repo)."""
from __future__ import annotations

import json

from clinical import SHARED


def seed002_body() -> dict:
    seed = next((SHARED / "seeds").glob("002_*.txt")).read_text(encoding="utf-8")
    tail = seed[seed.index("/api/embed 用のJSONボディ"):]
    return json.loads(tail[tail.index("{"): tail.index("}") + 1])


def seed002_text() -> str:
    return "".join(seed002_body()["input"])
