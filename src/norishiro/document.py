"""Documents: text plus id, metadata and source; loading files safely.

Offsets everywhere are Python ``str`` indices into ``Document.text``: the body as loaded,
with a UTF-8 BOM and YAML front matter removed and nothing else changed (no newline or
Unicode normalisation, which would move offsets).
"""
from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
from pathlib import Path
from typing import Any, Iterable, Iterator

__all__ = [
    "Document",
    "DocumentError",
    "BinaryFileError",
    "load_document",
    "split_front_matter",
    "iter_paths",
    "TEXT_SUFFIXES",
]

TEXT_SUFFIXES = (".txt", ".md", ".markdown", ".text", ".rst")


class DocumentError(ValueError):
    """A document that cannot be read; the message says where and how to fix it."""

    def __init__(self, message: str, path: str | None = None):
        super().__init__(message)
        self.path = path


class BinaryFileError(DocumentError):
    pass


class Document:
    """A text with an id, metadata and where it came from."""

    __slots__ = ("text", "_id", "metadata", "source")

    def __init__(self, text: str, id: str = "", metadata: dict[str, Any] | None = None,
                 source: str | None = None):
        self.text = text
        self._id = id
        self.metadata = metadata if metadata is not None else {}
        self.source = source

    def __repr__(self) -> str:
        return f"Document(id={self.id!r}, {len(self.text)} characters, metadata={self.metadata!r})"

    @property
    def id(self) -> str:
        """The given id, or one derived from the content (computed on first use)."""
        if not self._id:
            digest = hashlib.blake2b(self.text.encode("utf-8", "surrogatepass"), digest_size=6)
            self._id = "doc-" + digest.hexdigest()
        return self._id

    @classmethod
    def from_text(cls, text: str, id: str = "", metadata: dict | None = None,
                  source: str | None = None, front_matter: bool = False) -> "Document":
        meta: dict[str, Any] = {}
        if front_matter:
            fm, text = split_front_matter(text, source or id or "<string>")
            meta.update(fm)
        meta.update(metadata or {})
        return cls(text=text, id=id, metadata=meta, source=source)


def _jsonable(value: Any) -> Any:
    if isinstance(value, (_dt.date, _dt.datetime, _dt.time)):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def split_front_matter(text: str, where: str = "<string>") -> tuple[dict[str, Any], str]:
    """Split YAML front matter (``---`` ... ``---``) off ``text``.

    The block must start on the first line; it ends at the next line that is exactly
    ``---`` (or ``...``). Later ``---`` lines (Markdown rules) are left alone.
    """
    first_nl = text.find("\n")
    if first_nl < 0 or text[:first_nl].rstrip("\r") != "---":
        return {}, text
    pos = first_nl + 1
    while pos <= len(text):
        nl = text.find("\n", pos)
        line_end = len(text) if nl < 0 else nl
        line = text[pos:line_end].rstrip("\r")
        if line in ("---", "..."):
            raw = text[first_nl + 1: pos]
            body = text[line_end + 1:] if nl >= 0 else ""
            import yaml

            try:
                data = yaml.safe_load(raw) if raw.strip() else {}
            except yaml.YAMLError as e:
                mark = getattr(e, "problem_mark", None)
                line_no = (mark.line + 2) if mark is not None else "?"
                raise DocumentError(
                    f"{where}: line {line_no}: front matter is not valid YAML ({getattr(e, 'problem', e)}); "
                    "fix the YAML between the '---' lines or remove the block", where) from None
            if data is None:
                data = {}
            if not isinstance(data, dict):
                raise DocumentError(
                    f"{where}: front matter must be a YAML mapping (key: value lines), got {type(data).__name__}",
                    where)
            return _jsonable(data), body
        if nl < 0:
            break
        pos = nl + 1
    return {}, text  # an opening '---' never closed: treat as ordinary text


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
    return _jsonable(data)


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
            f"({data[e.start:e.start + 4]!r}); convert the file to UTF-8 or pass --encoding "
            "(for example --encoding cp932 for Shift_JIS files)", where) from None
    except LookupError:
        raise DocumentError(f"unknown encoding {encoding!r}; use a Python codec name such as utf-8 or cp932", where) from None
    return text[1:] if text.startswith("\ufeff") else text


def load_document(path: str | os.PathLike, encoding: str = "utf-8", doc_id: str | None = None,
                  metadata: dict[str, Any] | None = None) -> Document:
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


def iter_paths(paths: Iterable[str | os.PathLike]) -> Iterator[Path]:
    """Files named, and text files under directories named, in a stable (sorted) order."""
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            for sub in sorted(p.rglob("*")):
                if sub.is_file() and sub.suffix.lower() in TEXT_SUFFIXES \
                        and not any(part.startswith(".") for part in sub.relative_to(p).parts):
                    yield sub
        else:
            yield p
