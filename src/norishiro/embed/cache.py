"""Vectors cached by model and content hash, so re-running or adding a configuration only
embeds what is new. In memory by default; on disk (SQLite, standard library) with a path."""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Sequence

import numpy as np


def _key(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


class EmbeddingCache:
    def __init__(self, path: str | os.PathLike | None = None):
        self.path = str(path) if path else None
        self._mem: dict[tuple[str, str], np.ndarray] = {}
        self._db = None
        self.hits = self.misses = 0
        if self.path:
            os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
            self._db = sqlite3.connect(self.path)
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS vectors (model TEXT, key TEXT, dim INTEGER, "
                "vec BLOB, PRIMARY KEY (model, key))"
            )

    def _get(self, model: str, keys: list[str]) -> dict[str, np.ndarray]:
        found = {k: self._mem[(model, k)] for k in keys if (model, k) in self._mem}
        missing = [k for k in keys if k not in found]
        if self._db is not None and missing:
            for i in range(0, len(missing), 500):
                part = missing[i : i + 500]
                q = f"SELECT key, vec FROM vectors WHERE model=? AND key IN ({','.join('?' * len(part))})"
                for k, blob in self._db.execute(q, [model, *part]):
                    v = np.frombuffer(blob, dtype=np.float32)
                    found[k] = self._mem[(model, k)] = v
        return found

    def embed(self, embedder, texts: Sequence[str], query: bool = False) -> np.ndarray:
        """Vectors for ``texts`` (rows in order), computing only those not cached."""
        model = embedder.name + ("#q" if query else "")
        keys = [_key(t) for t in texts]
        found = self._get(model, list(dict.fromkeys(keys)))
        todo = [(k, t) for k, t in dict(zip(keys, texts)).items() if k not in found]
        self.hits += len(keys) - len(todo)
        self.misses += len(todo)
        if todo:
            fn = embedder.embed_queries if query else embedder.embed_documents
            vecs = np.asarray(fn([t for _, t in todo]), dtype=np.float32)
            for (k, _), v in zip(todo, vecs):
                found[k] = self._mem[(model, k)] = v
            if self._db is not None:
                self._db.executemany(
                    "INSERT OR REPLACE INTO vectors VALUES (?, ?, ?, ?)",
                    [(model, k, int(v.size), v.tobytes()) for (k, _), v in zip(todo, vecs)],
                )
                self._db.commit()
        if not keys:
            return np.zeros((0, 0), np.float32)
        return np.stack([found[k] for k in keys])

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
