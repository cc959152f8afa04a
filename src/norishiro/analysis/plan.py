"""The chunk-count calculator: pure functions, no I/O, and the plan beside a real run.

A window of ``c`` units advances by the stride ``s = c - o``; a document of ``T`` units is
covered after the first window's ``o``-unit run-up plus ``ceil((T - o) / s)`` strides, so
``n = ceil((T - o) / s)`` chunks (at least 1 for a non-empty document). Embedding every
chunk at full size sends ``n * c`` units (the upper bound); fixed windows really send
``T + (n - 1) * o`` because only the overlaps are repeated and the last window may be short.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

from ..errors import NorishiroError

__all__ = ["PlanError", "Plan", "plan", "plan_documents", "store_bytes"]


class PlanError(NorishiroError, ValueError):
    pass


@dataclass(frozen=True)
class Plan:
    tokens: int
    size: int
    overlap: int
    stride: int
    chunks: int
    embedded_upper: int
    embedded_exact: int
    overhead_upper: float  # (embedded_upper - T) / T
    overhead_exact: float
    cost: float | None = None  # one-off embedding cost of the upper bound
    store_bytes: int | None = None

    def to_dict(self) -> dict:
        return asdict(self)


def _check(name: str, value, minimum: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise PlanError(f"{name} must be a whole number >= {minimum}, got {value!r}")


def store_bytes(vectors: int, dims: int, bytes_per_value: float = 4, index_overhead: float = 0.0) -> int:
    """Vector-store size: vectors x dims x bytes per value, plus the index's overhead share."""
    if dims <= 0 or bytes_per_value <= 0 or index_overhead < 0:
        raise PlanError("dims and bytes per value must be > 0 and index overhead >= 0")
    return int(round(vectors * dims * bytes_per_value * (1 + index_overhead)))


def plan(
    tokens: int,
    size: int,
    overlap: int = 0,
    *,
    price_per_million: float | None = None,
    dims: int | None = None,
    bytes_per_value: float = 4,
    index_overhead: float = 0.0,
) -> Plan:
    """The window model's estimate for a document of ``tokens`` units. 8000/512/64 gives 18 chunks."""
    _check("document tokens", tokens, 0)
    _check("chunk size", size, 1)
    _check("overlap", overlap, 0)
    if overlap >= size:
        raise PlanError(f"overlap ({overlap}) must be smaller than chunk size ({size})")
    if price_per_million is not None and price_per_million < 0:
        raise PlanError("price per million tokens must be >= 0")
    stride = size - overlap
    if tokens == 0:
        n = 0
    else:
        n = max(1, math.ceil((tokens - overlap) / stride))
    upper = n * size
    exact = tokens + (n - 1) * overlap if n else 0
    ratio = lambda x: (x - tokens) / tokens if tokens else 0.0
    cost = None if price_per_million is None else upper * price_per_million / 1_000_000
    sb = None if dims is None else store_bytes(n, dims, bytes_per_value, index_overhead)
    return Plan(tokens, size, overlap, stride, n, upper, exact, ratio(upper), ratio(exact), cost, sb)


def plan_documents(
    docs,
    config,
    *,
    price_per_million: float | None = None,
    dims: int | None = None,
    bytes_per_value: float = 4,
    index_overhead: float = 0.0,
) -> dict:
    """The estimate beside what the chunker really does, per document and in total.

    ``docs``: documents; ``config``: a :class:`~norishiro.config.ChunkConfig` (its unit and
    tokenizer count T). Returns the JSON-able report ``norishiro plan`` prints.
    """
    from ..api import iter_chunks, resolve

    config, sizer, _ = resolve(config)
    kw = dict(
        price_per_million=price_per_million, dims=dims, bytes_per_value=bytes_per_value, index_overhead=index_overhead
    )
    plan(1, config.size, config.overlap, **kw)  # validate before any work
    rows = []
    for doc in docs:
        tokens = sizer.count(doc.text)
        est = plan(tokens, config.size, config.overlap, **kw)
        chunks = list(iter_chunks(doc, config, tokenizer=sizer))
        rows.append(
            {
                "doc_id": doc.id,
                "tokens": tokens,
                "estimate": est.to_dict(),
                "actual": {
                    "chunks": len(chunks),
                    "embedded": sum(c.size for c in chunks),
                    "longest": max((c.size for c in chunks), default=0),
                },
            }
        )
    total = {
        "tokens": sum(r["tokens"] for r in rows),
        "estimate_chunks": sum(r["estimate"]["chunks"] for r in rows),
        "estimate_embedded_upper": sum(r["estimate"]["embedded_upper"] for r in rows),
        "estimate_embedded_exact": sum(r["estimate"]["embedded_exact"] for r in rows),
        "actual_chunks": sum(r["actual"]["chunks"] for r in rows),
        "actual_embedded": sum(r["actual"]["embedded"] for r in rows),
    }
    if price_per_million is not None:
        total["estimate_cost"] = total["estimate_embedded_upper"] * price_per_million / 1e6
        total["actual_cost"] = total["actual_embedded"] * price_per_million / 1e6
    if dims is not None:
        total["estimate_store_bytes"] = store_bytes(total["estimate_chunks"], dims, bytes_per_value, index_overhead)
        total["actual_store_bytes"] = store_bytes(total["actual_chunks"], dims, bytes_per_value, index_overhead)
    return {
        "unit": sizer.unit,
        "tokenizer": sizer.name,
        "size": config.size,
        "overlap": config.overlap,
        "stride": config.size - config.overlap,
        "strategy": config.strategy,
        "documents": rows,
        "total": total,
    }
