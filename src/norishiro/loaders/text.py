"""Reading plain-text and Markdown files into documents, safely.

Offsets index the body as loaded: a UTF-8 BOM and YAML front matter are removed and
nothing else moves. Metadata sources, later ones winning: a sidecar ``NAME.meta.json``,
front matter, metadata given by the caller.
"""

from __future__ import annotations

import codecs
import json
import os
from pathlib import Path
from typing import Any

from ..document import BinaryFileError, Document, DocumentError, jsonable, split_front_matter

__all__ = ["load", "load_text", "decode_bytes", "sidecar_metadata", "read_file", "TEXT_SUFFIXES"]

TEXT_SUFFIXES = (".txt", ".md", ".markdown", ".text", ".rst")


def sidecar_metadata(path: Path) -> dict[str, Any]:
    side = path.with_name(path.stem + ".meta.json")
    if not os.path.lexists(side):
        return {}
    where = str(side)
    try:
        data = json.loads(side.read_bytes().decode("utf-8"))
    except json.JSONDecodeError as e:
        raise DocumentError(f"{where}: line {e.lineno} column {e.colno}: invalid JSON ({e.msg})", where) from None
    except UnicodeDecodeError as e:
        raise DocumentError(
            f"{where}: byte {e.start} is not valid UTF-8; save the metadata as UTF-8 JSON", where
        ) from None
    except OSError as e:
        raise DocumentError(
            f"{where}: cannot read the metadata file ({e.strerror}); it must be a JSON file", where
        ) from None
    if not isinstance(data, dict):
        raise DocumentError(f"{where}: must hold a JSON object of metadata", where)
    return jsonable(data)


# byte order marks, longest first (a UTF-32 LE mark begins like a UTF-16 LE one)
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


def _wide(encoding: str) -> bool:
    """UTF-16 and UTF-32 text is full of NUL bytes: no binary sniffing for them."""
    return codecs.lookup(encoding).name.startswith(("utf-16", "utf-32"))


def decode_bytes(data: bytes, where: str, encoding: str = "utf-8") -> str:
    """Decode file bytes. A byte order mark (UTF-8, UTF-16, UTF-32) decides the encoding and
    is dropped; otherwise ``encoding`` is used. A bad byte raises DocumentError naming its
    offset and line; a NUL byte in a file not declared UTF-16/32 marks it as binary."""
    try:
        wide = _wide(encoding)
    except LookupError:
        raise DocumentError(
            f"unknown encoding {encoding!r}; use a Python codec name such as utf-8, utf-16 or cp932", where
        ) from None
    skip = 0
    for bom, codec in _BOMS:
        if data.startswith(bom):
            encoding, data, wide, skip = codec, data[len(bom) :], True, len(bom)
            break
    else:
        if not wide and b"\x00" in data[:8192]:
            raise BinaryFileError(
                f"{where}: looks binary (NUL byte in the first 8 KiB); skipped (for UTF-16 text without a "
                "byte order mark pass --encoding utf-16-le or utf-16-be)",
                where,
            )
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as e:
        line = (
            data.count(b"\n", 0, e.start) + 1
            if not wide
            else data[: e.start].decode(encoding, "replace").count("\n") + 1
        )
        raise DocumentError(
            f"{where}: byte {skip + e.start} (line {line}) is not valid {encoding} "
            f"({data[e.start : e.start + 4]!r}); convert the file to UTF-8 or pass --encoding "
            "(for example --encoding cp932 for Shift_JIS files)",
            where,
        ) from None
    return text[1:] if text.startswith("\ufeff") else text


def load_text(
    path: str | os.PathLike,
    encoding: str = "utf-8",
    doc_id: str | None = None,
    metadata: dict[str, Any] | None = None,
    options: Any = None,
) -> Document:
    """Load a ``.txt``/``.md`` file: BOM dropped, front matter parsed into metadata.

    Metadata sources, later ones winning: sidecar ``NAME.meta.json``, front matter, ``metadata``.
    """
    p = Path(path)
    where = str(path)
    data = read_file(p)
    text = decode_bytes(data, where, encoding)
    meta = sidecar_metadata(p)
    fm, body = split_front_matter(text, where)
    meta.update(fm)
    meta.update(metadata or {})
    return Document(text=body, id=doc_id or p.as_posix(), metadata=meta, source=where)


load = load_text


def read_file(path: Path) -> bytes:
    """A file's bytes, or a DocumentError that names it and the reason."""
    try:
        return path.read_bytes()
    except OSError as e:
        raise DocumentError(f"{path}: cannot read ({e.strerror})", str(path)) from None
