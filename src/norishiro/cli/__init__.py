"""Command line: a thin layer over the library (parse flags, call, print).

One module per command; ``common`` holds the shared options and turns library errors
into flag advice. Exit codes for every command: 0 success; 1 some input could not be
processed (the rest was done and written); 2 usage error (nothing was done).
"""

from __future__ import annotations

import click

from .. import __version__
from .chunk import chunk_cmd
from .common import CONTEXT
from .deid import deid_cmd
from .embed import embed_cmd
from .evaluate import eval_cmd, tune_cmd
from .index import index_cmd, search_cmd
from .lint import lint_cmd
from .plan import plan_cmd
from .segment import segment_cmd
from .serve import serve_cmd
from .tokenizers import tokenizers_cmd


@click.group(context_settings=CONTEXT)
@click.version_option(__version__, prog_name="norishiro")
def main() -> None:
    """Chunk documents for RAG without cutting the facts inside them apart.

    \b
    Typical use:
      norishiro chunk docs/ --size 400 --overlap 60 -o chunks.jsonl
      norishiro chunk notes.md --tokenizer o200k_base --size 256
      norishiro segment --level sentence notes.md --format text
      norishiro plan --tokens 8000 --size 512 --overlap 64
      norishiro lint notes/ --size 200 --facts auto
      norishiro index notes/ --to lancedb:./idx && norishiro search "question" --in lancedb:./idx

    \b
    Exit codes: 0 done; 1 some input could not be processed (the rest was written);
    2 a flag or its value is wrong (nothing was done); 130 interrupted (Ctrl-C or SIGTERM:
    an output file is left as it was before the command).
    """
    _interrupt_on_sigterm()


def _interrupt_on_sigterm() -> None:
    """SIGTERM stops a command the way Ctrl-C does, so outputs are left whole."""
    import signal
    import threading

    def interrupt(_signum, _frame):
        raise KeyboardInterrupt

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, interrupt)


_COMMANDS = (
    chunk_cmd,
    segment_cmd,
    plan_cmd,
    lint_cmd,
    deid_cmd,
    embed_cmd,
    index_cmd,
    search_cmd,
    eval_cmd,
    tune_cmd,
    serve_cmd,
    tokenizers_cmd,
)
for _cmd in _COMMANDS:
    main.add_command(_cmd)

__all__ = ["main"]
