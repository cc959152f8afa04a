"""The page's search box: one index, opened when ``serve --index`` names it, asked with the
embedder that filled it (loaded on the first question)."""

from __future__ import annotations

import threading
from typing import Any

__all__ = ["IndexSearch"]


class IndexSearch:
    def __init__(self, target: str, table: str = "chunks"):
        from ..stores import open_store

        self.store = open_store(target, table=table)
        self.table = table
        self._embedder: Any = None
        self._lock = threading.Lock()  # one question at a time on the store's connection

    def describe(self) -> dict[str, Any]:
        info = self.store.info()
        with self._lock:
            rows = self.store.count()
        return {
            "target": self.store.target,
            "table": self.table,
            "model": info.model if info else None,
            "rows": rows,
        }

    def search(self, query: str, k: int) -> list[dict[str, Any]]:
        from .. import stores
        from ..stores.api import embedder_for, search

        info = self.store.info()
        if info is None:
            raise stores.StoreError(f"{self.store.target} holds no index yet; fill it with norishiro index")
        with self._lock:
            if self._embedder is None:
                self._embedder = embedder_for(info)
            return [h.to_dict() for h in search(self.store, query, k=k, embedder=self._embedder)]
