"""A client for OpenAI-compatible ``/v1/embeddings`` servers: llama.cpp's server, vLLM,
Text Embeddings Inference, LM Studio, LocalAI, and OpenAI itself.

Request ``POST {base}/embeddings`` with ``{"model", "input": [..], "encoding_format":
"float"}``; answer ``{"data": [{"index", "embedding": [..]}, ..], "model", "usage"}`` (rows
are put back in ``index`` order). Errors are ``{"error": {"message", "type", "code"}}`` (or
``{"error": "..."}`` on some servers): 401/403 a key problem, 404 or ``model_not_found`` an
unknown model, 429 and 5xx retried (honouring ``Retry-After``), an input over the model's
context ("maximum context length", "too long", "too large", "must have less than N
tokens") reported as :class:`InputTooLong` so the runner isolates it and never truncates.

The API key is read from an environment variable and only ever sent in the
``Authorization`` header; no message names it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..config import DEFAULT_KEY_ENV
from .http import (
    AccessDenied,
    EmbedServerError,
    InputTooLong,
    JsonClient,
    ModelNotFound,
    UnexpectedAnswer,
    check_url,
    normalise_rows,
)

__all__ = ["OpenAIClient", "OpenAIEmbedder", "DEFAULT_KEY_ENV"]

_TOO_LONG = re.compile(r"context length|too long|too large|must have less than|maximum.*tokens|exceeds", re.I)


class OpenAIClient(JsonClient):
    """``/embeddings`` of an OpenAI-compatible server, with retries."""

    kind = "an OpenAI-compatible server"
    unreachable_hint = "; is the embedding server running, and is --base-url right?"

    def __init__(self, base_url: str, api_key_env: str = DEFAULT_KEY_ENV, **kw: Any):
        self.key_env = api_key_env
        key = os.environ.get(api_key_env, "") if api_key_env else ""
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        super().__init__(check_url(base_url, "base_url", "http://localhost:8080/v1"), headers=headers, **kw)

    def _failure(self, status: int, message: str, payload: dict, path: str) -> EmbedServerError | None:
        if _TOO_LONG.search(message) and status in (400, 413, 422, 500):
            return InputTooLong(message)
        if status >= 500 or status == 429:
            return None
        if status in (401, 403):
            where = f"${self.key_env}" if self.key_env else "an API key variable (--api-key-env)"
            return AccessDenied(f"{self.url}{path} refused the request (HTTP {status}: {message}); set {where}")
        if status == 404 or "model_not_found" in message or "does not exist" in message:
            model = payload.get("model", "?")
            return ModelNotFound(
                f"model {model!r} is not served by {self.url}: {message}; "
                "check the name the server lists at GET /v1/models"
            )
        return EmbedServerError(f"HTTP {status} from {self.url}{path}: {message}")

    def embed(self, model: str, inputs: Sequence[str], dimensions: int | None = None) -> list[list[float]]:
        payload: dict[str, Any] = {"model": model, "input": list(inputs), "encoding_format": "float"}
        if dimensions:
            payload["dimensions"] = dimensions
        data = self._post("/embeddings", payload).get("data")
        if not isinstance(data, list) or len(data) != len(inputs):
            got = len(data) if isinstance(data, list) else repr(data)[:60]
            raise UnexpectedAnswer(f"unexpected /embeddings answer: {got} rows for {len(inputs)} inputs")
        try:
            rows = sorted(data, key=lambda d: d.get("index", 0))
            return [d["embedding"] for d in rows]
        except (AttributeError, KeyError, TypeError):
            raise UnexpectedAnswer("unexpected /embeddings answer: rows without an embedding") from None


class OpenAIEmbedder:
    """The ``Embedder`` interface over an OpenAI-compatible server.

    ``query_prefix``/``document_prefix`` are put before the texts for models trained with
    them (e5: ``"query: "``/``"passage: "``; nomic: ``"search_query: "``/``"search_document: "``).
    """

    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        api_key_env: str = DEFAULT_KEY_ENV,
        batch_size: int = 32,
        dimensions: int | None = None,
        query_prefix: str = "",
        document_prefix: str = "",
        **client_kw: Any,
    ):
        self.model = model
        self.name = f"openai:{model}"
        self.batch_size = batch_size
        self.dimensions = dimensions
        self.query_prefix = query_prefix
        self.document_prefix = document_prefix
        self.client = OpenAIClient(base_url or "http://localhost:8080/v1", api_key_env, **client_kw)

    def embed_raw(self, texts: Sequence[str]) -> list[list[float]]:
        """Vectors as the server sent them, for the resumable runner (which checks them)."""
        return self.client.embed(self.model, [self.document_prefix + t for t in texts], self.dimensions)

    def _run(self, texts: Sequence[str], prefix: str) -> np.ndarray:
        rows: list[list[float]] = []
        for i in range(0, len(texts), self.batch_size):
            batch = [prefix + t for t in texts[i : i + self.batch_size]]
            rows += self.client.embed(self.model, batch, self.dimensions)
        return normalise_rows(rows)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        return self._run(texts, self.document_prefix)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._run(texts, self.query_prefix)
