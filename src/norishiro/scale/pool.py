"""Chunk files in a pool of processes, with output identical to a serial run."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Optional

from ..api import iter_chunks
from ..config import ChunkConfig
from ..core.structure import section_sizes
from ..document import BinaryFileError, Document, DocumentError
from ..errors import NorishiroError
from ..loaders import LoadOptions, Problem, load_document

__all__ = ["FileJob", "chunk_rows", "parallel_chunk_rows"]


@dataclass(frozen=True)
class FileJob:
    """What travels to a worker: the chunking config and how to read the files."""

    config: ChunkConfig
    encoding: str = "utf-8"
    metadata: dict[str, Any] = field(default_factory=dict)
    load: LoadOptions = field(default_factory=LoadOptions)


def chunk_rows(doc: Document, config: ChunkConfig, excluded: list | None = None) -> list[dict[str, Any]]:
    """One document's chunks as plain rows (the JSONL/Parquet columns); ``excluded``
    receives the sections a section filter left out."""
    return [c.to_dict() for c in iter_chunks(doc, config, excluded=excluded)]


Result = tuple[str, Optional[list[dict]], list[Problem], list[tuple[str, int]]]


def _chunk_path(args: tuple[str, FileJob]) -> Result:
    path, job = args
    try:
        doc = load_document(path, encoding=job.encoding, metadata=dict(job.metadata) or None, options=job.load)
    except BinaryFileError as e:
        return path, [], [Problem(path, str(e), error=False)], []
    except DocumentError as e:
        return path, None, [Problem(path, str(e))], []
    notes = [Problem(path, w, error=False, partial=True) for w in doc.warnings]
    excluded: list = []
    try:
        return path, chunk_rows(doc, job.config, excluded), notes, section_sizes(excluded)
    except NorishiroError as e:
        return path, None, [Problem(path, f"{path}: {e}")], []


def parallel_chunk_rows(
    paths: Sequence[str | os.PathLike],
    job: FileJob,
    workers: int = 2,
) -> Iterator[Result]:
    """``(path, rows, problems, left_out)`` per file, in the order of ``paths``, chunked by
    ``workers`` processes. Results are yielded as soon as they are next in order, so memory
    holds at most a few documents' chunks at a time. ``rows`` is None for a file that failed,
    empty for one skipped (binary); ``problems`` say why, and what a file read in part
    lacks; ``left_out`` names the sections a section filter left out, with their sizes."""
    items = [(str(p), job) for p in paths]
    if workers <= 1:
        yield from map(_chunk_path, items)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(_chunk_path, items, chunksize=1)
