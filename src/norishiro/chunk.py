"""The one output type of every chunker."""
from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, field
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
    id: str = ""
    headings: list[str] = field(default_factory=list)
    section: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    embed_text: str | None = None

    def __post_init__(self) -> None:
        if not self.id:
            self.id = chunk_id(self.doc_id, self.start, self.end, self.text)
        if self.embed_text is None:
            self.embed_text = self.text

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        return {
            "doc_id": d["doc_id"],
            "id": d["id"],
            "index": d["index"],
            "start": d["start"],
            "end": d["end"],
            "size": d["size"],
            "text": d["text"],
            "headings": d["headings"],
            "section": d["section"],
            "metadata": d["metadata"],
            "embed_text": d["embed_text"],
        }
