"""LanceDB: an embedded store in a folder, no server (``lancedb:./index``).

One table (``chunks`` unless named) whose schema metadata records the model and dimension.
A document is replaced by one ``merge_insert`` (new and changed rows inserted, its other
rows deleted), which LanceDB commits as one new table version: a reader sees the old
document or the new one, never a mix.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from .base import ROW_FIELDS, Change, Hit, IndexInfo, StoreError, decode_row

__all__ = ["LanceStore"]

_META_KEY = b"norishiro"
_INTS = {"index", "start", "end", "size"}
_PAGES = {"page_start", "page_end"}


def _lancedb():
    try:
        import lancedb
        import pyarrow as pa
    except ImportError:
        raise ImportError("the LanceDB store needs lancedb: pip install 'norishiro[lancedb]'") from None
    return lancedb, pa


def _quote(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _in(column: str, values) -> str:
    return f"{column} IN ({', '.join(_quote(v) for v in values)})"


class LanceStore:
    def __init__(self, path: str | os.PathLike, table: str = "chunks"):
        lancedb, self._pa = _lancedb()
        self.path = os.fspath(path)
        self.target = f"lancedb:{self.path}"
        self.table_name = table
        if os.path.exists(self.path) and not os.path.isdir(self.path):
            raise StoreError(f"{self.path} is a file, not a LanceDB folder; give a folder path", self.target)
        self._lancedb = lancedb
        self._db = self._table = None
        if os.path.isdir(self.path):  # a folder that is not there is made on the first write, not by reading
            try:
                self._table = self._connect().open_table(table)
            except ValueError:  # "Table ... was not found": a new index in this folder
                self._table = None
        self._info = self._read_info()

    def _connect(self) -> Any:
        if self._db is None:
            try:
                self._db = self._lancedb.connect(self.path)
            except (OSError, ValueError, RuntimeError) as e:
                raise StoreError(f"cannot open {self.target}: {e}", self.target) from None
        return self._db

    def _read_info(self) -> IndexInfo | None:
        if self._table is None:
            return None
        raw = (self._table.schema.metadata or {}).get(_META_KEY)
        if raw is None:
            raise StoreError(
                f"{self.target}: table {self.table_name!r} was not made by norishiro; choose another --table or folder",
                self.target,
            )
        return IndexInfo.from_json(raw)

    def info(self) -> IndexInfo | None:
        return self._info

    def _schema(self, info: IndexInfo):
        pa = self._pa
        cols = []
        for k in ROW_FIELDS:
            t = pa.int64() if k in _INTS else pa.int32() if k in _PAGES else pa.string()
            cols.append(pa.field(k, t))
        cols.append(pa.field("vector", pa.list_(pa.float32(), info.dim)))
        return pa.schema(cols, metadata={_META_KEY: info.to_json().encode()})

    def _ensure(self, info: IndexInfo) -> Any:
        if self._table is None:
            self._table = self._connect().create_table(self.table_name, schema=self._schema(info))
            self._info = info
        return self._table

    def _scan(self, where: str, columns: list[str]) -> dict[str, list]:
        if self._table is None:
            return {c: [] for c in columns}
        return self._table.search().where(where).select(columns).limit(None).to_arrow().to_pydict()

    def existing(self, doc_ids: Sequence[str]) -> dict[str, dict[str, tuple[str, str]]]:
        out: dict[str, dict[str, tuple[str, str]]] = {}
        if not doc_ids:
            return out
        d = self._scan(_in("doc_id", doc_ids), ["doc_id", "id", "digest", "embed_hash"])
        for doc, i, g, h in zip(d["doc_id"], d["id"], d["digest"], d["embed_hash"]):
            out.setdefault(doc, {})[i] = (g, h)
        return out

    def vectors(self, doc_id: str, embed_hashes: Sequence[str]) -> dict[str, list[float]]:
        if not embed_hashes:
            return {}
        d = self._scan(
            f"doc_id = {_quote(doc_id)} AND {_in('embed_hash', set(embed_hashes))}", ["embed_hash", "vector"]
        )
        return dict(zip(d["embed_hash"], d["vector"]))

    def replace(self, info: IndexInfo, changes: Sequence[Change]) -> int:
        if not changes:
            return 0
        table = self._ensure(info)
        rows = [r for c in changes for r in c.rows]
        data = self._pa.Table.from_pylist(
            [r.columns() | {"vector": r.vector} for r in rows], schema=self._schema(self._info or info)
        )
        if not any(c.had_rows for c in changes):  # only new documents: a plain append
            table.add(data)
            return 0
        gone = _in("doc_id", [c.doc_id for c in changes])
        keep = [i for c in changes for i in c.keep]
        if keep:
            gone += f" AND NOT {_in('id', keep)}"
        result = (
            table.merge_insert("id")
            .when_matched_update_all()
            .when_not_matched_insert_all()
            .when_not_matched_by_source_delete(gone)
            .execute(data)
        )
        return int(getattr(result, "num_deleted_rows", 0) or 0)

    def finish(self) -> None:
        """Compact the small fragments that one write per batch leaves, and keep a B-tree on
        ``doc_id`` (the lookups of a re-run), so that scans stay fast as the table grows."""
        if self._table is None:
            return
        if not any(getattr(i, "columns", None) == ["doc_id"] for i in self._table.list_indices()):
            from lancedb.index import BTree

            self._table.create_index("doc_id", config=BTree())
        self._table.optimize()

    def delete_documents(self, doc_ids: Sequence[str]) -> int:
        if self._table is None or not doc_ids:
            return 0
        where = _in("doc_id", doc_ids)
        before = self._table.count_rows(where)
        if before:
            self._table.delete(where)
        return before

    def documents(self) -> list[str]:
        return sorted(set(self._scan("true", ["doc_id"])["doc_id"]))

    def count(self) -> int:
        return 0 if self._table is None else self._table.count_rows()

    def search(self, vector: Sequence[float], k: int = 5, doc_ids: Sequence[str] | None = None) -> list[Hit]:
        if self._table is None:
            return []
        # refine_factor: with an IVF-PQ index, re-rank 10x k candidates on the full vectors
        q = self._table.search(list(map(float, vector))).distance_type("cosine").limit(k).refine_factor(10)
        if doc_ids:
            q = q.where(_in("doc_id", doc_ids), prefilter=True)
        rows = q.select([*ROW_FIELDS, "_distance"]).to_arrow().to_pylist()
        return [Hit(1.0 - float(r["_distance"]), decode_row(r)) for r in rows]

    def build_vector_index(self) -> bool:
        """An approximate IVF-PQ index for large tables (searches are exact without it); rows
        written later are searched exactly beside it until it is built again. False for a
        table too small to train one (under 5,000 rows)."""
        if self._table is None or self._table.count_rows() < 5_000:
            return False
        self._table.create_index(metric="cosine", vector_column_name="vector", replace=True)
        return True

    def close(self) -> None:
        self._table = None
