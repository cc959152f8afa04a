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
@click.option(
    "--index",
    "target",
    default=None,
    metavar="STORE",
    help="Add a search box over this index (lancedb:FOLDER or postgresql://...), filled by norishiro index.",
)
@click.option("--table", default="chunks", show_default=True, help="The index's table inside the store.")
def serve_cmd(host, port, target, table):
    """A local web page to chunk, inspect, plan and export (needs norishiro[serve]).

    Paste or open a text, choose size, overlap, unit, strategy and header keys, and see
    every chunk with its size and offset, the document with boundaries, overlaps and lint
    findings marked, the Ollama JSON body and curl line to copy, and the chunk planner.
    With --index, a search box asks that index (with the embedder that filled it).
    The page loads nothing from the internet and its text never leaves this machine.
    """
    try:
        from ..web.app import serve
    except ImportError:
        raise click.UsageError("the web page needs FastAPI and uvicorn: pip install 'norishiro[serve]'") from None
    index = None
    if target:
        from ..web.search import IndexSearch
        from .index import open_target

        open_target(target, table).close()  # a wrong target is a usage error before the server starts
        index = IndexSearch(target, table)
    if host not in ("127.0.0.1", "localhost", "::1"):
        err(f"warning: binding to {host}: other machines on the network can open the page")
    err(f"norishiro: http://{'localhost' if host in ('127.0.0.1', '::1') else host}:{port}/  (Ctrl-C to stop)")
    serve(host, port, index)
