"""``norishiro eval`` and ``norishiro tune``: retrieval quality of chunking configurations."""

from __future__ import annotations

import json

import click

from ..config import DEFAULT_OLLAMA_URL
from ..errors import NorishiroError
from .common import CONTEXT, console, describe, err, usage_error


def _embedder(spec: str, ollama_url: str):
    from ..embed import get_embedder

    try:
        return get_embedder(spec, url=ollama_url)
    except NorishiroError as e:
        raise usage_error(e) from None
    except ImportError as e:
        raise click.UsageError(f"--embedder: {e}") from None


def _load(data):
    from ..analysis.evaluate import load_dataset

    try:
        ds = load_dataset(data)
    except (ValueError, OSError, KeyError) as e:
        raise click.UsageError(f"{data}: {e}") from None
    if not ds.questions:
        raise click.UsageError(f"{data}: no questions with references found")
    return ds


def _run_eval(ds, configs, embedder, k, cache, metric_unit, tokenizer, ollama_url):
    from rich.progress import Progress

    from ..analysis.evaluate import evaluate_config
    from ..embed.cache import EmbeddingCache

    emb = _embedder(embedder, ollama_url)
    store = EmbeddingCache(None if cache in ("", "none") else cache)
    rows = []
    with Progress(console=console()) as bar:
        task = bar.add_task("evaluating", total=len(configs))
        for cfg in configs:
            bar.update(task, description=cfg.label[:50])
            try:
                rows.append(
                    evaluate_config(ds, cfg, emb, k=k, cache=store, metric_unit=metric_unit, tokenizer=tokenizer)
                )
            except (NorishiroError, ValueError, ImportError) as e:
                raise click.UsageError(f"config {cfg.label!r}: {describe(e)}") from None
            bar.advance(task)
    store.close()
    return rows, emb


def _print_paired(rows) -> None:
    """Each row against the first, question by question."""
    from rich.console import Console
    from rich.table import Table

    from ..analysis.evaluate import paired_differences

    t = Table(title=f"paired differences against {rows[0].short} (mean ± standard error over questions)")
    for col in ("config", "mean size", "Δ recall", "Δ precision", "Δ IoU"):
        t.add_column(col, justify="left" if col == "config" else "right", no_wrap=True)
    for r in rows[1:]:
        d = paired_differences(rows[0], r)
        t.add_row(
            r.short, f"{r.mean_size:.0f}", *(f"{d[m][0]:+.4f}±{d[m][1]:.4f}" for m in ("recall", "precision", "iou"))
        )
    Console().print(t)


def _matched(ds, cfgs, metric_unit, tokenizer):
    """Every configuration after the first resized to the first one's mean chunk length."""
    from ..analysis.evaluate import match_length, mean_chunk_length, short_label

    target = mean_chunk_length(ds, cfgs[0], metric_unit, tokenizer)
    out = [cfgs[0]]
    for cfg in cfgs[1:]:
        got, mean = match_length(ds, cfg, target, metric_unit, tokenizer)
        note = f"mean chunk {mean:.1f}, target {target:.1f} {metric_unit}"
        err(f"{short_label(cfg)}: size {cfg.size} -> {got.size} ({note})")
        out.append(got)
    return out


def _print_eval(rows, title: str) -> None:
    from rich.console import Console
    from rich.table import Table

    t = Table(title=title)
    for col in ("config", "chunks", "mean size", "recall", "precision", "IoU", "precision-Ω", "frag/1k"):
        t.add_column(col, justify="left" if col == "config" else "right", no_wrap=True)
    for r in rows:
        t.add_row(
            r.short,
            str(r.chunks),
            f"{r.mean_size:.0f}",
            f"{r.recall:.3f}±{r.recall_se:.3f}",
            f"{r.precision:.3f}±{r.precision_se:.3f}",
            f"{r.iou:.3f}±{r.iou_se:.3f}",
            f"{r.precision_omega:.3f}±{r.precision_omega_se:.3f}",
            f"{r.fragmentation_per_1000:.1f}",
        )
    Console().print(t)


_EVAL_OPTS = [
    click.option("-k", "k", default=5, show_default=True, help="Chunks retrieved per question."),
    click.option(
        "--embedder",
        default="local",
        show_default=True,
        help="local (offline multilingual e5-small), hash (lexical, no model) or ollama:MODEL.",
    ),
    click.option("--ollama-url", default=DEFAULT_OLLAMA_URL, show_default=True),
    click.option(
        "--metric-unit",
        type=click.Choice(["chars", "tokens"]),
        default="chars",
        show_default=True,
        help="Measure excerpts and chunks in characters or tokens (of --metric-tokenizer).",
    ),
    click.option("--metric-tokenizer", default=None, help="Tokenizer for --metric-unit tokens (o200k_base)."),
    click.option(
        "--cache",
        default=".norishiro-cache/embeddings.sqlite",
        show_default=True,
        help="Embedding cache (by model and content hash); 'none' keeps it in memory.",
    ),
    click.option("--json", "as_json", is_flag=True, help="Machine-readable output."),
]


def _eval_options(f):
    for o in reversed(_EVAL_OPTS):
        f = o(f)
    return f


