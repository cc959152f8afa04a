"""How the commands read their inputs: ``--encoding`` and the loaders' options, given to
each command as one ``reading`` value, and the documents they name."""

from __future__ import annotations

import functools
import sys
from collections.abc import Iterator
from dataclasses import dataclass

import click

from ..document import Document
from ..errors import NorishiroError
from ..loaders import FORMATS, LoadOptions, iter_documents
from ..loaders.options import PDF_ENGINES
from .common import Problems, usage_error

__all__ = ["Reading", "input_options", "load_inputs"]


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
