"""Chunk files in a pool of processes, with output identical to a serial run."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ..api import iter_chunks
from ..config import ChunkConfig
from ..document import BinaryFileError, Document, DocumentError
from ..errors import NorishiroError
from ..loaders import load_document

__all__ = ["FileJob", "chunk_rows", "parallel_chunk_rows"]


@dataclass(frozen=True)
class FileJob:
    """What travels to a worker: the chunking config and how to read the files."""

    config: ChunkConfig
    encoding: str = "utf-8"
    metadata: dict[str, Any] = field(default_factory=dict)


def chunk_rows(doc: Document, config: ChunkConfig) -> list[dict[str, Any]]:
    """One document's chunks as plain rows (the JSONL/Parquet columns)."""
    return [c.to_dict() for c in iter_chunks(doc, config)]


def _chunk_path(args: tuple[str, FileJob]) -> tuple[str, list[dict] | None, str | None]:
    path, job = args
    try:
        doc = load_document(path, encoding=job.encoding, metadata=dict(job.metadata) or None)
    except BinaryFileError as e:
        return path, [], f"warning: {e}"
    except DocumentError as e:
        return path, None, str(e)
    try:
        return path, chunk_rows(doc, job.config), None
    except NorishiroError as e:
        return path, None, f"{path}: {e}"


def parallel_chunk_rows(
    paths: Sequence[str | os.PathLike],
    job: FileJob,
    workers: int = 2,
) -> Iterator[tuple[str, list[dict] | None, str | None]]:
    """``(path, rows, error)`` per file, in the order of ``paths``, chunked by ``workers``
    processes. Results are yielded as soon as they are next in order, so memory holds at
    most a few documents' chunks at a time. An error that starts with ``warning:`` is a
    skipped file (binary); any other is a file that failed."""
    items = [(str(p), job) for p in paths]
    if workers <= 1:
        yield from map(_chunk_path, items)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(_chunk_path, items, chunksize=1)
