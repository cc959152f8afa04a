"""``norishiro lint``: context fragmentation and boundary quality of chunks."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..api import iter_chunks
from ..errors import NorishiroError
from .common import (
    CONTEXT,
    Problems,
    chunk_options,
    config_from_options,
    describe,
    parse_meta,
    runtime_for,
)
from .reading import input_options, load_inputs


def _read_chunks(path: str) -> dict[str, list]:
    """Chunks from a JSONL file, grouped by doc_id, in file order."""
    from ..rows import read_chunk_rows

    by_doc: dict[str, list] = {}
    try:
        for _line, c in read_chunk_rows(path):
            by_doc.setdefault(c.doc_id, []).append(c)
    except NorishiroError as e:  # the chunks file is input: exit 1, like any unreadable input
        click.echo(f"error: {e}", err=True)
        sys.exit(1)
    return by_doc


def _text_from_chunks(chunks: list) -> str | None:
    """Rebuild a document from its chunks (possible when they cover it without gaps)."""
    parts, pos = [], 0
    for c in sorted(chunks, key=lambda c: c.start):
        if c.start > pos:
            return None
        if c.end > pos:
            parts.append(c.text[pos - c.start :])
            pos = c.end
    return "".join(parts)


@click.command("lint", context_settings=CONTEXT)
@click.argument("paths", nargs=-1, type=str)
@chunk_options
@input_options
@click.option(
    "--chunks",
    "chunks_file",
    type=click.Path(exists=True, dir_okay=False),
    default=None,
    help="Check an existing chunks JSONL instead of chunking PATHS (documents are rebuilt "
    "from the chunks when PATHS are not given).",
)
@click.option(
    "--facts",
    "facts_opt",
    default=None,
    metavar="FILE|auto",
    help="Annotated facts (JSON list of {start, end}) that must each lie whole in a chunk; "
    "'auto' reads NAME.facts.json beside each document.",
)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable report: {summary, findings}.")
@click.option(
    "--fail-on",
    default="",
    metavar="KINDS",
    help="Exit 1 when any finding of these kinds exists, e.g. negation,over-budget "
    "(kinds: negation, double-negation, negative-result, hedge, causal, temporal, "
    "list-scope, mid-sentence, soft-wrap (a cut at a newline inside a sentence), broken-sentence, "
    "broken-fact, tiny, blank (a chunk of nothing but white space), over-budget, "
    "or 'fragmentation' for the first seven).",
)
@click.option("--show", default=8, show_default=True, help="Worst cases quoted in the text report.")
def lint_cmd(paths, chunks_file, facts_opt, as_json, fail_on, show, reading, **opts):
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
    from ..analysis.lint import ALL_KINDS, FRAGMENTATION_KINDS, LintReport, lint_chunks

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
    config = config_from_options(opts)
    size = config.size
    problems = Problems()
    report = LintReport()

    def facts_for(doc) -> list | None:
        if not facts_opt:
            return None
        fp = (
            Path(facts_opt)
            if facts_opt != "auto"
            else (Path(doc.source).with_name(Path(doc.source).stem + ".facts.json") if doc.source else None)
        )
        if fp is None or not fp.is_file():
            return None
        try:
            data = json.loads(fp.read_bytes().decode("utf-8"))
        except json.JSONDecodeError as e:
            raise click.UsageError(f"{fp}: line {e.lineno}: invalid JSON ({e.msg})") from None
        except (UnicodeDecodeError, OSError) as e:
            raise click.UsageError(f"{fp}: cannot read the facts ({e}); give a UTF-8 JSON file") from None
        ok = isinstance(data, list) and all(
            isinstance(f, dict)
            and all(isinstance(f.get(k), int) and not isinstance(f.get(k), bool) for k in ("start", "end"))
            and 0 <= f["start"] <= f["end"] <= len(doc.text)
            for f in data
        )
        if not ok:
            raise click.UsageError(
                f"{fp}: --facts needs a JSON list of objects with whole-number start and end inside the "
                f'document ({len(doc.text)} characters), e.g. [{{"start": 0, "end": 12}}]'
            )
        return data

    if chunks_file:
        by_doc = _read_chunks(chunks_file)
        docs = {d.id: d for d in load_inputs(paths, reading, problems)} if paths else {}
        for doc_id, chunks in by_doc.items():
            doc = docs.get(doc_id)
            text = doc.text if doc else _text_from_chunks(chunks)
            if text is None:
                problems.add(f"{doc_id}: chunks leave gaps; give the document PATH too")
                continue
            report.merge(
                lint_chunks(
                    text,
                    chunks,
                    doc_id=doc_id,
                    size=size,
                    facts=facts_for(doc) if doc else None,
                    identifiers=any(getattr(c, "replaced", None) is not None for c in chunks),
                )
            )
    else:
        if not paths:
            raise click.UsageError("give document PATHS, or --chunks FILE")
        runtime = runtime_for(config)
        for doc in load_inputs(paths, reading, problems, parse_meta(opts["meta"])):
            try:
                chunks = list(iter_chunks(doc, config, **runtime))
            except NorishiroError as e:
                problems.add(describe(e))
                continue
            report.merge(
                lint_chunks(doc.text, chunks, doc_id=doc.id, size=size, facts=facts_for(doc), identifiers=config.deid)
            )
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

    from ..analysis.lint import ALL_KINDS, FRAGMENTATION_KINDS

    s = report.summary()
    c = Console()
    t = Table(title=f"norishiro lint: {s['documents']} documents, {s['chunks']} chunks, {s['boundaries']} boundaries")
    t.add_column("finding")
    t.add_column("count", justify="right")
    t.add_column("per 1,000 boundaries", justify="right")
    for k in ALL_KINDS:
        if s["findings"][k] or k in FRAGMENTATION_KINDS[:2]:
            t.add_row(k, str(s["findings"][k]), f"{s['per_1000_boundaries'][k]:.1f}")
    c.print(t)
    lv = ", ".join(f"{k} {v}" for k, v in s["boundary_levels"].items())
    c.print(f"boundaries by level: {lv}")
    c.print(
        f"chunks ending at a sentence end: {s['chunks_ending_at_sentence_end']:.1%}; "
        f"sentences not whole in any chunk: {s['sentences_not_whole']} of {s['sentences']}"
        + (f"; facts not whole: {s['facts_not_whole']} of {s['facts']}" if s["facts"] else "")
    )
    if s["soft_wraps"]:
        c.print(
            f"soft wraps (newlines inside sentences) found: {s['soft_wraps']}; chunk boundaries placed at one: "
            f"{s['boundaries_at_soft_wraps']}"
        )
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
            w.add_row(
                x.kind,
                Path(x.doc_id).name,
                str(x.offset),
                f"…{x.left[-18:]!s} [b]|[/b] {x.right[:18]}…".replace("\n", "⏎"),
            )
        c.print(w)
    c.print("[dim]Findings are heuristics: places to look at, not proofs.[/dim]")
