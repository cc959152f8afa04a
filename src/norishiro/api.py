"""The library entry points: ``chunk`` and ``segment``."""
from __future__ import annotations

from typing import Any, Callable, Iterator

from .boundaries import Boundaries, Level, parse_level
from .chunk import Chunk
from .chunkers import STRATEGIES
from .document import Document
from .sizing import Sizer, get_sizer

__all__ = ["chunk", "iter_chunks", "segment", "validate_options", "ChunkOptionsError"]


class ChunkOptionsError(ValueError):
    """Options that cannot work (size <= 0, overlap >= size, unknown strategy ...)."""


def validate_options(size: int, overlap: int, strategy: str) -> None:
    if not isinstance(size, int) or isinstance(size, bool) or size <= 0:
        raise ChunkOptionsError(f"size must be a positive whole number, got {size!r}")
    if not isinstance(overlap, int) or isinstance(overlap, bool) or overlap < 0:
        raise ChunkOptionsError(f"overlap must be a whole number >= 0, got {overlap!r}")
    if overlap >= size:
        raise ChunkOptionsError(
            f"overlap ({overlap}) must be smaller than size ({size}); typical overlap is 10-20% of size")
    if strategy not in STRATEGIES:
        raise ChunkOptionsError(f"unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}")


def _as_document(text_or_document: str | Document) -> Document:
    if isinstance(text_or_document, Document):
        return text_or_document
    if isinstance(text_or_document, str):
        return Document.from_text(text_or_document)
    raise TypeError(f"expected str or Document, got {type(text_or_document).__name__}")


def iter_chunks(text_or_document: str | Document, *, size: int, overlap: int = 0,
                strategy: str = "recursive", unit: str = "chars",
                tokenizer: str | Callable[[str], int] | Sizer | None = None) -> Iterator[Chunk]:
    """Like :func:`chunk`, but yields chunks one at a time (bounded memory for output)."""
    validate_options(size, overlap, strategy)
    doc = _as_document(text_or_document)
    sizer = get_sizer(unit, tokenizer)
    spans = STRATEGIES[strategy](doc.text, sizer, size, overlap)
    text, meta = doc.text, doc.metadata
    for i, (s, e, n) in enumerate(spans):
        yield Chunk(text[s:e], s, e, i, n, doc=doc, metadata=dict(meta) if meta else {})


def chunk(text_or_document: str | Document, *, size: int, overlap: int = 0,
          strategy: str = "recursive", unit: str = "chars",
          tokenizer: str | Callable[[str], int] | Sizer | None = None) -> list[Chunk]:
    """Split a text or :class:`Document` into chunks of at most ``size`` units.

    ``strategy``: ``recursive`` (largest boundary that fits: paragraph > line > sentence >
    clause > word > grapheme) or ``fixed`` (windows advancing by ``size - overlap``).
    ``unit``: ``chars`` or ``tokens``; ``tokenizer``: ``o200k_base`` (default for tokens),
    ``cl100k_base``, a path to a Hugging Face ``tokenizer.json``, or a ``str -> int`` callable.
    Offsets are exact: ``doc.text[c.start:c.end] == c.text``.
    """
    return list(iter_chunks(text_or_document, size=size, overlap=overlap, strategy=strategy,
                            unit=unit, tokenizer=tokenizer))


def segment(text_or_document: str | Document, level: str | Level = "sentence") -> list[dict[str, Any]]:
    """The units of a text at one boundary level, as ``{"start", "end", "text"}`` dicts."""
    doc = _as_document(text_or_document)
    lv = parse_level(level)
    return [{"start": s, "end": e, "text": doc.text[s:e]} for s, e in Boundaries(doc.text).units(lv)]
