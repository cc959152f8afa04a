"""PostgreSQL with pgvector (``postgresql://user@host/db``).

One table per index (``chunks`` unless named) with a ``vector(dim)`` column and an index
on ``doc_id``. Searches are exact until :meth:`PostgresStore.build_vector_index` adds an
HNSW cosine index (``index --ann``; up to 2,000 dimensions, pgvector's limit).
``norishiro_indexes`` records each table's model and dimension. Documents are replaced in
one transaction: their rows not kept are deleted and the new ones copied in, so a reader
never sees half a document.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .base import ROW_FIELDS, Change, Hit, IndexInfo, StoreError, decode_row

__all__ = ["PostgresStore"]

_HNSW_MAX_DIM = 2000
_TYPES = {
    "index": "bigint",
    "start": "bigint",
    "end": "bigint",
    "size": "bigint",
    "page_start": "integer",
    "page_end": "integer",
    "headings": "jsonb",
    "metadata": "jsonb",
}


def _psycopg():
    try:
        import psycopg
        from psycopg import sql
    except ImportError:
        raise ImportError("the PostgreSQL store needs psycopg: pip install 'norishiro[postgres]'") from None
    return psycopg, sql


def _vector_text(v: Sequence[float]) -> str:
    return "[" + ",".join(repr(float(x)) for x in v) + "]"


def _safe_target(dsn: str) -> str:
    """The connection string without its password, for messages."""
    from urllib.parse import urlsplit, urlunsplit

    try:
        p = urlsplit(dsn)
    except ValueError:
        return "postgresql://..."
    if p.password:
        netloc = f"{p.username}:***@{p.hostname}" + (f":{p.port}" if p.port else "")
        return urlunsplit((p.scheme, netloc, p.path, p.query, p.fragment))
    return dsn


class PostgresStore:
    def __init__(self, dsn: str, table: str = "chunks"):
        psycopg, self._sql = _psycopg()
        self.target = _safe_target(dsn)
        self.table_name = table
        try:
            self._conn = psycopg.connect(dsn, autocommit=True)
        except psycopg.Error as e:
            raise StoreError(f"cannot connect to {self.target}: {str(e).strip()}", self.target) from None
        self._psycopg = psycopg
        self._t = self._sql.Identifier(table)
        self._run("CREATE EXTENSION IF NOT EXISTS vector", hint="install pgvector on the server")
        self._run("SET hnsw.ef_search = 100")  # with an HNSW index: candidates looked at per search (40 by default)
        self._run("CREATE TABLE IF NOT EXISTS norishiro_indexes (name text PRIMARY KEY, info jsonb NOT NULL)")
        self._info = self._read_info()

    def _run(self, query: Any, params: Any = None, hint: str = "") -> Any:
        try:
            return self._conn.execute(query, params)
        except self._psycopg.Error as e:
            more = f"; {hint}" if hint else ""
            raise StoreError(f"{self.target}: {str(e).strip()}{more}", self.target) from None

    def _read_info(self) -> IndexInfo | None:
        row = self._run("SELECT info FROM norishiro_indexes WHERE name = %s", (self.table_name,)).fetchone()
        exists = self._run("SELECT to_regclass(%s)", (self._sql.Identifier(self.table_name).as_string(self._conn),))
        table_there = exists.fetchone()[0] is not None
        if row is None:
            if table_there:
                raise StoreError(
                    f"{self.target}: table {self.table_name!r} was not made by norishiro; choose another --table",
                    self.target,
                )
            return None
        if not table_there:  # the table was dropped by hand: start again
            self._run("DELETE FROM norishiro_indexes WHERE name = %s", (self.table_name,))
            return None
        info = row[0]
        return IndexInfo.from_json(info if isinstance(info, str) else json.dumps(info))

    def info(self) -> IndexInfo | None:
        return self._info

    def _create(self, info: IndexInfo) -> None:
        sql = self._sql
        cols = [
            sql.SQL("{} {}").format(sql.Identifier(k), sql.SQL(_TYPES.get(k, "text"))) for k in ROW_FIELDS if k != "id"
        ]
        with self._conn.transaction():
            self._run(
                sql.SQL("CREATE TABLE {} (id text PRIMARY KEY, {}, vector vector({}))").format(
                    self._t, sql.SQL(", ").join(cols), sql.Literal(info.dim)
                )
            )
            self._run(sql.SQL("CREATE INDEX ON {} (doc_id)").format(self._t))
            self._run("INSERT INTO norishiro_indexes (name, info) VALUES (%s, %s)", (self.table_name, info.to_json()))
        self._info = info

    def existing(self, doc_ids: Sequence[str]) -> dict[str, dict[str, tuple[str, str]]]:
        out: dict[str, dict[str, tuple[str, str]]] = {}
        if self._info is None or not doc_ids:
            return out
        q = self._sql.SQL("SELECT doc_id, id, digest, embed_hash FROM {} WHERE doc_id = ANY(%s)").format(self._t)
        for doc, i, g, h in self._run(q, (list(doc_ids),)).fetchall():
            out.setdefault(doc, {})[i] = (g, h)
        return out

    def vectors(self, doc_id: str, embed_hashes: Sequence[str]) -> dict[str, list[float]]:
        if self._info is None or not embed_hashes:
            return {}
        q = self._sql.SQL("SELECT embed_hash, vector::text FROM {} WHERE doc_id = %s AND embed_hash = ANY(%s)")
        rows = self._run(q.format(self._t), (doc_id, list(set(embed_hashes)))).fetchall()
        return {h: json.loads(v) for h, v in rows}

    def replace(self, info: IndexInfo, changes: Sequence[Change]) -> int:
        sql = self._sql
        if not changes:
            return 0
        if self._info is None:
            self._create(info)
        names = [*ROW_FIELDS, "vector"]
        copy = sql.SQL("COPY {} ({}) FROM STDIN").format(self._t, sql.SQL(", ").join(map(sql.Identifier, names)))
        delete = sql.SQL("DELETE FROM {} WHERE doc_id = ANY(%s) AND NOT (id = ANY(%s))").format(self._t)
        keep = [i for c in changes for i in c.keep]
        try:
            with self._conn.transaction(), self._conn.cursor() as cur:
                cur.execute(delete, ([c.doc_id for c in changes], keep))
                deleted = cur.rowcount
                with cur.copy(copy) as out:
                    for c in changes:
                        for r in c.rows:
                            cols = r.columns()
                            out.write_row([cols[k] for k in ROW_FIELDS] + [_vector_text(r.vector or [])])
        except self._psycopg.Error as e:
            docs = ", ".join(repr(c.doc_id) for c in changes[:3]) + (" ..." if len(changes) > 3 else "")
            raise StoreError(f"{self.target}: {docs} not written: {str(e).strip()}", self.target) from None
        return deleted

    def finish(self) -> None:
        """Fresh planner statistics after a run."""
        if self._info is not None:
            self._run(self._sql.SQL("ANALYZE {}").format(self._t))

    def delete_documents(self, doc_ids: Sequence[str]) -> int:
        if self._info is None or not doc_ids:
            return 0
        q = self._sql.SQL("DELETE FROM {} WHERE doc_id = ANY(%s)").format(self._t)
        return self._run(q, (list(doc_ids),)).rowcount

    def documents(self) -> list[str]:
        if self._info is None:
            return []
        q = self._sql.SQL("SELECT DISTINCT doc_id FROM {} ORDER BY doc_id").format(self._t)
        return [r[0] for r in self._run(q).fetchall()]

    def count(self) -> int:
        if self._info is None:
            return 0
        return int(self._run(self._sql.SQL("SELECT count(*) FROM {}").format(self._t)).fetchone()[0])

    def search(self, vector: Sequence[float], k: int = 5, doc_ids: Sequence[str] | None = None) -> list[Hit]:
        sql = self._sql
        if self._info is None:
            return []
        cols = sql.SQL(", ").join(map(sql.Identifier, ROW_FIELDS))
        where = sql.SQL("WHERE doc_id = ANY(%(docs)s)") if doc_ids else sql.SQL("")
        q = sql.SQL(
            "SELECT {}, 1 - (vector <=> %(v)s::vector) AS score FROM {} {} "
            "ORDER BY vector <=> %(v)s::vector LIMIT %(k)s"
        ).format(cols, self._t, where)
        cur = self._run(q, {"v": _vector_text(vector), "k": k, "docs": list(doc_ids or [])})
        names = [*ROW_FIELDS, "score"]
        hits = []
        for values in cur.fetchall():
            d = dict(zip(names, values))
            hits.append(Hit(float(d.pop("score")), decode_row(d)))
        return hits

    def build_vector_index(self) -> bool:
        """An HNSW cosine index, for large tables (searches are exact without it). Built once
        after a bulk load, which is much faster than growing it row by row; later writes
        update it. False when the dimension is over pgvector's limit."""
        if self._info is None or self._info.dim > _HNSW_MAX_DIM:
            return False
        sql = self._sql
        name = sql.Identifier(f"{self.table_name}_vector_hnsw")
        with self._conn.transaction():
            self._run("SET LOCAL maintenance_work_mem = '1GB'")
            self._run(
                sql.SQL("CREATE INDEX IF NOT EXISTS {} ON {} USING hnsw (vector vector_cosine_ops)").format(
                    name, self._t
                )
            )
        return True

    def close(self) -> None:
        self._conn.close()
