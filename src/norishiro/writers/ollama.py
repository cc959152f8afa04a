"""What the chunks become on the way out: Ollama ``/api/embed`` request bodies and curl lines.

The JSON is laid out one input per line so that a person can
read and edit it; it parses to ``{"model", "input": [...], "truncate"}``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from ..config import DEFAULT_MODEL, DEFAULT_OLLAMA_URL

__all__ = ["ollama_body", "ollama_body_json", "curl_command", "shell_quote"]


def ollama_body(inputs: Sequence[str], model: str = DEFAULT_MODEL, truncate: bool = False) -> dict:
    """The ``/api/embed`` request. ``truncate=False`` makes Ollama fail on an over-long input
    instead of silently cutting it (Ollama's own default is to truncate)."""
    return {"model": model, "input": list(inputs), "truncate": bool(truncate)}


def ollama_body_json(inputs: Sequence[str], model: str = DEFAULT_MODEL, truncate: bool = False) -> str:
    """The body with keys and inputs one per line, UTF-8 kept readable."""
    dump = lambda v: json.dumps(v, ensure_ascii=False)  # noqa: E731
    lines = ["{", f'"model": {dump(model)},', '"input": [']
    lines += [dump(s) + ("," if i < len(inputs) - 1 else "") for i, s in enumerate(inputs)]
    lines += ["],", f'"truncate": {dump(bool(truncate))}', "}"]
    return "\n".join(lines)


def shell_quote(s: str) -> str:
    """POSIX single-quoting: every ``'`` becomes ``'\\''``."""
    return "'" + s.replace("'", "'\\''") + "'"


def curl_command(
    inputs: Sequence[str], model: str = DEFAULT_MODEL, truncate: bool = False, url: str = DEFAULT_OLLAMA_URL
) -> str:
    """A ready ``curl URL/api/embed -d '...'`` line for a POSIX shell."""
    return f"curl {url.rstrip('/')}/api/embed -d {shell_quote(ollama_body_json(inputs, model, truncate))}"
