"""An Ollama ``/api/embed`` client that loses nothing: retries what can be retried, says
clearly what cannot, and never lets the server truncate silently (``truncate: false``).

Request and response shapes follow Ollama's API reference: ``POST /api/embed`` with
``{"model", "input": [..], "truncate"}`` answers ``{"model", "embeddings": [[..], ..]}``;
errors are ``{"error": "..."}`` with 404 for a model that is not pulled and 400 for an input
longer than the context ("the input length exceeds the context length").
``POST /api/show`` with ``{"model"}`` answers ``model_info`` holding ``<arch>.context_length``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..config import DEFAULT_OLLAMA_URL
from .http import (
    EmbedServerError,
    InputTooLong,
    JsonClient,
    ModelNotFound,
    ServerUnavailable,
    UnexpectedAnswer,
    normalise_rows,
)
from .http import check_url as _check_url

__all__ = [
    "OllamaError",
    "ModelNotFound",
    "InputTooLong",
    "ServerUnavailable",
    "NotOllama",
    "check_url",
    "risky_inputs",
    "OllamaClient",
    "OllamaEmbedder",
    "KNOWN_CONTEXT",
    "context_length",
]

# Context windows (tokens) of common Ollama embedding models, as Ollama serves them by
# default. embeddinggemma and nomic-embed-text 2K, mxbai-embed-large and
# all-minilm 512. The others as listed for the Ollama library by several independent
# model comparisons (2026). A running server's /api/show is asked first when reachable.
KNOWN_CONTEXT = {
    "embeddinggemma": 2048,
    "nomic-embed-text": 2048,
    "mxbai-embed-large": 512,
    "all-minilm": 512,
    "bge-m3": 8192,
    "snowflake-arctic-embed": 512,
    "snowflake-arctic-embed2": 8192,
    "granite-embedding": 512,
}


def context_length(model: str) -> int | None:
    """Known context window for ``model`` (``name`` or ``name:tag``), or None."""
    return KNOWN_CONTEXT.get(model.split(":", 1)[0].split("/")[-1])


def risky_inputs(
    texts: Sequence[str], model: str, context: int | None = None
) -> tuple[int | None, list[tuple[int, int]]]:
    """``(context, [(index, tokens), ...])``: the texts that may not fit ``model``'s context
    window (over 90% of it in o200k tokens, which only approximates the model's own count)."""
    from ..core.measure import TiktokenSizer

    context = context or context_length(model)
    if not context or not texts:
        return context, []
    est = TiktokenSizer("o200k_base")
    return context, [(i, n) for i, n in ((i, est.count(t)) for i, t in enumerate(texts)) if n > 0.9 * context]


OllamaError = EmbedServerError  # the name this module has always raised


class NotOllama(UnexpectedAnswer):
    """The server answered, but not as Ollama does (an HTML page, a proxy's error ...)."""


def check_url(url: str) -> str:
    """An Ollama base URL: ``http(s)://host[:port]``, without a trailing slash."""
    return _check_url(url, "ollama_url", "http://localhost:11434")


class OllamaClient(JsonClient):
    """Ollama's HTTP API with retries; ``timeout`` is a deadline for each whole request
    (connecting, sending and reading the answer), not per read."""

    kind = "Ollama"
    unreachable_hint = "; is Ollama running? (ollama serve)"

    def __init__(self, url: str | None = None, **kw: Any):
        super().__init__(check_url(url or DEFAULT_OLLAMA_URL), **kw)

    def _failure(self, status: int, message: str, payload: dict, path: str) -> EmbedServerError | None:
        if status >= 500:
            return None
        if status == 404 or "not found" in message:
            model = payload.get("model", "?")
            return ModelNotFound(f"model {model!r} is not available on {self.url}: {message}. Run: ollama pull {model}")
        if "context length" in message or "too long" in message:
            return InputTooLong(message)
        return OllamaError(f"HTTP {status} from {self.url}{path}: {message}")

    def _not_json(self, path: str, status: int, ctype: str, body: bytes) -> EmbedServerError:
        return NotOllama(
            f"{self.url}{path} answered HTTP {status} with {ctype or 'no content type'}, "
            f"which is not an Ollama answer ({body[:60]!r}); check --ollama-url"
        )

    def embed(self, model: str, inputs: Sequence[str], truncate: bool = False) -> list[list[float]]:
        data = self._post("/api/embed", {"model": model, "input": list(inputs), "truncate": truncate})
        vecs = data.get("embeddings")
        if not isinstance(vecs, list) or len(vecs) != len(inputs):
            raise NotOllama(
                f"unexpected /api/embed answer: {len(vecs) if isinstance(vecs, list) else vecs!r} "
                f"embeddings for {len(inputs)} inputs"
            )
        return vecs

    def show_context_length(self, model: str) -> int | None:
        """The model's context length from ``/api/show``, or None when not reported."""
        info = self._post("/api/show", {"model": model}).get("model_info") or {}
        for k, v in info.items():
            if k.endswith(".context_length") and isinstance(v, int):
                return v
        return None


class OllamaEmbedder:
    """The ``Embedder`` interface over Ollama (queries and documents embedded alike)."""

    def __init__(self, model: str, url: str | None = None, batch_size: int = 32, **client_kw):
        self.model = model
        self.name = f"ollama:{model}"
        self.batch_size = batch_size
        self.client = OllamaClient(url, **client_kw)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        rows: list[list[float]] = []
        for i in range(0, len(texts), self.batch_size):
            rows += self.client.embed(self.model, texts[i : i + self.batch_size], truncate=False)
        return normalise_rows(rows)

    embed_queries = embed_documents
