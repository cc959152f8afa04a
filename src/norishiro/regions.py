"""The regions of one document: a section each, or the whole text, with the context header
and a repeated table header counted in every chunk's budget, and the atoms and headings a
chunker keeps whole or with their text. ``norishiro.api`` hands each region to a chunker.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import NamedTuple

from .chunkers import Region
from .config import ChunkConfig
from .core import compiled
from .core.atoms import ScannedAtoms
from .core.canonical import section_names
from .core.headers import HeaderRenderer
from .core.measure import Measure, Sizer
from .core.structure import Atom, Scanned, Section
from .document import Document
from .errors import ContextHeaderError
from .section_runs import one_chunk_run

__all__ = ["Regions", "OneChunk", "OneChunkRun", "Packed", "atom_lists", "paragraph_cuts"]


class OneChunk(NamedTuple):
    """A region that the chunker said is one chunk: its text, where it starts, the chunk's
    size and the prefix in front of it (what the chunk needs, without a ``Region``)."""

    text: str
    offset: int
    size: int
    head: str


class OneChunkRun(NamedTuple):
    """Sections ``start``..``stop - 1`` (indices in ``Regions.sections``) that are one chunk
    each, their text alone (no header, no table's header rows in front): the short sections
    of a Markdown page, made chunks in one call."""

    start: int
    stop: int


def atom_lists(
    atoms: list[Atom], half: int
) -> tuple[list[int], list[int], list[Atom], list[int], list[int], list[int]]:
    """The atoms' starts and ends, the tables among them with header rows to repeat, those
    tables' body starts and ends, and their header's size where it is at most ``half`` (half
    the budget, ``_with_table``'s room), else 0: what the regions read. Compiled:
    ``_sentscan.atom_lists``, one pass."""
    tables = [x for x in atoms if x.kind == "table" and x.header]
    return (
        [x.start for x in atoms],
        [x.end for x in atoms],
        tables,
        [x.body_start for x in tables],
        [x.end for x in tables],
        [len(x.header) if len(x.header) <= half else 0 for x in tables],
    )


_one_of = OneChunk._make  # the tuple made in C, not through the class's __new__


class Packed(NamedTuple):
    """A region's spans that the chunker gave without a ``Region`` (``section_spans``): the
    spans, where the region starts in the text, and its prefix."""

    spans: list[tuple[int, int, int]]
    offset: int
    prefix: Callable[[int], str] | None


class Regions:
    """The regions of one document (a section each, or the whole text), with the context
    header and a repeated table header counted in every chunk's budget."""

    def __init__(
        self,
        doc: Document,
        config: ChunkConfig,
        sizer: Sizer,
        structure,
        renderer: HeaderRenderer,
        whole: bool,
        one_chunk: Callable[[str, Measure, int, str], int | None] | None = None,
        by_length: bool = False,
        packing=None,
        scanned: Scanned | None = None,
    ):
        """``one_chunk(text, measure, size, head)``: the chunker's size of a region that is
        one chunk (None if it is not); such a region is yielded as a :class:`OneChunk`.
        ``by_length``: ``one_chunk`` says a region is one chunk exactly when its head and text
        together are at most ``size`` characters long (then no measure is made to ask it).
        ``packing``: a chunker whose ``section_spans(text, size, atoms, heads, prefix,
        paragraphs)`` gives the spans of the region these make, or None (then the region is
        made), and ``text_section_spans`` the same read from the document's lists: such spans
        come as a :class:`Packed`. ``scanned``: the text's sections, atoms and paragraph ends
        when found already (``LabelledText.scan``), else asked of ``structure``."""
        self.doc, self.config, self.sizer, self.renderer, self.whole = doc, config, sizer, renderer, whole
        self.one_chunk = one_chunk
        self.by_length = by_length and one_chunk is not None
        self.packing = packing
        text = doc.text
        if scanned is None:
            sections, atoms = structure.sections(text), structure.atoms(text)
            ends = getattr(structure, "paragraph_ends", None)  # a structure may not have them
            paragraphs = ends(text) if ends is not None else None
        else:
            sections, atoms, paragraphs = scanned
        self.sections, self.atoms, self.paragraphs = sections, atoms, paragraphs
        self._starts: list[int] | None = None
        # sorted and disjoint; the tables among them whose header is repeated (tables: each an
        # Atom, or, the scan's, where its header rows start), and their header's size
        if type(atoms) is ScannedAtoms:  # its lists, each header's size held to half the budget here
            half, sizes = config.size // 2, atoms.sizes
            heads = sizes if max(sizes, default=0) <= half else [x if x <= half else 0 for x in sizes]
            lists = atoms.starts, atoms.ends, atoms.tables, atoms.t_starts, atoms.t_ends, heads
        elif atoms:
            half = config.size // 2
            lists = compiled.native.atom_lists(atoms, half) if compiled.active() else atom_lists(atoms, half)
        else:
            lists = [], [], [], [], [], []
        self.atom_starts, self._atom_ends, self.tables, self.t_starts, self.t_ends, self._heads = lists
        self._room: dict[tuple[str, str], bool] = {}
        self.excluded: list[Section] = []
        # a section that is one chunk of its text alone is said in a run of them (a length
        # test: characters, no header, every section a region of its own)
        self.runs = (
            self.by_length
            and not renderer.active
            and not whole
            and not (config.sections_include or config.sections_exclude)
        )
        # a long section's spans read from the document's lists (made for the first), where
        # its paragraph cuts are the line scan's and a table's header is its only prefix
        self._by_lists = packing is not None and self.runs and self.paragraphs is not None
        self._lists: tuple[list[int], ...] | None = None

    def _document_lists(self) -> tuple[list[int], ...]:
        """What ``text_section_spans`` reads: the paragraph ends and suspects, the atoms'
        starts and ends, the tables' body starts and ends and their header's size where it
        is repeated (``_with_table``'s room), else 0."""
        if self._lists is None:
            p_ends, suspects = self.paragraphs
            ends = self._atom_ends
            self._lists = (p_ends, suspects or [], self.atom_starts, ends, self.t_starts, self.t_ends, self._heads)
        return self._lists

    @property
    def starts(self) -> list[int]:
        """Where each section starts (made on first use: a page of short sections needs none)."""
        if self._starts is None:
            self._starts = [x.start for x in self.sections]
        return self._starts

    def section_of(self, pos: int) -> Section:
        return self.sections[max(0, bisect.bisect_right(self.starts, pos) - 1)]

    def header_at(self, pos: int) -> str:
        if not self.renderer.active:  # the common case: no header, no look-up
            return ""
        return self.renderer.render(self.doc.metadata, self.section_of(pos).headings)

    def prefix_at(self, pos: int) -> str:
        return self._with_table(self.header_at(pos), pos)

    def _with_table(self, head: str, pos: int, lo: int = 0, hi: int | None = None) -> str:
        """``head``, and the header rows of the table whose body holds ``pos`` (looked for
        among ``tables[lo:hi]``) when they leave half the budget."""
        k = bisect.bisect_right(self.t_starts, pos, lo, len(self.t_starts) if hi is None else hi) - 1
        if k < lo or not self.t_starts[k] <= pos < self.t_ends[k]:
            return head
        th = self.tables[k]
        th = self.doc.text[th : self.t_starts[k]] if type(th) is int else th.header
        key = (head, th)
        if key not in self._room:
            self._room[key] = self.sizer.count(head + th) <= self.config.size // 2
        return head + th if self._room[key] else head

    def _prefix(self, a: int, b: int, head: str, one_section: bool) -> Callable[[int], str] | None:
        """The prefix of a chunk starting at ``p`` in the region ``a..b``: none when no header
        is rendered and no table body lies in it; the section's header when that is all it
        can be (one section, no table); else looked up per position."""
        k = bisect.bisect_right(self.t_starts, b) - 1
        if k >= 0 and self.t_ends[k] > a:  # tables are disjoint and in order
            if one_section or not self.renderer.active:  # one header: only the tables vary
                return self._table_prefix(a, b, head)
            return lambda p: self.prefix_at(a + p)
        if not self.renderer.active:
            return None
        if one_section:
            return (lambda p: head) if head else None
        return lambda p: self.header_at(a + p)

    def _table_prefix(self, a: int, b: int, head: str) -> Callable[[int], str]:
        """``prefix_at`` for a region whose header is ``head`` throughout."""
        lo, hi = max(0, bisect.bisect_right(self.t_starts, a) - 1), bisect.bisect_right(self.t_starts, b)
        return _TablePrefix(self, a, lo, hi, head)

    def _selected(self) -> list[tuple[int, int, list[Section]]]:
        """The spans to chunk: each section, or the whole text (``whole``); with a section
        filter, only the chosen sections (runs of them, when ``whole``), the others noted in
        ``excluded``."""
        cfg = self.config
        if not (cfg.sections_include or cfg.sections_exclude):
            if self.whole:
                return [(0, len(self.doc.text), self.sections)]
            return [(x.start, x.end, [x]) for x in self.sections]
        names = section_names(cfg.section_map)
        out: list[tuple[int, int, list[Section]]] = []
        joined = False
        for sec in self.sections:
            if not names.selects(sec.headings, cfg.sections_include, cfg.sections_exclude):
                self.excluded.append(sec)
                joined = False
                continue
            if self.whole and joined:
                a, _b, secs = out[-1]
                out[-1] = (a, sec.end, secs + [sec])
            else:
                out.append((sec.start, sec.end, [sec]))
            joined = True
        return out

    def _check_header(self, head: str, checked: set[str]) -> None:
        if not head or head in checked:
            return
        checked.add(head)
        h = self.sizer.count(head)
        if h > self.config.size * 3 // 4:
            raise ContextHeaderError(self.doc.id, head, h, self.config.size, self.sizer.unit, list(self.renderer.keys))

    def __iter__(self) -> Iterator[tuple[Region | OneChunk | OneChunkRun | Packed, Section | None]]:
        """Each region, with its section when it is one section (its chunks share the name).
        Most regions of a Markdown page are short sections: the work per region is kept to
        what that region has (no look-up for atoms, tables or a header it cannot have), one
        that is one chunk is a :class:`OneChunk`, and sections that are one chunk of their
        text alone come as a :class:`OneChunkRun`."""
        return self._regions(self._with_runs() if self.runs else self._selected())

    def _with_runs(self) -> Iterator[OneChunkRun | tuple[int, int, list[Section]]]:
        """``_selected``'s spans (every section, when there are runs), a run of sections
        that are one chunk of their text alone said as one ``OneChunkRun``."""
        run = compiled.native.one_chunk_run if compiled.active() else one_chunk_run
        secs, starts, size = self.sections, self.starts, self.config.size
        ends = [x.end for x in secs]
        k, n = 0, len(secs)
        while k < n:
            j = run(starts, ends, k, size, self.t_starts, self.t_ends)
            if j > k:
                yield OneChunkRun(k, j)
                k = j
                if k >= n:
                    break
            sec = secs[k]
            yield sec.start, sec.end, [sec]
            k += 1

    def _regions(
        self, selected: Iterable[OneChunkRun | tuple[int, int, list[Section]]]
    ) -> Iterator[tuple[Region | OneChunk | OneChunkRun | Packed, Section | None]]:
        """``__iter__``'s regions of these spans (``_selected``'s, or ``_with_runs``'), a run
        passed on as it is."""
        checked: set[str] = set()
        for item in selected:
            if type(item) is OneChunkRun:
                yield item, None
                continue
            yield self.region(*item, checked)

    def region(
        self, a: int, b: int, secs: list[Section], checked: set[str]
    ) -> tuple[Region | OneChunk | Packed, Section | None]:
        """The region of the span ``a..b`` (sections ``secs``), with its section when it is
        one: a :class:`OneChunk`, :class:`Packed` spans, or a ``Region`` for the chunker.
        ``checked``: the headers already checked against the budget."""
        text, sizer, size = self.doc.text, self.sizer, self.config.size
        t_starts, t_ends = self.t_starts, self.t_ends
        active = self.renderer.active
        one_chunk, by_length, packing, by_lists = self.one_chunk, self.by_length, self.packing, self._by_lists
        head = ""
        if active:
            head = self.header_at(a)
            self._check_header(head, checked)
        one = secs[0] if len(secs) == 1 else None
        piece, measure = None, None
        if one_chunk is not None:
            # the prefix at the region's start, which is all a chunk of it that is
            # the whole region needs (the look-up per position is made only when not);
            # a table's header rows only where a table's span holds the start
            k = bisect.bisect_right(t_starts, a) - 1 if t_starts else -1
            first = self._with_table(head, a) if k >= 0 and a < t_ends[k] else head
            if by_length:
                n = len(first) + b - a if b > a else size + 1
                n = n if n <= size else None
            else:
                piece = text[a:b]
                measure = sizer.measure(piece)
                n = one_chunk(piece, measure, size, first)
            if n is not None:
                return _one_of((text[a:b] if piece is None else piece, a, n, first)), one
        if by_lists and one is not None and (packed := self.packed(a, b, one, head)) is not None:
            return packed, one
        paragraphs = self._paragraph_cuts(a, b) if self.paragraphs else None
        region = self._region(a, b, secs, head, text[a:b] if piece is None else piece, paragraphs, measure)
        if packing is not None and (region.atoms or region.heads or region.prefix is not None):
            spans = packing.section_spans(region.text, size, region.atoms, region.heads, region.prefix, paragraphs)
            if spans is not None:
                return Packed(spans, a, region.prefix), one
        return region, one

    def packed(self, a: int, b: int, sec: Section, head: str) -> Packed | None:
        """The spans of the section ``sec`` (``a..b``, header ``head``) read from the
        document's lists (``text_section_spans``) where they serve (characters without
        overlap; a heading line of its own or atoms in the text: else plain text's path is
        taken), else None: the region is made."""
        if not (self._by_lists and (sec.body > a or self.atoms)):
            return None
        made = partial(self._region, a, b, [sec], head)
        size = self.config.size
        got = self.packing.text_section_spans(self.doc.text, a, b, size, self._document_lists(), sec.body, made)
        if got is None:
            return None
        spans, in_body = got
        return Packed(spans, a, self._table_prefix(a, b, head) if in_body else None)

    @property
    def walks(self) -> bool:
        """A walk over the sections may read long sections' spans from the document's lists in
        C (``_sentscan.walk_sections``): ``packed``'s way, for every section."""
        return self._by_lists and self.packing.reads_lists

    def walk_args(self) -> tuple:
        """``walk_sections``' lists, tail, line reading, make factory, whether atoms are there, and
        the tables whose header a chunk in their body repeats."""
        c = self.packing
        return self._document_lists(), c.section_tail, c.line_next, self.section_make, bool(self.atoms), self.tables

    def section_make(self, a: int, b: int, k: int) -> Callable:
        """``section_spans``' ``make`` for section ``k`` (``a..b``), made when it is first asked."""
        return self.packing.section_make(partial(self._region, a, b, [self.sections[k]], ""))

    def _region(
        self, a: int, b: int, secs: list[Section], head: str, piece: str, paragraphs: list[int] | None, measure=None
    ) -> Region:
        """The region of ``piece`` (``text[a:b]``, sections ``secs``, header ``head``)."""
        prefix = self._prefix(a, b, head, len(secs) == 1)
        inside: list[tuple[int, int]] | tuple = ()
        starts = self.atom_starts
        if starts:
            i, j = bisect.bisect_left(starts, a), bisect.bisect_left(starts, b)
            if j > i:
                inside = [(x - a, y - a) for x, y in zip(starts[i:j], self._atom_ends[i:j]) if y <= b]
        heads = [(x.start - a, x.body - a) for x in secs if x.body > x.start]
        if measure is None:
            measure = self.sizer.measure(piece)
        c = self.config
        return Region(piece, a, self.sizer, measure, c.size, c.overlap, prefix, inside, heads, paragraphs)

    def _paragraph_cuts(self, a: int, b: int) -> list[int] | None:
        return paragraph_cuts(self.doc.text, self.paragraphs, a, b)


def paragraph_cuts(text: str, paragraphs: tuple[list[int], list[int]], a: int, b: int) -> list[int] | None:
    """The paragraph cuts of ``text[a:b]``, in its coordinates, from the whole text's
    (``paragraphs``: the line scan's ends and suspects) where they are the same: its first
    line is not blank, its last ends with the text or a newline, and none of its cuts may be
    moved onto a grapheme's end; else None (its boundaries find them)."""
    ends, suspects = paragraphs
    n = len(text)
    if a >= n or text[a].isspace():
        return None  # a blank first line starts no run of its own: the text's may
    if b < n and text[b - 1] != "\n":
        return None  # its last line, cut short, could end a run the whole line does not
    if suspects and bisect.bisect_right(suspects, a) != bisect.bisect_left(suspects, b):
        return None
    got = ends[bisect.bisect_right(ends, a) : bisect.bisect_left(ends, b)]
    return [c - a for c in got] if a else got  # from the text's start: the same numbers


class _TablePrefix:
    """The prefix of a region whose header is ``base`` throughout but in its tables' bodies,
    where the table's header rows follow it (when they leave room). ``spans()`` says where
    that is, so that a packer knows the prefix elsewhere without asking (most positions)."""

    __slots__ = ("_regions", "_a", "_lo", "_hi", "base", "_starts", "_ends", "_said")

    def __init__(self, regions: Regions, a: int, lo: int, hi: int, base: str):
        self._regions, self._a, self._lo, self._hi, self.base = regions, a, lo, hi, base
        self._starts = [x - a for x in regions.t_starts[lo:hi]]
        self._ends = [x - a for x in regions.t_ends[lo:hi]]
        self._said: dict[int, str] = {}  # a chunk's start is asked by the packer and the chunk maker

    def __call__(self, p: int) -> str:
        # outside every body (most chunks' starts) the base, without the regions' look-up
        k = bisect.bisect_right(self._starts, p) - 1
        if k < 0 or p >= self._ends[k]:
            return self.base
        got = self._said.get(p)
        if got is None:
            got = self._said[p] = self._regions._with_table(self.base, self._a + p, self._lo, self._hi)
        return got

    def spans(self) -> tuple[list[int], list[int]]:
        """The starts and ends, in the region's coordinates, of the table bodies where the
        prefix may be other than ``base``."""
        return self._starts, self._ends
