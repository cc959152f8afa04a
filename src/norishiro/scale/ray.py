"""The same chunkers on Ray Data (``pip install 'norishiro[ray]'``)."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..document import Document
from ..loaders import load_document
from ..writers.atomic import atomic_folder
from .pool import FileJob, chunk_rows

__all__ = ["ray_chunk_dataset", "RayEmbedStage", "chunk_files_to_parquet"]


def _rows_for_record(record: dict[str, Any], job: FileJob) -> list[dict[str, Any]]:
    if record.get("path"):
        doc = load_document(
            record["path"],
            encoding=job.encoding,
            metadata=dict(job.metadata) or None,
            doc_id=record.get("doc_id") or None,
            options=job.load,
        )
    else:
        meta = record.get("metadata") or {}
        meta = json.loads(meta) if isinstance(meta, str) else meta
        doc = Document(record["text"], id=str(record["doc_id"]), metadata=meta)
    rows = chunk_rows(doc, job.config)
    for r in rows:  # Arrow wants stable columns and types: nested values as JSON text
        for key in ("page_start", "page_end", "section_canonical", "replaced"):
            r.setdefault(key, None)
        if r["replaced"] is not None:
            r["replaced"] = json.dumps(r["replaced"])
        r["headings"] = json.dumps(r["headings"], ensure_ascii=False)
        r["metadata"] = json.dumps(r["metadata"], ensure_ascii=False)
    return rows


def ray_chunk_dataset(ds, job: FileJob, num_cpus: float = 0.5):
    """Map a Ray Dataset of documents to a Dataset of chunks (one row per chunk).

    Input rows have ``path`` (a file every worker can read), or ``text`` and ``doc_id``
    (and optionally ``metadata`` as a dict or JSON text). Output rows have the columns of
    the JSONL output (``headings`` and ``metadata`` as JSON text).
    """
    return ds.flat_map(lambda rec: _rows_for_record(rec, job), num_cpus=num_cpus).map_batches(
        _typed, batch_format="pyarrow", num_cpus=num_cpus
    )


def _typed(batch):
    """A batch with the Parquet output's column types (a block whose rows all lack pages
    would otherwise hold a null column that cannot join a block that has them)."""
    from ..writers.parquet import row_schema

    schema = row_schema()
    return batch.select(schema.names).cast(schema)


class RayEmbedStage:
    """A callable class for ``Dataset.map_batches``: the embedder is built once per worker
    and adds a ``vector`` column (list of floats) from ``embed_text``."""

    def __init__(self, embedder: str = "local", url: str | None = None):
        from ..embed import get_embedder

        self.embedder = get_embedder(embedder, url=url)

    def __call__(self, batch: dict[str, Any]) -> dict[str, Any]:
        texts = [str(t) for t in batch["embed_text"]]
        vecs = self.embedder.embed_documents(texts)
        out = dict(batch)
        out["vector"] = [list(map(float, v)) for v in vecs]
        return out


def chunk_files_to_parquet(
    files: Sequence[str], job: FileJob, output: str | os.PathLike, address: str | None = None
) -> list[int]:
    """Chunk ``files`` on Ray (a local cluster, or the one at ``address``) into a Parquet
    dataset in ``output`` (its old Parquet files replaced at the end); returns every chunk's
    size."""
    import pyarrow.parquet as pq
    import ray

    started = not ray.is_initialized()
    if started:
        ray.init(
            address=address,
            ignore_reinit_error=True,
            log_to_driver=False,
            logging_level="warning",
            **({} if address else {"num_cpus": os.cpu_count() or 2}),
        )
    try:
        ctx = ray.data.DataContext.get_current()
        ctx.execution_options.preserve_order = True
        ctx.enable_progress_bars = False
        ds = ray.data.from_items([{"path": f, "doc_id": Path(f).as_posix()} for f in files])
        out = ray_chunk_dataset(ds, job)
        # a re-run replaces the old files (no added rows), and only once all new ones exist
        with atomic_folder(output) as tmp:
            out.write_parquet(str(tmp))
            sizes = pq.read_table(str(tmp), columns=["size"]).column("size").to_pylist()
        return sizes
    finally:
        if started and not address:
            ray.shutdown()
