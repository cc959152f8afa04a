"""What the embedding-server clients share: one JSON POST with a whole-request deadline,
retries with back-off for what can be retried, and errors that say what to do.

Each server kind (Ollama, OpenAI-compatible) says how its error answers read through
``_failure``; everything else (deadlines, retries, an answer that is not JSON) is here.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from typing import Any

from ..errors import NorishiroError, OptionError

__all__ = [
    "EmbedServerError",
    "ModelNotFound",
    "InputTooLong",
    "ServerUnavailable",
    "UnexpectedAnswer",
    "AccessDenied",
    "check_url",
    "JsonClient",
    "normalise_rows",
]


class EmbedServerError(NorishiroError, RuntimeError):
    """An answer from an embedding server that retrying will not fix."""


class ModelNotFound(EmbedServerError):
    stops_run = True


class InputTooLong(EmbedServerError):
    """One input does not fit the model; the runner isolates it and goes on."""


class ServerUnavailable(EmbedServerError):
    """Connection refused, time-outs, 429 or 5xx after every retry."""

    stops_run = True


class UnexpectedAnswer(EmbedServerError):
    """The server answered, but not as this kind of server does (an HTML page, a proxy ...)."""

    stops_run = True


class AccessDenied(EmbedServerError):
    """401/403: a missing or wrong API key."""

    stops_run = True


def check_url(url: Any, option: str = "url", example: str = "http://localhost:11434") -> str:
    """An ``http(s)://host[:port][/path]`` base URL, without a trailing slash."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url) if isinstance(url, str) else None
        port_ok = parts is not None and (parts.port is None or 0 < parts.port < 65536)
    except ValueError:  # "http://[bad", a port that is not a number
        parts, port_ok = None, False
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname or not port_ok:
        hint = f"write http://{url}" if isinstance(url, str) and "://" not in url else ""
        raise OptionError(option, url, f"an http:// or https:// URL such as {example}", hint)
    return url.rstrip("/")


class JsonClient:
    """POST JSON, read JSON; ``timeout`` is a deadline for each whole request (connecting,
    sending and reading the answer), not per read."""

    kind = "the server"  # for messages
    unreachable_hint = ""

    def __init__(
        self,
        url: str,
        timeout: float = 120.0,
        retries: int = 4,
        backoff: float = 0.5,
        sleep: Callable[[float], None] = time.sleep,
        headers: Mapping[str, str] | None = None,
    ):
        import httpx

        if not timeout or timeout <= 0:
            raise OptionError("timeout", timeout, "a number of seconds above 0")
        self.url = url
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self._sleep = sleep
        self._httpx = httpx
        self._client = httpx.Client(timeout=timeout, headers=dict(headers or {}))

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

    def _failure(self, status: int, message: str, payload: dict, path: str) -> EmbedServerError | None:
        """The error for a 4xx/5xx answer, or None when a retry may help."""
        if status >= 500 or status == 429:
            return None
        return EmbedServerError(f"HTTP {status} from {self.url}{path}: {message}")

    def _not_json(self, path: str, status: int, ctype: str, body: bytes) -> EmbedServerError:
        return UnexpectedAnswer(
            f"{self.url}{path} answered HTTP {status} with {ctype or 'no content type'}, "
            f"which is not what {self.kind} answers ({body[:60]!r}); check the URL"
        )

    def _post(self, path: str, payload: dict) -> dict:
        httpx = self._httpx
        last: Exception | str | None = None
        for attempt in range(self.retries + 1):
            wait = self.backoff * (2**attempt)
            try:
                status, ctype, body, r = self._request(path, payload)
            except httpx.TransportError as e:  # refused, reset, time-outs
                last = e
            else:
                data = _json_or_none(body)
                if status < 400:
                    if not isinstance(data, dict):
                        raise self._not_json(path, status, ctype, body)
                    return data
                message = error_text(data, body, r.reason_phrase)
                failure = self._failure(status, message, payload, path)
                if failure is not None:
                    raise failure
                last = f"HTTP {status}: {message}"
                wait = max(wait, min(_retry_after(r.headers), 60.0))
            if attempt < self.retries:
                self._sleep(wait)
        raise ServerUnavailable(
            f"no answer from {self.url}{path} after {self.retries + 1} tries ({last}){self.unreachable_hint}"
        )


def _retry_after(headers: Mapping[str, str]) -> float:
    try:
        return float(headers.get("retry-after", 0))
    except (TypeError, ValueError):
        return 0.0


def _json_or_none(body: bytes) -> Any:
    try:
        return json.loads(body)
    except ValueError:
        return None


def error_text(data: Any, body: bytes, reason: str) -> str:
    """The message of ``{"error": "..."}`` or ``{"error": {"message": "..."}}``, else the body."""
    if isinstance(data, dict) and "error" in data:
        e = data["error"]
        if isinstance(e, dict):
            return str(e.get("message") or e)
        return str(e)
    if isinstance(data, dict) and isinstance(data.get("message"), str):
        return data["message"]
    return body.decode("utf-8", "replace").strip()[:300] or reason


def normalise_rows(rows: Any) -> Any:
    """Rows as float32, each scaled to length 1 (a zero row stays zero)."""
    import numpy as np

    arr = np.asarray(rows, dtype=np.float32)
    if arr.size == 0:
        return arr.reshape(len(arr), 0)
    norms = np.linalg.norm(arr, axis=1, keepdims=True)
    return arr / np.where(norms == 0, 1, norms)
