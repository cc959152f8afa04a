"""What the commands share: chunk options -> ChunkConfig, library errors -> flag advice,
input loading with reported problems, and the console.

Exit codes (every command): 0 success; 1 some input could not be processed (the rest was
done and written); 2 usage error (a flag or its value is wrong; nothing was done).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import click

from ..chunkers import chunker_names
from ..config import BREAKPOINT_METHODS, DEFAULT_OLLAMA_URL, ChunkConfig, SemanticConfig
from ..document import Document
from ..errors import ContextHeaderError, NorishiroError, OptionError
from ..loaders import FORMATS, LoadOptions, Problem, iter_documents
from ..loaders.options import PDF_ENGINES

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}

# library option names -> the flags that set them
FLAGS = {
    "size": "--size",
    "overlap": "--overlap",
    "strategy": "--strategy",
    "unit": "--unit",
    "tokenizer": "--tokenizer",
    "header_keys": "--header-keys",
    "header_template": "--header-template",
    "section_labels": "--section-labels",
    "structure": "--no-structure",
    "cross_sections": "--cross-sections",
    "embedder": "--embedder",
    "semantic.embedder": "--embedder",
    "semantic.method": "--breakpoint",
    "semantic.param": "--breakpoint-param",
    "semantic.window": "--window",
    "pdf_engine": "--pdf-engine",
    "page_furniture": "--keep-page-furniture",
    "cjk_spaces": "--cjk-spaces",
    "semantic.min_size": "--min-size",
    "semantic.ollama_url": "--ollama-url",
    "ollama_url": "--ollama-url",
    "timeout": "--timeout",
    "config": "--config",
}


def err(msg: str) -> None:
    click.echo(msg, err=True)


def usage_error(e: Exception) -> click.UsageError:
    """A library error in the words of the command line."""
    if isinstance(e, OptionError):
        return click.UsageError(e.describe(FLAGS.get(e.option, e.option)))
    if isinstance(e, ContextHeaderError):
        return click.UsageError(e.describe(FLAGS))
    return click.UsageError(str(e))


def describe(e: Exception) -> str:
    """The one-line message of a library error, with flags named."""
    return usage_error(e).message if isinstance(e, NorishiroError) else str(e)


def parse_meta(items: tuple[str, ...]) -> dict[str, str]:
    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise click.UsageError(f"--meta {item!r}: write KEY=VALUE, e.g. --meta patient_id=12345")
        out[key.strip()] = value.strip()
    return out


class Problems(list):
    """Inputs that were not processed: printed as they come, counted for the exit code.
    A skipped file (binary) and a file read in part (a PDF page with no text layer) are
    warnings on screen, but they still make the exit code 1."""

    def __init__(self):
        super().__init__()
        self.skips = 0
        self.partial = 0

    def __call__(self, p: Problem) -> None:
        if p.error:
            self.add(p.message)
        elif p.partial:
            self.partial += 1
            err(f"warning: {p.message}")
        else:
            self.skipped(p.message)

    def add(self, message: str) -> None:
        self.append(message)
        err(f"error: {message}")

    def skipped(self, message: str) -> None:
        self.skips += 1
        err(f"warning: {message}")

    def __bool__(self) -> bool:
        return len(self) > 0 or self.skips > 0 or self.partial > 0

    def summary(self) -> str:
        parts = [f"{len(self)} input(s) failed"] if len(self) else []
        parts += [f"{self.skips} skipped"] if self.skips else []
        parts += [f"{self.partial} part(s) of inputs not read"] if self.partial else []
        return ", ".join(parts)


@dataclass(frozen=True)
class Reading:
    """How the input files are read: the text encoding and the loaders' options."""

    encoding: str = "utf-8"
    options: LoadOptions = LoadOptions()


