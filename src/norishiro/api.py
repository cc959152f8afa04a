"""The library entry points: ``chunk`` and ``segment``."""
from __future__ import annotations

from typing import Any, Callable, Iterator, Sequence

import bisect

from .boundaries import Boundaries, Level, parse_level
from .chunk import Chunk
from .chunkers import STRATEGIES
from .context import (DEFAULT_LABELS, Atom, ContextHeaderError, HeaderRenderer, Section, attach_bare_headings,
                      find_atoms, find_sections)
from .document import Document
from .sizing import Sizer, get_sizer

__all__ = ["chunk", "iter_chunks", "segment", "validate_options", "ChunkOptionsError", "ContextHeaderError"]


class ChunkOptionsError(ValueError):
    """Options that cannot work (size <= 0, overlap >= size, unknown strategy ...)."""


def validate_options(size: int, overlap: int, strategy: str) -> None:
    if not isinstance(size, int) or isinstance(size, bool) or size <= 0:
        raise ChunkOptionsError(f"size must be a positive whole number, got {size!r}")
    if not isinstance(overlap, int) or isinstance(overlap, bool) or overlap < 0:
        raise ChunkOptionsError(f"overlap must be a whole number >= 0, got {overlap!r}")
    if overlap >= size:
        raise ChunkOptionsError(
            f"overlap ({overlap}) must be smaller than size ({size}); typical overlap is 10-20% of size")
    if strategy not in STRATEGIES:
        raise ChunkOptionsError(f"unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}")


def _as_document(text_or_document: str | Document) -> Document:
    if isinstance(text_or_document, Document):
        return text_or_document
    if isinstance(text_or_document, str):
        return Document.from_text(text_or_document)
    raise TypeError(f"expected str or Document, got {type(text_or_document).__name__}")


def iter_chunks(text_or_document: str | Document, *, size: int, overlap: int = 0,
                strategy: str = "recursive", unit: str = "chars",
                tokenizer: str | Callable[[str], int] | Sizer | None = None,
                header_keys: Sequence[str] | None = None, header_template: str | None = None,
                structure: bool | None = None, cross_sections: bool = False,
                section_labels: Sequence[str] | None = None,
                semantic: dict[str, Any] | None = None) -> Iterator[Chunk]:
    """Like :func:`chunk`, but yields chunks one at a time (bounded memory for output)."""
    validate_options(size, overlap, strategy)
    skw = dict(semantic or {}) if strategy == "semantic" else {}
    doc = _as_document(text_or_document)
    sizer = get_sizer(unit, tokenizer)
    renderer = HeaderRenderer(header_keys, header_template)
    if structure is None:
        structure = isinstance(text_or_document, Document) or renderer.active
    text, meta = doc.text, doc.metadata
    if not structure and not renderer.active:
        spans = STRATEGIES[strategy](text, sizer, size, overlap, **skw)
        for i, (s, e, n) in enumerate(spans):
            yield Chunk(text[s:e], s, e, i, n, doc=doc, metadata=dict(meta) if meta else {})
        return
    labels = tuple(DEFAULT_LABELS) + tuple(section_labels or ())
    sections = attach_bare_headings(find_sections(text, labels)) if structure else [Section(0, len(text), [])]
    atoms = find_atoms(text) if structure else []
    i = 0
    for s, e, n, prefix, sec in _structured_spans(doc, sizer, size, overlap, strategy, sections, atoms,
                                                  renderer, cross_sections, skw):
        yield Chunk(text[s:e], s, e, i, n, doc=doc, metadata=dict(meta) if meta else {},
                    headings=list(sec.headings), section=sec.headings[-1] if sec.headings else None,
                    embed_text=prefix + text[s:e])
        i += 1


