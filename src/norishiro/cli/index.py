"""``norishiro index`` (chunk + embed + store) and ``norishiro search`` (ask an index)."""

from __future__ import annotations

import json
import sys

import click

from ..api import iter_chunks
from ..errors import NorishiroError
from .common import (
    CONTEXT,
    Problems,
    chunk_options,
    config_from_options,
    console,
    describe,
    err,
    parse_meta,
    runtime_for,
)
from .embedders import make_embedder, server_options, server_url
from .reading import input_options, load_inputs


def store_option(flag: str, help_text: str, required: bool = True):
    """The store flag (--to or --in) and --table."""

    def wrap(f):
        f = click.option(
            "--table",
            default="chunks",
            show_default=True,
            help="Table (LanceDB) or SQL table (PostgreSQL) inside the store; one index per table.",
        )(f)
        return click.option(flag, "target", required=required, default=None, metavar="STORE", help=help_text)(f)

    return wrap


def open_target(target: str, table: str):
    from ..stores import StoreError, open_store

    try:
        return open_store(target, table=table)
    except StoreError as e:
        raise click.UsageError(str(e)) from None
    except ImportError as e:
        raise click.UsageError(str(e)) from None


def make_indexer(store, emb, spec: str, url: str | None, batch_size: int, on_progress):
    """An Indexer; a store of another model is a usage error (nothing was written)."""
    from ..stores import Indexer, ModelMismatch

    try:
        return Indexer(store, emb, embedder_spec=spec, url=url, batch_size=batch_size, on_progress=on_progress)
    except ModelMismatch as e:
        raise click.UsageError(str(e)) from None


def report_index(rep, target: str) -> None:
    """The summary of an index run, on standard error."""
    err(
        f"{rep.documents} document(s): {rep.unchanged} unchanged, {rep.written} written; "
        f"{rep.rows_written} row(s) written, {rep.rows_kept} kept, {rep.rows_deleted} deleted; "
        f"{rep.embedded} embedded, {rep.reused} vector(s) reused -> {target}"
    )
    if rep.pruned:
        err(f"pruned {len(rep.pruned)} document(s) no longer in the input: {', '.join(rep.pruned[:5])}")
    for cid, why in rep.failed[:10]:
        err(f"rejected chunk {cid}: {why}; re-chunk with a smaller --size")
    if rep.stopped:
        err(f"stopped early: {rep.stopped}. Run the same command again to continue.")


