"""Structure of a text: sections with their heading paths, and spans to keep whole.

A chunk such as 「血圧は130/80で安定。」 has lost which section it is. This module finds
the section path of every position (Markdown headings, and the labelled sections clinical
and business documents use: 【所見】, ■主訴, [現病歴], 所見：, SOAP lines, ``1. 現病歴``)
and the spans that should stay whole (fenced code, tables, a list with its lead-in line).
A :class:`Structure` provider gives both to the chunkers, the same way for a string and a
document; :class:`PlainText` is the provider for text treated as plain.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Protocol

from . import compiled
from .atoms import Atom, ScannedAtoms, find_atoms
from .heading_lines import Heading, HeadingReader
from .labels import DEFAULT_LABELS, SOAP_NAMES
from .lazy import by_identity
from .line_scan import TextLines, label_initials

__all__ = [
    "Section",
    "Atom",
    "DEFAULT_LABELS",
    "SOAP_NAMES",
    "Structure",
    "Scanned",
    "PlainText",
    "LabelledText",
    "find_sections",
    "attach_bare_headings",
    "find_atoms",
]


@dataclass(slots=True)
class Section:
    start: int
    end: int
    headings: list[str] = field(default_factory=list)
    # where the text after a heading that stands on its own line(s) begins (blank lines
    # skipped); ``start`` when the heading line carries text too (所見：異常なし)
    body: int = -1

    def __init__(self, start: int, end: int, headings: list[str] | None = None, body: int = -1):
        # written out: a Markdown page makes hundreds of sections
        self.start, self.end = start, end
        self.headings = [] if headings is None else headings
        self.body = start if body < start else body


@lru_cache(maxsize=8)
def _label_re(labels: tuple[str, ...]) -> re.Pattern:
    alts = "|".join(re.escape(x) for x in sorted(set(labels), key=len, reverse=True))
    return re.compile(rf"^\s*(?:\d{{1,2}}[.．)）]\s*|[#＃]\s*)?({alts})\s*(?:[:：]|$)", re.I)


@lru_cache(maxsize=8)
def _field_labels(labels: tuple[str, ...]) -> tuple[str, ...] | None:
    """The alternatives of ``_label_re(labels)`` in its order, for the compiled reading of a
    field label's line; None where a label could make the pattern read a line otherwise than
    that reading does (empty, starting with white space, a digit, # or ＃, holding a line
    break, or a letter beyond ASCII with a case, whose lower case the candidate test's
    prefix tree holds instead: İ is i and a dot there): then the reader reads every such line."""
    alts = tuple(sorted(set(labels), key=len, reverse=True))
    for w in alts:
        if not w or w[0].isspace() or w[0].isdecimal() or w[0] in "#＃" or "\n" in w or "\r" in w:
            return None
        if not w.isascii() and any(c > "\x7f" and (c.lower() != c or c.upper() != c) for c in w):
            return None
    return alts


_CAND_LINE = (
    r"\n(?=[ \t]*(?:#|＃|【|\[|［|[■□◆◇●◎▼▶]|[SOAPsoap]\s*[:：)）]|`{3}|~{3}|=+[ \t]*\r?$|-+[ \t]*\r?$"
    r"|([*^\"+_])\1{2,}[ \t]*\r?$"
)


@lru_cache(maxsize=8)
def _candidates(labels: tuple[str, ...]) -> tuple[re.Pattern, re.Pattern]:
    """Lines that may start a heading: a quick filter on the line's first visible character,
    and the full test. Both begin with a literal newline (searched in "\n" + text) so the
    engine skips from line to line instead of trying every position."""
    firsts = set("#＃【[［■□◆◇●◎▼▶SOAP`~=-") | {x[0] for x in labels if x}
    # a reStructuredText adornment: three of a character that also starts bullets and quotes
    adornment = r'|\*{3}|\^{3}|"{3}|\+{3}|_{3}'
    quick = re.compile(r"\n[ \t]*(?:\d|[" + "".join(sorted(re.escape(c) for c in firsts)) + "]" + adornment + ")", re.I)
    # a numbered line (1. 2) …) can only be a field label's line: 1. 主訴：…
    trie = _trie(labels)
    full = re.compile(_CAND_LINE + rf"|(?:\d{{1,2}}[.．)）][^\S\n]*)?{trie}\s*(?:[:：]|\r?$)))", re.M | re.I)
    return quick, full


def _trie(words: Sequence[str]) -> str:
    """An alternation as a prefix tree (``主(?:訴|治医)``): one branch per first character,
    so a line that starts with no label's first letter is rejected at once."""
    tree: dict = {}
    for w in set(words):
        node = tree
        for ch in w.lower():
            node = node.setdefault(ch, {})
        node[""] = {}
    return _emit(tree)