def _structured_spans(doc: Document, sizer: Sizer, size: int, overlap: int, strategy: str,
                      sections: list[Section], atoms: list[Atom], renderer: HeaderRenderer,
                      cross_sections: bool, strategy_kw: dict[str, Any]):
    """Chunk section by section (or across sections), with the context header and a
    repeated table header counted in every chunk's budget."""
    text = doc.text
    starts = [x.start for x in sections]
    tables = [x for x in atoms if x.kind == "table" and x.header]
    t_starts = [x.body_start for x in tables]

    def section_of(pos: int) -> Section:
        return sections[max(0, bisect.bisect_right(starts, pos) - 1)]

    def header_at(pos: int) -> str:
        return renderer.render(doc.metadata, section_of(pos).headings)

    def table_header_at(pos: int) -> str:
        k = bisect.bisect_right(t_starts, pos) - 1
        if k >= 0 and tables[k].body_start <= pos < tables[k].end:
            return tables[k].header
        return ""

    room = {}

    def prefix_at(pos: int) -> str:
        head = header_at(pos)
        th = table_header_at(pos)
        if th:
            key = (head, th)
            if key not in room:  # repeat the table header only when half the budget is left
                room[key] = sizer.count(head + th) <= size // 2
            if room[key]:
                return head + th
        return head

    # fixed windows are seed 000's model: they run over the whole text, sections or not
    whole = cross_sections or strategy == "fixed"
    regions = [(0, len(text), sections)] if whole else [(x.start, x.end, [x]) for x in sections]
    atom_starts = [x.start for x in atoms]  # sorted and disjoint (find_atoms)
    checked: set[str] = set()
    for a, b, secs in regions:
        head = header_at(a)
        if head and head not in checked:
            checked.add(head)
            h = sizer.count(head)
            if h > size * 3 // 4:
                keys = ", ".join(renderer.keys) or "the template"
                raise ContextHeaderError(
                    f"{doc.id}: the context header takes {h} of {size} {sizer.unit} ({head.strip()!r}, "
                    f"keys: {keys}), leaving too little room for text; drop keys with --header-keys, "
                    "shorten --header-template, or raise --size")
        local_prefix = (lambda p, a=a: prefix_at(a + p)) if (renderer.active or tables) else None
        kw = {"prefix": local_prefix, **strategy_kw}
        if strategy != "fixed":
            inside = atoms[bisect.bisect_left(atom_starts, a):bisect.bisect_left(atom_starts, b)]
            kw["atoms"] = [(x.start - a, x.end - a) for x in inside if x.end <= b]
        if strategy == "recursive":
            kw["heads"] = [(x.start - a, x.body - a) for x in secs if x.body > x.start]
        if strategy == "semantic":
            kw["offset"] = a
        for s, e, n in STRATEGIES[strategy](text[a:b], sizer, size, overlap, **kw):
            yield a + s, a + e, n, local_prefix(s) if local_prefix else "", section_of(a + s)


def chunk(text_or_document: str | Document, *, size: int, overlap: int = 0,
          strategy: str = "recursive", unit: str = "chars",
          tokenizer: str | Callable[[str], int] | Sizer | None = None,
          header_keys: Sequence[str] | None = None, header_template: str | None = None,
          structure: bool | None = None, cross_sections: bool = False,
          section_labels: Sequence[str] | None = None, semantic: dict[str, Any] | None = None) -> list[Chunk]:
    """Split a text or :class:`Document` into chunks of at most ``size`` units.

    ``strategy``: ``recursive`` (largest boundary that fits: paragraph > line > sentence >
    clause > word > grapheme) or ``fixed`` (windows advancing by ``size - overlap``).
    ``unit``: ``chars`` or ``tokens``; ``tokenizer``: ``o200k_base`` (default for tokens),
    ``cl100k_base``, a path to a Hugging Face ``tokenizer.json``, or a ``str -> int`` callable.
    Offsets are exact: ``doc.text[c.start:c.end] == c.text``.

    Structure (``structure``, default on for a :class:`Document`, off for a plain string):
    sections from Markdown headings and labels (【所見】, ■主訴, 所見：, S：...) are not
    crossed unless ``cross_sections``; code blocks, tables and a list with its lead-in line
    stay whole when they fit, and a table split by rows repeats its header in
    ``embed_text``. ``header_keys`` (e.g. ``["patient_id", "date", "section"]``) or
    ``header_template`` put a context header in front of each chunk's ``embed_text``;
    ``size`` always counts header plus text.

    ``semantic`` (with ``strategy="semantic"``): ``embedder`` (an Embedder; default the
    local model), ``method`` (percentile, stdev, interquartile, gradient, threshold),
    ``param``, ``window`` (neighbours embedded with each sentence), ``min_size``,
    ``cache`` (an EmbeddingCache), ``trace`` (a SemanticTrace to fill, for plots).
    """
    return list(iter_chunks(text_or_document, size=size, overlap=overlap, strategy=strategy,
                            unit=unit, tokenizer=tokenizer, header_keys=header_keys,
                            header_template=header_template, structure=structure,
                            cross_sections=cross_sections, section_labels=section_labels,
                            semantic=semantic))


def segment(text_or_document: str | Document, level: str | Level = "sentence") -> list[dict[str, Any]]:
    """The units of a text at one boundary level, as ``{"start", "end", "text"}`` dicts."""
    doc = _as_document(text_or_document)
    lv = parse_level(level)
    return [{"start": s, "end": e, "text": doc.text[s:e]} for s, e in Boundaries(doc.text).units(lv)]
