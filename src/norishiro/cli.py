"""Command line: a thin layer over the library (parse, call, print).

Exit codes: 0 success; 1 some input could not be processed (the rest was); 2 usage error.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Iterable, TextIO

import click

from . import __version__
from .api import ChunkOptionsError, iter_chunks, segment, validate_options
from .boundaries import LEVEL_NAMES
from .chunkers import STRATEGIES
from .document import BinaryFileError, Document, DocumentError, decode_bytes, iter_paths, load_document
from .sizing import get_sizer

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def _err(msg: str) -> None:
    click.echo(msg, err=True)


def _sizer_or_exit(unit: str, tokenizer: str | None):
    try:
        return get_sizer(unit, tokenizer)
    except (ValueError, OSError) as e:
        raise click.UsageError(str(e)) from None


def _load_inputs(paths: tuple[str, ...], encoding: str, problems: list[str]) -> Iterable[Document]:
    """Documents from files, directories (walked, sorted) and '-' (stdin), one at a time."""
    if not paths:
        paths = ("-",)
    for raw in paths:
        if raw == "-":
            data = sys.stdin.buffer.read()
            try:
                text = decode_bytes(data, "<stdin>", encoding)
                yield Document.from_text(text, id="stdin", source="<stdin>", front_matter=True)
            except DocumentError as e:
                problems.append(str(e))
                _err(f"error: {e}")
            continue
        if not Path(raw).exists():
            problems.append(f"{raw}: no such file or directory")
            _err(f"error: {raw}: no such file or directory")
            continue
        for path in iter_paths([raw]):
            try:
                yield load_document(path, encoding=encoding)
            except BinaryFileError as e:
                _err(f"warning: {e}")
            except DocumentError as e:
                problems.append(str(e))
                _err(f"error: {e}")


def _chunk_options(f):
    opts = [
        click.option("--size", "-s", type=int, default=512, show_default=True,
                     help="Largest chunk, in --unit (the header, when one is added, counts too)."),
        click.option("--overlap", type=int, default=0, show_default=True,
                     help="Units repeated from the end of one chunk at the start of the next "
                          "(whole sentences, clauses or words; never a partial unit)."),
        click.option("--strategy", type=click.Choice(sorted(STRATEGIES)), default="recursive",
                     show_default=True,
                     help="recursive: cut at the largest boundary that fits; fixed: windows "
                          "advancing by size - overlap."),
        click.option("--unit", type=click.Choice(["chars", "tokens"]), default="chars", show_default=True,
                     help="What --size and --overlap count."),
        click.option("--tokenizer", default=None, metavar="NAME|PATH",
                     help="o200k_base (default for tokens), cl100k_base, or a tokenizer.json path. "
                          "Implies --unit tokens. Nothing is downloaded."),
        click.option("--encoding", default="utf-8", show_default=True,
                     help="Text encoding of the input files (e.g. cp932 for Shift_JIS)."),
    ]
    for o in reversed(opts):
        f = o(f)
    return f


@click.group(context_settings=CONTEXT)
@click.version_option(__version__, prog_name="norishiro")
def main() -> None:
    """Chunk documents for RAG without cutting the facts inside them apart.

    \b
    Typical use:
      norishiro chunk docs/ --size 400 --overlap 60 -o chunks.jsonl
      norishiro chunk notes.md --unit tokens --tokenizer o200k_base --size 256
      norishiro segment --level sentence notes.md --format text
      norishiro plan --tokens 8000 --size 512 --overlap 64
    """


@main.command("chunk", context_settings=CONTEXT)
@click.argument("paths", nargs=-1, type=str)
@_chunk_options
@click.option("--format", "fmt", type=click.Choice(["jsonl", "json", "text"]), default="jsonl",
              show_default=True, help="jsonl: one object per chunk; json: one array; text: for reading.")
@click.option("--output", "-o", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write here instead of standard output.")
@click.option("--quiet", "-q", is_flag=True, help="No summary on standard error.")
def chunk_cmd(paths, size, overlap, strategy, unit, tokenizer, encoding, fmt, output, quiet):
    """Split PATHS (files, directories, or - for standard input) into chunks.

    Each JSONL line holds doc_id, id, index, start, end, size and text; start and end are
    exact offsets into the document body (front matter removed). A summary (documents,
    chunks, longest, mean fill) goes to standard error. A file that cannot be decoded is
    reported with its byte offset and skipped; the others are still written, and the exit
    code is 1.
    """
    try:
        validate_options(size, overlap, strategy)
    except ChunkOptionsError as e:
        raise click.UsageError(str(e)) from None
    if tokenizer:
        unit = "tokens"
    sizer = _sizer_or_exit(unit, tokenizer)
    problems: list[str] = []
    out: TextIO = open(output, "w", encoding="utf-8") if output else sys.stdout
    stats = _Stats(size)
    try:
        if fmt == "json":
            out.write("[")
        first = True
        for doc in _load_inputs(paths, encoding, problems):
            stats.docs += 1
            for c in iter_chunks(doc, size=size, overlap=overlap, strategy=strategy, tokenizer=sizer):
                stats.add(c)
                if fmt == "jsonl":
                    out.write(json.dumps(c.to_dict(), ensure_ascii=False) + "\n")
                elif fmt == "json":
                    out.write(("\n" if first else ",\n") + json.dumps(c.to_dict(), ensure_ascii=False))
                else:
                    out.write(f"--- {c.doc_id} #{c.index} [{c.start}:{c.end}] {c.size} {sizer.unit}\n{c.text}\n")
                first = False
        if fmt == "json":
            out.write("\n]\n")
    finally:
        if output:
            out.close()
    if not quiet:
        stats.report(sizer.unit, output)
    if stats.over:
        _err(f"warning: {stats.over} chunk(s) exceed the budget: each is a single grapheme larger "
             f"than {size} {sizer.unit}; raise --size")
    if problems:
        _err(f"{len(problems)} input(s) failed; the rest was written. Fix them and run again.")
        sys.exit(1)


class _Stats:
    def __init__(self, size: int):
        self.size = size
        self.docs = 0
        self.chunks = 0
        self.longest = 0
        self.total = 0
        self.over = 0

    def add(self, c) -> None:
        self.chunks += 1
        self.total += c.size
        self.longest = max(self.longest, c.size)
        if c.size > self.size:
            self.over += 1

    def report(self, unit: str, output: str | None) -> None:
        from rich.console import Console
        from rich.table import Table

        t = Table(title="norishiro chunk", show_header=True)
        for col in ("documents", "chunks", f"longest ({unit})", f"mean size ({unit})", "mean fill"):
            t.add_column(col, justify="right")
        mean = self.total / self.chunks if self.chunks else 0.0
        t.add_row(str(self.docs), str(self.chunks), str(self.longest), f"{mean:.1f}",
                  f"{mean / self.size:.0%}" if self.chunks else "-")
        console = Console(stderr=True)
        console.print(t)
        if output:
            console.print(f"wrote {self.chunks} chunks to {output}")


@main.command("segment", context_settings=CONTEXT)
@click.argument("paths", nargs=-1, type=str)
@click.option("--level", type=click.Choice(LEVEL_NAMES[:-1]), default="sentence", show_default=True,
              help="Which units to print.")
@click.option("--format", "fmt", type=click.Choice(["jsonl", "text"]), default="jsonl", show_default=True)
@click.option("--encoding", default="utf-8", show_default=True)
def segment_cmd(paths, level, fmt, encoding):
    """Print the units (paragraphs, lines, sentences, clauses or words) of PATHS.

    Shows where boundaries fall: each unit's start, end and text, separators included, so
    that the units concatenate back to the document.
    """
    problems: list[str] = []
    for doc in _load_inputs(paths, encoding, problems):
        for i, u in enumerate(segment(doc, level)):
            if fmt == "jsonl":
                click.echo(json.dumps({"doc_id": doc.id, "index": i, **u}, ensure_ascii=False))
            else:
                click.echo(f"{doc.id}\t{u['start']}\t{u['end']}\t{u['text']!r}")
    if problems:
        sys.exit(1)


if __name__ == "__main__":  # pragma: no cover
    main()
