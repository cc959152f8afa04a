"""``norishiro embed``: a chunks file to vectors, resumably, through Ollama or offline."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from ..config import DEFAULT_MODEL, DEFAULT_OLLAMA_URL
from ..errors import NorishiroError
from .common import CONTEXT, console, describe, err, usage_error
from .stats import warn_context


@click.command("embed", context_settings=CONTEXT)
@click.argument("chunks_file", type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--output",
    "-o",
    required=True,
    type=click.Path(dir_okay=False),
    help="OUT.jsonl, OUT.parquet, or OUT.npy (with OUT.ids.txt). Re-running with the same "
    "OUT embeds only what is missing.",
)
@click.option(
    "--embedder",
    default="ollama",
    show_default=True,
    help="ollama (the server at --ollama-url), local (multilingual-e5-small, offline), or hash (lexical, no model).",
)
@click.option("--model", default=DEFAULT_MODEL, show_default=True, help="Ollama model.")
@click.option("--ollama-url", default=DEFAULT_OLLAMA_URL, show_default=True)
@click.option("--batch-size", default=16, show_default=True, type=click.IntRange(min=1), help="Chunks per request.")
@click.option(
    "--retries",
    default=4,
    show_default=True,
    type=click.IntRange(min=0),
    help="Retries (with exponential back-off) on refused connections, time-outs and 5xx.",
)
@click.option(
    "--timeout",
    default=120.0,
    show_default=True,
    type=click.FloatRange(min=0, min_open=True),
    help="Seconds for each whole request (a server that answers slowly, byte by byte, is cut off too).",
)
def embed_cmd(chunks_file, output, embedder, model, ollama_url, batch_size, retries, timeout):
    """Embed the chunks of CHUNKS_FILE (JSONL from 'norishiro chunk') and keep every vector.

    Sends batches to Ollama's /api/embed with "truncate": false, so a chunk that does not
    fit fails loudly (it is named with its size and left out) instead of being cut. Retries
    on connection errors, time-outs and 5xx. Resumable: an interrupted run (server crash,
    Ctrl-C) keeps every vector already written; run the same command again to embed only
    the rest. Exit code 1 while anything is left unembedded.

    \b
    Examples:
      norishiro embed chunks.jsonl --model bge-m3 -o vectors.jsonl
      norishiro embed chunks.jsonl --embedder local -o vectors.npy
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from ..embed.runner import VectorLogError, VectorStore, read_chunk_rows, run_embedding

    if Path(output).resolve() == Path(chunks_file).resolve():
        raise click.UsageError(f"-o {output} is the chunks file itself; write the vectors to another file")
    identity = f"ollama:{model}" if embedder == "ollama" else embedder
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
        store = VectorStore(output, model=identity, chunks=Path(chunks_file).name)
    except VectorLogError as e:
        raise click.UsageError(str(e)) from None
    except (NorishiroError, OSError) as e:
        err(f"error: {e}")
        sys.exit(1)
    except ImportError as e:
        raise click.UsageError(str(e)) from None
    client = None
    if embedder == "ollama":
        from ..embed.ollama import ModelNotFound, NotOllama, OllamaClient, OllamaError

        try:
            client = OllamaClient(ollama_url, timeout=timeout, retries=retries)
        except NorishiroError as e:
            raise usage_error(e) from None
        todo = [j.text for j in jobs if j.id not in store.done]
        context = None
        try:
            context = client.show_context_length(model)
        except (ModelNotFound, NotOllama) as e:
            err(f"error: {e}")
            sys.exit(1)
        except OllamaError:
            pass  # server down or old: fall back to the table, the run will retry

        warn_context(todo, model, context)

        def embed_batch(texts):
            return client.embed(model, texts, truncate=False)
    else:
        from ..embed import get_embedder

        try:
            emb = get_embedder(embedder)
        except NorishiroError as e:
            raise usage_error(e) from None
        except ImportError as e:
            raise click.UsageError(str(e)) from None

        def embed_batch(texts):
            return emb.embed_documents(texts)

    progress = Progress(
        TextColumn("embedding"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), console=console()
    )
    try:
        with progress:
            done = sum(1 for j in jobs if j.id in store.done)
            task = progress.add_task("embed", total=len(jobs), completed=done)
            res = run_embedding(jobs, embed_batch, store, batch_size, on_progress=lambda k: progress.advance(task, k))
    except NorishiroError as e:  # a final answer: what is written stays
        err(f"error: {describe(e)}")
        sys.exit(1)
    finally:
        if client:
            client.close()
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
