"""``norishiro serve``: the local web page."""

from __future__ import annotations

import click

from .common import CONTEXT, err


@click.command("serve", context_settings=CONTEXT)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Interface to bind. The default keeps the page on this machine only.",
)
@click.option("--port", default=8765, show_default=True, type=click.IntRange(1, 65535))
def serve_cmd(host, port):
    """A local web page to chunk, inspect, plan and export (needs norishiro[serve]).

    Paste or open a text, choose size, overlap, unit, strategy and header keys, and see
    every chunk with its size and offset, the document with boundaries, overlaps and lint
    findings marked, the Ollama JSON body and curl line to copy, and the chunk planner.
    The page loads nothing from the internet and its text never leaves this machine.
    """
    try:
        from ..web.app import serve
    except ImportError:
        raise click.UsageError("the web page needs FastAPI and uvicorn: pip install 'norishiro[serve]'") from None
    if host not in ("127.0.0.1", "localhost", "::1"):
        err(f"warning: binding to {host}: other machines on the network can open the page")
    err(f"norishiro: http://{'localhost' if host in ('127.0.0.1', '::1') else host}:{port}/  (Ctrl-C to stop)")
    serve(host, port)
