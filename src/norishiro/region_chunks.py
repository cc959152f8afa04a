"""A document's chunks made region by region, for ``iter_chunks``: the chunks of one region,
a batch at a time, and the short form of the whole walk for the common options (characters,
no header, every section a region of its own), where a run of sections that are one chunk
each is made in one call and only the other sections become regions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from itertools import chain, islice
from typing import Any, Protocol

from .chunk import Chunk, new_chunk, span_chunks
from .chunkers import Region, Span
from .core import compiled
from .core.canonical import SectionNames
from .core.measure import Sizer
from .core.structure import Scanned, Section
from .document import Document
from .regions import OneChunk, Packed, Regions, paragraph_cuts
from .section_runs import short_sections

__all__ = ["BATCH", "RunPlan", "batches", "region_chunks", "run_chunks", "paged"]

BATCH = 256  # a region's chunks made at a time (a long section's are not all held at once)
_SHORT_ONLY = (None, 0, False, None, False, None)  # walk_sections' lists and the rest: short sections only


def paged(chunk: Chunk, doc: Document) -> Chunk:
    """Give a chunk of a paged document (PDF) its first and last page."""
    if doc.pages:
        chunk.page_start, chunk.page_end = doc.page_span(chunk.start, chunk.end)
    return chunk


def batches(
    spans: Iterable[Span], offset: int, section_of: Callable[[int], Section] | None
) -> Iterator[tuple[Section | None, list[Span]]]:
    """A region's spans in runs of at most ``BATCH`` (a long region's chunks are not all
    held at once), each of one section: ``section_of(offset + start)``, or None for every
    span when the region is one section (``section_of`` None)."""
    spans = iter(spans)
    if section_of is None:
        while batch := list(islice(spans, BATCH)):
            yield None, batch
        return
    run: list[Span] = []
    sec = None
    for span in spans:
        at = section_of(offset + span[0])
        if run and (at is not sec or len(run) == BATCH):
            yield sec, run
            run = []
        sec = at
        run.append(span)
    if run:
        yield sec, run


def region_chunks(
    text: str,
    doc: Document,
    meta: Mapping[str, Any] | None,
    chunker: Any,
    regions: Regions | None,
    of_path: Callable[[list[str]], str | None],
    make_spans: Callable[..., list[Chunk]],
    region: Region | OneChunk | Packed,
    one: Section | None,
    i: int,
) -> Iterator[list[Chunk]]:
    """The chunks of one region (``one``: its section, when it is one; else ``regions`` says
    which), numbered from ``i``, a batch at a time; a paged document's with their pages."""
    pages = bool(doc.pages)
    if type(region) is OneChunk:  # what the chunker would say, said before any Region was made
        piece, a, n, head = region
        heads = (one or regions.section_of(a)).headings
        name, canonical = (heads[-1] if heads else None), of_path(heads)
        b, embed = a + len(piece), head + piece if head else piece
        c = new_chunk(piece, a, b, i, n, doc, dict(meta) if meta else None, list(heads), name, canonical, embed)
        yield [paged(c, doc) if pages else c]
        return
    offset, prefix = region.offset, region.prefix
    # a prefix that is its ``base`` but in some spans (a table's header in its body) is
    # asked only there: most chunks start outside every span
    varies = hasattr(prefix, "spans")
    v_starts, v_ends = prefix.spans() if varies else ((), ())
    base = prefix.base if varies else None
    spans = region.spans if type(region) is Packed else chunker.spans(region)
    if one is not None and type(spans) is list and len(spans) <= BATCH:
        runs: Iterable[tuple[Section | None, list[Span]]] = ((None, spans),)  # no generator for one batch
    else:
        runs = batches(spans, offset, None if one is not None else regions.section_of)
    sec: Section | None = None
    for cur, batch in runs:
        cur = one or cur
        if cur is not sec:  # a new section: named once
            sec, heads = cur, cur.headings
            name, canonical = (heads[-1] if heads else None), of_path(heads)
        listed = heads if type(heads) is list else list(heads)
        run = make_spans(text, batch, offset, i, doc, meta, listed, name, canonical, prefix, base, v_starts, v_ends)
        i += len(run)
        yield [paged(c, doc) for c in run] if pages else run


class RunPlan(Protocol):
    """What ``run_chunks`` asks of ``iter_chunks``' plan under the common options."""

    chunker: Any
    names: SectionNames
    sizer: Sizer
    size: int
    overlap: int

    def scan(self, doc: Document) -> Scanned: ...

    def regions(self, doc: Document, scanned: Scanned) -> Regions: ...


