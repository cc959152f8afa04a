"""Chunking many documents: a process pool on one machine, or Ray Data on a cluster.

Both run the same chunkers as ``norishiro chunk`` and give the same rows in the same order
(document order, then chunk index). Ray is an optional extra (``norishiro[ray]``); this
module imports it only inside the functions that need it.
"""
from __future__ import annotations

import json
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from .api import iter_chunks
from .document import BinaryFileError, Document, DocumentError, load_document

__all__ = ["ChunkJob", "chunk_rows", "parallel_chunk_rows", "ray_chunk_dataset", "RayEmbedStage",
           "ROW_COLUMNS", "write_parquet_dataset"]

ROW_COLUMNS = ("doc_id", "id", "index", "start", "end", "size", "text", "headings", "section", "metadata",
               "embed_text")


@dataclass
class ChunkJob:
    """Chunking options that travel to worker processes or Ray workers."""

    size: int
    overlap: int = 0
    strategy: str = "recursive"
    unit: str = "chars"
    tokenizer: str | None = None
    header_keys: list[str] | None = None
    header_template: str | None = None
    structure: bool | None = None
    cross_sections: bool = False
    section_labels: list[str] | None = None
    encoding: str = "utf-8"
    extra_meta: dict[str, Any] = field(default_factory=dict)

    def chunk_kwargs(self) -> dict[str, Any]:
        d = asdict(self)
        for k in ("encoding", "extra_meta"):
            d.pop(k)
        return d


def chunk_rows(doc: Document, job: ChunkJob) -> list[dict[str, Any]]:
    """One document's chunks as plain rows (the JSONL/Parquet columns)."""
    return [c.to_dict() for c in iter_chunks(doc, **job.chunk_kwargs())]


def _chunk_path(args: tuple[str, ChunkJob]) -> tuple[str, list[dict] | None, str | None]:
    path, job = args
    try:
        doc = load_document(path, encoding=job.encoding, metadata=job.extra_meta or None)
    except BinaryFileError as e:
        return path, [], f"warning: {e}"
    except DocumentError as e:
        return path, None, str(e)
    try:
        return path, chunk_rows(doc, job), None
    except ValueError as e:
        return path, None, f"{path}: {e}"


def parallel_chunk_rows(paths: Sequence[str | os.PathLike], job: ChunkJob, workers: int = 2,
                        ) -> Iterator[tuple[str, list[dict] | None, str | None]]:
    """``(path, rows, error)`` per file, in the order of ``paths``, chunked by ``workers``
    processes. Results are yielded as soon as they are next in order, so memory holds at
    most a few documents' chunks at a time."""
    items = [(str(p), job) for p in paths]
    if workers <= 1:
        yield from map(_chunk_path, items)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(_chunk_path, items, chunksize=1)


# ------------------------------------------------------------------------------ Ray
def _rows_for_record(record: dict[str, Any], job: ChunkJob) -> list[dict[str, Any]]:
    if record.get("path"):
        doc = load_document(record["path"], encoding=job.encoding, metadata=job.extra_meta or None,
                            doc_id=record.get("doc_id") or None)
    else:
        meta = json.loads(record["metadata"]) if isinstance(record.get("metadata"), str) else (record.get("metadata") or {})
        doc = Document(record["text"], id=str(record["doc_id"]), metadata=meta)
    rows = chunk_rows(doc, job)
    for r in rows:  # Arrow wants stable column types: nested values as JSON text
        r["headings"] = json.dumps(r["headings"], ensure_ascii=False)
        r["metadata"] = json.dumps(r["metadata"], ensure_ascii=False)
    return rows


def ray_chunk_dataset(ds, job: ChunkJob, num_cpus: float = 0.5):
    """Map a Ray Dataset of documents to a Dataset of chunks (one row per chunk).

    Input rows have ``path`` (a file every worker can read), or ``text`` and ``doc_id``
    (and optionally ``metadata`` as a dict or JSON text). Output rows have the columns of
    the JSONL output (``headings`` and ``metadata`` as JSON text).
    """
    return ds.flat_map(lambda rec: _rows_for_record(rec, job), num_cpus=num_cpus)


class RayEmbedStage:
    """A callable class for ``Dataset.map_batches``: the embedder is built once per worker
    and adds a ``vector`` column (list of floats) from ``embed_text``."""

    def __init__(self, embedder: str = "local", url: str | None = None):
        from .embed import get_embedder

        self.embedder = get_embedder(embedder, url=url) if embedder.startswith("ollama:") else get_embedder(embedder)

    def __call__(self, batch: dict[str, Any]) -> dict[str, Any]:
        texts = [str(t) for t in batch["embed_text"]]
        vecs = self.embedder.embed_documents(texts)
        out = dict(batch)
        out["vector"] = [list(map(float, v)) for v in vecs]
        return out


def write_parquet_dataset(rows: Iterable[dict[str, Any]], out_dir: str | os.PathLike, rows_per_file: int = 50_000) -> int:
    """Write chunk rows to ``out_dir`` as Parquet files (same columns as the Ray output),
    replacing what was there. Returns the number of rows."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.parquet"):
        old.unlink()
    n = part = 0
    buf: list[dict[str, Any]] = []

    def flush() -> None:
        nonlocal part
        if buf:
            cols = {k: [r[k] for r in buf] for k in ROW_COLUMNS}
            cols["headings"] = [json.dumps(h, ensure_ascii=False) for h in cols["headings"]]
            cols["metadata"] = [json.dumps(m, ensure_ascii=False) for m in cols["metadata"]]
            pq.write_table(pa.table(cols), out / f"part-{part:05d}.parquet")
            part += 1
            buf.clear()

    for r in rows:
        buf.append(r)
        n += 1
        if len(buf) >= rows_per_file:
            flush()
    flush()
    return n
