"""Parquet output: chunk rows as a folder of Parquet files, and vector files.

``headings``, ``metadata`` and ``replaced`` are stored as JSON text so that every file has the same
column types whatever the documents hold (the Ray output has the same columns).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import Any

__all__ = ["ROW_COLUMNS", "row_schema", "ParquetWriter", "write_vectors_parquet", "read_vectors_parquet"]

ROW_COLUMNS = (
    "doc_id",
    "id",
    "index",
    "start",
    "end",
    "size",
    "text",
    "headings",
    "section",
    "metadata",
    "embed_text",
    "page_start",
    "page_end",
    "section_canonical",
    "replaced",
)


def _pyarrow():
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise ImportError("Parquet needs pyarrow: pip install 'norishiro[parquet]'") from None
    return pa, pq


def row_schema():
    """Fixed column types, so that files of documents with and without pages (or known
    sections) match, whatever the first rows hold."""
    pa, _ = _pyarrow()
    types = {"index": pa.int64(), "start": pa.int64(), "end": pa.int64(), "size": pa.int64()}
    types |= {"page_start": pa.int32(), "page_end": pa.int32()}
    return pa.schema([(k, types.get(k, pa.string())) for k in ROW_COLUMNS])


class ParquetWriter:
    """Rows to ``folder/part-NNNNN.parquet``. The files are written into a temporary folder
    beside it and replace the folder's old Parquet files only on ``close()``; ``abort()``
    (or an interruption) leaves them as they were."""

    to_folder = True

    def __init__(self, folder: str | os.PathLike, rows_per_file: int = 50_000, **_options: Any):
        from .atomic import atomic_folder

        self.pa, self.pq = _pyarrow()
        self._swap = atomic_folder(folder)
        self.out = self._swap.__enter__()
        self.rows_per_file = rows_per_file
        self.part = 0
        self.count = 0
        self.buf: list[dict[str, Any]] = []

    def write(self, row: dict[str, Any]) -> None:
        self.buf.append(row)
        self.count += 1
        if len(self.buf) >= self.rows_per_file:
            self._flush()

    def _flush(self) -> None:
        if not self.buf:
            return
        cols = {k: [r.get(k) for r in self.buf] for k in ROW_COLUMNS}
        for k in ("headings", "metadata", "replaced"):
            cols[k] = [v if v is None or isinstance(v, str) else json.dumps(v, ensure_ascii=False) for v in cols[k]]
        table = self.pa.table(cols, schema=row_schema())
        self.pq.write_table(table, self.out / f"part-{self.part:05d}.parquet")
        self.part += 1
        self.buf.clear()

    def close(self) -> None:
        self._flush()
        self._swap.__exit__(None, None, None)

    def abort(self) -> None:
        """Drop what was written; the folder keeps its old files."""
        self._swap.__exit__(KeyboardInterrupt, KeyboardInterrupt(), None)


def write_vectors_parquet(path: str | os.PathLike, ids: Sequence[str], vectors: Sequence[Sequence[float]]) -> None:
    pa, pq = _pyarrow()
    pq.write_table(pa.table({"id": list(ids), "vector": [list(v) for v in vectors]}), path)


def read_vectors_parquet(path: str | os.PathLike, ids_only: bool = False) -> tuple[list[str], list[list[float]]]:
    _, pq = _pyarrow()
    t = pq.read_table(path, columns=["id"] if ids_only else None)
    ids = [str(x) for x in t.column("id").to_pylist()]
    return ids, ([] if ids_only else t.column("vector").to_pylist())
