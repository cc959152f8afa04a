"""Embed a chunks file in batches, resumably: an interrupted run loses nothing and a re-run
embeds only what is missing, so no chunk is embedded twice into the output.

Output formats:
* ``.jsonl``: a first line naming the format, model, dimension and chunks file, then one
  ``{"id", "vector"}`` row per chunk, appended and flushed after every batch; it is its own
  checkpoint (a half-written last line from a crash is dropped).
* ``.parquet`` / ``.npy``: rows are checkpointed to ``OUT.partial.jsonl`` and the final file
  is written once every chunk has a vector (``.npy`` with ``OUT.ids.txt``, one id a line,
  in the same order as the rows) and ``OUT.vectors.json`` naming model and dimension.
Every vector is checked (finite numbers, one dimension) before anything of its batch is
written.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import NorishiroError

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
    """What to embed from a chunks JSONL file: each row's ``embed_text`` under its id. A row
    repeated with the same id and text is embedded once; the same id with another text is
    an error naming both lines (one of them would be lost)."""
    from ..rows import RowError
    from ..rows import read_chunk_rows as rows

    jobs, seen = [], {}
    where = os.fspath(path)
    for line, c in rows(path):
        if c.id in seen:
            first, text = seen[c.id]
            if text != c.embed_text:
                raise RowError(
                    f"{where}: lines {first} and {line} have the same id {c.id!r} but different text; "
                    "give each chunk its own id (norishiro chunk derives ids from document, offsets and text)",
                    where,
                    line,
                )
            continue
        seen[c.id] = (line, c.embed_text)
        jobs.append(EmbedJob(c.id, c.embed_text, c.size))
    return jobs


class VectorLogError(NorishiroError, ValueError):
    """An output that is not this run's vector log (another file, another model or size)."""

    stops_run = True


class InvalidVectors(NorishiroError, ValueError):
    """The embedder answered with something that is not one finite vector per text."""

    stops_run = True


def check_vectors(vectors: Any, n: int, dim: int | None) -> list[list[float]]:
    """``n`` vectors of finite floats, all of ``dim`` values (of the first one's when None)."""
    if not isinstance(vectors, (list, tuple, np.ndarray)) or len(vectors) != n:
        got = len(vectors) if isinstance(vectors, (list, tuple, np.ndarray)) else type(vectors).__name__
        raise InvalidVectors(f"the embedder returned {got} vectors for {n} texts")
    out = []
    for i, v in enumerate(vectors):
        try:
            arr = np.asarray(v, dtype=np.float64)
        except (TypeError, ValueError):
            raise InvalidVectors(f"vector {i} of the batch is not a list of numbers") from None
        if (
            arr.ndim != 1
            or arr.size == 0
            or (
                isinstance(v, (list, tuple))
                and not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v)
            )
        ):
            raise InvalidVectors(f"vector {i} of the batch is not a non-empty list of numbers")
        if not np.isfinite(arr).all():
            raise InvalidVectors(f"vector {i} of the batch holds NaN or infinity")
        dim = dim or arr.size
        if arr.size != dim:
            raise InvalidVectors(f"vector {i} of the batch has {arr.size} values where the others have {dim}")
        out.append(arr.tolist())
    return out


class VectorStore:
    """Where vectors go; knows which ids are already there, and refuses to mix.

    A vector log identifies itself on its first line (``{"norishiro_vectors": 1, "model",
    "dim", "chunks"}``), and so does the sidecar ``OUT.vectors.json`` of a final ``.npy`` or
    ``.parquet``: a file that is not one, or one made with another model or dimension, is
    refused rather than overwritten or mixed.
    """

    def __init__(self, out: str | os.PathLike, model: str = "", chunks: str = ""):
        self.out = Path(out)
        suffix = self.out.suffix.lower()
        if suffix not in (".jsonl", ".parquet", ".npy"):
            raise VectorLogError(f"output {out}: use a .jsonl, .parquet or .npy file name")
        self.kind = suffix[1:]
        self.model = model
        self.chunks = chunks
        self.dim: int | None = None
        self.log = self.out if self.kind == "jsonl" else self.out.with_name(self.out.name + ".partial.jsonl")
        self.sidecar = self.out.with_name(self.out.name + ".vectors.json")
        self.done: set[str] = set()
        self._load()

    def _identity(self) -> dict[str, Any]:
        return {"norishiro_vectors": LOG_FORMAT, "model": self.model, "dim": self.dim, "chunks": self.chunks}

    def _adopt(self, head: Any, where: Path) -> None:
        """Check an existing log's or file's identity against this run."""
        if not isinstance(head, dict) or head.get("norishiro_vectors") != LOG_FORMAT:
            raise VectorLogError(
                f"{where} exists and is not a norishiro vector log; choose another output or remove it"
            )
        if self.model and head.get("model") and head["model"] != self.model:
            raise VectorLogError(
                f"{where} holds vectors of {head['model']!r}, not {self.model!r}: vectors of two models must not "
                "mix; choose another output or embed with the same model"
            )
        if self.dim is not None and head.get("dim") not in (None, self.dim):
            raise VectorLogError(f"{where} holds vectors of {head.get('dim')} values, not {self.dim}")
        self.dim = head.get("dim") or self.dim

    def _load(self) -> None:
        if self.kind != "jsonl" and self.out.exists():
            try:
                head = json.loads(self.sidecar.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                raise VectorLogError(
                    f"{self.out} exists and has no {self.sidecar.name} saying it is a norishiro vector file; "
                    "choose another output or remove it"
                ) from None
            self._adopt(head, self.out)
            self.done.update(self._final_ids())
        if not self.log.exists():
            return
        with open(self.log, "rb") as f:
            data = f.read()
        lines = data.splitlines(keepends=True)
        if not lines:
            return
        try:
            head = json.loads(lines[0]) if lines[0].endswith(b"\n") else None
        except ValueError:
            head = None
        self._adopt(head, self.log)
        good = len(lines[0])
        for raw in lines[1:]:
            if not raw.endswith(b"\n"):
                break  # a row cut short by a crash: dropped, that chunk is embedded again
            try:
                self.done.add(str(json.loads(raw)["id"]))
            except (ValueError, KeyError, TypeError):
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

    def append(self, ids: Sequence[str], vectors: Any) -> None:
        """Validate, then append one batch (nothing of a bad batch is written)."""
        rows = check_vectors(vectors, len(ids), self.dim)
        self.dim = self.dim or (len(rows[0]) if rows else None)
        new = not self.log.exists() or self.log.stat().st_size == 0
        with open(self.log, "a", encoding="utf-8") as f:
            if new:
                f.write(json.dumps(self._identity(), ensure_ascii=False) + "\n")
            for cid, vec in zip(ids, rows):
                f.write(json.dumps({"id": cid, "vector": vec}) + "\n")
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
            next(f, None)  # the identity line
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
        self.sidecar.write_text(json.dumps(self._identity(), ensure_ascii=False) + "\n", encoding="utf-8")
        self.log.unlink()

    def _read_final(self) -> dict[str, list[float]]:
        if self.kind == "npy":
            arr = np.load(self.out)
            return dict(zip(self._final_ids(), arr.tolist()))
        from ..writers.parquet import read_vectors_parquet

        return dict(zip(*read_vectors_parquet(self.out)))


LOG_FORMAT = 1


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
    from .http import InputTooLong

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
    except NorishiroError as e:  # a server that is gone, a bad answer: what is written stays
        if not e.stops_run:
            raise
        res.stopped = str(e)
    except KeyboardInterrupt:
        res.stopped = "interrupted"
    if res.complete:
        store.finish([j.id for j in jobs])
    return res
