"""The library entry points: ``chunk``, ``iter_chunks`` and ``segment``.

One path for every caller: options become a :class:`ChunkConfig`; the structure provider
gives sections and atoms (the same for a string and a document); each region is measured
once and handed to the chunker that the registry names, with the context header counted
in its budget.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import lru_cache
from typing import Any

from .chunk import Chunk, section_chunks, span_chunks
from .chunkers import CHUNKERS, Region, chunker_class
from .config import ChunkConfig, SemanticConfig
from .core import compiled
from .core.boundaries import Boundaries, Level, parse_level
from .core.canonical import section_names
from .core.headers import HeaderRenderer
from .core.measure import CharSizer, Sizer, get_sizer
from .core.structure import LabelledText, PlainText, Scanned, Section
from .document import Document
from .errors import OptionError
from .region_chunks import BATCH, batches, region_chunks, run_chunks
from .region_chunks import paged as _paged
from .regions import OneChunkRun, Regions

__all__ = ["chunk", "iter_chunks", "segment", "resolve", "embedder_for"]

if compiled.native is not None:  # the compiled section_chunks makes chunks
    compiled.native.configure_chunk(Chunk)

_RUNTIME_SEMANTIC = ("cache", "trace")


def _as_document(text_or_document: str | Document) -> Document:
    if isinstance(text_or_document, Document):
        return text_or_document
    if isinstance(text_or_document, str):
        return Document(text_or_document)
    raise TypeError(f"expected str or Document, got {type(text_or_document).__name__}")


def resolve(config: ChunkConfig | None = None, **options: Any) -> tuple[ChunkConfig, Sizer, dict[str, Any]]:
    """``(config, sizer, runtime)`` from a config and/or keyword options.

    Keyword options override the config's fields. ``tokenizer`` may also be a callable or
    a sizer object, and ``semantic`` a mapping that holds runtime objects (``embedder``
    instance, ``cache``, ``trace``) beside the :class:`SemanticConfig` fields: those stay out
    of the config (which must remain JSON-able) and come back in ``runtime``.
    """
    plan = _resolved(config, options)
    return plan.config, plan.sizer, dict(plan.runtime)


class _Plan:
    """What ``iter_chunks`` needs of its options, made once per set of options: the config,
    sizer and runtime objects, the chunker class, the header renderer, and the chunker itself
    when it holds nothing but the config (most calls chunk one short text with the same
    options: each of these, made per call, is a share of the time)."""

    __slots__ = ("config", "sizer", "runtime", "cls", "chunker", "renderer", "plain", "runs", "names", "size")
    __slots__ += ("overlap", "fast", "_packing", "_structure")

    def __init__(self, config: ChunkConfig, sizer: Sizer, runtime: dict[str, Any]):
        self.config, self.sizer, self.runtime = config, sizer, runtime
        self.cls = cls = chunker_class(config.strategy)
        self.renderer = _renderer(config.header_keys, config.header_template)
        # a chunker that holds nothing but its config serves every call with these options
        self.chunker = cls(config) if getattr(cls, "reusable", False) and not runtime else None
        self.plain = not config.structure and not self.renderer.active
        self.names = section_names(config.section_map)
        # the common options (characters, no header, a region per section, no filter): the
        # short way of ``run_chunks``, decided here once
        c = self.chunker
        self.runs = bool(
            c is not None
            and config.structure
            and not config.deid
            and not self.renderer.active
            and type(sizer) is CharSizer
            and c.sectioned
            and not config.cross_sections
            and not (config.sections_include or config.sections_exclude)
            and getattr(c, "whole_by_length", False)
            and getattr(c, "one_chunk", None) is not None
        )
        self._packing = c if self.runs and config.overlap <= 0 and hasattr(c, "text_section_spans") else None
        # or plain text with the plan's chunker: its chunks made without the regions' loop
        self.fast = self.runs or (self.plain and c is not None and not config.deid)
        self.size, self.overlap = config.size, config.overlap
        self._structure = LabelledText(config.section_labels) if config.structure else None

    def scan(self, doc: Document) -> Scanned:
        """The sections, atoms and paragraph ends of ``doc`` (under ``runs``): the plan's
        provider serves every document without a loader's outline."""
        labelled = self._structure if doc.outline is None else LabelledText(self.config.section_labels, doc.outline)
        return labelled.scan(doc.text)

    def regions(self, doc: Document, scanned: Scanned) -> Regions:
        """The regions of ``doc`` under the common options (``runs``), as ``iter_chunks`` makes them."""
        c, config, structure, packing = self.chunker, self.config, self._structure, self._packing
        return Regions(doc, config, self.sizer, structure, self.renderer, False, c.one_chunk, True, packing, scanned)