def _emit(node: dict) -> str:
    """The pattern of a prefix tree's node (a module function: a nested one that calls
    itself is a reference cycle, left to the collector)."""
    alts = [re.escape(ch) + _emit(sub) if ch else "" for ch, sub in sorted(node.items(), key=lambda kv: kv[0] == "")]
    if len(alts) == 1:
        return alts[0]
    optional = "" in node
    body = "|".join(a for a in alts if a)
    return f"(?:{body})" + ("?" if optional else "")


@by_identity
def _patterns(labels: tuple[str, ...]) -> tuple[re.Pattern, re.Pattern, re.Pattern, tuple[str, ...] | None]:
    """``_candidates``' two patterns, ``_label_re`` and ``_field_labels`` of these labels,
    kept for the tuple that every text of a run passes (``LabelledText``'s)."""
    return (*_candidates(labels), _label_re(labels), _field_labels(labels))


@lru_cache(maxsize=32)
def _with_defaults(extra: tuple[str, ...]) -> tuple[str, ...]:
    """``DEFAULT_LABELS`` and ``extra``, one tuple per ``extra``: the same object for every
    text chunked with these labels (``_patterns`` and ``TextLines`` know it by identity)."""
    return tuple(DEFAULT_LABELS) + extra


def find_sections(
    text: str,
    labels: Sequence[str] = DEFAULT_LABELS,
    markdown: bool = True,
    outline: Sequence[int] | None = None,
    lines: TextLines | None = None,
    attach: bool = False,
) -> list[Section]:
    """Split ``text`` into sections, each with its heading path; they cover the text.

    Markdown headings nest by level; bracketed and marked labels (【】 [] ■) sit below
    them; field labels (所見：, S：) sit below those. A new label replaces the previous one
    of its rank, so the path reads like 退院サマリ > 2026/1/20 > Assessment. Only lines
    that can start a heading are looked at (one regex pass), so long texts stay cheap.
    ``outline``: the only line starts where a Markdown heading may be (the heading lines a
    loader wrote); other ``#`` lines and setext underlines are then body text.
    ``lines``: the text's line scan, when ``find_atoms`` shares it (made for these labels).
    ``attach``: a section that is its heading alone joins the next (``attach_bare_headings``).
    """
    allowed = None if outline is None else set(outline)
    key = labels if type(labels) is tuple else tuple(labels)
    if lines is None:
        lines = TextLines(text, key)
    return _sections_of_lines(text, lines, _patterns(key), markdown, allowed, attach)


def _sections_of_lines(
    text: str,
    lines: TextLines,
    patterns: tuple[re.Pattern, re.Pattern, re.Pattern, tuple[str, ...] | None],
    markdown: bool,
    allowed: set[int] | None,
    attach: bool,
) -> list[Section]:
    """``find_sections`` of a text's line scan, with its labels' ``_patterns``."""
    quick, cand, label_re, field_labels = patterns
    heads = lines.headings if lines.headings is not None else [q.start() for q in quick.finditer(lines.nl_text)]
    reader = HeadingReader(text, lines, cand, label_re, markdown, allowed, heads)
    known = markdown and allowed is None  # with an outline or Markdown off, a # line is read by the reader
    if lines.headings is not None and compiled.active():  # fences and what they hold: skipped here
        heads = compiled.native.unfenced(text, heads)
        # the compiled reading of a # heading or a bracketed or marked label (which needs
        # no line around it), the reader's of the others, put together as below
        return compiled.native.sections_of(text, heads, known, reader.read, field_labels, attach)
    found = _sections(len(text), _heading_starts(heads, reader.read))
    return attach_bare_headings(found) if attach else found


Starts = list[tuple[int, list[str], int]]  # (start, path, body) of each section a heading starts


def _heading_starts(heads: Sequence[int], read: Callable[[int, int], Heading | None]) -> Starts:
    """``(start, path, body)`` of each section a heading starts, from the headings ``read``
    finds at the candidate lines ``heads`` (compiled: ``_sentscan.sections_of``): Markdown
    headings nest by level, a block label sits below them and a field label below that."""
    starts: Starts = []
    block: str | None = None
    fieldl: str | None = None
    last_heading_end = -1
    levels: list[int] = []  # the Markdown path: each heading's level and title
    titles: list[str] = []
    for q in heads:
        got = read(q, last_heading_end)
        if got is None:
            continue
        kind, level, title, line_end, body, at = got
        if kind == "md":
            while levels and levels[-1] >= level:
                levels.pop()
                titles.pop()
            levels.append(level)
            titles.append(title)
            block = fieldl = None
            path = titles.copy()
        else:
            if kind == "block":
                block, fieldl = title, None
            else:
                fieldl = title
            path = titles + [x for x in (block, fieldl) if x]
        last_heading_end = line_end
        if starts and starts[-1][0] == at:
            starts[-1] = (at, path, body)
        else:
            starts.append((at, path, body))
    return starts


def _sections(n: int, starts: Starts) -> list[Section]:
    """The sections of a text of ``n`` characters that ``_heading_starts`` begin."""
    if not starts or starts[0][0] != 0:
        starts.insert(0, (0, [], 0))
    out = []
    for k, (s, p, body) in enumerate(starts):
        e = starts[k + 1][0] if k + 1 < len(starts) else n
        if e > s:
            out.append(Section(s, e, p, min(body, e)))
    return out or [Section(0, n, [])]


