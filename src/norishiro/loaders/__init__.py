"""Files to documents: one loader per kind of file, chosen by its name's ending.

A new loader (PDF, HTML, Word ...) is one module with a ``load(path, encoding, doc_id,
metadata) -> Document`` function plus one line in ``LOADERS``. :func:`iter_documents`
walks paths, folders and standard input and reports what it could not read through a
callback, so that one bad file never stops the others.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from ..document import BinaryFileError, Document, DocumentError
from .text import TEXT_SUFFIXES, decode_bytes, load_text

__all__ = ["LOADERS", "load_document", "iter_paths", "iter_documents", "Problem", "decode_bytes"]

Loader = Callable[..., Document]
LOADERS: dict[str, Loader] = {suffix: load_text for suffix in TEXT_SUFFIXES}


def load_document(
    path: str | os.PathLike, encoding: str = "utf-8", doc_id: str | None = None, metadata: dict[str, Any] | None = None
) -> Document:
    """Load one file with the loader for its ending (plain text for unknown endings)."""
    loader = LOADERS.get(Path(path).suffix.lower(), load_text)
    return loader(path, encoding=encoding, doc_id=doc_id, metadata=metadata)


@dataclass
class Problem:
    """An input that was not read: ``error`` False for a skipped file (binary), True for one
    that should have been read and was not."""

    where: str
    message: str
    error: bool = True


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
                if not f.startswith(".") and sub.suffix.lower() in LOADERS and sub.resolve() not in skip:
                    found.append(sub)
        yield from sorted(found)


def iter_documents(
    paths: Iterable[str],
    encoding: str = "utf-8",
    metadata: dict[str, Any] | None = None,
    stdin: IO[bytes] | None = None,
    on_problem: Callable[[Problem], None] = lambda p: None,
    exclude: Collection[Path] = (),
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
                yield load_document(path, encoding=encoding, metadata=metadata)
            except BinaryFileError as e:
                on_problem(Problem(str(path), str(e), error=False))
            except DocumentError as e:
                on_problem(Problem(str(path), str(e)))
