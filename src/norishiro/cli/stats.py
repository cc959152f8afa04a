"""The chunk summary table and the context-window warning, printed on standard error."""

from __future__ import annotations

from typing import Any

from .common import console, err


class Stats:
    def __init__(self, size: int):
        self.size = size
        self.docs = 0
        self.chunks = 0
        self.longest = 0
        self.total = 0
        self.over = 0

    def add(self, row: dict[str, Any]) -> None:
        size = row["size"]
        self.chunks += 1
        self.total += size
        self.longest = max(self.longest, size)
        if size > self.size:
            self.over += 1

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