def input_options(f):
    """The options of reading files (every command that takes document PATHS); the command
    receives them as one ``reading`` argument."""

    @functools.wraps(f)
    def command(*args, **kw):
        try:
            options = LoadOptions(
                format=kw.pop("format_in"),
                password=kw.pop("password"),
                pdf_engine=kw.pop("pdf_engine"),
                page_furniture="keep" if kw.pop("keep_page_furniture") else "drop",
                cjk_spaces=kw.pop("cjk_spaces"),
                nfkc=kw.pop("nfkc"),
                html_main=kw.pop("html_main"),
            )
        except NorishiroError as e:
            raise usage_error(e) from None
        kw["reading"] = Reading(kw.pop("encoding"), options)
        return f(*args, **kw)

    opts = [
        click.option(
            "--encoding",
            default="utf-8",
            show_default=True,
            help="Text encoding of text files (e.g. cp932 for Shift_JIS); HTML declares its own.",
        ),
        click.option(
            "--format-in",
            type=click.Choice(list(FORMATS)),
            default=None,
            help="Read every input as this format (default: sniffed from the file's first bytes, then its ending).",
        ),
        click.option("--password", default=None, help="Password of encrypted PDF files."),
        click.option(
            "--pdf-engine",
            type=click.Choice(PDF_ENGINES),
            default="auto",
            show_default=True,
            help="pypdf; pdfium (pypdfium2: faster, keeps the spaces between words that pypdf loses "
            "on some files); auto: pypdf, or pdfium when pypdf runs the words together.",
        ),
        click.option(
            "--keep-page-furniture",
            is_flag=True,
            help="Keep the running headers, footers and page numbers of PDF pages (left out by default).",
        ),
        click.option(
            "--cjk-spaces",
            type=click.Choice(["auto", "on", "off"]),
            default="auto",
            show_default=True,
            help="Remove spaces a PDF put between CJK characters (本日 の 議事録): auto where they are "
            "frequent enough to be an artefact.",
        ),
        click.option("--nfkc", is_flag=True, help="Fold full-width ASCII and half-width kana (NFKC) in PDF text."),
        click.option(
            "--html-main",
            is_flag=True,
            help="Web pages: keep only the main content (trafilatura; norishiro[html-main]).",
        ),
    ]
    for o in reversed(opts):
        command = o(command)
    return command


def load_inputs(
    paths: tuple[str, ...], reading: Reading, problems: Problems, metadata: dict | None = None, exclude=()
) -> Iterator[Document]:
    """Documents from PATHS (files, folders, '-' for standard input; none means '-')."""
    return iter_documents(
        paths or ("-",),
        encoding=reading.encoding,
        metadata=metadata,
        stdin=sys.stdin.buffer,
        on_problem=problems,
        exclude=exclude,
        options=reading.options,
    )


