"""A lexical embedder that needs no model: hashed character n-grams (works for Japanese).

Its vectors measure surface overlap, not meaning, but they are deterministic, fast and
available everywhere, which keeps the semantic chunker and the evaluation usable offline
and makes tests fast.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence

import numpy as np


class HashEmbedder:
    def __init__(self, dim: int = 512, ngrams: tuple[int, ...] = (1, 2, 3)):
        if dim <= 0:
            raise ValueError("dim must be positive")
        self.dim = dim
        self.ngrams = ngrams
        self.name = f"hash-{dim}"

    def _one(self, text: str) -> np.ndarray:
        v = np.zeros(self.dim, dtype=np.float32)
        t = "".join(text.split())  # white space carries no meaning here
        for n in self.ngrams:
            for i in range(len(t) - n + 1):
                h = zlib.crc32(t[i : i + n].encode("utf-8", "surrogatepass"))
                v[h % self.dim] += 1.0 if (h >> 31) & 1 else -1.0
        norm = float(np.linalg.norm(v))
        return v / norm if norm else v

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        return np.stack([self._one(t) for t in texts]) if texts else np.zeros((0, self.dim), np.float32)

    embed_queries = embed_documents
