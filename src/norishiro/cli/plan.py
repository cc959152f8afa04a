"""``norishiro plan``: chunk count, stride, embedded tokens, cost and store size."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..chunkers import chunker_names
from ..config import ChunkConfig
from ..errors import NorishiroError
from .common import CONTEXT, Problems, usage_error
from .reading import input_options, load_inputs


def _fmt_bytes(n: int | None) -> str:
    if n is None:
        return "-"
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024 or unit == "TiB":
            return f"{n:,.0f} {unit}" if unit == "B" else f"{n:,.1f} {unit}"
        n /= 1024
    return str(n)


@click.command("plan", context_settings=CONTEXT)
@click.argument("paths", nargs=-1, type=str)
@click.option("--tokens", "-t", type=int, default=None, help="Document length in units (instead of PATHS).")
@click.option("--size", "-s", type=int, default=512, show_default=True, help="Chunk size c.")
@click.option("--overlap", type=int, default=0, show_default=True, help="Overlap o.")
@click.option(
    "--strategy",
    type=click.Choice(chunker_names()),
    default="recursive",
    show_default=True,
    help="Chunker run on PATHS for the 'actual' columns.",
)
@click.option("--unit", type=click.Choice(["chars", "tokens"]), default="tokens", show_default=True)
@click.option(
    "--tokenizer",
    default=None,
    metavar="NAME|PATH",
    help="o200k_base (default), cl100k_base, or a tokenizer.json path.",
)
@click.option(
    "--price-per-million", type=float, default=None, help="Embedding price per 1M tokens: adds the one-off cost."
)
@click.option("--dims", type=int, default=None, help="Vector dimensions: adds the vector-store size.")
@click.option(
    "--bytes-per-value", type=float, default=4.0, show_default=True, help="4 for float32, 2 for float16, 1 for int8."
)
@click.option(
    "--index-overhead",
    type=float,
    default=0.0,
    show_default=True,
    help="Extra share the ANN index adds, e.g. 0.5 for +50%.",
)
@input_options
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def plan_cmd(
    paths,
    tokens,
    size,
    overlap,
    strategy,
    unit,
    tokenizer,
    price_per_million,
    dims,
    bytes_per_value,
    index_overhead,
    reading,
    as_json,
):
    """Estimate chunks, stride, embedded tokens, cost and store size.

    \b
    stride s = c - o;  chunks n = ceil((T - o) / s);  embedded <= n * c
    fixed windows embed exactly T + (n - 1) * o.
    With PATHS, T is counted per document with the chosen tokenizer, and the chunker is
    run too, so the estimate stands beside what really happens (sentence-respecting
    splitters make more, shorter chunks than the window model predicts).

    \b
    Example: norishiro plan --tokens 8000 --size 512 --overlap 64
    """
    from ..analysis.plan import PlanError, plan, plan_documents

    kw = dict(
        price_per_million=price_per_million, dims=dims, bytes_per_value=bytes_per_value, index_overhead=index_overhead
    )
    if tokens is None and not paths:
        raise click.UsageError("give --tokens T or document PATHS")
    if tokens is not None and paths:
        raise click.UsageError("give either --tokens or PATHS, not both")
    try:
        if tokens is not None:
            _print_plan_simple(plan(tokens, size, overlap, **kw), unit, as_json)
            return
        plan(1, size, overlap, **kw)  # validate before any work
        config = ChunkConfig(
            size=size, overlap=overlap, strategy=strategy, unit="tokens" if tokenizer else unit, tokenizer=tokenizer
        )
    except PlanError as e:
        raise click.UsageError(str(e)) from None
    except NorishiroError as e:
        raise usage_error(e) from None
    problems = Problems()
    try:
        result = plan_documents(load_inputs(paths, reading, problems), config, **kw)
    except NorishiroError as e:
        raise usage_error(e) from None
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False, indent=2))
    else:
        _print_plan_table(result)
    if problems:
        sys.exit(1)


def _print_plan_simple(p, unit: str, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(p.to_dict(), indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    t = Table(title=f"norishiro plan: T={p.tokens:,} {unit}, c={p.size}, o={p.overlap}")
    t.add_column("quantity")
    t.add_column("value", justify="right")
    t.add_column("formula")
    t.add_row("stride s", f"{p.stride:,}", f"c - o = {p.size} - {p.overlap}")
    t.add_row("chunks n", f"{p.chunks:,}", f"ceil((T - o) / s) = ceil({p.tokens - p.overlap:,} / {p.stride:,})")
    t.add_row("embedded (upper)", f"{p.embedded_upper:,}", f"n * c = {p.chunks} * {p.size}")
    t.add_row("embedded (fixed windows)", f"{p.embedded_exact:,}", "T + (n - 1) * o")
    t.add_row("overhead (upper)", f"{p.overhead_upper:.1%}", "n * c / T - 1")
    t.add_row("overhead (fixed windows)", f"{p.overhead_exact:.1%}", "(n - 1) * o / T")
    if p.cost is not None:
        t.add_row("embedding cost", f"{p.cost:.6g}", "n * c / 1e6 * price")
    if p.store_bytes is not None:
        t.add_row("vector store", _fmt_bytes(p.store_bytes), "n * dims * bytes * (1 + overhead)")
    Console().print(t)


def _print_plan_table(result: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    u = result["unit"]
    t = Table(
        title=f"norishiro plan: c={result['size']} o={result['overlap']} s={result['stride']} "
        f"{u} ({result['tokenizer']}), actual = {result['strategy']}"
    )
    for col in ("document", "T", "n est.", "n actual", "emb. n*c", "emb. fixed", "emb. actual", "longest"):
        t.add_column(col, justify="left" if col == "document" else "right")
    for r in result["documents"]:
        e, a = r["estimate"], r["actual"]
        t.add_row(
            Path(r["doc_id"]).name,
            f"{r['tokens']:,}",
            str(e["chunks"]),
            str(a["chunks"]),
            f"{e['embedded_upper']:,}",
            f"{e['embedded_exact']:,}",
            f"{a['embedded']:,}",
            str(a["longest"]),
        )
    tot = result["total"]
    t.add_row(
        "[b]total[/b]",
        f"{tot['tokens']:,}",
        str(tot["estimate_chunks"]),
        str(tot["actual_chunks"]),
        f"{tot['estimate_embedded_upper']:,}",
        f"{tot['estimate_embedded_exact']:,}",
        f"{tot['actual_embedded']:,}",
        "",
    )
    c = Console()
    c.print(t)
    if tot["tokens"]:
        c.print(
            f"overhead over T: estimate {tot['estimate_embedded_upper'] / tot['tokens'] - 1:.1%} (n*c), "
            f"actual {tot['actual_embedded'] / tot['tokens'] - 1:.1%}"
        )
    if "estimate_cost" in tot:
        c.print(f"embedding cost: estimate {tot['estimate_cost']:.6g}, actual {tot['actual_cost']:.6g}")
    if "estimate_store_bytes" in tot:
        c.print(
            f"vector store: estimate {_fmt_bytes(tot['estimate_store_bytes'])}, "
            f"actual {_fmt_bytes(tot['actual_store_bytes'])}"
        )
