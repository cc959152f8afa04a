"""Documents: text plus id, metadata and source (files are read by ``norishiro.loaders``).

Offsets everywhere are Python ``str`` indices into ``Document.text``: the body as loaded,
with a UTF-8 BOM and YAML front matter removed and nothing else changed (no newline or
Unicode normalisation, which would move offsets).
"""

from __future__ import annotations

import datetime as _dt
import hashlib
from bisect import bisect_right
from typing import Any

from .errors import NorishiroError

__all__ = ["Document", "DocumentError", "BinaryFileError", "split_front_matter", "jsonable"]


class DocumentError(NorishiroError, ValueError):
    """A document that cannot be read; the message says where and how to fix it."""

    def __init__(self, message: str, path: str | None = None):
        super().__init__(message)
        self.path = path


class BinaryFileError(DocumentError):
    pass


class Document:
    """A text with an id, metadata and where it came from.

    ``pages`` is set by loaders of paged formats (PDF): the offset in ``text`` where each
    page begins, so that a chunk can cite its pages. ``outline`` is set by loaders that write
    the headings themselves (PDF, HTML, Word): the offsets of the ``#`` heading lines they
    wrote, so that a ``# comment`` line of the body is not taken for a heading. ``warnings``
    are what a loader could not read (a page with no text layer) without failing the file.
    """

    __slots__ = ("text", "_id", "metadata", "source", "pages", "outline", "warnings")

    def __init__(
        self,
        text: str,
        id: str = "",
        metadata: dict[str, Any] | None = None,
        source: str | None = None,
        pages: list[int] | None = None,
        warnings: list[str] | None = None,
        outline: list[int] | None = None,
    ):
        self.text = text
        self._id = id
        self.metadata = metadata if metadata is not None else {}
        self.source = source
        if pages is not None and (
            not pages or pages[0] != 0 or pages[-1] > len(text) or any(b < a for a, b in zip(pages, pages[1:]))
        ):
            raise ValueError("pages must be ascending offsets into the text, starting at 0 (one per page)")
        self.pages = pages
        self.outline = outline
        self.warnings = warnings if warnings is not None else []

    def page_span(self, start: int, end: int) -> tuple[int, int] | None:
        """The 1-based first and last page of ``text[start:end]``, or None for a text
        without pages. A span that ends where a page begins belongs to the page before."""
        if not self.pages:
            return None
        first = bisect_right(self.pages, start)
        return first, max(first, bisect_right(self.pages, max(start, end - 1)))

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
    def from_text(
        cls,
        text: str,
        id: str = "",
        metadata: dict | None = None,
        source: str | None = None,
        front_matter: bool = False,
    ) -> Document:
        meta: dict[str, Any] = {}
        if front_matter:
            fm, text = split_front_matter(text, source or id or "<string>")
            meta.update(fm)
        meta.update(metadata or {})
        return cls(text=text, id=id, metadata=meta, source=source)


def jsonable(value: Any) -> Any:
    if isinstance(value, (_dt.date, _dt.datetime, _dt.time)):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
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
            raw = text[first_nl + 1 : pos]
            body = text[line_end + 1 :] if nl >= 0 else ""
            import yaml

            try:
                data = yaml.safe_load(raw) if raw.strip() else {}
            except yaml.YAMLError as e:
                mark = getattr(e, "problem_mark", None)
                line_no = (mark.line + 2) if mark is not None else "?"
                raise DocumentError(
                    f"{where}: line {line_no}: front matter is not valid YAML ({getattr(e, 'problem', e)}); "
                    "fix the YAML between the '---' lines or remove the block",
                    where,
                ) from None
            if data is None:
                data = {}
            if not isinstance(data, dict):
                raise DocumentError(
                    f"{where}: front matter must be a YAML mapping (key: value lines), got {type(data).__name__}", where
                )
            return jsonable(data), body
        if nl < 0:
            break
        pos = nl + 1
    return {}, text  # an opening '---' never closed: treat as ordinary text