@click.command("eval", context_settings=CONTEXT)
@click.argument("data", type=click.Path(exists=True))
@click.option(
    "--config",
    "configs",
    multiple=True,
    required=True,
    metavar="SPEC",
    help='A chunking configuration, e.g. "recursive size=256 overlap=0 unit=tokens" '
    "(strategies: recursive, sentences, fixed, semantic, or a peer: langchain, semchunk, text-splitter; "
    "overlap may be a "
    "fraction; semantic options such as method=stdev window=1 too). "
    "Repeat for more rows.",
)
@click.option(
    "--match-length",
    is_flag=True,
    help="Resize every configuration after the first so that its mean chunk length (in --metric-unit) "
    "equals the first one's, for a fair comparison; the paired differences are printed.",
)
@_eval_options
def eval_cmd(data, configs, match_length, k, embedder, ollama_url, metric_unit, metric_tokenizer, cache, as_json):
    """Measure the retrieval quality of chunking configurations on DATA.

    DATA is a folder of NAME.md/.txt documents with NAME.qa.json questions (reference
    excerpts as body offsets), or Chroma's format (questions_df.csv and corpora/). For each
    question the top -k chunks of one pool are retrieved by cosine similarity; recall,
    precision, IoU and precision-Ω (Chroma's definitions) are averaged with standard errors,
    beside lint's fragmentation findings per 1,000 boundaries. With more than one
    configuration, each is also compared with the first question by question (paired
    differences). Embeddings are cached, so a re-run or an added configuration embeds only
    what is new.

    \b
    Example:
      norishiro eval tests/data/ja-clinical --config "recursive size=256 unit=tokens" \\
          --config "fixed size=256 unit=tokens" --embedder local
      norishiro eval datasets/en --config "recursive size=250" --config "langchain size=250" \\
          --config "semchunk size=250" --match-length
    """
    from ..analysis.evaluate import paired_differences, parse_config

    try:
        cfgs = [parse_config(c) for c in configs]
    except NorishiroError as e:
        raise click.UsageError(f"--config: {describe(e)}") from None
    ds = _load(data)
    if match_length and len(cfgs) > 1:
        try:
            cfgs = _matched(ds, cfgs, metric_unit, metric_tokenizer)
        except (NorishiroError, ImportError) as e:
            raise click.UsageError(f"--match-length: {describe(e)}") from None
    rows, emb = _run_eval(ds, cfgs, embedder, k, cache, metric_unit, metric_tokenizer, ollama_url)
    if as_json:
        click.echo(
            json.dumps(
                {
                    "data": str(data),
                    "embedder": emb.name,
                    "k": k,
                    "questions": len(ds.questions),
                    "rows": [r.to_dict() for r in rows],
                    "paired": [
                        {
                            "config": r.config,
                            **{m: {"mean": a, "se": b} for m, (a, b) in paired_differences(rows[0], r).items()},
                        }
                        for r in rows[1:]
                    ],
                },
                ensure_ascii=False,
                indent=2,
            )
        )
    else:
        _print_eval(
            rows, f"norishiro eval: {len(ds.documents)} documents, {len(ds.questions)} questions, k={k}, {emb.name}"
        )
        if len(rows) > 1:
            _print_paired(rows)


@click.command("tune", context_settings=CONTEXT)
@click.argument("data", type=click.Path(exists=True))
@click.option("--strategies", default="recursive,fixed", show_default=True)
@click.option("--sizes", default="128,256,512", show_default=True)
@click.option("--overlaps", default="0,0.1,0.2", show_default=True, help="Whole numbers, or fractions of the size.")
@click.option("--unit", type=click.Choice(["chars", "tokens"]), default="tokens", show_default=True)
@click.option("--tokenizer", default=None)
@click.option(
    "--objective",
    type=click.Choice(["iou", "recall", "precision", "precision_omega"]),
    default="iou",
    show_default=True,
)
@click.option(
    "--plot",
    "plot_path",
    default="tune.png",
    show_default=True,
    help="PNG of the objective against chunk size per strategy ('' for none).",
)
@_eval_options
def tune_cmd(
    data,
    strategies,
    sizes,
    overlaps,
    unit,
    tokenizer,
    objective,
    plot_path,
    k,
    embedder,
    ollama_url,
    metric_unit,
    metric_tokenizer,
    cache,
    as_json,
):
    """Run a grid of configurations on DATA and name the best for --objective.

    \b
    Example:
      norishiro tune tests/data/ja-clinical --strategies recursive,semantic \\
          --sizes 128,256,512 --overlaps 0,0.1 --objective iou
    """
    from ..analysis.evaluate import grid

    try:
        cfgs = grid(
            [x.strip() for x in strategies.split(",") if x.strip()],
            [int(x) for x in sizes.split(",")],
            [float(x) for x in overlaps.split(",")],
            unit,
            tokenizer,
        )
    except NorishiroError as e:
        raise click.UsageError(describe(e)) from None
    except ValueError as e:
        raise click.UsageError(f"--sizes/--overlaps: {e}") from None
    ds = _load(data)
    rows, emb = _run_eval(ds, cfgs, embedder, k, cache, metric_unit, metric_tokenizer, ollama_url)
    best = max(rows, key=lambda r: getattr(r, objective))
    if plot_path:
        from ..analysis.plot import metric_plot

        try:
            metric_plot(
                [r.to_dict() for r in rows],
                objective,
                plot_path,
                title=f"{objective} by chunk size ({emb.name}, k={k})",
            )
        except RuntimeError as e:
            err(f"warning: {e}")
            plot_path = ""
    if as_json:
        click.echo(
            json.dumps(
                {
                    "objective": objective,
                    "best": best.to_dict(),
                    "plot": plot_path or None,
                    "rows": [r.to_dict() for r in rows],
                },
                ensure_ascii=False,
                indent=2,
            )
        )
        return
    _print_eval(rows, f"norishiro tune: {len(rows)} configurations, objective {objective}")
    click.echo(f"best for {objective}: {best.config} ({objective} {getattr(best, objective):.3f})")
    if plot_path:
        click.echo(f"plot: {plot_path}")
