"""Files to documents: one loader per format, chosen from the file's first bytes.

A format is sniffed from content (``%PDF-``, a Word zip, an HTML tag), then from the
name's ending; :class:`LoadOptions` ``format`` overrides both. A new loader is one module
with a ``load(path, encoding, doc_id, metadata, options) -> Document`` function plus one
line in ``FORMATS`` (and its endings in ``SUFFIXES``). :func:`iter_documents` walks paths,
folders and standard input and reports what it could not read through a callback, so
that one bad file never stops the others.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import IO, Any

from ..document import BinaryFileError, Document, DocumentError
from ..errors import OptionError
from .options import LoadOptions
from .text import TEXT_SUFFIXES, decode_bytes

__all__ = [
    "FORMATS",
    "SUFFIXES",
    "LoadOptions",
    "sniff_format",
    "load_document",
    "iter_paths",
    "iter_documents",
    "Problem",
    "decode_bytes",
]

Loader = Callable[..., Document]
# format name -> module (in this package) whose ``load`` reads it; imported on first use,
# so that a missing optional library only matters for its own format
FORMATS: dict[str, str] = {"text": "text", "pdf": "pdf", "html": "html", "docx": "docx"}
SUFFIXES: dict[str, str] = {
    **{suffix: "text" for suffix in TEXT_SUFFIXES},
    ".pdf": "pdf",
    ".html": "html",
    ".htm": "html",
    ".xhtml": "html",
    ".docx": "docx",
}


def sniff_format(path: str | os.PathLike, head: bytes | None = None) -> str:
    """The format of a file from its first bytes, else from its name's ending, else text."""
    if head is None:
        try:
            with open(path, "rb") as f:
                head = f.read(2048)
        except OSError:
            head = b""
    if b"%PDF-" in head[:1024]:
        return "pdf"
    if head.startswith(b"PK\x03\x04") and _is_word(path):
        return "docx"
    start = head.lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if start.startswith((b"<!doctype html", b"<html")) or (
        start.startswith(b"<") and any(tag in start for tag in (b"<html", b"<body", b"<head"))
    ):
        return "html"
    return SUFFIXES.get(Path(path).suffix.lower(), "text")


def _is_word(path: str | os.PathLike) -> bool:
    """A zip file holding a Word document body."""
    import zipfile

    try:
        with zipfile.ZipFile(path) as z:
            return "word/document.xml" in z.namelist()
    except (OSError, zipfile.BadZipFile, ValueError):
        return Path(path).suffix.lower() == ".docx"  # a damaged one: its loader says what is wrong


def _loader(fmt: str) -> Loader:
    if fmt not in FORMATS:
        raise OptionError("format", fmt, " or ".join(FORMATS))
    return import_module(f".{FORMATS[fmt]}", __name__).load


def load_document(
    path: str | os.PathLike,
    encoding: str = "utf-8",
    doc_id: str | None = None,
    metadata: dict[str, Any] | None = None,
    options: LoadOptions | None = None,
) -> Document:
    """Load one file with the loader for its format (sniffed unless ``options.format``)."""
    options = options or LoadOptions()
    fmt = options.format or sniff_format(path)
    return _loader(fmt)(path, encoding=encoding, doc_id=doc_id, metadata=metadata, options=options)


@dataclass
class Problem:
    """An input that was not read: ``error`` False for a skipped file (binary), True for one
    that should have been read and was not; ``partial`` for a file read except for a part
    (a PDF page with no text layer)."""

    where: str
    message: str
    error: bool = True
    partial: bool = False

    @property
    def skipped(self) -> bool:
        """The whole file was passed over (not an error, not a part)."""
        return not self.error and not self.partial


def iter_paths(
    paths: Iterable[str | os.PathLike],
    exclude: Collection[Path] = (),
    on_problem: Callable[[Problem], None] | None = None,
) -> Iterator[Path]:
    """Files named, and readable files under directories named, in a stable (sorted) order;
    hidden files and folders are passed over, and so are the paths in ``exclude`` (resolved:
    an output file inside an input folder is never read back). A folder that cannot be
    listed is reported to ``on_problem``."""
    skip = {Path(x).resolve() for x in exclude}
    for raw in paths:
        p = Path(raw)
        if not p.is_dir():
            if p.resolve() not in skip:
                yield p
            continue
        found = []

        def unreadable(e: OSError) -> None:
            if on_problem is not None:
                on_problem(Problem(str(e.filename), f"{e.filename}: cannot list the folder ({e.strerror}); skipped"))

        for top, dirs, files in os.walk(p, onerror=unreadable):
            dirs[:] = [d for d in dirs if not d.startswith(".")]
            for f in files:
                sub = Path(top) / f
                if not f.startswith(".") and sub.suffix.lower() in SUFFIXES and sub.resolve() not in skip:
                    found.append(sub)
        yield from sorted(found)


def iter_documents(
    paths: Iterable[str],
    encoding: str = "utf-8",
    metadata: dict[str, Any] | None = None,
    stdin: IO[bytes] | None = None,
    on_problem: Callable[[Problem], None] = lambda p: None,
    exclude: Collection[Path] = (),
    options: LoadOptions | None = None,
) -> Iterator[Document]:
    """Documents from files, folders (walked, sorted) and ``-`` (``stdin``), one at a time;
    paths in ``exclude`` are never read."""
    for raw in paths:
        if raw == "-":
            data = stdin.read() if stdin is not None else b""
            try:
                text = decode_bytes(data, "<stdin>", encoding)
                yield Document.from_text(text, id="stdin", source="<stdin>", front_matter=True, metadata=metadata)
            except DocumentError as e:
                on_problem(Problem("<stdin>", str(e)))
            continue
        if not Path(raw).exists():
            on_problem(Problem(raw, f"{raw}: no such file or directory"))
            continue
        for path in iter_paths([raw], exclude, on_problem):
            try:
                doc = load_document(path, encoding=encoding, metadata=metadata, options=options)
            except BinaryFileError as e:
                on_problem(Problem(str(path), str(e), error=False))
                continue
            except DocumentError as e:
                on_problem(Problem(str(path), str(e)))
                continue
            for warning in doc.warnings:
                on_problem(Problem(str(path), warning, error=False, partial=True))
            yield doc
