"""Vector stores keyed by chunk id: ``open_store("lancedb:./index")`` or
``open_store("postgresql://user@host/db")``, then :class:`Indexer` to write documents
idempotently and ``store.search(vector, k)`` to read them back.

A new store is one file beside these and one line in :data:`STORES`.
"""

from __future__ import annotations

from .base import ROW_FIELDS, Hit, IndexInfo, ModelMismatch, Store, StoreError, StoreRow, row_from_chunk
from .sync import Indexer, IndexReport

__all__ = [
    "ROW_FIELDS",
    "STORES",
    "Hit",
    "IndexInfo",
    "IndexReport",
    "Indexer",
    "ModelMismatch",
    "Store",
    "StoreError",
    "StoreRow",
    "StoreTargetError",
    "open_store",
    "row_from_chunk",
]

# How a target names its store: prefix -> (module, class, what follows the prefix).
STORES = {
    "lancedb:": ("lance", "LanceStore", "a folder, e.g. lancedb:./index"),
    "postgresql://": ("postgres", "PostgresStore", "a connection URL, e.g. postgresql://user@localhost/db"),
    "postgres://": ("postgres", "PostgresStore", "a connection URL"),
}


class StoreTargetError(StoreError, ValueError):
    """A target that names no store."""

    stops_run = True


def open_store(target: str, table: str = "chunks") -> Store:
    """The store ``target`` names: ``lancedb:PATH`` or ``postgresql://...``."""
    import importlib
    import re

    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,62}", table or ""):
        raise StoreTargetError(f"table name {table!r}: use letters, digits and _ (not starting with a digit)", target)
    for prefix, (module, cls, _) in STORES.items():
        if target.startswith(prefix):
            rest = target[len(prefix) :] if prefix == "lancedb:" else target
            if not rest:
                raise StoreTargetError(f"{target}: give a folder after lancedb:, e.g. lancedb:./index", target)
            store_cls = getattr(importlib.import_module(f".{module}", __name__), cls)
            return store_cls(rest, table=table)
    kinds = "; ".join(f"{p}... ({what})" for p, (_, _, what) in STORES.items() if p != "postgres://")
    raise StoreTargetError(f"{target!r} names no store: write {kinds}", target)