@click.command("index", context_settings=CONTEXT)
@click.argument("paths", nargs=-1, type=str)
@store_option("--to", "Where the chunks go: lancedb:FOLDER (embedded, no server) or postgresql://USER@HOST/DB.")
@chunk_options
@input_options
@server_options
@click.option("--batch-size", default=32, show_default=True, type=click.IntRange(min=1), help="Chunks per request.")
@click.option(
    "--prune",
    is_flag=True,
    help="Also remove documents the index holds that are not among PATHS (only when every input was read).",
)
@click.option(
    "--ann",
    is_flag=True,
    help="Afterwards build an approximate nearest-neighbour index (HNSW on PostgreSQL, IVF-PQ on LanceDB) "
    "for faster searches of large indexes (from about 10,000 chunks); without it searches are exact.",
)
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def index_cmd(
    paths, target, table, reading, base_url, api_key_env, retries, timeout, batch_size, prune, ann, quiet, **opts
):
    """Chunk PATHS, embed the chunks and keep them in a vector store, idempotently.

    Rows are keyed by chunk id. Running the same command again writes nothing; after you
    edit one document, only that document's rows change (its unchanged chunks are kept and
    not embedded again). Each document is replaced in one step, so a search never sees
    half of one. --embedder names the model for the vectors (and for semantic cuts with
    --strategy semantic); an index refuses vectors of another model.

    \b
    Examples:
      norishiro index notes/ --to lancedb:./idx --size 300
      norishiro index docs/ --to postgresql://me@localhost/rag --embedder openai:bge-m3 \\
          --base-url http://localhost:8080/v1
      norishiro search "退院時の血糖値は?" --in lancedb:./idx
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from ..stores import row_from_chunk

    config = config_from_options(opts)
    meta = parse_meta(opts["meta"])
    spec = opts["sem_embedder"]
    url = server_url(spec, opts["ollama_url"], base_url)
    store = open_target(target, table)
    emb = make_embedder(spec, url, {"timeout": timeout, "retries": retries, "api_key_env": api_key_env})
    runtime = runtime_for(config)
    problems = Problems()
    progress = Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), disable=quiet, console=console()
    )
    task = progress.add_task("chunks", total=None)
    indexer = make_indexer(store, emb, spec, url, batch_size, lambda n: progress.advance(task, n))

    def documents():
        for doc in load_inputs(paths, reading, problems, meta):
            progress.update(task, description=doc.id[-40:])
            try:
                rows = [row_from_chunk(c.to_dict()) for c in iter_chunks(doc, config, **runtime)]
            except NorishiroError as e:
                problems.add(describe(e))
                continue
            total = progress.tasks[0].total or 0
            progress.update(task, total=total + len(rows))
            yield doc.id, rows

    with progress:
        rep = indexer.run(documents(), prune=False)
        if prune and not rep.stopped:
            if problems:
                err("not pruned: some inputs were not read, and their documents would have been removed")
            else:
                indexer.prune()
    report_index(rep, store.target)
    if ann and not rep.stopped:
        err(
            "built the vector index for approximate search"
            if store.build_vector_index()
            else "no vector index built: too few rows to train one (searches stay exact)"
        )
    store.close()
    if problems:
        err(f"{problems.summary()}; the rest was indexed. Fix them and run again.")
    if rep.stopped or rep.failed or problems:
        sys.exit(130 if rep.stopped == "interrupted" else 1)


@click.command("search", context_settings=CONTEXT)
@click.argument("query")
@store_option("--in", "The index to ask: lancedb:FOLDER or postgresql://USER@HOST/DB.")
@click.option("-k", "k", default=5, show_default=True, type=click.IntRange(min=1), help="How many chunks to return.")
@click.option(
    "--embedder",
    default=None,
    help="Embed the question with this embedder (default: the one that filled the index; it must be the same model).",
)
@click.option("--ollama-url", default=None, help="Ollama server, when not the one the index was filled from.")
@click.option("--doc", "doc_ids", multiple=True, metavar="DOC_ID", help="Search only these documents (repeatable).")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "jsonl"]),
    default="table",
    show_default=True,
    help="table for reading; jsonl: one hit a line with score and every stored column.",
)
@server_options
def search_cmd(query, target, table, k, embedder, ollama_url, doc_ids, fmt, base_url, api_key_env, retries, timeout):
    """Find the K chunks of an index nearest to QUERY.

    Prints score (cosine similarity), document, section, pages and offsets of each hit;
    the offsets point into the document text as norishiro read it.

    \b
    Examples:
      norishiro search "入院時の酸素投与量" --in lancedb:./idx -k 3
      norishiro search "discharge medication" --in postgresql://me@localhost/rag --format jsonl
    """
    from ..stores import ModelMismatch
    from ..stores.api import search

    store = open_target(target, table)
    info = store.info()
    if info is None:
        raise click.UsageError(f"{store.target} holds no index yet (table {table!r}); fill it with norishiro index")
    spec = embedder or info.embedder or info.model
    url = server_url(spec, ollama_url or info.url, base_url or info.url)
    emb = make_embedder(spec, url, {"timeout": timeout, "retries": retries, "api_key_env": api_key_env})
    if emb.name != info.model:
        raise click.UsageError(str(ModelMismatch(store.target, info, emb.name, None)))
    try:
        hits = search(store, query, k=k, embedder=emb, doc_ids=list(doc_ids) or None)
    except NorishiroError as e:
        err(f"error: {describe(e)}")
        sys.exit(1)
    finally:
        store.close()
    if fmt == "jsonl":
        for h in hits:
            click.echo(json.dumps(h.to_dict(), ensure_ascii=False))
        return
    _print_hits(hits)


def _print_hits(hits) -> None:
    """One block per hit: rank, score, where it is, then the start of its text on one line."""
    import shutil

    from rich.cells import cell_len, set_cell_size

    width = max(60, shutil.get_terminal_size((100, 20)).columns)
    if not hits:
        click.echo("no hits")
    for i, h in enumerate(hits, 1):
        r = h.row
        where = [r["doc_id"]]
        if r.get("section"):
            where.append(f"§ {r['section']}")
        if r.get("page_start") is not None:
            pages = r["page_start"] if r["page_start"] == r["page_end"] else f"{r['page_start']}-{r['page_end']}"
            where.append(f"p. {pages}")
        where.append(f"[{r['start']}:{r['end']}]")
        click.echo(f"{i:>2}  {h.score:.3f}  " + "  ".join(str(w) for w in where))
        text = " ".join(r["text"].split())
        room = width - 4  # terminal cells: a CJK character takes two
        click.echo("    " + (text if cell_len(text) <= room else set_cell_size(text, room - 1) + "…"))


def _describe_embedder_flag() -> None:
    """In ``index``, --embedder (shared with chunk) names the model of the stored vectors."""
    for p in index_cmd.params:
        if p.name == "sem_embedder":
            p.help = (
                "The model of the stored vectors (and of semantic cuts with --strategy semantic): local "
                "(offline e5-small), hash (lexical, no model), ollama:MODEL (at --ollama-url) or openai:MODEL "
                "(at --base-url)."
            )


_describe_embedder_flag()
