"""Chunkers: each turns one document's text into spans within a budget.

A new chunker is one module plus one line in ``STRATEGIES``.
"""
from __future__ import annotations

from .fixed import fixed_spans
from .recursive import recursive_spans
from .semantic import semantic_spans

STRATEGIES = {
    "recursive": recursive_spans,
    "fixed": fixed_spans,
    "semantic": semantic_spans,
}

__all__ = ["STRATEGIES", "fixed_spans", "recursive_spans", "semantic_spans"]
