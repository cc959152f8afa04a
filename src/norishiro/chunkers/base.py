"""What a chunker is: something that turns one region of a document into spans.

The caller (``norishiro.api``) splits a document into regions (sections, or the whole
text), measures each one and works out the context-header prefix, the atoms to keep
whole and the headings; a chunker only decides where its chunks start and end. A new
chunker is one module with a class like the ones here plus one line in
``norishiro.chunkers.CHUNKERS``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property, partial
from typing import Protocol

from ..core import compiled
from ..core.boundaries import Boundaries
from ..core.compiled_packing import LazyStep, section_spans
from ..core.levels import CLAUSE, LEVELS, LINE, LOWER_SENTENCE, PARAGRAPH, SENTENCE, WORD, Level
from ..core.measure import CharMeasure, CharSizer, Measure, Sizer
from ..core.packer import Packer
from ..core.plain import BALANCED_TAIL, plain_spans

__all__ = ["Region", "Chunker", "Span", "PackingChunker"]

_CHARS = CharSizer()

Span = tuple[int, int, int]  # start, end, size (of prefix + text), in the region's coordinates


@dataclass(slots=True)
class Region:
    """One stretch of a document to chunk, in its own coordinates (0 = ``offset``).

    ``prefix(p)``: the text put in front of a chunk starting at ``p`` (context header,
    repeated table header), which counts against ``size``; ``atoms``: spans kept whole when
    they fit (code, tables, lists); ``heads``: ``(start, body)`` of headings, which should
    not end a chunk when their text can follow; ``paragraphs``: its paragraph cuts, when the
    caller has them (the line scan's), for its boundaries to take if its breaks are "\\n".
    """

    text: str
    offset: int
    sizer: Sizer
    measure: Measure
    size: int
    overlap: int = 0
    prefix: Callable[[int], str] | None = None
    atoms: Sequence[tuple[int, int]] = ()
    heads: Sequence[tuple[int, int]] = ()
    paragraphs: list[int] | None = None


class Chunker(Protocol):
    """``sectioned``: one region per section (False: the whole text is one region, as for
    fixed windows, which know nothing of structure). ``needs_embedder``: the caller must
    pass ``embedder=`` when making it. A chunker may also have ``one_chunk(text, measure,
    size, head)`` (see :class:`PackingChunker`): the caller then asks it first, and a region
    that is one chunk never becomes a ``Region``."""

    sectioned: bool
    needs_embedder: bool

    def spans(self, region: Region) -> Iterable[Span]:
        """Spans covering ``region.text`` in order, each within ``region.size``."""
        ...


class PackingChunker:
    """A chunker that is the packer with its own levels: each chunk ends at the farthest cut
    of the first level in ``end_levels`` that fits (with ``merge_coarser``, a level's cuts
    include every coarser level's), and overlap repeats whole units of ``overlap_levels``.
    ``keeps_structure``: atoms stay whole and headings stay with their text."""

    sectioned = True
    needs_embedder = False
    # an instance holds nothing but its config: one serves every call with the same options
    reusable = True
    end_levels: tuple[Level, ...] = LEVELS
    overlap_levels: tuple[Level, ...] = (SENTENCE, LOWER_SENTENCE, CLAUSE, WORD)
    merge_coarser = False
    keeps_structure = True
    # the last chunks of a region share it evenly (ChunkConfig.balance can turn it off)
    balances = False

    def __init__(self, config=None, **_runtime):
        self.config = config

    # what every call with this config asks first, answered once (also for a subclass whose
    # __init__ does not call this one's): the last chunks share the text evenly; plain text
    # suits ``plain_spans`` (without overlap, with it)
    @cached_property
    def _balance(self) -> bool:
        return self.balances and getattr(self.config, "balance", True)

    @cached_property
    def _plain(self) -> tuple[bool, bool]:
        return self._plain_levels(False), self._plain_levels(True)

    @cached_property
    def _lost_lines(self) -> bool:  # plain_spans' ``lost_lines``: the line, then the sentence
        return sorted(self.end_levels)[1:3] == [LINE, SENTENCE]

    @cached_property
    def _finer(self) -> tuple[Level, ...]:  # plain_spans' ``finer``: the end levels after those
        return tuple(sorted(self.end_levels)[3:]) if self._lost_lines else ()

    def one_chunk(self, text: str, measure: Measure, size: int, head: str) -> int | None:
        """The size of the one chunk that a region of ``text`` is, with ``head`` (its prefix
        at 0) in front, when it is one (else None): in characters, when the packer would end
        its first chunk at the text's end anyway (its coarsest end level is the paragraph,
        whose fast path takes the text end when it is within reach). A short section (most of
        a Markdown page's) then needs no packer, no boundaries and no ``Region``."""
        n = len(text)
        if not n or not measure.exact_index or PARAGRAPH not in self.end_levels:  # the coarsest level
            return None
        got = measure.count(0, n, head)
        return got if got <= size else None

    @cached_property
    def whole_by_length(self) -> bool:
        """In characters, ``one_chunk`` is a length test (a region is one chunk when its head
        and text fit), unless a subclass says otherwise: the regions then ask no measure."""
        return PARAGRAPH in self.end_levels and type(self).one_chunk is PackingChunker.one_chunk

    def spans(self, region: Region) -> Iterable[Span]:
        text, measure = region.text, region.measure
        if region.prefix is None and measure.exact_index:  # characters: the common case, asked first
            n = len(text)
            if n <= region.size and n and PARAGRAPH in self.end_levels:  # one_chunk's answer
                return [(0, n, n)]
            if self._plain[region.overlap > 0] and not (self.keeps_structure and (region.atoms or region.heads)):
                make = partial(self._packer, region)
                return plain_spans(
                    make,
                    text,
                    measure,
                    region.size,
                    region.overlap,
                    self._balance,
                    self._lost_lines,
                    region.paragraphs,
                    self._finer,
                )
        else:
            whole = self.one_chunk(text, measure, region.size, region.prefix(0) if region.prefix else "")
            if whole is not None:
                return [(0, len(text), whole)]
        return self._packer(region).spans()

    def section_spans(
        self,
        text: str,
        size: int,
        atoms: Sequence[tuple[int, int]],
        heads: Sequence[tuple[int, int]],
        prefix: Callable[[int], str] | None,
        paragraphs: list[int] | None,
    ) -> list[Span] | None:
        """``spans`` of the region in characters without overlap that these make, where the
        compiled paragraph search serves it, without a ``Region``, a measure or (unless that
        search asks it) a packer: the long sections of a structured page. None: make the
        region and ask ``spans``."""
        if not self._sections_compiled:
            return None
        n = len(text)
        if prefix is None:
            if n <= size:
                return [(0, n, n)] if n else None
            if not (atoms or heads):  # plain text's path
                return None
        else:
            first = len(prefix(0))
            if n and first + n <= size:  # one_chunk's answer
                return [(0, n, first + n)]
        region = partial(Region, text, 0, _CHARS, CharMeasure(text), size, 0, prefix, atoms, heads, paragraphs)
        return section_spans(
            text,
            paragraphs,
            size,
            atoms,
            heads,
            prefix,
            self._line_next,
            self._balance,
            lambda bnd: self._packer(region(), bnd),
        )

    def text_section_spans(
        self,
        text: str,
        a: int,
        b: int,
        size: int,
        lists: tuple[list[int], ...],
        body: int,
        make_region: Callable[[str, list[int]], Region],
    ) -> tuple[list[Span], bool] | None:
        """``section_spans`` of the section ``text[a:b]`` (its heading's text from ``body``),
        read from the document's lists (``_sentscan.section_spans``: paragraph ends and
        suspects, atom starts and ends, table body starts, ends and header sizes) without
        making the section's own: ``(spans, in_body)`` (in_body: a chunk starts in a table's
        body, where its prefix is asked), or None (make the region).
        ``make_region(piece, paragraph_cuts)``: the region, for the packer's search where
        the compiled one asks it. A section with a line break other than "\n" is None."""
        if not self.reads_lists:
            return None
        make = self.section_make(make_region)
        return compiled.native.section_spans(text, a, b, size, *lists, body, self.section_tail, self._line_next, make)

    @property
    def reads_lists(self) -> bool:
        """``text_section_spans`` serves (compiled): a walk over a page's sections may ask
        ``_sentscan.section_spans`` itself, with ``section_make``, ``section_tail`` and
        ``line_next``."""
        return self._sections_compiled and compiled.active()

    @property
    def line_next(self) -> bool:
        return self._line_next

    @property
    def section_tail(self) -> int:
        """``section_spans``' tail: the budgets the last chunks share evenly (0: not balanced)."""
        return BALANCED_TAIL if self._balance else 0

    def section_make(
        self, make_region: Callable[[str, list[int]], Region]
    ) -> Callable[[str, list[int]], tuple[tuple | None, Callable[[int], int]]]:
        """``section_spans``' ``make`` for a section whose region ``make_region`` makes: the
        soft-wrap reading and the packer's search of its piece, asked when first needed."""
        line_next = self._line_next

        def make(piece: str, cuts: list[int]) -> tuple[tuple | None, Callable[[int], int]]:
            bnd = Boundaries(piece, paragraphs=cuts, lf=True)  # a "\n"-only piece (checked): these are its cuts
            lines = bnd.soft_wrap_reading() if line_next else None
            return lines, LazyStep(lambda made: self._packer(make_region(piece, cuts), made), bnd)

        return make

    @cached_property
    def _sections_compiled(self) -> bool:
        """``section_spans`` serves: this class's ``spans`` and packer, which keeps atoms
        and headings, its first end level the paragraph, none merged."""
        cls = type(self)
        return (
            cls.spans is PackingChunker.spans
            and cls._packer is PackingChunker._packer
            and self.keeps_structure
            and not self.merge_coarser
            and min(self.end_levels, default=None) is PARAGRAPH
        )

    @cached_property
    def _line_next(self) -> bool:  # the line is the second end level
        return sorted(self.end_levels)[1:2] == [LINE]

    def _packer(self, region: Region, boundaries: Boundaries | None = None) -> Packer:
        keep = self.keeps_structure
        if boundaries is None and region.paragraphs is not None:
            boundaries = Boundaries(region.text, paragraphs=region.paragraphs)
        return Packer(
            region.text,
            region.measure,
            region.size,
            region.overlap,
            end_levels=self.end_levels,
            overlap_levels=self.overlap_levels,
            boundaries=boundaries,
            prefix=region.prefix,
            atoms=region.atoms if keep else (),
            heads=region.heads if keep else (),
            merge_coarser=self.merge_coarser,
            balance=self._balance,
        )

    def _plain_levels(self, overlap: bool) -> bool:
        """The levels ``plain_spans`` serves: the paragraph's first, the sentence's first
        for overlap, no level's cuts merged with the coarser ones'."""
        return (
            min(self.end_levels) is PARAGRAPH
            and not self.merge_coarser
            and (not overlap or min(self.overlap_levels, default=None) is SENTENCE)
        )