def run_chunks(plan: RunPlan, doc: Document) -> Iterator[Chunk]:
    """The chunks of ``doc`` under the common options (characters, no header, every section a
    region of its own): the sections from each on that are one chunk of their text alone
    made in one call (``short_sections``; compiled, ``walk_sections``, which with the document's
    lists makes long sections' chunks too), each other section a region of its own. The
    regions are made only when a section needs one or the text has atoms (a table's body
    makes its sections regions). A text whose first walk reaches its end (most short ones)
    gets its chunks at once, without a generator."""
    scanned = plan.scan(doc)
    regions = plan.regions(doc, scanned) if scanned[1] else None
    run, k, pending = _walk(plan, doc, scanned, regions, 0, 0)
    if doc.pages:
        run = [paged(c, doc) for c in run]
    if k >= len(scanned[0]):
        return iter(run)
    return chain(run, chain.from_iterable(_walk_on(plan, doc, scanned, regions, k, len(run), pending)))


def _walk(plan: RunPlan, doc: Document, scanned: Scanned, regions: Regions | None, k: int, i: int) -> tuple:
    """One walk over the sections from ``k`` (chunks numbered from ``i``): ``(chunks, where it
    stopped, pending)`` as ``walk_sections`` says it (uncompiled: the short sections alone)."""
    text, sections, meta, size = doc.text, scanned[0], doc.metadata or None, plan.size
    t_starts, t_ends = (regions.t_starts, regions.t_ends) if regions is not None else ([], [])
    names = plan.names
    if not compiled.active():
        run, k = short_sections(text, sections, k, size, t_starts, t_ends, i, doc, meta, names.of_path, names.memo)
        return run, k, None
    # with the document's lists, long sections' spans read from them too and made chunks
    walk = regions.walk_args() if regions is not None and regions.walks else _SHORT_ONLY
    args = (text, sections, k, size, t_starts, t_ends, i, doc, meta, names.of_path, names.memo, *walk)
    return compiled.native.walk_sections(*args)


def _walk_on(
    plan: RunPlan, doc: Document, scanned: Scanned, regions: Regions | None, k: int, i: int, pending: Any
) -> Iterator[list[Chunk]]:
    """``run_chunks``' chunks from section ``k`` on, which the walk left (``pending``: what it
    said of it), a batch at a time."""
    text, meta, pages = doc.text, doc.metadata or None, bool(doc.pages)
    sections = scanned[0]
    chunker, size, of_path = plan.chunker, plan.size, plan.names.of_path
    make_spans = compiled.native.span_chunks if compiled.active() else span_chunks
    n, checked = len(sections), set()
    while k < n:
        sec = sections[k]
        k += 1
        a, b = sec.start, sec.end
        region: Region | OneChunk | Packed | None = None
        if pending:  # spans the walk left to be made here: more than a batch (a table's prefix made here)
            spans, in_body = pending
            prefix = regions._table_prefix(a, b, "") if in_body else None
            region = Packed(spans, a, prefix)
        elif pending is None and b - a > size:  # longer than a chunk: its spans, without the region's look-ups
            if regions is None and sec.body == a:
                # no heading line of its own, no atom in the text: plain text's region
                piece, paragraphs = text[a:b], scanned[2]
                cuts = paragraph_cuts(text, paragraphs, a, b) if paragraphs else None
                region = Region(piece, a, plan.sizer, plan.sizer.measure(piece), size, plan.overlap, None, (), [], cuts)
                spans, prefix = chunker.spans(region), None
            else:
                if regions is None:
                    regions = plan.regions(doc, scanned)
                region = regions.packed(a, b, sec, "")
                if region is not None:
                    spans, prefix = region.spans, region.prefix
        if region is None:  # a short section in a table's body, or one whose region is made
            if regions is None:
                regions = plan.regions(doc, scanned)
            region, one = regions.region(a, b, [sec], checked)
            batches_of = region_chunks(text, doc, meta, chunker, regions, of_path, make_spans, region, one, i)
        elif prefix is None and type(spans) is list and len(spans) <= BATCH:  # one batch, named once
            heads = sec.headings
            name, canonical = (heads[-1] if heads else None), of_path(heads)
            run = make_spans(text, spans, a, i, doc, meta, heads, name, canonical, None, None, (), ())
            batches_of = ([paged(c, doc) for c in run] if pages else run,)
        else:
            packed = Packed(spans, a, prefix)
            batches_of = region_chunks(text, doc, meta, chunker, regions, of_path, make_spans, packed, sec, i)
        for run in batches_of:
            i += len(run)
            yield run
        if k < n:
            run, k, pending = _walk(plan, doc, scanned, regions, k, i)
            if run:
                i += len(run)
                yield [paged(c, doc) for c in run] if pages else run
