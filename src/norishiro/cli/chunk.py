"""``norishiro chunk``: files, folders or standard input to chunks in any output format."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..api import iter_chunks
from ..config import DEFAULT_MODEL
from ..core.structure import section_sizes
from ..errors import NorishiroError
from ..loaders import iter_paths
from ..writers import WRITERS, OllamaBodyWriter, make_writer
from .common import (
    CONTEXT,
    Problems,
    chunk_options,
    config_from_options,
    describe,
    err,
    parse_meta,
    runtime_for,
)
from .reading import Reading, input_options, load_inputs
from .stats import Progress, Stats, open_output, warn_context


@click.command("chunk", context_settings=CONTEXT)
@click.argument("paths", nargs=-1, type=str)
@chunk_options
@input_options
@click.option(
    "--plot",
    "sem_plot",
    default=None,
    metavar="FILE.html|FILE.png",
    help="For semantic: draw the similarity curve, threshold and cuts.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(list(WRITERS)),
    default="jsonl",
    show_default=True,
    help="jsonl: one object per chunk; json: one array; text: for reading; ollama: the "
    "/api/embed request body; curl: a ready curl command for it; parquet: a Parquet "
    "dataset in the -o folder (same columns as jsonl).",
)
@click.option(
    "--workers",
    type=int,
    default=1,
    show_default=True,
    help="Processes chunking files in parallel; the output is identical to --workers 1.",
)
@click.option(
    "--engine",
    type=click.Choice(["local", "ray"]),
    default="local",
    show_default=True,
    help="ray: run on Ray Data (norishiro[ray]); with --format parquet -o OUTDIR.",
)
@click.option(
    "--ray-address",
    default=None,
    metavar="ray://HOST:PORT",
    help="An existing Ray cluster (default: start a local one).",
)
@click.option(
    "--model", default=DEFAULT_MODEL, show_default=True, help="Embedding model named in the ollama/curl request."
)
@click.option(
    "--truncate/--no-truncate",
    default=False,
    show_default=True,
    help='--no-truncate (default) sends "truncate": false so Ollama fails on a chunk that '
    "does not fit instead of cutting it silently.",
)
@click.option(
    "--output",
    "-o",
    type=click.Path(writable=True),
    default=None,
    help="Write here instead of standard output (a folder for --format parquet).",
)
@click.option("--quiet", "-q", is_flag=True, help="No summary on standard error.")
def chunk_cmd(paths, sem_plot, fmt, workers, engine, ray_address, model, truncate, output, quiet, reading, **opts):
    """Split PATHS (files, directories, or - for standard input) into chunks.

    Text, Markdown, PDF, HTML and Word (.docx) files are read (the format is sniffed from
    the file's first bytes; --format-in forces one). Each JSONL line holds doc_id, id,
    index, start, end, size, text, headings, section, metadata and embed_text, plus
    page_start/page_end for PDFs and section_canonical where the section is known; start and
    end are exact offsets into the document text (front matter removed; for PDF, HTML and
    Word, the text norishiro extracted). A summary (documents, chunks, longest, mean fill)
    goes to standard error. A file that cannot be read is reported with what is wrong and
    where, and skipped; the others are still written, and the exit code is 1.

    \b
    Examples:
      norishiro chunk docs/ --size 400 --overlap 60 -o chunks.jsonl
      norishiro chunk notes.md --tokenizer o200k_base --size 256 --format text
      norishiro chunk report.pdf page.html letter.docx --size 400 --format text
      norishiro chunk notes/ --sections include=history_of_present_illness,lab_results
      norishiro chunk notes/ --size 300 --format curl --model bge-m3
    """
    config = config_from_options(opts)
    meta = parse_meta(opts["meta"])
    writer_cls = WRITERS[fmt]
    if workers < 1:
        raise click.UsageError("--workers must be at least 1")
    parallel = workers > 1 or engine == "ray"
    if parallel and ("-" in paths or not paths):
        raise click.UsageError("--workers and --engine ray take files or folders, not standard input")
    if parallel and sem_plot:
        raise click.UsageError("--plot draws from one process: leave out --workers and --engine ray")
    if sem_plot and not sem_plot.lower().endswith((".html", ".png")):
        raise click.UsageError("--plot takes a .html or .png file name")
    if (writer_cls.to_folder or engine == "ray") and not output:
        raise click.UsageError(f"--format {fmt} and --engine ray write a folder: give -o OUTDIR")
    if engine == "ray" and fmt != "parquet":
        raise click.UsageError("--engine ray writes Parquet: add --format parquet")
    if output and not writer_cls.to_folder and Path(output).is_dir():
        raise click.UsageError(f"-o {output} is a folder; give a file name (folders are for --format parquet)")
    exclude = _output_not_an_input(paths, output)
    from ..scale import FileJob

    job = FileJob(config, reading.encoding, meta, reading.options)
    runtime = runtime_for(config) if not parallel else {}
    problems = Problems()
    stats = Stats(config.size)
    try:
        if engine == "ray":
            _chunk_with_ray(paths, job, output, ray_address, stats, problems, exclude)
        else:
            traces: list = []
            progress = Progress(paths, enabled=not quiet, exclude=exclude)
            rows = (
                _parallel_rows(paths, job, workers, stats, problems, exclude, progress)
                if parallel
                else _serial_rows(paths, job, runtime, stats, problems, traces if sem_plot else None, exclude, progress)
            )
            options = dict(unit=config.unit, model=model, truncate=truncate, ollama_url=opts["ollama_url"])
            with progress, open_output(writer_cls, output) as target:
                writer = make_writer(fmt, target, **options)
                _write_all(rows, writer, stats)
            if isinstance(writer, OllamaBodyWriter):
                warn_context(writer.inputs, model)
            if sem_plot:
                _write_plots(traces, sem_plot, problems)
    except KeyboardInterrupt:
        kept = f"; {output} was left as it was" if output else ""
        err(f"interrupted: output incomplete{kept}")
        sys.exit(130)
    except ImportError as e:
        raise click.UsageError(str(e)) from None
    except OSError as e:  # the output cannot be written: nothing was replaced
        err(f"error: {e}")
        sys.exit(1)
    if not quiet:
        stats.report(config.unit, output)
    if stats.left_out:
        err(f"sections left out (--sections): {stats.left_out_summary()}")
    if stats.over:
        err(
            f"warning: {stats.over} chunk(s) exceed the budget: each is a single grapheme larger "
            f"than {config.size} {config.unit}; raise --size"
        )
    for key in stats.missing_keys(config.header_keys):
        err(f"warning: --header-keys {key!r} is in no document's metadata (front matter, NAME.meta.json, --meta)")
    if problems:
        err(f"{problems.summary()}; the rest was written. Fix them and run again.")
        sys.exit(1)


def _output_not_an_input(paths, output) -> set[Path]:
    """The output path, which must not be one of the inputs (it would be emptied), and is
    passed over when walking an input folder."""
    if not output:
        return set()
    out = Path(output).resolve()
    for raw in paths:
        if raw != "-" and Path(raw).resolve() == out:
            raise click.UsageError(f"-o {output} is also an input: it would be overwritten; write the chunks elsewhere")
    return {out}


def _write_all(rows, writer, stats) -> None:
    try:
        for r in rows:
            stats.add(r)
            writer.write(r)
    except BaseException:
        writer.abort()
        raise
    writer.close()


def _serial_rows(paths, job, runtime, stats, problems, traces, exclude, progress):
    for doc in load_inputs(paths, Reading(job.encoding, job.load), problems, job.metadata, exclude):
        stats.docs += 1
        progress.document(doc)
        kw = dict(runtime)
        if traces is not None:
            from ..chunkers.semantic import SemanticTrace

            kw["trace"] = SemanticTrace()
            traces.append((doc.id, kw["trace"]))
        excluded: list = []
        try:
            for c in iter_chunks(doc, job.config, excluded=excluded, **kw):
                progress.chunk(c.end)
                yield c.to_dict()
            stats.left_out += section_sizes(excluded)
        except NorishiroError as e:  # this document fails; the others go on
            problems.add(describe(e))
            if e.stops_run:  # the same would happen to every other document
                err("stopped: the remaining documents were not chunked")
                return


def _existing_files(paths, problems, exclude):
    files = []
    for raw in paths:
        if not Path(raw).exists():
            problems.add(f"{raw}: no such file or directory")
        files += [str(p) for p in iter_paths([raw], exclude, problems)]
    return files


def _parallel_rows(paths, job, workers, stats, problems, exclude, progress):
    from ..scale import parallel_chunk_rows

    for path, got, found, left in parallel_chunk_rows(_existing_files(paths, problems, exclude), job, workers):
        progress.file_done(path)
        for problem in found:
            problems(problem)
        stats.left_out += left
        if got is not None and not any(p.skipped for p in found):
            stats.docs += 1
            yield from got


def _chunk_with_ray(paths, job, output, address, stats, problems, exclude) -> None:
    try:
        from ..scale.ray import chunk_files_to_parquet
    except ImportError:
        raise click.UsageError("--engine ray needs Ray: pip install 'norishiro[ray]'") from None
    files = _existing_files(paths, problems, exclude)
    if not files:
        return
    try:
        sizes = chunk_files_to_parquet(files, job, output, address)
    except ImportError:
        raise click.UsageError("--engine ray needs Ray: pip install 'norishiro[ray]'") from None
    for size in sizes:
        stats.add({"size": size})
    stats.docs = len(files)


def _write_plots(traces, plot: str, problems) -> None:
    from ..analysis.plot import similarity_plot

    base = Path(plot)
    for i, (doc_id, tr) in enumerate(traces):
        p = base if len(traces) == 1 else base.with_name(f"{base.stem}-{i}{base.suffix}")
        try:
            similarity_plot(tr, p, title=str(doc_id))
            err(f"plot: {p}")
        except (RuntimeError, OSError) as e:
            problems.add(f"--plot {p}: {e}")
