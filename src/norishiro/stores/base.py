"""The store interface: rows keyed by chunk id, replaced a document at a time, searched by
vector.

Every store keeps the same columns (:data:`ROW_FIELDS` plus the vector) and knows which
model made its vectors (:class:`IndexInfo`), so that vectors of two models never mix.
``digest`` covers everything a row holds but the vector; ``embed_hash`` covers what was
embedded. Together they let an indexer write nothing for an unchanged document and reuse
vectors of unchanged chunks of a changed one.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from ..errors import NorishiroError

__all__ = [
    "ROW_FIELDS",
    "StoreRow",
    "IndexInfo",
    "Hit",
    "Change",
    "Store",
    "StoreError",
    "ModelMismatch",
    "row_from_chunk",
]

ROW_FIELDS = (
    "id",
    "doc_id",
    "index",
    "start",
    "end",
    "size",
    "text",
    "embed_text",
    "section",
    "headings",
    "section_canonical",
    "page_start",
    "page_end",
    "metadata",
    "digest",
    "embed_hash",
)


class StoreError(NorishiroError, RuntimeError):
    """A store that cannot be opened, read or written; ``target`` says which."""

    stops_run = True

    def __init__(self, message: str, target: str = ""):
        super().__init__(message)
        self.target = target


class ModelMismatch(StoreError):
    """Vectors of another model or dimension than the store's."""

    def __init__(self, target: str, have: IndexInfo, got_model: str, got_dim: int | None):
        what = f"{got_model!r}" + (f" ({got_dim} dimensions)" if got_dim else "")
        super().__init__(
            f"{target} holds vectors of {have.model!r} ({have.dim} dimensions), not {what}: vectors of two models "
            f"must not mix; use --embedder {have.embedder} or another index",
            target,
        )
        self.have = have
        self.got_model = got_model
        self.got_dim = got_dim


@dataclass(frozen=True)
class IndexInfo:
    """Which embedder filled a store: ``model`` is the embedder's name, ``embedder`` the spec
    that makes it again (``local``, ``ollama:bge-m3``, ``openai:MODEL``), ``url`` its server."""

    model: str
    dim: int
    embedder: str = ""
    url: str | None = None

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls, raw: str | bytes) -> IndexInfo:
        d = json.loads(raw)
        return cls(str(d["model"]), int(d["dim"]), str(d.get("embedder") or ""), d.get("url"))


@dataclass
class StoreRow:
    id: str
    doc_id: str
    index: int
    start: int
    end: int
    size: int
    text: str
    embed_text: str
    section: str | None = None
    headings: list[str] = field(default_factory=list)
    section_canonical: str | None = None
    page_start: int | None = None
    page_end: int | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    digest: str = ""
    embed_hash: str = ""
    vector: list[float] | None = None

    def fields(self) -> dict[str, Any]:
        """The row as a chunk dict (what :func:`row_from_chunk` takes), without its vector."""
        return {k: getattr(self, k) for k in ROW_FIELDS if k not in ("digest", "embed_hash")}

    def columns(self) -> dict[str, Any]:
        """The row without its vector, with headings and metadata as JSON text."""
        d = {k: getattr(self, k) for k in ROW_FIELDS}
        d["headings"] = json.dumps(self.headings, ensure_ascii=False)
        d["metadata"] = json.dumps(self.metadata, ensure_ascii=False, sort_keys=True)
        return d


def _hash(*parts: str) -> str:
    h = hashlib.blake2b(digest_size=16)
    for p in parts:
        h.update(p.encode("utf-8", "surrogatepass"))
        h.update(b"\x00")
    return h.hexdigest()


def row_from_chunk(chunk: Mapping[str, Any]) -> StoreRow:
    """A store row from a chunk's dict (``Chunk.to_dict()`` or a chunks JSONL line)."""
    text = chunk["text"]
    embed_text = chunk.get("embed_text") or text
    row = StoreRow(
        id=str(chunk["id"]),
        doc_id=str(chunk.get("doc_id", "")),
        index=int(chunk.get("index", 0)),
        start=int(chunk["start"]),
        end=int(chunk["end"]),
        size=int(chunk.get("size", len(embed_text))),
        text=text,
        embed_text=embed_text,
        section=chunk.get("section"),
        headings=list(chunk.get("headings") or []),
        section_canonical=chunk.get("section_canonical"),
        page_start=chunk.get("page_start"),
        page_end=chunk.get("page_end"),
        metadata=dict(chunk.get("metadata") or {}),
    )
    row.embed_hash = _hash(embed_text)
    cols = row.columns()
    row.digest = _hash(*(str(cols[k]) for k in ROW_FIELDS if k not in ("digest", "embed_hash")))
    return row


@dataclass
class Change:
    """One document's new state: ``rows`` to write, ``keep`` the ids of stored rows that stay."""

    doc_id: str
    rows: list[StoreRow]
    keep: list[str]
    had_rows: bool = True  # False: the store holds nothing of this document yet


@dataclass
class Hit:
    """One search result: the row (without its vector) and its cosine similarity."""

    score: float
    row: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        d = {"score": round(self.score, 6)}
        d.update({k: v for k, v in self.row.items() if k not in ("digest", "embed_hash")})
        return d


def decode_row(d: Mapping[str, Any]) -> dict[str, Any]:
    """A stored row back to chunk-like values (headings and metadata parsed)."""
    out = {k: d.get(k) for k in ROW_FIELDS}
    for k, empty in (("headings", []), ("metadata", {})):
        v = out.get(k)
        out[k] = json.loads(v) if isinstance(v, str) and v else (v if v is not None else empty)
    return out


class Store(Protocol):
    """Rows keyed by chunk id; a document's rows are replaced together."""

    target: str

    def info(self) -> IndexInfo | None:
        """The model and dimension of the vectors held, or None for a new store."""
        ...

    def existing(self, doc_ids: Sequence[str]) -> dict[str, dict[str, tuple[str, str]]]:
        """``{doc id: {chunk id: (digest, embed_hash)}}`` of the rows stored for ``doc_ids``
        (documents with no rows are left out)."""
        ...

    def vectors(self, doc_id: str, embed_hashes: Sequence[str]) -> dict[str, list[float]]:
        """Stored vectors of ``doc_id`` by ``embed_hash`` (to reuse for unchanged text)."""
        ...

    def replace(self, info: IndexInfo, changes: Sequence[Change]) -> int:
        """For each change, make the document's rows ``keep`` + ``rows``, all in one step (a
        transaction where the store has them); creates the store on first use. Returns the
        rows deleted."""
        ...

    def build_vector_index(self) -> bool:
        """An approximate nearest-neighbour index for large stores; False when not built."""
        ...

    def finish(self) -> None:
        """Upkeep after a run that wrote or deleted rows (compaction, statistics)."""
        ...

    def delete_documents(self, doc_ids: Sequence[str]) -> int:
        """Remove every row of these documents; the number of rows removed."""
        ...

    def documents(self) -> list[str]:
        """The ids of the documents held."""
        ...

    def count(self) -> int: ...

    def search(self, vector: Sequence[float], k: int = 5, doc_ids: Sequence[str] | None = None) -> list[Hit]:
        """The ``k`` rows nearest to ``vector`` by cosine similarity, best first."""
        ...

    def close(self) -> None: ...
