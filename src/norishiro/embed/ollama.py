"""An Ollama ``/api/embed`` client that loses nothing: retries what can be retried, says
clearly what cannot, and never lets the server truncate silently (``truncate: false``).

Request and response shapes follow Ollama's API reference: ``POST /api/embed`` with
``{"model", "input": [..], "truncate"}`` answers ``{"model", "embeddings": [[..], ..]}``;
errors are ``{"error": "..."}`` with 404 for a model that is not pulled and 400 for an input
longer than the context ("the input length exceeds the context length").
``POST /api/show`` with ``{"model"}`` answers ``model_info`` holding ``<arch>.context_length``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..config import DEFAULT_OLLAMA_URL
from ..errors import NorishiroError, OptionError

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


class OllamaError(NorishiroError, RuntimeError):
    """An answer from Ollama that retrying will not fix."""


class ModelNotFound(OllamaError):
    stops_run = True


class InputTooLong(OllamaError):
    pass


class ServerUnavailable(OllamaError):
    """Connection refused, time-outs or 5xx after every retry."""

    stops_run = True


class NotOllama(OllamaError):
    """The server answered, but not as Ollama does (an HTML page, a proxy's error ...)."""

    stops_run = True


def check_url(url: str) -> str:
    """An Ollama base URL: ``http(s)://host[:port]``, without a trailing slash."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url) if isinstance(url, str) else None
        port_ok = parts is not None and (parts.port is None or 0 < parts.port < 65536)
    except ValueError:  # "http://[bad", a port that is not a number
        parts, port_ok = None, False
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname or not port_ok:
        hint = f"write http://{url}" if isinstance(url, str) and "://" not in url else ""
        raise OptionError("ollama_url", url, "an http:// or https:// URL such as http://localhost:11434", hint)
    return url.rstrip("/")


class OllamaClient:
    """Ollama's HTTP API with retries; ``timeout`` is a deadline for each whole request
    (connecting, sending and reading the answer), not per read."""

    def __init__(
        self,
        url: str | None = None,
        timeout: float = 120.0,
        retries: int = 4,
        backoff: float = 0.5,
        sleep: Callable[[float], None] = time.sleep,
    ):
        import httpx

        if not timeout or timeout <= 0:
            raise OptionError("timeout", timeout, "a number of seconds above 0")
        self.url = check_url(url or DEFAULT_OLLAMA_URL)
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self._sleep = sleep
        self._httpx = httpx
        self._client = httpx.Client(timeout=timeout)

    def close(self) -> None:
        self._client.close()

    def _request(self, path: str, payload: dict) -> tuple[int, str, bytes, Any]:
        """One POST within the deadline: ``(status, content type, body, response)``."""
        httpx = self._httpx
        deadline = time.monotonic() + self.timeout
        with self._client.stream("POST", self.url + path, json=payload) as r:
            body = bytearray()
            for part in r.iter_bytes():
                body += part
                if time.monotonic() > deadline:
                    raise httpx.ReadTimeout(f"the answer took longer than {self.timeout:g} s")
            return r.status_code, r.headers.get("content-type", ""), bytes(body), r

    def _post(self, path: str, payload: dict) -> dict:
        httpx = self._httpx
        last: Exception | None = None
        for attempt in range(self.retries + 1):
            try:
                status, ctype, body, r = self._request(path, payload)
            except httpx.TransportError as e:  # refused, reset, time-outs
                last = e
            else:
                data = _json_or_none(body)
                if status < 400:
                    if not isinstance(data, dict):
                        raise NotOllama(
                            f"{self.url}{path} answered HTTP {status} with {ctype or 'no content type'}, "
                            f"which is not an Ollama answer ({body[:60]!r}); check --ollama-url"
                        )
                    return data
                message = _error_text(data, body, r)
                if status >= 500:
                    last = OllamaError(f"HTTP {status}: {message}")
                elif status == 404 or "not found" in message:
                    model = payload.get("model", "?")
                    raise ModelNotFound(
                        f"model {model!r} is not available on {self.url}: {message}. Run: ollama pull {model}"
                    )
                elif "context length" in message or "too long" in message:
                    raise InputTooLong(message)
                else:
                    raise OllamaError(f"HTTP {status} from {self.url}{path}: {message}")
            if attempt < self.retries:
                self._sleep(self.backoff * (2**attempt))
        raise ServerUnavailable(
            f"no answer from {self.url}{path} after {self.retries + 1} tries ({last}); "
            "is Ollama running? (ollama serve)"
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


def _json_or_none(body: bytes) -> Any:
    try:
        return json.loads(body)
    except ValueError:
        return None


def _error_text(data: Any, body: bytes, r: Any) -> str:
    if isinstance(data, dict) and "error" in data:
        return str(data["error"])
    return body.decode("utf-8", "replace").strip()[:300] or r.reason_phrase


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
        arr = np.asarray(rows, dtype=np.float32)
        if arr.size == 0:
            return arr.reshape(0, 0)
        norms = np.linalg.norm(arr, axis=1, keepdims=True)
        return arr / np.where(norms == 0, 1, norms)

    embed_queries = embed_documents