def chunk_options(f):
    """The options that make a ChunkConfig (chunk, lint)."""
    opts = [
        click.option(
            "--size",
            "-s",
            type=int,
            default=512,
            show_default=True,
            help="Largest chunk, in --unit (the header, when one is added, counts too).",
        ),
        click.option(
            "--overlap",
            type=int,
            default=0,
            show_default=True,
            help="Units repeated from the end of one chunk at the start of the next "
            "(whole sentences, clauses or words; never a partial unit).",
        ),
        click.option(
            "--strategy",
            type=click.Choice(chunker_names()),
            default="recursive",
            show_default=True,
            help="recursive: cut at the largest boundary that fits; sentences: as many whole "
            "sentences as fit; fixed: windows advancing by size - overlap; semantic: cut "
            "where neighbouring sentences stop being similar.",
        ),
        click.option(
            "--unit",
            type=click.Choice(["chars", "tokens"]),
            default=None,
            help="What --size and --overlap count (default: chars, or tokens with --tokenizer).",
        ),
        click.option(
            "--tokenizer",
            default=None,
            metavar="NAME|PATH",
            help="o200k_base (default for tokens), cl100k_base, or a tokenizer.json path. "
            "Implies --unit tokens. Nothing is downloaded.",
        ),
        click.option(
            "--header-keys",
            default=None,
            metavar="KEYS",
            help="Put a context header in front of every chunk's embed_text, e.g. "
            "patient_id,date,section ('section' is the section path). The header "
            "counts against --size.",
        ),
        click.option(
            "--header-template",
            default=None,
            metavar="FMT",
            help="Header format instead of '(Metadata: Patient_ID=..., Date=...)', e.g. "
            "'[{patient_id} {date}] {section}'.",
        ),
        click.option(
            "--meta",
            "meta",
            multiple=True,
            metavar="KEY=VALUE",
            help="Metadata added to every document (repeatable); also read from YAML front matter and NAME.meta.json.",
        ),
        click.option(
            "--cross-sections",
            is_flag=True,
            help="Let chunks run across section boundaries (headings, 【labels】, S：...).",
        ),
        click.option(
            "--no-structure", is_flag=True, help="Treat files as plain text: no sections, code blocks or tables."
        ),
        click.option(
            "--section-labels",
            default=None,
            metavar="LABELS",
            help="More section names recognised before a colon, e.g. 申し送り,Impression.",
        ),
        click.option(
            "--embedder",
            "sem_embedder",
            default="local",
            show_default=True,
            help="For --strategy semantic: local (offline e5-small), hash (lexical, no model) or ollama:MODEL.",
        ),
        click.option(
            "--breakpoint",
            "sem_method",
            default="percentile",
            show_default=True,
            type=click.Choice(BREAKPOINT_METHODS),
            help="For semantic: how similarity dips become cuts.",
        ),
        click.option(
            "--breakpoint-param",
            "sem_param",
            type=float,
            default=None,
            help="Percentile (90), k for stdev/IQR (1.5), or the similarity threshold (0.6).",
        ),
        click.option(
            "--window",
            "sem_window",
            type=int,
            default=0,
            show_default=True,
            help="For semantic: neighbours on each side embedded with a sentence.",
        ),
        click.option(
            "--ollama-url",
            default=DEFAULT_OLLAMA_URL,
            show_default=True,
            help="Ollama server (for --embedder ollama:MODEL, and the curl line).",
        ),
    ]
    for o in reversed(opts):
        f = o(f)
    return f


CHUNK_OPTION_NAMES = (
    "size",
    "overlap",
    "strategy",
    "unit",
    "tokenizer",
    "header_keys",
    "header_template",
    "meta",
    "cross_sections",
    "no_structure",
    "section_labels",
    "sem_embedder",
    "sem_method",
    "sem_param",
    "sem_window",
    "ollama_url",
)


def config_from_options(opts: dict[str, Any]) -> ChunkConfig:
    """The ChunkConfig the chunk options describe (usage error when they cannot work)."""
    try:
        config = ChunkConfig(
            size=opts["size"],
            overlap=opts["overlap"],
            strategy=opts["strategy"],
            unit=opts["unit"],
            tokenizer=opts["tokenizer"],
            header_keys=opts["header_keys"] or (),
            header_template=opts["header_template"],
            structure=not opts["no_structure"],
            cross_sections=opts["cross_sections"],
            section_labels=opts["section_labels"] or (),
            semantic=SemanticConfig(
                embedder=opts["sem_embedder"],
                method=opts["sem_method"],
                param=opts["sem_param"],
                window=opts["sem_window"],
                ollama_url=opts["ollama_url"],
            ),
        )
    except NorishiroError as e:
        raise usage_error(e) from None
    check_header(config)
    return config


def check_header(config: ChunkConfig) -> None:
    """A header template that cannot be rendered is a usage error, found before any work."""
    from ..core.headers import HeaderRenderer

    try:
        HeaderRenderer(config.header_keys, config.header_template).render({}, [])
    except NorishiroError as e:
        raise usage_error(e) from None


def runtime_for(config: ChunkConfig) -> dict[str, Any]:
    """Objects made once per run: the sizer, and the embedder and cache a chunker needs."""
    from ..api import embedder_for, resolve
    from ..chunkers import chunker_class

    try:
        _, sizer, _ = resolve(config)
        runtime: dict[str, Any] = {"tokenizer": sizer}
        if chunker_class(config.strategy).needs_embedder:
            from ..embed.cache import EmbeddingCache

            runtime["embedder"] = embedder_for(config.semantic)
            runtime["cache"] = EmbeddingCache()
    except (NorishiroError, OSError) as e:
        raise usage_error(e) from None
    except ImportError as e:
        raise click.UsageError(str(e)) from None
    return runtime


def console():
    from rich.console import Console

    return Console(stderr=True)
