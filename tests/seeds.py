"""Seed 002's example, read from ../shared/seeds beside the checkout.

The seed text is not copied into the repo, so tests that need it skip (with this reason)
when the folder is absent.
"""

from __future__ import annotations

import json

import pytest

from clinical import ROOT

SEEDS = ROOT.parent / "shared" / "seeds"
needs_seeds = pytest.mark.skipif(
    not any(SEEDS.glob("002_*.txt")) if SEEDS.is_dir() else True,
    reason="needs the seed documents in ../shared/seeds beside the checkout",
)


def seed002_raw() -> str:
    return next(SEEDS.glob("002_*.txt")).read_text(encoding="utf-8")


def seed002_body() -> dict:
    seed = seed002_raw()
    tail = seed[seed.index("/api/embed 用のJSONボディ") :]
    return json.loads(tail[tail.index("{") : tail.index("}") + 1])


def seed002_text() -> str:
    return "".join(seed002_body()["input"])
