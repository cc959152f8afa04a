"""How well the rules find identifiers: recall and precision per class against annotations.

An annotation is ``[class, context, identifier]``: every occurrence of ``context`` in the
document holds one occurrence of ``identifier`` (its first place inside the context), so a
one-character surname (西) is counted only where it is a name (麻酔科：西), not in 西区.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from . import Found

__all__ = ["expected_spans", "score"]


def expected_spans(text: str, annotations: Iterable[Sequence[str]]) -> set[tuple[int, int, str]]:
    """The annotated identifiers of ``text`` as (start, end, class)."""
    out = set()
    for cls, context, ident in annotations:
        at = text.find(context)
        if at < 0:
            raise ValueError(f"annotation context {context!r} is not in the document")
        while at >= 0:
            k = context.find(ident)
            out.add((at + k, at + k + len(ident), cls))
            at = text.find(context, at + 1)
    return out


def score(pairs: Iterable[tuple[set[tuple[int, int, str]], Sequence[Found]]]) -> dict[str, dict[str, float]]:
    """Per class: expected, found, recall (an expected span lies inside a found span of its
    class) and precision (a found span overlaps an expected span of its class)."""
    tally: dict[str, dict[str, int]] = defaultdict(lambda: {"expected": 0, "hit": 0, "found": 0, "right": 0})
    for expected, found in pairs:
        for a, b, cls in expected:
            tally[cls]["expected"] += 1
            if any(f.cls == cls and f.start <= a and b <= f.end for f in found):
                tally[cls]["hit"] += 1
        for f in found:
            tally[f.cls]["found"] += 1
            if any(cls == f.cls and a < f.end and f.start < b for a, b, cls in expected):
                tally[f.cls]["right"] += 1
    out = {}
    for cls, t in sorted(tally.items()):
        out[cls] = {
            "expected": t["expected"],
            "found": t["found"],
            "recall": t["hit"] / t["expected"] if t["expected"] else float("nan"),
            "precision": t["right"] / t["found"] if t["found"] else float("nan"),
        }
    return out
