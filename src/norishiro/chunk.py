"""The one output type of every chunker."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any


def chunk_id(doc_id: str, start: int, end: int, text: str) -> str:
    """Deterministic id from the document, the position and the content."""
    h = hashlib.blake2b(digest_size=10)
    h.update(f"{doc_id}\x00{start}\x00{end}\x00".encode("utf-8", "surrogatepass"))
    h.update(text.encode("utf-8", "surrogatepass"))
    return h.hexdigest()


@dataclass(slots=True)
class Chunk:
    """A span of a document: ``document.text[start:end] == text``.

    ``size`` is the sizer's count of ``embed_text`` (the header, when one is injected, plus
    the text), which is what an embedding model receives.
    """

    text: str
    start: int
    end: int
    index: int
    size: int
    doc_id: str = ""
    _id: str = ""
    headings: list[str] = field(default_factory=list)
    section: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    embed_text: str | None = None

    def __post_init__(self) -> None:
        if self.embed_text is None:
            self.embed_text = self.text

    @property
    def id(self) -> str:
        """Deterministic id from doc id, offsets and text (computed on first use)."""
        if not self._id:
            self._id = chunk_id(self.doc_id, self.start, self.end, self.text)
        return self._id

    def to_dict(self) -> dict[str, Any]:
        return {
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
