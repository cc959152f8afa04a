"""Command line: a thin layer over the library (parse, call, print).

Exit codes: 0 success; 1 some input could not be processed (the rest was); 2 usage error.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Iterable, TextIO

import click

from . import __version__
from .api import ChunkOptionsError, iter_chunks, segment, validate_options
from .boundaries import LEVEL_NAMES
from .chunkers import STRATEGIES
from .document import BinaryFileError, Document, DocumentError, decode_bytes, iter_paths, load_document
from .sizing import get_sizer

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def _err(msg: str) -> None:
    click.echo(msg, err=True)


def _sizer_or_exit(unit: str, tokenizer: str | None):
    try:
        return get_sizer(unit, tokenizer)
    except (ValueError, OSError) as e:
        raise click.UsageError(str(e)) from None


def _chunk_with_ray(paths, job, output, address, stats, problems) -> None:
    """Chunk files on Ray Data and write a Parquet dataset (overwriting OUTDIR's files)."""
    try:
        import ray
    except ImportError:
        raise click.UsageError("--engine ray needs Ray: pip install 'norishiro[ray]'") from None
    from .scale import ray_chunk_dataset

    files = []
    for raw in paths:
        if not Path(raw).exists():
            problems.append(f"{raw}: no such file or directory")
            _err(f"error: {problems[-1]}")
        files += [str(p) for p in iter_paths([raw])]
    if not files:
        return
    started = not ray.is_initialized()
    if started:
        ray.init(address=address, ignore_reinit_error=True, log_to_driver=False, logging_level="warning",
                 **({} if address else {"num_cpus": os.cpu_count() or 2}))
    try:
        ctx = ray.data.DataContext.get_current()
        ctx.execution_options.preserve_order = True
        ctx.enable_progress_bars = False
        ds = ray.data.from_items([{"path": f, "doc_id": Path(f).as_posix()} for f in files])
        out = ray_chunk_dataset(ds, job)
        outdir = Path(output)
        outdir.mkdir(parents=True, exist_ok=True)
        for old in outdir.glob("*.parquet"):
            old.unlink()  # overwrite: a re-run does not add rows
        out.write_parquet(str(outdir))
        import pyarrow.parquet as pq

        table = pq.read_table(str(outdir), columns=["size"])
        for size in table.column("size").to_pylist():
            stats.add({"size": size})
        stats.docs = len(files)
    finally:
        if started and not address:
            ray.shutdown()


def _parse_meta(items: tuple[str, ...]) -> dict[str, str]:
    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise click.UsageError(f"--meta {item!r}: write KEY=VALUE, e.g. --meta patient_id=12345")
        out[key.strip()] = value.strip()
    return out


def _chunking_setup(size, overlap, strategy, unit, tokenizer, sem_embedder, sem_method, sem_param, sem_window,
                    sem_plot, ollama_url):
    """Validate the chunk options shared by chunk and lint: (unit, sizer, semantic options)."""
    try:
        validate_options(size, overlap, strategy)
    except ChunkOptionsError as e:
        raise click.UsageError(str(e)) from None
    if tokenizer:
        unit = "tokens"
    sizer = _sizer_or_exit(unit, tokenizer)
    sem = _semantic_options(strategy, sem_embedder, sem_method, sem_param, sem_window, sem_plot, ollama_url)
    return unit, sizer, sem


def _semantic_options(strategy, embedder, method, param, window, plot, ollama_url) -> dict | None:
    if strategy != "semantic":
        return None
    from .embed import get_embedder
    from .embed.cache import EmbeddingCache

    try:
        emb = get_embedder(embedder, url=ollama_url) if embedder.startswith("ollama:") else get_embedder(embedder)
    except (ValueError, ImportError) as e:
        raise click.UsageError(f"--embedder: {e}") from None
    if window < 0:
        raise click.UsageError("--window must be >= 0")
    if plot and not plot.lower().endswith((".html", ".png")):
        raise click.UsageError("--plot takes a .html or .png file name")
    return {"embedder": emb, "method": method, "param": param, "window": window, "cache": EmbeddingCache(),
            "_traces": []}


def _write_plots(sem: dict, plot: str) -> None:
    from .plot import similarity_plot

    traces = sem["_traces"]
    base = Path(plot)
    for i, (doc_id, tr) in enumerate(traces):
        p = base if len(traces) == 1 else base.with_name(f"{base.stem}-{i}{base.suffix}")
        try:
            similarity_plot(tr, p, title=str(doc_id))
            _err(f"plot: {p}")
        except RuntimeError as e:
            _err(f"error: {e}")


def _doc_chunks(doc, size, overlap, strategy, sizer, header_keys, header_template, cross_sections,
                no_structure, section_labels, problems, sem=None):
    """The chunks of one document with the structure and header options; a header that does
    not fit is reported for this document and the others go on."""
    from .context import ContextHeaderError

    semantic = None
    if sem:
        from .chunkers.semantic import SemanticTrace

        trace = SemanticTrace()
        sem["_traces"].append((doc.id, trace))
        semantic = {k: v for k, v in sem.items() if not k.startswith("_")}
        # one trace per document: the whole text is one region when it is plotted
        semantic["trace"] = trace
    try:
        yield from iter_chunks(
            doc, size=size, overlap=overlap, strategy=strategy, tokenizer=sizer,
            header_keys=header_keys.split(",") if header_keys else None, header_template=header_template,
            structure=not no_structure, cross_sections=cross_sections,
            section_labels=section_labels.split(",") if section_labels else None, semantic=semantic)
    except ContextHeaderError as e:
        problems.append(str(e))
        _err(f"error: {e}")


def _load_inputs(paths: tuple[str, ...], encoding: str, problems: list[str],
                 extra_meta: dict | None = None) -> Iterable[Document]:
    """Documents from files, directories (walked, sorted) and '-' (stdin), one at a time."""
    if not paths:
        paths = ("-",)
    for raw in paths:
        if raw == "-":
            data = sys.stdin.buffer.read()
            try:
                text = decode_bytes(data, "<stdin>", encoding)
                yield Document.from_text(text, id="stdin", source="<stdin>", front_matter=True,
                                         metadata=extra_meta)
            except DocumentError as e:
                problems.append(str(e))
                _err(f"error: {e}")
            continue
        if not Path(raw).exists():
            problems.append(f"{raw}: no such file or directory")
            _err(f"error: {raw}: no such file or directory")
            continue
        for path in iter_paths([raw]):
            try:
                yield load_document(path, encoding=encoding, metadata=extra_meta)
            except BinaryFileError as e:
                _err(f"warning: {e}")
            except DocumentError as e:
                problems.append(str(e))
                _err(f"error: {e}")


def _chunk_options(f):
    opts = [
        click.option("--size", "-s", type=int, default=512, show_default=True,
                     help="Largest chunk, in --unit (the header, when one is added, counts too)."),
        click.option("--overlap", type=int, default=0, show_default=True,
                     help="Units repeated from the end of one chunk at the start of the next "
                          "(whole sentences, clauses or words; never a partial unit)."),
        click.option("--strategy", type=click.Choice(sorted(STRATEGIES)), default="recursive",
                     show_default=True,
                     help="recursive: cut at the largest boundary that fits; fixed: windows "
                          "advancing by size - overlap."),
        click.option("--unit", type=click.Choice(["chars", "tokens"]), default="chars", show_default=True,
                     help="What --size and --overlap count."),
        click.option("--tokenizer", default=None, metavar="NAME|PATH",
                     help="o200k_base (default for tokens), cl100k_base, or a tokenizer.json path. "
                          "Implies --unit tokens. Nothing is downloaded."),
        click.option("--encoding", default="utf-8", show_default=True,
                     help="Text encoding of the input files (e.g. cp932 for Shift_JIS)."),
        click.option("--header-keys", default=None, metavar="KEYS",
                     help="Put a context header in front of every chunk's embed_text, e.g. "
                          "patient_id,date,section ('section' is the section path). The header "
                          "counts against --size."),
        click.option("--header-template", default=None, metavar="FMT",
                     help="Header format instead of '(Metadata: Patient_ID=..., Date=...)', e.g. "
                          "'[{patient_id} {date}] {section}'."),
        click.option("--meta", "meta", multiple=True, metavar="KEY=VALUE",
                     help="Metadata added to every document (repeatable); also read from YAML front "
                          "matter and NAME.meta.json."),
        click.option("--cross-sections", is_flag=True,
                     help="Let chunks run across section boundaries (headings, 【labels】, S：...)."),
        click.option("--no-structure", is_flag=True,
                     help="Treat files as plain text: no sections, code blocks or tables."),
        click.option("--section-labels", default=None, metavar="LABELS",
                     help="More section names recognised before a colon, e.g. 申し送り,Impression."),
        click.option("--embedder", "sem_embedder", default="local", show_default=True,
                     help="For --strategy semantic: local (offline e5-small), hash (lexical, no "
                          "model) or ollama:MODEL."),
        click.option("--breakpoint", "sem_method", default="percentile", show_default=True,
                     type=click.Choice(["percentile", "stdev", "interquartile", "gradient", "threshold"]),
                     help="For semantic: how similarity dips become cuts."),
        click.option("--breakpoint-param", "sem_param", type=float, default=None,
                     help="Percentile (90), k for stdev/IQR (1.5), or the similarity threshold (0.6)."),
        click.option("--window", "sem_window", type=int, default=0, show_default=True,
                     help="For semantic: neighbours on each side embedded with a sentence."),
        click.option("--plot", "sem_plot", default=None, metavar="FILE.html|FILE.png",
                     help="For semantic: draw the similarity curve, threshold and cuts."),
    ]
    for o in reversed(opts):
        f = o(f)
    return f


@click.group(context_settings=CONTEXT)
@click.version_option(__version__, prog_name="norishiro")
def main() -> None:
    """Chunk documents for RAG without cutting the facts inside them apart.

    \b
    Typical use:
      norishiro chunk docs/ --size 400 --overlap 60 -o chunks.jsonl
      norishiro chunk notes.md --unit tokens --tokenizer o200k_base --size 256
      norishiro segment --level sentence notes.md --format text
      norishiro plan --tokens 8000 --size 512 --overlap 64
    """


@main.command("chunk", context_settings=CONTEXT)
@click.argument("paths", nargs=-1, type=str)
@_chunk_options
@click.option("--format", "fmt", type=click.Choice(["jsonl", "json", "text", "ollama", "curl", "parquet"]),
              default="jsonl", show_default=True,
              help="jsonl: one object per chunk; json: one array; text: for reading; ollama: the "
                   "/api/embed request body; curl: a ready curl command for it; parquet: a Parquet "
                   "dataset in the -o folder (same columns as jsonl).")
@click.option("--workers", type=int, default=1, show_default=True,
              help="Processes chunking files in parallel; the output is identical to --workers 1.")
@click.option("--engine", type=click.Choice(["local", "ray"]), default="local", show_default=True,
              help="ray: run on Ray Data (norishiro[ray]); with --format parquet -o OUTDIR.")
@click.option("--ray-address", default=None, metavar="ray://HOST:PORT",
              help="An existing Ray cluster (default: start a local one).")
@click.option("--model", default="embeddinggemma", show_default=True,
              help="Embedding model named in the ollama/curl request.")
@click.option("--ollama-url", default="http://localhost:11434", show_default=True,
              help="Ollama server for the curl line.")
@click.option("--truncate/--no-truncate", default=False, show_default=True,
              help="--no-truncate (default) sends \"truncate\": false so Ollama fails on a chunk that "
                   "does not fit instead of cutting it silently.")
@click.option("--output", "-o", type=click.Path(writable=True), default=None,
              help="Write here instead of standard output (a folder for --format parquet).")
@click.option("--quiet", "-q", is_flag=True, help="No summary on standard error.")
def chunk_cmd(paths, size, overlap, strategy, unit, tokenizer, encoding, header_keys, header_template, meta,
              cross_sections, no_structure, section_labels, sem_embedder, sem_method, sem_param, sem_window,
              sem_plot, fmt, workers, engine, ray_address, model, ollama_url, truncate, output, quiet):
    """Split PATHS (files, directories, or - for standard input) into chunks.

    Each JSONL line holds doc_id, id, index, start, end, size and text; start and end are
    exact offsets into the document body (front matter removed). A summary (documents,
    chunks, longest, mean fill) goes to standard error. A file that cannot be decoded is
    reported with its byte offset and skipped; the others are still written, and the exit
    code is 1.
    """
    unit, sizer, sem = _chunking_setup(size, overlap, strategy, unit, tokenizer, sem_embedder, sem_method,
                                       sem_param, sem_window, sem_plot, ollama_url)
    problems: list[str] = []
    if workers < 1:
        raise click.UsageError("--workers must be at least 1")
    parallel = workers > 1 or engine == "ray"
    if parallel and (sem or "-" in paths or not paths):
        raise click.UsageError("--workers/--engine ray take files or folders, and not --strategy semantic")
    if (fmt == "parquet" or engine == "ray") and not output:
        raise click.UsageError("--format parquet and --engine ray write a folder: give -o OUTDIR")
    if engine == "ray" and fmt != "parquet":
        raise click.UsageError("--engine ray writes Parquet: add --format parquet")
    if output and fmt != "parquet" and Path(output).is_dir():
        raise click.UsageError(f"-o {output} is a folder; give a file name (folders are for --format parquet)")
    from .scale import ChunkJob

    job = ChunkJob(size, overlap, strategy, unit, tokenizer if unit == "tokens" else None,
                   header_keys.split(",") if header_keys else None, header_template, not no_structure,
                   cross_sections, section_labels.split(",") if section_labels else None, encoding,
                   _parse_meta(meta))
    stats = _Stats(size)
    if engine == "ray":
        _chunk_with_ray(paths, job, output, ray_address, stats, problems)
        if not quiet:
            stats.report(sizer.unit, output)
        if problems:
            sys.exit(1)
        return

    def rows():
        if parallel:
            from .scale import parallel_chunk_rows

            files = []
            for raw in paths:
                if not Path(raw).exists():
                    problems.append(f"{raw}: no such file or directory")
                    _err(f"error: {problems[-1]}")
                files += list(iter_paths([raw]))
            for _path, got, err in parallel_chunk_rows(files, job, workers):
                if err and err.startswith("warning:"):
                    _err(err)
                elif err:
                    problems.append(err)
                    _err(f"error: {err}")
                else:
                    stats.docs += 1
                    yield from got
            return
        for doc in _load_inputs(paths, encoding, problems, job.extra_meta):
            stats.docs += 1
            for c in _doc_chunks(doc, size, overlap, strategy, sizer, header_keys, header_template,
                                 cross_sections, no_structure, section_labels, problems, sem):
                yield c.to_dict()

    if fmt == "parquet":
        from .scale import write_parquet_dataset

        try:
            write_parquet_dataset((stats.add(r) or r for r in rows()), output)
        except ImportError:
            raise click.UsageError("--format parquet needs pyarrow: pip install 'norishiro[parquet]'") from None
    else:
        out: TextIO = open(output, "w", encoding="utf-8") if output else sys.stdout
        inputs: list[str] = []
        try:
            if fmt == "json":
                out.write("[")
            first = True
            for r in rows():
                stats.add(r)
                if fmt in ("ollama", "curl"):
                    inputs.append(r["embed_text"])
                elif fmt == "jsonl":
                    out.write(json.dumps(r, ensure_ascii=False) + "\n")
                elif fmt == "json":
                    out.write(("\n" if first else ",\n") + json.dumps(r, ensure_ascii=False))
                else:
                    out.write(f"--- {r['doc_id']} #{r['index']} [{r['start']}:{r['end']}] {r['size']} "
                              f"{sizer.unit}\n{r['text']}\n")
                first = False
            if fmt == "json":
                out.write("\n]\n")
            elif fmt in ("ollama", "curl"):
                from .export import curl_command, ollama_body_json

                _warn_context(inputs, model)
                text = (ollama_body_json(inputs, model, truncate) if fmt == "ollama"
                        else curl_command(inputs, model, truncate, ollama_url))
                out.write(text + "\n")
            if sem and sem_plot:
                _write_plots(sem, sem_plot)
        finally:
            if output:
                out.close()
    if not quiet:
        stats.report(sizer.unit, output)
    if stats.over:
        _err(f"warning: {stats.over} chunk(s) exceed the budget: each is a single grapheme larger "
             f"than {size} {sizer.unit}; raise --size")
    if problems:
        _err(f"{len(problems)} input(s) failed; the rest was written. Fix them and run again.")
        sys.exit(1)


def _warn_context(texts: list[str], model: str, context: int | None = None) -> int:
    """Warn about texts that may not fit the model's context window; returns how many."""
    from .embed.ollama import context_length
    from .sizing import TiktokenSizer

    context = context or context_length(model)
    if not context or not texts:
        return 0
    est = TiktokenSizer("o200k_base")
    risky = [(i, n) for i, n in ((i, est.count(t)) for i, t in enumerate(texts)) if n > 0.9 * context]
    for i, n in risky[:5]:
        _err(f"warning: input {i} has {n} o200k tokens; {model} takes {context} tokens and counts with its "
             "own tokenizer: it may not fit (lower --size or use --unit tokens)")
    if len(risky) > 5:
        _err(f"warning: {len(risky) - 5} more inputs may not fit {model}'s context of {context} tokens")
    return len(risky)


class _Stats:
    def __init__(self, size: int):
        self.size = size
        self.docs = 0
        self.chunks = 0
        self.longest = 0
        self.total = 0
        self.over = 0

    def add(self, c) -> None:
        size = c["size"] if isinstance(c, dict) else c.size
        self.chunks += 1
        self.total += size
        self.longest = max(self.longest, size)
        if size > self.size:
            self.over += 1

    def report(self, unit: str, output: str | None) -> None:
        from rich.console import Console
        from rich.table import Table

        t = Table(title="norishiro chunk", show_header=True)
        for col in ("documents", "chunks", f"longest ({unit})", f"mean size ({unit})", "mean fill"):
            t.add_column(col, justify="right")
        mean = self.total / self.chunks if self.chunks else 0.0
        t.add_row(str(self.docs), str(self.chunks), str(self.longest), f"{mean:.1f}",
                  f"{mean / self.size:.0%}" if self.chunks else "-")
        console = Console(stderr=True)
        console.print(t)
        if output:
            console.print(f"wrote {self.chunks} chunks to {output}")


@main.command("segment", context_settings=CONTEXT)
@click.argument("paths", nargs=-1, type=str)
@click.option("--level", type=click.Choice(LEVEL_NAMES[:-1]), default="sentence", show_default=True,
              help="Which units to print.")
@click.option("--format", "fmt", type=click.Choice(["jsonl", "text"]), default="jsonl", show_default=True)
@click.option("--encoding", default="utf-8", show_default=True)
def segment_cmd(paths, level, fmt, encoding):
    """Print the units (paragraphs, lines, sentences, clauses or words) of PATHS.

    Shows where boundaries fall: each unit's start, end and text, separators included, so
    that the units concatenate back to the document.
    """
    problems: list[str] = []
    for doc in _load_inputs(paths, encoding, problems):
        for i, u in enumerate(segment(doc, level)):
            if fmt == "jsonl":
                click.echo(json.dumps({"doc_id": doc.id, "index": i, **u}, ensure_ascii=False))
            else:
                click.echo(f"{doc.id}\t{u['start']}\t{u['end']}\t{u['text']!r}")
    if problems:
        sys.exit(1)


@main.command("embed", context_settings=CONTEXT)
@click.argument("chunks_file", type=click.Path(exists=True, dir_okay=False))
@click.option("--output", "-o", required=True, type=click.Path(dir_okay=False),
              help="OUT.jsonl, OUT.parquet, or OUT.npy (with OUT.ids.txt). Re-running with the same "
                   "OUT embeds only what is missing.")
@click.option("--embedder", default="ollama", show_default=True,
              help="ollama (the server at --ollama-url), local (multilingual-e5-small, offline), "
                   "or hash (lexical, no model).")
@click.option("--model", default="embeddinggemma", show_default=True, help="Ollama model.")
@click.option("--ollama-url", default="http://localhost:11434", show_default=True)
@click.option("--batch-size", default=16, show_default=True, help="Chunks per request.")
@click.option("--retries", default=4, show_default=True,
              help="Retries (with exponential back-off) on refused connections, time-outs and 5xx.")
@click.option("--timeout", default=120.0, show_default=True, help="Seconds per request.")
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

    from .embed.runner import VectorStore, read_chunk_rows, run_embedding

    if batch_size <= 0:
        raise click.UsageError("--batch-size must be at least 1")
    try:
        jobs = read_chunk_rows(chunks_file)
        store = VectorStore(output)
    except (ValueError, OSError) as e:
        raise click.UsageError(str(e)) from None
    except ImportError:
        raise click.UsageError("writing .parquet needs pyarrow: pip install 'norishiro[parquet]'") from None
    client = None
    if embedder == "ollama":
        from .embed.ollama import ModelNotFound, OllamaClient, OllamaError

        client = OllamaClient(ollama_url, timeout=timeout, retries=retries)
        todo = [j.text for j in jobs if j.id not in store.done]
        context = None
        try:
            context = client.show_context_length(model)
        except ModelNotFound as e:
            _err(f"error: {e}")
            sys.exit(1)
        except OllamaError:
            pass  # server down or old: fall back to the table, the run will retry
        _warn_context(todo, model, context)

        def embed_batch(texts):
            return client.embed(model, texts, truncate=False)
    else:
        from .embed import get_embedder

        try:
            emb = get_embedder(embedder)
        except (ValueError, ImportError) as e:
            raise click.UsageError(str(e)) from None

        def embed_batch(texts):
            return emb.embed_documents(texts).tolist()

    progress = Progress(TextColumn("embedding"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                        console=__import__("rich.console", fromlist=["Console"]).Console(stderr=True))
    try:
        with progress:
            task = progress.add_task("embed", total=len(jobs), completed=len(jobs) - sum(
                1 for j in jobs if j.id not in store.done))
            res = run_embedding(jobs, embed_batch, store, batch_size,
                                on_progress=lambda k: progress.advance(task, k))
    except Exception as e:  # ModelNotFound and other final answers: what is written stays
        from .embed.ollama import OllamaError

        if isinstance(e, OllamaError):
            _err(f"error: {e}")
            sys.exit(1)
        raise
    finally:
        if client:
            client.close()
    _err(f"{res.total} chunks: {res.already} already in {output}, {res.embedded} embedded now, "
         f"{len(res.failed)} rejected, {res.left - len(res.failed)} not reached")
    for cid, why in res.failed[:10]:
        _err(f"rejected chunk {cid}: {why}; re-chunk with a smaller --size")
    if res.stopped:
        _err(f"stopped early: {res.stopped}. Run the same command again to continue.")
    if not res.complete:
        sys.exit(1)


def _eval_setup(embedder: str, ollama_url: str, cache: str):
    from .embed import get_embedder
    from .embed.cache import EmbeddingCache

    try:
        emb = get_embedder(embedder, url=ollama_url) if embedder.startswith("ollama:") else get_embedder(embedder)
    except (ValueError, ImportError) as e:
        raise click.UsageError(f"--embedder: {e}") from None
    return emb, EmbeddingCache(None if cache in ("", "none") else cache)


def _run_eval(data, configs, embedder, k, cache, metric_unit, tokenizer, ollama_url):
    from rich.progress import Progress

    from .evaluate import evaluate_config, load_dataset

    try:
        ds = load_dataset(data)
    except (ValueError, OSError, KeyError) as e:
        raise click.UsageError(f"{data}: {e}") from None
    if not ds.questions:
        raise click.UsageError(f"{data}: no questions with references found")
    emb, store = _eval_setup(embedder, ollama_url, cache)
    rows = []
    with Progress(console=__import__("rich.console", fromlist=["Console"]).Console(stderr=True)) as bar:
        task = bar.add_task("evaluating", total=len(configs))
        for cfg in configs:
            bar.update(task, description=cfg.label[:50])
            try:
                rows.append(evaluate_config(ds, cfg, emb, k=k, cache=store, metric_unit=metric_unit,
                                            tokenizer=tokenizer))
            except (ValueError, ImportError) as e:
                raise click.UsageError(f"config {cfg.label!r}: {e}") from None
            bar.advance(task)
    store.close()
    return ds, rows, emb


def _print_eval(rows, title: str) -> None:
    from rich.console import Console
    from rich.table import Table

    t = Table(title=title)
    for col in ("config", "chunks", "mean size", "recall", "precision", "IoU", "precision-Ω", "frag/1k"):
        t.add_column(col, justify="left" if col == "config" else "right", no_wrap=True)
    for r in rows:
        t.add_row(r.short, str(r.chunks), f"{r.mean_size:.0f}", f"{r.recall:.3f}±{r.recall_se:.3f}",
                  f"{r.precision:.3f}±{r.precision_se:.3f}", f"{r.iou:.3f}±{r.iou_se:.3f}",
                  f"{r.precision_omega:.3f}±{r.precision_omega_se:.3f}", f"{r.fragmentation_per_1000:.1f}")
    Console().print(t)


_EVAL_OPTS = [
    click.option("-k", "k", default=5, show_default=True, help="Chunks retrieved per question."),
    click.option("--embedder", default="local", show_default=True,
                 help="local (offline multilingual e5-small), hash (lexical, no model) or ollama:MODEL."),
    click.option("--ollama-url", default="http://localhost:11434", show_default=True),
    click.option("--metric-unit", type=click.Choice(["chars", "tokens"]), default="chars", show_default=True,
                 help="Measure excerpts and chunks in characters or tokens (of --metric-tokenizer)."),
    click.option("--metric-tokenizer", default=None, help="Tokenizer for --metric-unit tokens (o200k_base)."),
    click.option("--cache", default=".norishiro-cache/embeddings.sqlite", show_default=True,
                 help="Embedding cache (by model and content hash); 'none' keeps it in memory."),
    click.option("--json", "as_json", is_flag=True, help="Machine-readable output."),
]


def _eval_options(f):
    for o in reversed(_EVAL_OPTS):
        f = o(f)
    return f


@main.command("eval", context_settings=CONTEXT)
@click.argument("data", type=click.Path(exists=True))
@click.option("--config", "configs", multiple=True, required=True, metavar="SPEC",
              help='A chunking configuration, e.g. "recursive size=256 overlap=0 unit=tokens" '
                   '(strategies: recursive, fixed, semantic, langchain; overlap may be a fraction). '
                   "Repeat for more rows.")
@_eval_options
def eval_cmd(data, configs, k, embedder, ollama_url, metric_unit, metric_tokenizer, cache, as_json):
    """Measure the retrieval quality of chunking configurations on DATA.

    DATA is a folder of NAME.md/.txt documents with NAME.qa.json questions (reference
    excerpts as body offsets), or Chroma's format (questions_df.csv and corpora/). For each
    question the top -k chunks of one pool are retrieved by cosine similarity; recall,
    precision, IoU and precision-Ω (Chroma's definitions) are averaged with standard errors,
    beside lint's fragmentation findings per 1,000 boundaries. Embeddings are cached, so a
    re-run or an added configuration embeds only what is new.

    \b
    Example:
      norishiro eval ../shared/samples/ja-clinical --config "recursive size=256 unit=tokens" \\
          --config "fixed size=256 unit=tokens" --embedder local
    """
    from .evaluate import parse_config

    try:
        cfgs = [parse_config(c) for c in configs]
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    ds, rows, emb = _run_eval(data, cfgs, embedder, k, cache, metric_unit, metric_tokenizer, ollama_url)
    if as_json:
        click.echo(json.dumps({"data": str(data), "embedder": emb.name, "k": k, "questions": len(ds.questions),
                               "rows": [r.to_dict() for r in rows]}, ensure_ascii=False, indent=2))
    else:
        _print_eval(rows, f"norishiro eval: {len(ds.documents)} documents, {len(ds.questions)} questions, "
                          f"k={k}, {emb.name}")


@main.command("tune", context_settings=CONTEXT)
@click.argument("data", type=click.Path(exists=True))
@click.option("--strategies", default="recursive,fixed", show_default=True)
@click.option("--sizes", default="128,256,512", show_default=True)
@click.option("--overlaps", default="0,0.1,0.2", show_default=True,
              help="Whole numbers, or fractions of the size.")
@click.option("--unit", type=click.Choice(["chars", "tokens"]), default="tokens", show_default=True)
@click.option("--tokenizer", default=None)
@click.option("--objective", type=click.Choice(["iou", "recall", "precision", "precision_omega"]),
              default="iou", show_default=True)
@click.option("--plot", "plot_path", default="tune.png", show_default=True,
              help="PNG of the objective against chunk size per strategy ('' for none).")
@_eval_options
def tune_cmd(data, strategies, sizes, overlaps, unit, tokenizer, objective, plot_path, k, embedder, ollama_url,
             metric_unit, metric_tokenizer, cache, as_json):
    """Run a grid of configurations on DATA and name the best for --objective.

    \b
    Example:
      norishiro tune ../shared/samples/ja-clinical --strategies recursive,semantic \\
          --sizes 128,256,512 --overlaps 0,0.1 --objective iou
    """
    from .evaluate import grid

    try:
        cfgs = grid([x.strip() for x in strategies.split(",") if x.strip()],
                    [int(x) for x in sizes.split(",")], [float(x) for x in overlaps.split(",")], unit, tokenizer)
    except ValueError as e:
        raise click.UsageError(f"--sizes/--overlaps: {e}") from None
    ds, rows, emb = _run_eval(data, cfgs, embedder, k, cache, metric_unit, metric_tokenizer, ollama_url)
    best = max(rows, key=lambda r: getattr(r, objective))
    if plot_path:
        from .plot import metric_plot

        try:
            metric_plot([r.to_dict() for r in rows], objective, plot_path,
                        title=f"{objective} by chunk size ({emb.name}, k={k})")
        except RuntimeError as e:
            _err(f"warning: {e}")
            plot_path = ""
    if as_json:
        click.echo(json.dumps({"objective": objective, "best": best.to_dict(), "plot": plot_path or None,
                               "rows": [r.to_dict() for r in rows]}, ensure_ascii=False, indent=2))
        return
    _print_eval(rows, f"norishiro tune: {len(rows)} configurations, objective {objective}")
    click.echo(f"best for {objective}: {best.config} ({objective} {getattr(best, objective):.3f})")
    if plot_path:
        click.echo(f"plot: {plot_path}")


@main.command("serve", context_settings=CONTEXT)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Interface to bind. The default keeps the page on this machine only.")
@click.option("--port", default=8765, show_default=True)
def serve_cmd(host, port):
    """A local web page to chunk, inspect, plan and export (needs norishiro[serve]).

    Paste or open a text, choose size, overlap, unit, strategy and header keys, and see
    every chunk with its size and offset, the document with boundaries, overlaps and lint
    findings marked, the Ollama JSON body and curl line to copy, and the chunk planner.
    The page loads nothing from the internet and its text never leaves this machine.
    """
    try:
        from .web.app import serve
    except ImportError:
        raise click.UsageError("the web page needs FastAPI and uvicorn: pip install 'norishiro[serve]'") from None
    if host not in ("127.0.0.1", "localhost", "::1"):
        _err(f"warning: binding to {host}: other machines on the network can open the page")
    click.echo(f"norishiro: http://{'localhost' if host in ('127.0.0.1', '::1') else host}:{port}/  (Ctrl-C to stop)",
               err=True)
    serve(host, port)


def _read_chunks_jsonl(path: str) -> dict[str, list]:
    """Chunks from a JSONL file, grouped by doc_id, in file order."""
    from .chunk import Chunk
    from .jsonl import iter_jsonl

    by_doc: dict[str, list] = {}
    try:
        for line_no, d in iter_jsonl(path):
            try:
                c = Chunk(d["text"], int(d["start"]), int(d["end"]), int(d.get("index", 0)),
                          int(d.get("size", len(d["text"]))), str(d.get("doc_id", "")))
            except (KeyError, TypeError, ValueError) as e:
                raise ValueError(f"{path}: line {line_no}: not a chunk object ({e}); each line needs "
                                 "text, start, end") from None
            by_doc.setdefault(c.doc_id, []).append(c)
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    return by_doc


def _text_from_chunks(chunks: list) -> str | None:
    """Rebuild a document from its chunks (possible when they cover it without gaps)."""
    parts, pos = [], 0
    for c in sorted(chunks, key=lambda c: c.start):
        if c.start > pos:
            return None
        if c.end > pos:
            parts.append(c.text[pos - c.start:])
            pos = c.end
    return "".join(parts)


@main.command("lint", context_settings=CONTEXT)
@click.argument("paths", nargs=-1, type=str)
@_chunk_options
@click.option("--chunks", "chunks_file", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Check an existing chunks JSONL instead of chunking PATHS (documents are rebuilt "
                   "from the chunks when PATHS are not given).")
@click.option("--facts", "facts_opt", default=None, metavar="FILE|auto",
              help="Annotated facts (JSON list of {start, end}) that must each lie whole in a chunk; "
                   "'auto' reads NAME.facts.json beside each document.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable report: {summary, findings}.")
@click.option("--fail-on", default="", metavar="KINDS",
              help="Exit 1 when any finding of these kinds exists, e.g. negation,over-budget "
                   "(kinds: negation, double-negation, negative-result, hedge, causal, temporal, "
                   "list-scope, mid-sentence, broken-sentence, broken-fact, tiny, over-budget, "
                   "or 'fragmentation' for the first seven).")
@click.option("--show", default=8, show_default=True, help="Worst cases quoted in the text report.")
def lint_cmd(paths, size, overlap, strategy, unit, tokenizer, encoding, header_keys, header_template, meta,
             cross_sections, no_structure, section_labels, sem_embedder, sem_method, sem_param, sem_window,
             sem_plot, chunks_file, facts_opt, as_json, fail_on, show):
    """Find context fragmentation and report boundary quality.

    A boundary inside a sentence can cut a finding off from its negation (肺癌の疑い | なし),
    a cause from its effect, or a date from its result. Each such boundary is classified by
    the cue on either side; the report also counts boundaries per level (paragraph ... 
    character), the share of chunks that end at a sentence end, sentences and facts that
    no chunk holds whole, and the fill of the chunks. Findings are heuristics to look at,
    reported with a rate per 1,000 boundaries.

    \b
    Examples:
      norishiro lint notes/ --size 200 --strategy fixed
      norishiro lint --chunks chunks.jsonl --fail-on negation,over-budget
    """
    from .lint import ALL_KINDS, FRAGMENTATION_KINDS, LintReport, lint_chunks

    wanted = set()
    for k in filter(None, (x.strip() for x in fail_on.split(","))):
        if k == "fragmentation":
            wanted.update(FRAGMENTATION_KINDS)
        elif k in ALL_KINDS:
            wanted.add(k)
        else:
            raise click.UsageError(f"unknown kind {k!r} in --fail-on; kinds: {', '.join(ALL_KINDS)}")
    if facts_opt and facts_opt != "auto" and not Path(facts_opt).is_file():
        raise click.UsageError(f"--facts {facts_opt}: no such file (give a JSON file or 'auto')")
    unit, sizer, sem = _chunking_setup(size, overlap, strategy, unit, tokenizer, sem_embedder, sem_method,
                                       sem_param, sem_window, None, "http://localhost:11434")
    problems: list[str] = []
    report = LintReport()

    def facts_for(doc) -> list | None:
        if not facts_opt:
            return None
        fp = Path(facts_opt) if facts_opt != "auto" else (
            Path(doc.source).with_name(Path(doc.source).stem + ".facts.json") if doc.source else None)
        if fp is None or not fp.is_file():
            return None
        try:
            return json.loads(fp.read_text(encoding="utf-8"))
        except json.JSONDecodeError as e:
            raise click.UsageError(f"{fp}: line {e.lineno}: invalid JSON ({e.msg})") from None

    if chunks_file:
        by_doc = _read_chunks_jsonl(chunks_file)
        docs = {d.id: d for d in _load_inputs(paths, encoding, problems)} if paths else {}
        for doc_id, chunks in by_doc.items():
            doc = docs.get(doc_id)
            text = doc.text if doc else _text_from_chunks(chunks)
            if text is None:
                problems.append(f"{doc_id}: chunks leave gaps; give the document PATH too")
                _err(f"error: {problems[-1]}")
                continue
            report.merge(lint_chunks(text, chunks, doc_id=doc_id, size=size,
                                     facts=facts_for(doc) if doc else None))
    else:
        if not paths:
            raise click.UsageError("give document PATHS, or --chunks FILE")
        for doc in _load_inputs(paths, encoding, problems, _parse_meta(meta)):
            chunks = list(_doc_chunks(doc, size, overlap, strategy, sizer, header_keys, header_template,
                                      cross_sections, no_structure, section_labels, problems, sem))
            report.merge(lint_chunks(doc.text, chunks, doc_id=doc.id, size=size, facts=facts_for(doc)))
    if as_json:
        click.echo(json.dumps(report.to_dict(), ensure_ascii=False, indent=2))
    else:
        _print_lint(report, show)
    if problems:
        sys.exit(2 if not report.documents else 1)
    if wanted and any(f.kind in wanted for f in report.findings):
        sys.exit(1)


def _print_lint(report, show: int) -> None:
    from rich.console import Console
    from rich.table import Table

    from .lint import ALL_KINDS, FRAGMENTATION_KINDS

    s = report.summary()
    c = Console()
    t = Table(title=f"norishiro lint: {s['documents']} documents, {s['chunks']} chunks, "
                    f"{s['boundaries']} boundaries")
    t.add_column("finding")
    t.add_column("count", justify="right")
    t.add_column("per 1,000 boundaries", justify="right")
    for k in ALL_KINDS:
        if s["findings"][k] or k in FRAGMENTATION_KINDS[:2]:
            t.add_row(k, str(s["findings"][k]), f"{s['per_1000_boundaries'][k]:.1f}")
    c.print(t)
    lv = ", ".join(f"{k} {v}" for k, v in s["boundary_levels"].items())
    c.print(f"boundaries by level: {lv}")
    c.print(f"chunks ending at a sentence end: {s['chunks_ending_at_sentence_end']:.1%}; "
            f"sentences not whole in any chunk: {s['sentences_not_whole']} of {s['sentences']}"
            + (f"; facts not whole: {s['facts_not_whole']} of {s['facts']}" if s["facts"] else ""))
    f = s["fill"]
    if f["mean"] is not None:
        c.print(f"fill: mean {f['mean']:.0%}, p10 {f['p10']:.0%}, median {f['median']:.0%}, p90 {f['p90']:.0%}")
    rank = {k: i for i, k in enumerate(FRAGMENTATION_KINDS)}
    worst = sorted((x for x in report.findings if x.kind in rank), key=lambda x: rank[x.kind])[:show]
    if worst:
        w = Table(title="worst cases (text on both sides of the cut)")
        for col in ("kind", "document", "offset", "left | right"):
            w.add_column(col)
        for x in worst:
            w.add_row(x.kind, Path(x.doc_id).name, str(x.offset),
                      f"…{x.left[-18:]!s} [b]|[/b] {x.right[:18]}…".replace("\n", "⏎"))
        c.print(w)
    c.print("[dim]Findings are heuristics: places to look at, not proofs.[/dim]")


def _fmt_bytes(n: int | None) -> str:
    if n is None:
        return "-"
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024 or unit == "TiB":
            return f"{n:,.0f} {unit}" if unit == "B" else f"{n:,.1f} {unit}"
        n /= 1024
    return str(n)


@main.command("plan", context_settings=CONTEXT)
@click.argument("paths", nargs=-1, type=str)
@click.option("--tokens", "-t", type=int, default=None,
              help="Document length in units (instead of PATHS).")
@click.option("--size", "-s", type=int, default=512, show_default=True, help="Chunk size c.")
@click.option("--overlap", type=int, default=0, show_default=True, help="Overlap o.")
@click.option("--strategy", type=click.Choice(sorted(STRATEGIES)), default="recursive", show_default=True,
              help="Chunker run on PATHS for the 'actual' columns.")
@click.option("--unit", type=click.Choice(["chars", "tokens"]), default="tokens", show_default=True)
@click.option("--tokenizer", default=None, metavar="NAME|PATH",
              help="o200k_base (default), cl100k_base, or a tokenizer.json path.")
@click.option("--price-per-million", type=float, default=None,
              help="Embedding price per 1M tokens: adds the one-off cost.")
@click.option("--dims", type=int, default=None, help="Vector dimensions: adds the vector-store size.")
@click.option("--bytes-per-value", type=float, default=4.0, show_default=True,
              help="4 for float32, 2 for float16, 1 for int8.")
@click.option("--index-overhead", type=float, default=0.0, show_default=True,
              help="Extra share the ANN index adds, e.g. 0.5 for +50%.")
@click.option("--encoding", default="utf-8", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def plan_cmd(paths, tokens, size, overlap, strategy, unit, tokenizer, price_per_million, dims,
             bytes_per_value, index_overhead, encoding, as_json):
    """Estimate chunks, stride, embedded tokens, cost and store size (seed 000).

    \b
    stride s = c - o;  chunks n = ceil((T - o) / s);  embedded <= n * c
    fixed windows embed exactly T + (n - 1) * o.
    With PATHS, T is counted per document with the chosen tokenizer, and the chunker is
    run too, so the estimate stands beside what really happens (sentence-respecting
    splitters make more, shorter chunks than the window model predicts).

    \b
    Example: norishiro plan --tokens 8000 --size 512 --overlap 64
    """
    from .plan import PlanError, plan

    kw = dict(price_per_million=price_per_million, dims=dims, bytes_per_value=bytes_per_value,
              index_overhead=index_overhead)
    if tokens is None and not paths:
        raise click.UsageError("give --tokens T or document PATHS")
    try:
        if tokens is not None:
            if paths:
                raise click.UsageError("give either --tokens or PATHS, not both")
            p = plan(tokens, size, overlap, **kw)
            _print_plan_simple(p, unit if unit else "tokens", as_json)
            return
        plan(1, size, overlap, **kw)  # validate before any work
    except PlanError as e:
        raise click.UsageError(str(e)) from None
    if tokenizer:
        unit = "tokens"
    sizer = _sizer_or_exit(unit, tokenizer)
    problems: list[str] = []
    rows = []
    for doc in _load_inputs(paths, encoding, problems):
        T = sizer.count(doc.text)
        est = plan(T, size, overlap, **kw)
        chunks = list(iter_chunks(doc, size=size, overlap=overlap, strategy=strategy, tokenizer=sizer))
        rows.append({"doc_id": doc.id, "tokens": T, "estimate": est.to_dict(),
                     "actual": {"chunks": len(chunks), "embedded": sum(c.size for c in chunks),
                                "longest": max((c.size for c in chunks), default=0)}})
    total_T = sum(r["tokens"] for r in rows)
    total = {
        "tokens": total_T,
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
        from .plan import store_bytes
        total["estimate_store_bytes"] = store_bytes(total["estimate_chunks"], dims, bytes_per_value, index_overhead)
        total["actual_store_bytes"] = store_bytes(total["actual_chunks"], dims, bytes_per_value, index_overhead)
    result = {"unit": sizer.unit, "tokenizer": sizer.name, "size": size, "overlap": overlap,
              "stride": size - overlap, "strategy": strategy, "documents": rows, "total": total}
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
    t = Table(title=f"norishiro plan: c={result['size']} o={result['overlap']} s={result['stride']} "
                    f"{u} ({result['tokenizer']}), actual = {result['strategy']}")
    for col in ("document", "T", "n est.", "n actual", "emb. n*c", "emb. fixed", "emb. actual", "longest"):
        t.add_column(col, justify="left" if col == "document" else "right")
    for r in result["documents"]:
        e, a = r["estimate"], r["actual"]
        t.add_row(Path(r["doc_id"]).name, f"{r['tokens']:,}", str(e["chunks"]), str(a["chunks"]),
                  f"{e['embedded_upper']:,}", f"{e['embedded_exact']:,}", f"{a['embedded']:,}", str(a["longest"]))
    tot = result["total"]
    t.add_row("[b]total[/b]", f"{tot['tokens']:,}", str(tot["estimate_chunks"]), str(tot["actual_chunks"]),
              f"{tot['estimate_embedded_upper']:,}", f"{tot['estimate_embedded_exact']:,}",
              f"{tot['actual_embedded']:,}", "")
    c = Console()
    c.print(t)
    if tot["tokens"]:
        c.print(f"overhead over T: estimate {tot['estimate_embedded_upper'] / tot['tokens'] - 1:.1%} (n*c), "
                f"actual {tot['actual_embedded'] / tot['tokens'] - 1:.1%}")
    if "estimate_cost" in tot:
        c.print(f"embedding cost: estimate {tot['estimate_cost']:.6g}, actual {tot['actual_cost']:.6g}")
    if "estimate_store_bytes" in tot:
        c.print(f"vector store: estimate {_fmt_bytes(tot['estimate_store_bytes'])}, "
                f"actual {_fmt_bytes(tot['actual_store_bytes'])}")


if __name__ == "__main__":  # pragma: no cover
    main()
