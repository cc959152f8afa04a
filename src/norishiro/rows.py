"""Reading chunk rows back: the one reader for ``lint --chunks``, ``embed`` and the web page.

A row is what ``norishiro chunk`` writes (``Chunk.to_dict()``); only ``text``, ``start`` and
``end`` are required. Every problem names the file and line.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from typing import Any

from .chunk import Chunk
from .errors import NorishiroError

__all__ = ["RowError", "iter_jsonl", "chunk_from_row", "read_chunk_rows", "parse_chunk_rows"]


class RowError(NorishiroError, ValueError):
    """A line that is not a chunk row; ``path`` and ``line`` say where."""

    def __init__(self, message: str, path: str = "", line: int = 0):
        super().__init__(message)
        self.path = path
        self.line = line


def iter_jsonl(path: str | os.PathLike) -> Iterator[tuple[int, Any]]:
    """``(line_number, object)`` for every non-blank line of a JSON Lines file."""
    where = os.fspath(path)
    try:
        f = open(path, encoding="utf-8")
    except OSError as e:
        raise RowError(f"{where}: cannot read ({e.strerror})", where) from None
    with f:
        yield from _json_lines(f, where)


def _json_lines(lines: Iterable[str], where: str) -> Iterator[tuple[int, Any]]:
    line_no = 0
    try:
        for line_no, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                yield line_no, json.loads(line)
            except json.JSONDecodeError as e:
                raise RowError(f"{where}: line {line_no}: invalid JSON ({e.msg})", where, line_no) from None
    except UnicodeDecodeError as e:
        raise RowError(f"{where}: line {line_no + 1}: not valid UTF-8 ({e.reason})", where, line_no + 1) from None


def _int(d: dict, key: str, default: int | None = None) -> int:
    v = d.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise ValueError(f"{key} must be a whole number >= 0, got {v!r}")
    return v


def chunk_from_row(d: Any) -> Chunk:
    """A :class:`Chunk` from one row; ValueError says which field is wrong."""
    if not isinstance(d, dict):
        raise ValueError(f"expected a JSON object, got {type(d).__name__}")
    text = d.get("text")
    if not isinstance(text, str):
        raise ValueError(f"text must be a string, got {type(text).__name__}")
    start, end = _int(d, "start"), _int(d, "end")
    if end - start != len(text):
        raise ValueError(f"end - start ({end} - {start}) is not the length of text ({len(text)})")
    embed_text = d.get("embed_text", text)
    if not isinstance(embed_text, str):
        raise ValueError(f"embed_text must be a string, got {type(embed_text).__name__}")
    cid = d.get("id", "")
    if not isinstance(cid, (str, int)):
        raise ValueError(f"id must be a string, got {type(cid).__name__}")
    meta = d.get("metadata") or {}
    headings = d.get("headings") or []
    return Chunk(
        text,
        start,
        end,
        _int(d, "index", 0),
        _int(d, "size", len(embed_text)),
        str(d.get("doc_id", "")),
        id=str(cid),
        headings=list(headings) if isinstance(headings, list) else [],
        section=d.get("section") if isinstance(d.get("section"), str) else None,
        metadata=dict(meta) if isinstance(meta, dict) else {},
        embed_text=embed_text,
        page_start=_page(d, "page_start"),
        page_end=_page(d, "page_end"),
        section_canonical=d.get("section_canonical") if isinstance(d.get("section_canonical"), str) else None,
        replaced=d.get("replaced") if isinstance(d.get("replaced"), list) else None,
    )


def _page(d: dict, key: str) -> int | None:
    return None if d.get(key) is None else _int(d, key)


def read_chunk_rows(path: str | os.PathLike) -> Iterator[tuple[int, Chunk]]:
    """``(line_number, chunk)`` for every row of a chunks JSONL file."""
    yield from _chunks(iter_jsonl(path), os.fspath(path))


def parse_chunk_rows(jsonl: str, where: str = "chunks") -> list[tuple[int, Chunk]]:
    """The same for the text of a chunks JSONL file (an upload, a request body)."""
    return list(_chunks(_json_lines(jsonl.splitlines(), where), where))


def _chunks(items: Iterable[tuple[int, Any]], where: str) -> Iterator[tuple[int, Chunk]]:
    for line_no, d in items:
        try:
            yield line_no, chunk_from_row(d)
        except ValueError as e:
            raise RowError(
                f"{where}: line {line_no}: not a chunk row ({e}); each line needs text, start "
                "and end, as norishiro chunk writes them",
                where,
                line_no,
            ) from None