def _resolved(config: ChunkConfig | None, options: dict[str, Any]) -> _Plan:
    """``resolve``'s answer as a :class:`_Plan`, shared by the calls with the same options
    (its runtime dict must not be changed: a caller that adds to it copies it first)."""
    global _LAST
    last = _LAST  # one read: another thread may replace it
    if config is last[0] and options == last[1]:  # the same options as the last call (no key made)
        return last[2]
    key = (config, tuple(options.items()))  # a call site passes its options in one order
    try:
        got = _RESOLVED.get(key)
    except TypeError:  # lists, callables ...: resolved each time
        return _Plan(*_resolve(config, options))
    if got is None:
        if len(_RESOLVED) >= 64:
            _RESOLVED.clear()
        got = _RESOLVED[key] = _Plan(*_resolve(config, dict(options)))
    _LAST = (config, options, got)
    return got


# the common calls repeat the same options for every document: resolving them (validation,
# tokenizer tables) once is a measurable share of chunking a short text
_RESOLVED: dict[Any, _Plan] = {}
# the last call's config, options and plan (a run repeats them): asked before any key is made
_LAST: tuple[Any, Any, Any] = (None, object(), None)


def _resolve(config: ChunkConfig | None, options: dict[str, Any]) -> tuple[ChunkConfig, Sizer, dict[str, Any]]:
    runtime: dict[str, Any] = {}
    sizer: Sizer | None = None
    tok = options.pop("tokenizer", None)
    if tok is not None and not isinstance(tok, (str, os.PathLike)):
        sizer = get_sizer(options.get("unit") or "tokens", tok)
        options["unit"] = sizer.unit
    elif tok is not None:
        options["tokenizer"] = os.fspath(tok)
    sem = options.get("semantic")
    if isinstance(sem, Mapping):
        sem = dict(sem)
        for key in _RUNTIME_SEMANTIC:
            if key in sem:
                runtime[key] = sem.pop(key)
        if "embedder" in sem and not isinstance(sem["embedder"], str):
            runtime["embedder"] = sem.pop("embedder")
        options["semantic"] = SemanticConfig(**sem)
    for key in ("header_keys", "section_labels"):
        if options.get(key) is None and key in options:
            options[key] = ()
    try:
        if config is None:
            config = ChunkConfig(**options)
        else:
            config = config.replace(**options) if options else config
    except TypeError as e:  # an unknown keyword
        raise OptionError(
            str(e).split("'")[1] if "'" in str(e) else "options", options, "the fields of ChunkConfig"
        ) from None
    if sizer is None:
        sizer = get_sizer(config.unit, config.tokenizer)
    if sizer.context and config.size > sizer.context:
        raise OptionError(
            "size",
            config.size,
            f"at most {sizer.context}, the context window of {sizer.name}",
            "a larger chunk would be cut by the model",
        )
    return config, sizer, runtime


@lru_cache(maxsize=4)
def embedder_for(sem: SemanticConfig):
    """The embedder a semantic configuration names (resolved here, not in the chunker; made
    once per configuration, since loading a model costs seconds)."""
    from .embed import get_embedder

    return get_embedder(sem.embedder, url=sem.ollama_url)


def iter_chunks(
    text_or_document: str | Document,
    config: ChunkConfig | None = None,
    *,
    embedder: Any = None,
    cache: Any = None,
    trace: Any = None,
    excluded: list[Section] | None = None,
    **options: Any,
) -> Iterator[Chunk]:
    """Like :func:`chunk`, but gives chunks one at a time (bounded memory for output). The
    document and options are checked at the call; the chunks are made as they are asked for
    (a short plain text's at the call).
    ``excluded`` (a list) receives the sections left out by ``sections_include`` /
    ``sections_exclude``, so that a caller can report them."""
    doc = _as_document(text_or_document)
    plan = _resolved(config, options)
    if plan.fast and embedder is cache is trace is None and plan.cls is CHUNKERS[plan.config.strategy]:
        # the common options, decided with the plan: no generator of this function's in
        # between (a short text's chunks cost less)
        text = doc.text
        if not text or text.isspace():
            return iter(())
        return run_chunks(plan, doc) if plan.runs else _plain(doc, plan, plan.chunker)
    return _chunks(doc, plan, embedder, cache, trace, excluded)


