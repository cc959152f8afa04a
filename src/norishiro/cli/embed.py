"""``norishiro embed``: a chunks file to vectors, resumably, through Ollama or offline."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from ..config import DEFAULT_MODEL, DEFAULT_OLLAMA_URL
from ..errors import NorishiroError
from .common import CONTEXT, console, describe, err
from .embedders import make_embedder, server_options, server_url
from .index import make_indexer, open_target, report_index, store_option
from .stats import warn_context


@click.command("embed", context_settings=CONTEXT)
@click.argument("chunks_file", type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--output",
    "-o",
    default=None,
    type=click.Path(dir_okay=False),
    help="OUT.jsonl, OUT.parquet, or OUT.npy (with OUT.ids.txt). Re-running with the same "
    "OUT embeds only what is missing.",
)
@store_option("--to", "Instead of -o: a vector store, lancedb:FOLDER or postgresql://USER@HOST/DB.", required=False)
@click.option(
    "--embedder",
    default="ollama",
    show_default=True,
    help="ollama (the server at --ollama-url, with --model), ollama:MODEL, openai:MODEL (an "
    "OpenAI-compatible server at --base-url), local (multilingual-e5-small, offline), or hash "
    "(lexical, no model).",
)
@click.option("--model", default=DEFAULT_MODEL, show_default=True, help="Ollama model (for --embedder ollama).")
@click.option("--ollama-url", default=DEFAULT_OLLAMA_URL, show_default=True)
@click.option("--batch-size", default=16, show_default=True, type=click.IntRange(min=1), help="Chunks per request.")
@server_options
def embed_cmd(chunks_file, output, target, table, embedder, model, ollama_url, batch_size, **server):
    """Embed the chunks of CHUNKS_FILE (JSONL from 'norishiro chunk') and keep every vector.

    Sends batches to Ollama's /api/embed with "truncate": false (or to an OpenAI-compatible
    /v1/embeddings), so a chunk that does not fit fails loudly (it is named with its size
    and left out) instead of being cut. Retries on connection errors, time-outs, 429 and
    5xx. Resumable: an interrupted run (server crash, Ctrl-C) keeps every vector already
    written; run the same command again to embed only the rest. With --to, the chunks go
    into a vector store keyed by chunk id (see 'norishiro index'). Exit code 1 while
    anything is left unembedded.

    \b
    Examples:
      norishiro embed chunks.jsonl --model bge-m3 -o vectors.jsonl
      norishiro embed chunks.jsonl --embedder local -o vectors.npy
      norishiro embed chunks.jsonl --embedder local --to lancedb:./idx
      norishiro embed chunks.jsonl --embedder openai:nomic-embed-text --base-url http://localhost:8080/v1 -o v.jsonl
    """
    from ..embed.runner import VectorLogError, VectorStore, read_chunk_rows, run_embedding

    spec = f"ollama:{model}" if embedder == "ollama" else embedder
    if bool(output) == bool(target):
        raise click.UsageError("give either -o FILE (vectors to a file) or --to STORE (vectors into a store)")
    url = server_url(spec, ollama_url, server["base_url"])
    if target:
        emb = make_embedder(spec, url, server)
        try:
            _check_context(emb, lambda: [j.text for j in read_chunk_rows(chunks_file)])
        except NorishiroError as e:  # a line that is not a chunk row: nothing was written
            err(f"error: {e}")
            sys.exit(1)
        sys.exit(embed_into_store(chunks_file, target, table, emb, spec, url, batch_size))
    if Path(output).resolve() == Path(chunks_file).resolve():
        raise click.UsageError(f"-o {output} is the chunks file itself; write the vectors to another file")
    folder = Path(output).parent
    if not folder.is_dir() or not os.access(folder, os.W_OK):
        err(f"error: -o {output}: the folder {folder} does not exist or is not writable; create it or choose another")
        sys.exit(1)
    try:
        jobs = read_chunk_rows(chunks_file)
    except NorishiroError as e:
        err(f"error: {e}")
        sys.exit(1)
    try:
        store = VectorStore(output, model=spec, chunks=Path(chunks_file).name)
    except VectorLogError as e:
        raise click.UsageError(str(e)) from None
    except (NorishiroError, OSError) as e:
        err(f"error: {e}")
        sys.exit(1)
    except ImportError as e:
        raise click.UsageError(str(e)) from None
    emb = make_embedder(spec, url, server)
    _check_context(emb, lambda: [j.text for j in jobs if j.id not in store.done])
    if spec.startswith("ollama:"):

        def embed_batch(texts):  # the server's vectors as they are, not normalised
            return emb.client.embed(emb.model, texts, truncate=False)
    else:
        embed_batch = getattr(emb, "embed_raw", emb.embed_documents)

    progress = _progress()
    try:
        with progress:
            done = sum(1 for j in jobs if j.id in store.done)
            task = progress.add_task("embed", total=len(jobs), completed=done)
            res = run_embedding(jobs, embed_batch, store, batch_size, on_progress=lambda k: progress.advance(task, k))
    except NorishiroError as e:  # a final answer: what is written stays
        err(f"error: {describe(e)}")
        sys.exit(1)
    finally:
        _close(emb)
    err(
        f"{res.total} chunks: {res.already} already in {output}, {res.embedded} embedded now, "
        f"{len(res.failed)} rejected, {res.left - len(res.failed)} not reached"
    )
    for cid, why in res.failed[:10]:
        err(f"rejected chunk {cid}: {why}; re-chunk with a smaller --size")
    if res.stopped:
        err(f"stopped early: {res.stopped}. Run the same command again to continue.")
    if not res.complete:
        sys.exit(130 if res.stopped == "interrupted" else 1)


def _progress():
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    return Progress(
        TextColumn("embedding"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), console=console()
    )


def _close(emb) -> None:
    client = getattr(emb, "client", None)
    if client is not None:
        client.close()


def _check_context(emb, texts) -> None:
    """For Ollama: ask the server for the model's context, warn about the chunks (``texts()``)
    that may not fit, and stop at once for a model that is not there."""
    from ..embed.ollama import ModelNotFound, NotOllama, OllamaEmbedder, OllamaError

    if not isinstance(emb, OllamaEmbedder):
        return
    context = None
    try:
        context = emb.client.show_context_length(emb.model)
    except (ModelNotFound, NotOllama) as e:
        err(f"error: {e}")
        sys.exit(1)
    except OllamaError:
        pass  # server down or old: fall back to the table, the run will retry
    warn_context(texts(), emb.model, context)


def embed_into_store(chunks_file, target, table, emb, spec, url, batch_size) -> int:
    """The chunks of a JSONL file into a store, streamed a document at a time (rows of one
    document follow each other, as 'norishiro chunk' writes them); the exit code."""
    store = open_target(target, table)
    with open(chunks_file, "rb") as f:
        total = sum(1 for line in f if line.strip())
    progress = _progress()
    try:
        task = progress.add_task("embed", total=total)
        indexer = make_indexer(store, emb, spec, url, batch_size, lambda k: progress.advance(task, k))
        with progress:
            rep = indexer.run(_documents(chunks_file))
    except NorishiroError as e:  # a bad line, or a document's rows apart: the documents before it are written
        err(f"error: {describe(e)}; the documents before it were written")
        return 1
    finally:
        _close(emb)
        store.close()
    report_index(rep, store.target)
    if rep.stopped == "interrupted":
        return 130
    return 1 if rep.stopped or rep.failed else 0


def _documents(chunks_file):
    """``(doc_id, rows)`` for each run of consecutive rows with the same document id."""
    from ..rows import read_chunk_rows
    from ..stores import row_from_chunk

    doc, rows = None, []
    for _, c in read_chunk_rows(chunks_file):
        if c.doc_id != doc and rows:
            yield doc, rows
            rows = []
        doc = c.doc_id
        rows.append(row_from_chunk(c.to_dict()))
    if rows:
        yield doc, rows
