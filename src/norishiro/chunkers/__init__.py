"""Chunkers and their registry: a strategy name -> a class that makes spans of a region.

A new chunker is one module plus one line in ``CHUNKERS`` (or a call to :func:`register`
from outside the package). Nothing else in norishiro branches on a strategy's name.
"""

from __future__ import annotations

from typing import Any

from .base import Chunker, Region, Span
from .fixed import FixedWindows
from .recursive import RecursiveChunker
from .semantic import SemanticChunker
from .sentences import SentenceChunker

CHUNKERS: dict[str, type] = {
    "recursive": RecursiveChunker,
    "fixed": FixedWindows,
    "semantic": SemanticChunker,
    "sentences": SentenceChunker,
}

__all__ = ["CHUNKERS", "Chunker", "Region", "Span", "chunker_names", "chunker_class", "make_chunker", "register"]


def register(name: str, cls: type) -> None:
    """Add a chunker class under ``name`` (it then works with every front end)."""
    CHUNKERS[name] = cls


def chunker_names() -> tuple[str, ...]:
    return tuple(CHUNKERS)


def chunker_class(name: str) -> type:
    return CHUNKERS[name]


def make_chunker(config: Any, **runtime: Any) -> Chunker:
    """The chunker for ``config.strategy``, with runtime objects (``embedder``, ``cache``,
    ``trace``) that only some chunkers use."""
    return CHUNKERS[config.strategy](config, **runtime)
