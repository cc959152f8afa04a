"""The embedding-server flags shared by ``embed``, ``index`` and ``search``, and the one
place that turns them into an embedder."""

from __future__ import annotations

from typing import Any

import click

from ..config import DEFAULT_KEY_ENV
from ..errors import NorishiroError
from .common import usage_error

__all__ = ["server_options", "make_embedder", "server_url"]


def server_options(f):
    """--base-url, --api-key-env, --timeout and --retries."""
    opts = [
        click.option(
            "--base-url",
            default=None,
            metavar="URL",
            help="For --embedder openai:MODEL: the server's OpenAI-compatible base URL, e.g. "
            "http://localhost:8080/v1 (llama.cpp, vLLM, TEI, LM Studio).",
        ),
        click.option(
            "--api-key-env",
            default=DEFAULT_KEY_ENV,
            show_default=True,
            metavar="NAME",
            help="For openai:MODEL: the environment variable holding the API key (sent as a Bearer "
            "token, never printed). Unset: no key is sent.",
        ),
        click.option(
            "--retries",
            default=4,
            show_default=True,
            type=click.IntRange(min=0),
            help="Retries (with exponential back-off) on refused connections, time-outs, 429 and 5xx.",
        ),
        click.option(
            "--timeout",
            default=120.0,
            show_default=True,
            type=click.FloatRange(min=0, min_open=True),
            help="Seconds for each whole request (a server that answers slowly, byte by byte, is cut off too).",
        ),
    ]
    for o in reversed(opts):
        f = o(f)
    return f


def server_url(spec: str, ollama_url: str | None, base_url: str | None) -> str | None:
    """The URL an embedder spec talks to (None for the offline ones)."""
    if spec.startswith("ollama:"):
        return ollama_url
    if spec.startswith("openai:"):
        if not base_url:
            raise click.UsageError(
                f"--embedder {spec} needs --base-url, the server's OpenAI-compatible address "
                "(e.g. --base-url http://localhost:8080/v1)"
            )
        return base_url
    return None


def make_embedder(spec: str, url: str | None, opts: dict[str, Any]) -> Any:
    """The embedder for ``spec`` at ``url``, with the server flags in ``opts``; flag errors
    become usage errors."""
    from ..embed import get_embedder

    kw: dict[str, Any] = {}
    if spec.startswith(("ollama:", "openai:")):
        kw = {"timeout": opts["timeout"], "retries": opts["retries"]}
    if spec.startswith("openai:"):
        kw["api_key_env"] = opts["api_key_env"]
    try:
        return get_embedder(spec, url=url, **kw)
    except NorishiroError as e:
        raise usage_error(e) from None
    except ImportError as e:
        raise click.UsageError(str(e)) from None
