"""``norishiro segment``: the units at one boundary level, to see where cuts can fall."""

from __future__ import annotations

import json
import sys

import click

from ..api import segment
from ..core.levels import LEVEL_NAMES
from .common import CONTEXT, Problems
from .reading import input_options, load_inputs


@click.command("segment", context_settings=CONTEXT)
@click.argument("paths", nargs=-1, type=str)
@click.option(
    "--level", type=click.Choice(LEVEL_NAMES[:-1]), default="sentence", show_default=True, help="Which units to print."
)
@click.option("--format", "fmt", type=click.Choice(["jsonl", "text"]), default="jsonl", show_default=True)
@input_options
def segment_cmd(paths, level, fmt, reading):
    """Print the units (paragraphs, lines, sentences, clauses or words) of PATHS.

    Shows where boundaries fall: each unit's start, end and text, separators included, so
    that the units concatenate back to the document.
    """
    problems = Problems()
    for doc in load_inputs(paths, reading, problems):
        for i, u in enumerate(segment(doc, level)):
            if fmt == "jsonl":
                click.echo(json.dumps({"doc_id": doc.id, "index": i, **u}, ensure_ascii=False))
            else:
                click.echo(f"{doc.id}\t{u['start']}\t{u['end']}\t{u['text']!r}")
    if problems:
        sys.exit(1)