def section_sizes(sections: Sequence[Section]) -> list[tuple[str, int]]:
    """(name, characters) of each section, to report sections left out."""
    return [((s.headings[-1] if s.headings else "(before the first heading)"), s.end - s.start) for s in sections]


def attach_bare_headings(sections: list[Section]) -> list[Section]:
    """A section that is nothing but its heading (a title, ■ 2025/8/19, ## 経過 followed
    at once by ### 血液検査) joins the section after it: a chunk that is only a heading
    answers no question, and the next section's path still names it when it is a parent."""
    out: list[Section] = []
    carry: int | None = None
    last = len(sections) - 1
    for k, sec in enumerate(sections):
        if carry is not None:
            sec = Section(carry, sec.end, sec.headings, sec.body)
            carry = None
        if k < last and sec.headings and sec.body >= sec.end:
            carry = sec.start
            continue
        out.append(sec)
    return out


if compiled.native is not None:  # the compiled sections_of makes sections
    compiled.native.configure_section(Section)


# a text's sections, atoms (compiled, as their lists: ScannedAtoms) and paragraph ends (and
# suspects), found together: LabelledText.scan
Scanned = tuple[list[Section], Sequence[Atom], tuple[list[int], list[int]] | None]


class Structure(Protocol):
    """Gives the chunkers a text's sections (covering it, in order) and atoms. One may also
    have ``paragraph_ends(text)`` (see ``LabelledText``): the regions' paragraph cuts from
    a pass it made anyway."""

    def sections(self, text: str) -> list[Section]: ...

    def atoms(self, text: str) -> list[Atom]: ...


class PlainText:
    """No structure: one section, nothing kept whole beyond what the budget allows."""

    def sections(self, text: str) -> list[Section]:
        return [Section(0, len(text), [])]

    def atoms(self, text: str) -> list[Atom]:
        return []


class LabelledText:
    """Markdown headings, bracketed and field labels, SOAP lines; code, tables and
    lead-in lists as atoms. A section that is only its heading joins the next one. With an
    ``outline`` (from a loader), Markdown headings only where the loader wrote them."""

    def __init__(self, extra_labels: Sequence[str] = (), outline: Sequence[int] | None = None):
        self.labels = _with_defaults(tuple(extra_labels))
        self.outline = outline
        self._allowed = None if outline is None else set(outline)
        self._patterns = _patterns(self.labels)  # what every text's scan asks of the labels
        self._initials = label_initials(self.labels)
        self._lines: TextLines | None = None  # sections' line scan, kept for atoms
        self._of: str | None = None
        self._paragraphs: tuple[str, tuple[list[int], list[int]] | None] | None = None

    def sections(self, text: str) -> list[Section]:
        self._lines, self._of = TextLines(text, self.labels), text
        self._paragraphs = (text, self._lines.paragraphs)
        return find_sections(text, self.labels, outline=self.outline, lines=self._lines, attach=True)

    def atoms(self, text: str) -> list[Atom]:
        lines = self._lines if self._of is text else None
        self._lines = self._of = None  # a copy of the text: not kept longer than needed
        return find_atoms(text, lines)

    def scan(self, text: str) -> Scanned:
        """``sections(text)``, ``atoms(text)`` and ``paragraph_ends(text)`` from one line
        scan, holding nothing (one provider may serve several threads); compiled, the atoms
        as their lists (:class:`ScannedAtoms`, equal to the list of them)."""
        if not compiled.active():
            lines = TextLines(text, self.labels)
            sections = _sections_of_lines(text, lines, self._patterns, True, self._allowed, True)
            return sections, find_atoms(text, lines), lines.paragraphs
        # compiled, in one call: the line scan, the sections of its heading lines (the heading
        # reader made only when a line needs it: _sections_of_lines' compiled way), the atoms
        known = self._allowed is None
        sections, atoms, paragraphs = compiled.native.scan_labelled(
            text, self._initials, self.labels, known, self._reader, self._patterns[3]
        )
        return sections, ScannedAtoms(text, *atoms) if atoms is not None else [], paragraphs

    def _reader(self, text: str, scanned: tuple) -> Callable[[int, int], Heading | None]:
        """The heading reader of a text the compiled scan read (``scan``), made when a line needs it."""
        _quick, cand, label_re, _fields = self._patterns
        return HeadingReader(
            text, TextLines(text, self.labels, scanned), cand, label_re, True, self._allowed, scanned[0]
        ).read

    def paragraph_ends(self, text: str) -> tuple[list[int], list[int]] | None:
        """The paragraph ends the line scan of ``sections(text)`` found, as ``TextLines``
        gives them (None: not scanned, or not compiled): a region takes its paragraph cuts
        from them instead of a pass of its own."""
        got = self._paragraphs
        return got[1] if got is not None and got[0] is text else None
