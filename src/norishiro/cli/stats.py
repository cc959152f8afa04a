"""The chunk summary table and the context-window warning, printed on standard error."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..writers.atomic import atomic_text_file
from .common import console, err


class Stats:
    def __init__(self, size: int):
        self.size = size
        self.docs = 0
        self.chunks = 0
        self.longest = 0
        self.total = 0
        self.over = 0
        self.meta_keys: set[str] = set()
        self._doc = None
        self.left_out: list[tuple[str, int]] = []  # sections a --sections filter left out

    def add(self, row: dict[str, Any]) -> None:
        if row.get("doc_id") != self._doc:  # once per document
            self._doc = row.get("doc_id")
            meta = row.get("metadata")
            if isinstance(meta, dict):
                self.meta_keys.update(k for k, v in meta.items() if v not in (None, ""))
        size = row["size"]
        self.chunks += 1
        self.total += size
        self.longest = max(self.longest, size)
        if size > self.size:
            self.over += 1

    def missing_keys(self, keys) -> list[str]:
        """Header keys that no chunked document had in its metadata."""
        if not self.chunks:
            return []
        return [k for k in keys if k not in self.meta_keys and k not in ("section", "headings")]

    def left_out_summary(self) -> str:
        """``5 sections, 1,234 characters: 既往歴 ×2, 生活歴 ×2, Plan``."""
        from collections import Counter

        names = Counter(name for name, _ in self.left_out)
        listed = ", ".join(f"{n} ×{k}" if k > 1 else n for n, k in names.most_common(8))
        more = f" and {len(names) - 8} more" if len(names) > 8 else ""
        chars = sum(c for _, c in self.left_out)
        return f"{len(self.left_out)} section(s), {chars:,} characters: {listed}{more}"

    def report(self, unit: str, output: str | None) -> None:
        from rich.table import Table

        t = Table(title="norishiro chunk", show_header=True)
        for col in ("documents", "chunks", f"longest ({unit})", f"mean size ({unit})", "mean fill"):
            t.add_column(col, justify="right")
        mean = self.total / self.chunks if self.chunks else 0.0
        t.add_row(
            str(self.docs),
            str(self.chunks),
            str(self.longest),
            f"{mean:.1f}",
            f"{mean / self.size:.0%}" if self.chunks else "-",
        )
        c = console()
        c.print(t)
        if output:
            c.print(f"wrote {self.chunks} chunks to {output}")


def warn_context(texts: list[str], model: str, context: int | None = None) -> int:
    """Warn about texts that may not fit the model's context window; returns how many."""
    from ..embed.ollama import risky_inputs

    context, risky = risky_inputs(texts, model, context)
    for i, n in risky[:5]:
        err(
            f"warning: input {i} has {n} o200k tokens; {model} takes {context} tokens and counts with its "
            "own tokenizer: it may not fit (lower --size or use --unit tokens)"
        )
    if len(risky) > 5:
        err(f"warning: {len(risky) - 5} more inputs may not fit {model}'s context of {context} tokens")
    return len(risky)


@contextmanager
def open_output(writer_cls, output: str | None) -> Iterator[Any]:
    """Where a writer writes: standard output, a file replaced only when all is written, or
    a folder (the folder writer swaps its files in itself)."""
    if writer_cls.to_folder:
        yield output
    elif output:
        with atomic_text_file(output) as f:
            yield f
    else:
        yield sys.stdout


class Progress:
    """A progress bar on standard error for chunking many files or a large one: by bytes of
    the input files read so far. Off when standard error is not a terminal or with -q."""

    def __init__(self, paths, enabled: bool = True, exclude=()):
        self.bar = None
        self.task = None
        self.ratio = 0.0
        self.done = 0
        self.base = 0
        if not enabled or "-" in paths or not paths or not sys.stderr.isatty():
            return
        from ..loaders import iter_paths

        self.sizes = {}
        for p in iter_paths(paths, exclude):
            try:
                self.sizes[str(p)] = p.stat().st_size
            except OSError:
                pass
        total = sum(self.sizes.values())
        if len(self.sizes) < 2 and total < 2_000_000:
            return  # over in a moment: no bar
        from rich.progress import BarColumn, DownloadColumn, TextColumn, TimeRemainingColumn
        from rich.progress import Progress as Bar

        self.bar = Bar(TextColumn("chunking"), BarColumn(), DownloadColumn(), TimeRemainingColumn(), console=console())
        self.task = self.bar.add_task("chunk", total=total)

    def __enter__(self) -> Progress:
        if self.bar is not None:
            self.bar.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)

    def document(self, doc) -> None:
        if self.bar is None:
            return
        self.base += round(self.done)
        size = self.sizes.get(str(doc.source), 0)
        self.ratio = size / len(doc.text) if doc.text else 0.0
        self.done = 0
        self.bar.update(self.task, completed=self.base)

    def chunk(self, end: int) -> None:
        if self.bar is not None:
            self.done = end * self.ratio
            self.bar.update(self.task, completed=self.base + round(self.done))

    def file_done(self, path: str) -> None:
        if self.bar is not None:
            self.bar.advance(self.task, self.sizes.get(str(path), 0))
