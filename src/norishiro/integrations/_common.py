"""What every framework adapter puts on a chunk: offsets, section, ids and pages."""

from __future__ import annotations

from typing import Any

from ..chunk import Chunk

__all__ = ["PAGE_BREAK", "chunk_metadata", "pages"]

PAGE_BREAK = "\f"  # how text extractors (pdftotext, Haystack's converters) separate pages


def pages(text: str, start: int, end: int) -> tuple[int, int] | None:
    """1-based pages of ``text[start:end]`` counted by form feeds, or None when the text has
    none. A chunk that opens with page breaks belongs to the page after them (unless it is
    nothing but page breaks); one that ends with them, to the page before."""
    if PAGE_BREAK not in text:
        return None
    a, b = start, end
    while a < b and text[a] == PAGE_BREAK:
        a += 1
    while b > a and text[b - 1] == PAGE_BREAK:
        b -= 1
    if a == b:  # only page breaks
        a = b = start
    first = 1 + text.count(PAGE_BREAK, 0, a)
    return first, first + text.count(PAGE_BREAK, a, max(a, b - 1))


def chunk_metadata(chunk: Chunk, text: str, embed_text: bool = True) -> dict[str, Any]:
    """norishiro's fields for a framework's metadata dictionary."""
    meta: dict[str, Any] = {
        "start_index": chunk.start,
        "end_index": chunk.end,
        "chunk_id": chunk.id,
        "chunk_index": chunk.index,
        "size": chunk.size,
        "section": chunk.section,
        "headings": list(chunk.headings),
    }
    # pages from the loader (PDF), else from form feeds in the text
    got = (chunk.page_start, chunk.page_end) if chunk.page_start is not None else pages(text, chunk.start, chunk.end)
    if got is not None:
        meta["page_start"], meta["page_end"] = got
    if embed_text:
        meta["embed_text"] = chunk.embed_text
    return meta