def _plain(doc: Document, plan: _Plan, chunker: Any) -> Iterator[Chunk]:
    """The chunks of ``doc`` as plain text (one region): a short text's made at once, a long
    one's a batch at a time."""
    text, sizer, config = doc.text, plan.sizer, plan.config
    make_spans = compiled.native.span_chunks if compiled.active() else span_chunks
    spans = chunker.spans(Region(text, 0, sizer, sizer.measure(text), config.size, config.overlap))
    meta, paged = doc.metadata or None, doc.pages is not None
    if type(spans) is list and len(spans) <= BATCH:  # in one call, without the batches' generator
        run = make_spans(text, spans, 0, 0, doc, meta, None, None, None, None, None, (), ())
        return iter([_paged(c, doc) for c in run] if paged else run)
    return _plain_batches(doc, spans, make_spans, meta, paged)


def _plain_batches(doc: Document, spans: Iterable, make_spans: Callable, meta: Any, paged: bool) -> Iterator[Chunk]:
    """``_plain``'s chunks of a long text's spans, ``BATCH`` at a time (not all held at once)."""
    i, text = 0, doc.text
    for _, batch in batches(spans, 0, None):
        run = make_spans(text, batch, 0, i, doc, meta, None, None, None, None, None, (), ())
        i += len(run)
        yield from [_paged(c, doc) for c in run] if paged else run


def _chunks(doc: Document, plan: _Plan, embedder: Any, cache: Any, trace: Any, excluded: list[Section] | None):
    """``iter_chunks``' chunks of ``doc`` under ``plan``, made region by region."""
    config, sizer = plan.config, plan.sizer
    if config.deid:
        yield from _deidentified_chunks(doc, config, embedder, cache, trace, excluded)
        return
    text, meta = doc.text, doc.metadata
    if not text or text.isspace():  # nothing to embed: no chunk (a blank chunk would only add noise)
        return
    cls = CHUNKERS[config.strategy]  # registered anew since the plan was made: not its chunker
    chunker = plan.chunker if plan.cls is cls else None
    if chunker is None or embedder is not None or cache is not None or trace is not None:
        runtime = dict(plan.runtime)  # the resolved one is shared
        if embedder is not None:
            runtime["embedder"] = embedder
        if cache is not None:
            runtime["cache"] = cache
        if trace is not None:
            runtime["trace"] = trace
        if cls.needs_embedder and runtime.get("embedder") is None:
            runtime["embedder"] = embedder_for(config.semantic)
        chunker = cls(config, **runtime)
    renderer = plan.renderer
    make_spans = compiled.native.span_chunks if compiled.active() else span_chunks
    if plan.plain:
        yield from _plain(doc, plan, chunker)
        return
    structure = LabelledText(config.section_labels, doc.outline) if config.structure else PlainText()
    whole = config.cross_sections or not chunker.sectioned
    by_length = type(sizer) is CharSizer and getattr(chunker, "whole_by_length", False)
    # in characters without overlap the chunker may give a long section's spans from its lists
    packing = chunker if by_length and config.overlap <= 0 and hasattr(chunker, "text_section_spans") else None
    one_chunk = getattr(chunker, "one_chunk", None)
    regions = Regions(doc, config, sizer, structure, renderer, whole, one_chunk, by_length, packing)
    names = section_names(config.section_map)
    if excluded is not None:
        regions.excluded = excluded
    paged, i, sections = bool(doc.pages), 0, regions.sections
    make_run = compiled.native.section_chunks if compiled.active() else section_chunks
    for region, one in regions:
        if type(region) is OneChunkRun:  # short sections, each one chunk of its text alone
            run = make_run(text, sections, region.start, region.stop, i, doc, meta or None, names.of_path, names.memo)
            i += len(run)
            yield from [_paged(c, doc) for c in run] if paged else run
            continue
        for run in region_chunks(text, doc, meta or None, chunker, regions, names.of_path, make_spans, region, one, i):
            i += len(run)
            yield from run


