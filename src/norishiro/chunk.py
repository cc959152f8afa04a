"""The one output type of every chunker."""

from __future__ import annotations

import hashlib
from bisect import bisect_right
from collections.abc import Callable, Mapping, Sequence
from typing import Any


def chunk_id(doc_id: str, start: int, end: int, text: str) -> str:
    """Deterministic id from the document, the position and the content."""
    h = hashlib.blake2b(digest_size=10)
    h.update(f"{doc_id}\x00{start}\x00{end}\x00".encode("utf-8", "surrogatepass"))
    h.update(text.encode("utf-8", "surrogatepass"))
    return h.hexdigest()


class Chunk:
    """A span of a document: ``document.text[start:end] == text``, on pages
    ``page_start``..``page_end`` (1-based) when the document has pages.

    ``size`` is the sizer's count of ``embed_text`` (the header, when one is injected, plus
    the text), which is what an embedding model receives. ``doc_id`` and ``id`` are
    computed on first use: hashing is a large share of chunking time when nobody reads them.
    """

    __slots__ = (
        "text",
        "start",
        "end",
        "index",
        "size",
        "_doc_id",
        "_doc",
        "_id",
        "headings",
        "section",
        "metadata",
        "embed_text",
        "page_start",
        "page_end",
        "section_canonical",
        "replaced",
    )

    def __init__(
        self,
        text: str,
        start: int,
        end: int,
        index: int,
        size: int,
        doc_id: str = "",
        *,
        id: str = "",
        headings: list[str] | None = None,
        section: str | None = None,
        metadata: dict[str, Any] | None = None,
        embed_text: str | None = None,
        doc: Any = None,
        page_start: int | None = None,
        page_end: int | None = None,
        section_canonical: str | None = None,
        replaced: list[dict[str, Any]] | None = None,
    ):
        self.text = text
        self.start = start
        self.end = end
        self.index = index
        self.size = size
        self._doc_id = doc_id
        self._doc = doc
        self._id = id
        self.headings = headings if headings is not None else []
        self.section = section
        self.metadata = metadata if metadata is not None else {}
        self.embed_text = text if embed_text is None else embed_text
        self.page_start = page_start
        self.page_end = page_end
        self.section_canonical = section_canonical
        self.replaced = replaced

    @property
    def doc_id(self) -> str:
        if not self._doc_id and self._doc is not None:
            self._doc_id = self._doc.id
        return self._doc_id

    @doc_id.setter
    def doc_id(self, value: str) -> None:
        self._doc_id = value
        self._id = ""

    @property
    def id(self) -> str:
        """Deterministic id from doc id, offsets and text."""
        if not self._id:
            self._id = chunk_id(self.doc_id, self.start, self.end, self.text)
        return self._id

    def to_dict(self) -> dict[str, Any]:
        """The JSONL row; ``page_start``/``page_end`` only for documents with pages, and
        ``section_canonical`` only when the section table knows the chunk's section."""
        row = {
            "doc_id": self.doc_id,
            "id": self.id,
            "index": self.index,
            "start": self.start,
            "end": self.end,
            "size": self.size,
            "text": self.text,
            "headings": list(self.headings),
            "section": self.section,
            "metadata": dict(self.metadata),
            "embed_text": self.embed_text,
        }
        if self.page_start is not None:
            row["page_start"], row["page_end"] = self.page_start, self.page_end
        if self.section_canonical is not None:
            row["section_canonical"] = self.section_canonical
        if self.replaced is not None:
            row["replaced"] = [dict(r) for r in self.replaced]
        return row

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Chunk) and self.to_dict() == other.to_dict()

    def __repr__(self) -> str:
        preview = self.text if len(self.text) <= 40 else self.text[:37] + "..."
        return f"Chunk(index={self.index}, start={self.start}, end={self.end}, size={self.size}, text={preview!r})"


_new = object.__new__


def new_chunk(
    text: str,
    start: int,
    end: int,
    index: int,
    size: int,
    doc: Any,
    metadata: dict[str, Any] | None,
    headings: list[str] | None = None,
    section: str | None = None,
    canonical: str | None = None,
    embed_text: str | None = None,
) -> Chunk:
    """``Chunk(text, start, end, index, size, doc=doc, metadata=metadata, headings=headings,
    section=section, section_canonical=canonical, embed_text=embed_text)``, for the
    library's own loop: calling a class with keywords builds an argument tuple and dict
    (Python 3.11), which costs about as much as setting the chunk's fields, once per chunk."""
    c = _new(Chunk)
    c.text, c.start, c.end, c.index, c.size = text, start, end, index, size
    c._doc_id, c._doc, c._id = "", doc, ""
    c.headings = headings if headings is not None else []
    c.section = section
    c.metadata = metadata if metadata is not None else {}
    c.embed_text = text if embed_text is None else embed_text
    c.page_start = c.page_end = None
    c.section_canonical = canonical
    c.replaced = None
    return c


def section_chunks(
    text: str,
    sections: list[Any],
    start: int,
    stop: int,
    index: int,
    doc: Any,
    metadata: Mapping[str, Any] | None,
    canonical: Callable[[list[str]], str | None],
    memo: dict[tuple[str, ...], str | None] | None = None,
) -> list[Chunk]:
    """The chunks of ``sections[start:stop]``, each one chunk of its text alone (a section
    has ``start``, ``end`` and ``headings``), numbered from ``index``: a chunk's section is
    its innermost heading, ``canonical(headings)`` its canonical name, and it has a copy of
    ``metadata`` (when given) and of the headings. ``memo``: canonical's answers by the
    path as a tuple (``SectionNames.memo``), which the compiled maker reads before it calls
    ``canonical``. Compiled: ``_sentscan.section_chunks``."""
    out = []
    for sec in sections[start:stop]:
        a, b, heads = sec.start, sec.end, sec.headings
        piece = text[a:b]
        name = heads[-1] if heads else None
        out.append(
            new_chunk(
                piece,
                a,
                b,
                index,
                b - a,
                doc,
                dict(metadata) if metadata else None,
                list(heads),
                name,
                canonical(heads),
                piece,
            )
        )
        index += 1
    return out


def span_chunks(
    text: str,
    spans: list[tuple[int, int, int]],
    offset: int,
    index: int,
    doc: Any,
    metadata: Mapping[str, Any] | None,
    headings: list[str] | None,
    section: str | None,
    canonical: str | None,
    prefix: Callable[[int], str] | None = None,
    base: str | None = None,
    vary_starts: Sequence[int] = (),
    vary_ends: Sequence[int] = (),
) -> list[Chunk]:
    """The chunks of a region's ``spans`` (``(start, end, size)`` from ``offset`` in ``text``),
    numbered from ``index``, all of one section (``headings``, copied into each; ``section``,
    ``canonical``): a chunk's embed text is ``prefix(start) + text``, or, with ``base``,
    ``base + text`` but where it starts in one of the spans ``vary_starts[k]..vary_ends[k]``
    (a table's body, whose header rows go in front). Compiled: ``_sentscan.span_chunks``."""
    out = []
    for s, e, n in spans:
        piece = text[offset + s : offset + e]
        if prefix is None:
            embed = piece
        elif base is None:
            embed = prefix(s) + piece
        else:
            k = bisect_right(vary_ends, s)  # the first span that ends past s
            embed = (prefix(s) if k < len(vary_starts) and vary_starts[k] <= s else base) + piece
        meta = dict(metadata) if metadata else None
        heads = list(headings) if headings is not None else None
        out.append(new_chunk(piece, offset + s, offset + e, index, n, doc, meta, heads, section, canonical, embed))
        index += 1
    return out
