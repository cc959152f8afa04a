"""Embed a chunks file in batches, resumably: an interrupted run loses nothing and a re-run
embeds only what is missing, so no chunk is embedded twice into the output.

Output formats:
* ``.jsonl``: one ``{"id", "vector"}`` row per chunk, appended and flushed after every
  batch; it is its own checkpoint (a half-written last line from a crash is dropped).
* ``.parquet`` / ``.npy``: rows are checkpointed to ``OUT.partial.jsonl`` and the final file
  is written once every chunk has a vector (``.npy`` with ``OUT.ids.txt``, one id a line,
  in the same order as the rows).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

__all__ = ["EmbedJob", "EmbedResult", "VectorStore", "read_chunk_rows", "run_embedding"]


@dataclass
class EmbedResult:
    total: int = 0
    already: int = 0
    embedded: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)
    stopped: str | None = None  # why the run stopped early
    output: str = ""

    @property
    def left(self) -> int:
        return self.total - self.already - self.embedded

    @property
    def complete(self) -> bool:
        return self.left == 0


@dataclass
class EmbedJob:
    id: str
    text: str
    size: int | None = None


def read_chunk_rows(path: str | os.PathLike) -> list[EmbedJob]:
    """What to embed from a chunks JSONL file: each row's ``embed_text`` under its id
    (rows repeated with the same id are embedded once)."""
    from ..rows import read_chunk_rows as rows

    jobs, seen = [], set()
    for _line, c in rows(path):
        if c.id not in seen:
            seen.add(c.id)
            jobs.append(EmbedJob(c.id, c.embed_text, c.size))
    return jobs


class VectorStore:
    """Where vectors go; knows which ids are already there."""

    def __init__(self, out: str | os.PathLike):
        self.out = Path(out)
        suffix = self.out.suffix.lower()
        if suffix not in (".jsonl", ".parquet", ".npy"):
            raise ValueError(f"output {out}: use a .jsonl, .parquet or .npy file name")
        self.kind = suffix[1:]
        self.log = self.out if self.kind == "jsonl" else self.out.with_name(self.out.name + ".partial.jsonl")
        self.done: set[str] = set()
        self._load()

    def _load(self) -> None:
        if self.kind != "jsonl" and self.out.exists():
            for cid in self._final_ids():
                self.done.add(cid)
        if not self.log.exists():
            return
        good = 0
        with open(self.log, "rb") as f:
            data = f.read()
        for raw in data.splitlines(keepends=True):
            if not raw.endswith(b"\n"):
                break  # a row cut short by a crash: dropped, that chunk is embedded again
            try:
                self.done.add(str(json.loads(raw)["id"]))
            except (ValueError, KeyError):
                break
            good += len(raw)
        if good < len(data):
            with open(self.log, "r+b") as f:
                f.truncate(good)

    def _final_ids(self) -> list[str]:
        if self.kind == "npy":
            ids = self.out.with_name(self.out.stem + ".ids.txt")
            return ids.read_text(encoding="utf-8").split("\n")[:-1] if ids.exists() else []
        from ..writers.parquet import read_vectors_parquet

        return read_vectors_parquet(self.out, ids_only=True)[0]

    def append(self, ids: Sequence[str], vectors: Sequence[Sequence[float]]) -> None:
        with open(self.log, "a", encoding="utf-8") as f:
            for cid, vec in zip(ids, vectors):
                f.write(json.dumps({"id": cid, "vector": [float(x) for x in vec]}) + "\n")
            f.flush()
            os.fsync(f.fileno())
        self.done.update(ids)

    def finish(self, order: Sequence[str]) -> None:
        """Write the final .parquet/.npy once every id has a vector (no-op for .jsonl)."""
        if self.kind == "jsonl" or not self.log.exists():
            return
        rows: dict[str, list[float]] = {}
        if self.out.exists():
            rows.update(self._read_final())
        with open(self.log, encoding="utf-8") as f:
            for line in f:
                d = json.loads(line)
                rows[str(d["id"])] = d["vector"]
        ids = [i for i in order if i in rows]
        if self.kind == "npy":
            np.save(self.out, np.asarray([rows[i] for i in ids], dtype=np.float32))
            self.out.with_name(self.out.stem + ".ids.txt").write_text("".join(i + "\n" for i in ids), encoding="utf-8")
        else:
            from ..writers.parquet import write_vectors_parquet

            write_vectors_parquet(self.out, ids, [rows[i] for i in ids])
        self.log.unlink()

    def _read_final(self) -> dict[str, list[float]]:
        if self.kind == "npy":
            arr = np.load(self.out)
            return dict(zip(self._final_ids(), arr.tolist()))
        from ..writers.parquet import read_vectors_parquet

        return dict(zip(*read_vectors_parquet(self.out)))


def run_embedding(
    jobs: Sequence[EmbedJob],
    embed_batch: Callable[[list[str]], Sequence[Sequence[float]]],
    store: VectorStore,
    batch_size: int = 16,
    on_progress: Callable[[int], None] | None = None,
) -> EmbedResult:
    """Embed every job not yet in ``store``; stop cleanly on an unreachable server or Ctrl-C.

    An input the server rejects as too long is isolated by splitting its batch, reported
    with its id, and left unembedded (never truncated).
    """
    from .ollama import InputTooLong, ServerUnavailable

    res = EmbedResult(total=len(jobs), output=str(store.out))
    todo = [j for j in jobs if j.id not in store.done]
    res.already = len(jobs) - len(todo)

    def attempt(batch: list[EmbedJob]) -> None:
        try:
            vecs = embed_batch([j.text for j in batch])
        except InputTooLong as e:
            if len(batch) == 1:
                j = batch[0]
                res.failed.append(
                    (j.id, f"{e} (size {j.size if j.size is not None else '?'}, {len(j.text)} characters)")
                )
                if on_progress:
                    on_progress(1)
                return
            mid = len(batch) // 2
            attempt(batch[:mid])
            attempt(batch[mid:])
            return
        store.append([j.id for j in batch], vecs)
        res.embedded += len(batch)
        if on_progress:
            on_progress(len(batch))

    try:
        for i in range(0, len(todo), batch_size):
            attempt(todo[i : i + batch_size])
    except ServerUnavailable as e:
        res.stopped = str(e)
    except KeyboardInterrupt:
        res.stopped = "interrupted"
    if res.complete:
        store.finish([j.id for j in jobs])
    return res
