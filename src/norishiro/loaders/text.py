"""Reading plain-text and Markdown files into documents, safely.

Offsets index the body as loaded: a UTF-8 BOM and YAML front matter are removed and
nothing else moves. Metadata sources, later ones winning: a sidecar ``NAME.meta.json``,
front matter, metadata given by the caller.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ..document import BinaryFileError, Document, DocumentError, jsonable, split_front_matter

__all__ = ["load_text", "decode_bytes", "TEXT_SUFFIXES"]

TEXT_SUFFIXES = (".txt", ".md", ".markdown", ".text", ".rst")


def _sidecar_metadata(path: Path) -> dict[str, Any]:
    side = path.with_name(path.stem + ".meta.json")
    if not side.exists():
        return {}
    try:
        data = json.loads(side.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise DocumentError(f"{side}: line {e.lineno} column {e.colno}: invalid JSON ({e.msg})", str(side)) from None
    if not isinstance(data, dict):
        raise DocumentError(f"{side}: must hold a JSON object of metadata", str(side))
    return jsonable(data)


def decode_bytes(data: bytes, where: str, encoding: str = "utf-8") -> str:
    """Decode file bytes; a bad byte raises DocumentError naming its offset and line."""
    if b"\x00" in data[:8192]:
        raise BinaryFileError(f"{where}: looks binary (NUL byte in the first 8 KiB); skipped", where)
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise DocumentError(
            f"{where}: byte {e.start} (line {line}) is not valid {encoding} "
            f"({data[e.start : e.start + 4]!r}); convert the file to UTF-8 or pass --encoding "
            "(for example --encoding cp932 for Shift_JIS files)",
            where,
        ) from None
    except LookupError:
        raise DocumentError(
            f"unknown encoding {encoding!r}; use a Python codec name such as utf-8 or cp932", where
        ) from None
    return text[1:] if text.startswith("\ufeff") else text


def load_text(
    path: str | os.PathLike, encoding: str = "utf-8", doc_id: str | None = None, metadata: dict[str, Any] | None = None
) -> Document:
    """Load a ``.txt``/``.md`` file: BOM dropped, front matter parsed into metadata.

    Metadata sources, later ones winning: sidecar ``NAME.meta.json``, front matter, ``metadata``.
    """
    p = Path(path)
    where = str(path)
    try:
        data = p.read_bytes()
    except OSError as e:
        raise DocumentError(f"{where}: cannot read ({e.strerror})", where) from None
    text = decode_bytes(data, where, encoding)
    meta = _sidecar_metadata(p)
    fm, body = split_front_matter(text, where)
    meta.update(fm)
    meta.update(metadata or {})
    return Document(text=body, id=doc_id or p.as_posix(), metadata=meta, source=where)
