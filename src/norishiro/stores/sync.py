"""Writing documents into a store idempotently.

For each document the indexer compares the new rows with the stored ones: a row with the
same id and digest is kept as it is (not rewritten, not re-embedded); the others are
written and the document's stale rows removed, in one ``replace``. An unchanged document
costs one lookup and writes nothing. A changed row whose embedded text is already stored
for the document reuses that vector. Documents are written as soon as their vectors are
ready, so an interrupted run keeps every document it finished, and running it again does
only the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import NorishiroError
from .base import Change, IndexInfo, ModelMismatch, Store, StoreError, StoreRow

__all__ = ["IndexReport", "Indexer", "DocumentRepeated"]


class DocumentRepeated(StoreError):
    """The same document id twice in one run (its rows would replace each other)."""

    stops_run = False


@dataclass
class IndexReport:
    documents: int = 0
    unchanged: int = 0  # documents with nothing to write
    written: int = 0  # documents written (new or changed)
    rows_written: int = 0
    rows_kept: int = 0
    rows_deleted: int = 0
    embedded: int = 0
    reused: int = 0  # vectors taken from the store instead of embedding again
    failed: list[tuple[str, str]] = field(default_factory=list)  # (chunk id, why)
    pruned: list[str] = field(default_factory=list)
    stopped: str | None = None


class Indexer:
    """Documents' rows into ``store`` with ``embedder``; see the module docstring.

    Documents are looked up and written in groups (one store query for up to 256 documents
    or 2,048 rows, one write for the documents whose vectors are ready), each group in one
    step, so a document is never half written.
    """

    def __init__(
        self,
        store: Store,
        embedder: Any,
        *,
        embedder_spec: str = "",
        url: str | None = None,
        batch_size: int = 32,
        on_progress: Callable[[int], None] | None = None,
    ):
        self.store = store
        self.embedder = embedder
        self.model = str(embedder.name)
        self.spec = embedder_spec or self.model
        self.url = url
        self.batch_size = max(1, batch_size)
        self.on_progress = on_progress or (lambda n: None)
        self.info = store.info()
        if self.info is not None and self.info.model != self.model:
            raise ModelMismatch(store.target, self.info, self.model, None)
        self.report = IndexReport()
        self._incoming: list[tuple[str, Sequence[StoreRow]]] = []
        self._incoming_rows = 0
        self._queue: list[Change] = []
        self._waiting = 0
        self._seen: set[str] = set()
        self._failed: set[str] = set()

    def add(self, doc_id: str, rows: Sequence[StoreRow]) -> None:
        """Take one document's rows; look up, embed and write when a group is full."""
        if doc_id in self._seen:
            raise DocumentRepeated(
                f"document {doc_id!r} was given twice in one run (in a chunks file: its rows are not "
                "together); give each document one id, or keep its rows together",
                self.store.target,
            )
        self._seen.add(doc_id)
        self.report.documents += 1
        self._incoming.append((doc_id, rows))
        self._incoming_rows += len(rows)
        if self._incoming_rows >= max(self.batch_size, 2048) or len(self._incoming) >= 256:
            self._plan()
        if self._waiting >= self.batch_size:
            self.flush()

    def _plan(self) -> None:
        """Compare the incoming documents with what is stored, in one lookup."""
        incoming, self._incoming, self._incoming_rows = self._incoming, [], 0
        stored = self.store.existing([d for d, _ in incoming]) if self.info is not None else {}
        for doc_id, rows in incoming:
            have = stored.get(doc_id, {})
            keep = [r.id for r in rows if r.id in have and have[r.id][0] == r.digest]
            kept = set(keep)
            write = [r for r in rows if r.id not in kept]
            self.report.rows_kept += len(keep)
            if not write and len(have) == len(keep):
                self.report.unchanged += 1
                self.on_progress(len(rows))
                continue
            hashes = {h for _, h in have.values()}
            reusable = self.store.vectors(doc_id, [r.embed_hash for r in write if r.embed_hash in hashes])
            for r in write:
                if r.embed_hash in reusable:
                    r.vector = list(reusable[r.embed_hash])
                    self.report.reused += 1
            missing = sum(r.vector is None for r in write)
            self.on_progress(len(rows) - missing)
            self._queue.append(Change(doc_id, write, keep, bool(have)))
            self._waiting += missing

    def flush(self) -> None:
        """Embed what waits, writing documents as soon as their vectors are ready."""
        self._plan()
        todo = [r for c in self._queue for r in c.rows if r.vector is None and r.id not in self._failed]
        for i in range(0, len(todo), self.batch_size):
            self._embed(todo[i : i + self.batch_size])
            self._write_ready()
        self._write_ready()
        self._waiting = 0

    def _embed(self, batch: list[StoreRow]) -> None:
        from ..embed.http import InputTooLong
        from ..embed.runner import check_vectors

        try:
            vectors = self.embedder.embed_documents([r.embed_text for r in batch])
        except InputTooLong as e:  # find the one that does not fit; never truncate
            if len(batch) == 1:
                self.report.failed.append((batch[0].id, f"{e} (size {batch[0].size}, {len(batch[0].text)} characters)"))
                self._failed.add(batch[0].id)
                self.on_progress(1)
                return
            mid = len(batch) // 2
            self._embed(batch[:mid])
            self._embed(batch[mid:])
            return
        rows = check_vectors(vectors, len(batch), None)
        dim = len(rows[0]) if rows else 0
        if self.info is None:
            self._bind(dim)
        elif self.info.dim != dim:
            raise ModelMismatch(self.store.target, self.info, self.model, dim)
        for r, v in zip(batch, rows):
            r.vector = v
        self.report.embedded += len(batch)
        self.on_progress(len(batch))

    def _bind(self, dim: int) -> None:
        """A new store takes the model and dimension of its first vectors."""
        self.info = IndexInfo(self.model, dim, self.spec, self.url)

    def _write_ready(self) -> None:
        """Write, in one step, the queued documents whose every row has a vector (or failed)."""
        ready: list[Change] = []
        while self._queue and all(r.vector is not None or r.id in self._failed for r in self._queue[0].rows):
            c = self._queue.pop(0)
            c.rows = [r for r in c.rows if r.vector is not None]
            ready.append(c)
        if not ready:
            return
        first = next((r for c in ready for r in c.rows), None)
        if self.info is None and first is not None:  # rows that came with their vectors
            self._bind(len(first.vector or []))
        if self.info is None:  # every row failed and the store is new: nothing to create it with
            return
        self.report.rows_deleted += self.store.replace(self.info, ready)
        self.report.rows_written += sum(len(c.rows) for c in ready)
        self.report.written += len(ready)

    def prune(self) -> list[str]:
        """Remove the stored documents this run was not given."""
        gone = [d for d in self.store.documents() if d not in self._seen]
        self.report.rows_deleted += self.store.delete_documents(gone)
        self.report.pruned = gone
        return gone

    def run(self, documents: Iterable[tuple[str, Sequence[StoreRow]]], prune: bool = False) -> IndexReport:
        """Index every ``(doc_id, rows)``; with ``prune``, remove stored documents not among
        them. A server that goes away or Ctrl-C stops the run cleanly: what is written stays."""
        try:
            for doc_id, rows in documents:
                self.add(doc_id, rows)
            self.flush()
            if prune:
                self.prune()
            if self.report.rows_written + self.report.rows_deleted:
                self.store.finish()
        except NorishiroError as e:
            if not e.stops_run:  # a bad input: keep the documents before it, then say so
                try:
                    self.flush()
                except NorishiroError:
                    pass
                raise
            self.report.stopped = str(e)
        except KeyboardInterrupt:
            self.report.stopped = "interrupted"
        return self.report
