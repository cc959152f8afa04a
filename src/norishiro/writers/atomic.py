"""Outputs that appear whole or not at all.

A file is written under a temporary name in its own folder and renamed over the target
only when everything was written; an interruption or an error leaves the previous file as
it was. A folder output (Parquet) is written into a temporary folder beside it, and its
files replace the old ones only at the end.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

__all__ = ["atomic_text_file", "atomic_folder", "OutputError"]


class OutputError(OSError):
    """The output cannot be written where asked (missing or read-only folder ...)."""


def _check_folder(folder: Path, target: Path) -> None:
    if not folder.is_dir():
        raise OutputError(f"{target}: the folder {folder} does not exist; create it first or choose another path")
    if not os.access(folder, os.W_OK):
        raise OutputError(f"{target}: the folder {folder} is not writable; choose another path")


@contextmanager
def atomic_text_file(path: str | os.PathLike, encoding: str = "utf-8") -> Iterator[TextIO]:
    """A text stream whose content replaces ``path`` only if the block ends normally."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    _check_folder(folder, target)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".partial", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding=encoding, newline="") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@contextmanager
def atomic_folder(path: str | os.PathLike, pattern: str = "*.parquet") -> Iterator[Path]:
    """A temporary folder to write into; at the end its files replace the ``pattern`` files
    of ``path`` (created if missing). On an error the old files stay."""
    target = Path(path)
    if target.exists() and not target.is_dir():
        raise OutputError(f"{target}: is a file; a folder output needs a folder name")
    parent = target.parent if str(target.parent) else Path(".")
    _check_folder(parent, target)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".partial", dir=parent))
    try:
        yield tmp
        target.mkdir(exist_ok=True)
        for old in target.glob(pattern):
            old.unlink()
        for new in sorted(tmp.iterdir()):
            os.replace(new, target / new.name)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