def _deidentified_chunks(doc: Document, config: ChunkConfig, embedder, cache, trace, excluded):
    """Chunks of the de-identified text, put back on the original: ``text`` and offsets are
    the original's, ``embed_text`` (and so ``size``) the de-identified one's, and
    ``replaced`` lists the identifiers each chunk holds."""
    from .deid import ALLOW, RULES, Rule, deidentify, pseudonym, secret_from_env

    secret = secret_from_env()
    rules = RULES + tuple(Rule(c, p) for c, p in config.deid_rules)
    year = str(doc.metadata.get("date", ""))[:4]
    patient = str(doc.metadata.get("patient_id") or doc.id)
    d = deidentify(
        doc.text,
        rules,
        ALLOW | set(config.deid_allow),
        secret,
        dates=config.deid_dates,
        patient=patient,
        year=int(year) if year.isdigit() else 2001,
    )
    head_meta = dict(doc.metadata)
    if "patient_id" in head_meta:  # a header must not carry the ID: a keyed pseudonym, or none
        pid = str(head_meta["patient_id"])
        head_meta["patient_id"] = f"patient-{pseudonym(pid, 'id', secret)}" if secret else "[patient]"
    outline = [d.to_deid(p) for p in doc.outline] if doc.outline is not None else None
    shadow = Document(d.text, id=doc.id, metadata=head_meta, source=doc.source, outline=outline)
    plain = config.replace(deid=False)
    left: list[Section] = []
    for c in iter_chunks(shadow, plain, embedder=embedder, cache=cache, trace=trace, excluded=left):
        a, b = d.original(c.start), d.original(c.end, end=True)
        yield _paged(
            Chunk(
                doc.text[a:b],
                a,
                b,
                c.index,
                c.size,
                doc=doc,
                metadata=dict(doc.metadata),
                headings=c.headings,
                section=c.section,
                section_canonical=c.section_canonical,
                embed_text=c.embed_text,
                replaced=[f.to_dict() for f in d.within(a, b)],
            ),
            doc,
        )
    if excluded is not None:  # sections left out, with their offsets in the original text
        for s in left:
            excluded.append(Section(d.original(s.start), d.original(s.end, end=True), s.headings))


@lru_cache(maxsize=16)
def _renderer(keys: tuple[str, ...], template: str | None) -> HeaderRenderer:
    """The header renderer of a configuration (made once: most calls chunk one short text)."""
    return HeaderRenderer(keys, template)


def chunk(
    text_or_document: str | Document,
    config: ChunkConfig | None = None,
    *,
    embedder: Any = None,
    cache: Any = None,
    trace: Any = None,
    **options: Any,
) -> list[Chunk]:
    """Split a text or :class:`Document` into chunks of at most ``size`` units.

    Pass a :class:`ChunkConfig`, keyword options (its fields), or both (keywords win):
    ``size``, ``overlap``; ``strategy``: ``recursive`` (largest boundary that fits:
    paragraph > line > sentence > clause > word > grapheme), ``sentences`` (as many whole
    sentences as fit), ``fixed`` (windows advancing by ``size - overlap``) or ``semantic``;
    ``unit``: ``chars`` or ``tokens``; ``tokenizer``: ``o200k_base`` (default for tokens),
    ``cl100k_base``, a ``tokenizer.json`` path, or a ``str -> int`` callable. Offsets are
    exact: ``doc.text[c.start:c.end] == c.text``.

    Structure (``structure``, on by default for strings and documents alike): sections from
    Markdown headings and labels (【所見】, ■主訴, 所見：, S：...) are not crossed unless
    ``cross_sections``; code blocks, tables and a list with its lead-in line stay whole when
    they fit, and a table split by rows repeats its header in ``embed_text``.
    ``structure=False`` treats the text as plain (and is the fastest path).
    ``header_keys`` (e.g. ``["patient_id", "date", "section"]``) or ``header_template`` put a
    context header in front of each chunk's ``embed_text``; ``size`` counts header plus text.

    ``semantic`` (with ``strategy="semantic"``): a :class:`SemanticConfig` or a mapping of
    its fields (``embedder``, ``method``, ``param``, ``window``, ``min_size``), which may
    also hold an embedder instance, a ``cache`` and a ``trace`` to fill; ``embedder=``,
    ``cache=`` (an embedding cache) and ``trace=`` (a ``SemanticTrace``) give them directly.
    """
    return list(iter_chunks(text_or_document, config, embedder=embedder, cache=cache, trace=trace, **options))


def segment(text_or_document: str | Document, level: str | Level = "sentence") -> list[dict[str, Any]]:
    """The units of a text at one boundary level, as ``{"start", "end", "text"}`` dicts.
    Lines are physical lines; sentences run across soft wraps (newlines inside a sentence)."""
    doc = _as_document(text_or_document)
    lv = parse_level(level)
    bnd = Boundaries(doc.text, soft_wraps=lv is not Level.LINE)
    return [{"start": s, "end": e, "text": doc.text[s:e]} for s, e in bnd.units(lv)]
