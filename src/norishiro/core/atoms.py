"""Spans to keep whole: fenced code blocks, tables (Markdown and tab-separated) and a list
with its lead-in line. A chunk that cuts a table row from its header, or a code block in
two, loses what the rows mean; the packer keeps these spans whole when they fit.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from operator import attrgetter

from . import compiled
from .labels import DEFAULT_LABELS
from .line_scan import TextLines, line_matches

__all__ = ["Atom", "ScannedAtoms", "find_atoms"]


@dataclass(slots=True)
class Atom:
    """A span to keep whole when it fits; ``header`` is a table's header rows, repeated
    in ``embed_text`` for chunks that start inside the table body."""

    start: int
    end: int
    kind: str
    body_start: int = 0
    header: str = ""

    def __init__(self, start: int, end: int, kind: str, body_start: int = 0, header: str = ""):
        # written out: a manual page holds hundreds of tables and code blocks
        self.start, self.end, self.kind, self.body_start, self.header = start, end, kind, body_start, header


if compiled.native is not None:  # the compiled scans make atoms themselves
    compiled.native.configure_atom(Atom)


class ScannedAtoms(Sequence):
    """``find_atoms``' atoms of a text as the compiled scan gives them (``_sentscan.scan_labelled``):
    their lists, which the regions read, each made an :class:`Atom` only when one is read (a
    Markdown page holds dozens). ``tables`` are where each table's header rows start (they run
    to its body), ``sizes`` their lengths."""

    __slots__ = ("_text", "starts", "ends", "_kinds", "t_starts", "t_ends", "tables", "sizes", "_made")

    def __init__(self, text: str, starts, ends, kinds, t_starts, t_ends, tables, sizes):
        self._text, self.starts, self.ends, self._kinds = text, starts, ends, kinds
        self.t_starts, self.t_ends, self.tables, self.sizes = t_starts, t_ends, tables, sizes
        self._made: list[Atom] | None = None

    def __len__(self) -> int:
        return len(self.starts)

    def __getitem__(self, i):
        return self._atoms()[i]

    def __iter__(self):
        return iter(self._atoms())

    def __eq__(self, other) -> bool:
        if isinstance(other, ScannedAtoms):
            other = other._atoms()
        return self._atoms() == other if isinstance(other, list) else NotImplemented

    __hash__ = None  # like the list it stands for

    def __repr__(self) -> str:
        return repr(self._atoms())

    def _atoms(self) -> list[Atom]:
        if self._made is None:
            text, heads = self._text, iter(zip(self.t_starts, self.tables))
            out = []
            for s, e, kind in zip(self.starts, self.ends, self._kinds):
                if kind == "table":
                    body, h = next(heads)
                    out.append(Atom(s, e, kind, body, text[h:body]))
                else:
                    out.append(Atom(s, e, kind))
            self._made = out
        return self._made


_FENCED = re.compile(r"\n( {0,3}(`{3,}|~{3,})[^\n]*\n(?:.*?\n)?? {0,3}\2[ \t]*(?:\r?\n|$))", re.S)
_MD_TABLE = re.compile(
    r"\n(([ \t]*\|[^\n]*\|[ \t]*\r?\n[ \t]*\|?[ \t]*:?-{2,}[^\n]*\n)"
    r"(?:[ \t]*\|[^\n]*\|[ \t]*(?:\r?\n|$))*)"
)
# a grid table's top border (+-----+-----+), drawn on the line above its header row
_BORDER = re.compile(r"[ \t]*\+[-=+]{2,}[ \t]*\r?\n")
_TSV_LINE = re.compile(r"\n([^\t\n]*\t[^\t\n]*\t[^\n]*)")
# one pattern per colon: a literal first character lets the engine skip ahead (7x faster)
_LEAD_HINTS = tuple(re.compile(c + r"[ \t]*\r?\n[ \t]*(?:[・•●○\-*+]|\d|[（(]|[①-⑳])") for c in ":：")
_LEAD_LIST = re.compile(
    r"\n([^\n]*[:：][ \t]*\r?\n(?:[ \t]*(?:[・•●○\-*+]|\d{1,2}[.．)）]|[（(]\d{1,2}[)）]|[①-⑳])"
    r"[ \t]*\S[^\n]*(?:\r?\n|$))+)"
)


def find_atoms(text: str, lines: TextLines | None = None) -> list[Atom]:
    """Fenced code blocks, tables (Markdown and tab-separated) and lead-in + list spans,
    disjoint and sorted; the header rows of a table are kept for repetition.

    Patterns start with a literal newline and run over "\\n" + text (positions shift by
    one), which lets the regex engine jump between lines. ``lines``: the text's line scan,
    when ``find_sections`` shares it."""
    if lines is None:
        lines = TextLines(text, DEFAULT_LABELS)
    elif lines.headings is not None and not (lines.fences or lines.tables or lines.lead_hints or len(lines.tsv) >= 6):
        return []  # the compiled line scan found no line where an atom may start (a table: 3 lines of tabs)
    found: list[Atom] = []
    groups = 0  # how many kinds were found: each kind's spans come sorted and disjoint
    # compiled: the line scan found the lines where a fence may start, and the tables; else a
    # search for each pattern over a text that holds what it needs
    fences = lines.fences  # none found by the scan (most texts): no call
    if fences or (fences is None and ("```" in text or "~~~" in text)):
        found += _code_atoms(lines, fences)
        groups += bool(found)
    tables = lines.tables  # the line scan's tables, found (none: most texts)
    if tables or (tables is None and "|" in text):
        got = compiled.native.table_atoms_from(text, tables) if tables is not None else _table_atoms(lines)
        found += got
        groups += bool(got)
    tsv = lines.tsv  # the line scan's (none: most texts), else looked for when six tabs are there
    if tsv or (tsv is None and _tabs_at_least(text, 6)):
        n = len(found)
        run: list[tuple[int, int]] = []
        for a, b in zip(tsv[::2], tsv[1::2]) if tsv else _tsv_lines(text):
            if run and run[-1][1] != a:
                found += _tsv_atom(text, run)
                run = []
            run.append((a, b))
        found += _tsv_atom(text, run)
        groups += len(found) > n
    hints = lines.lead_hints  # the line scan's: no text-wide look for a colon
    if hints or (hints is None and ("：" in text or ":" in text)):
        # only lines where a colon ends the line and a list item follows can match: find
        # those first (one cheap scan) instead of trying the pattern on every line
        done, n = 0, len(found)
        if hints is None:
            hints = sorted(m.start() for p in _LEAD_HINTS for m in p.finditer(lines.nl_text))
        for hint in hints:  # in nl_text: the line's "\n" there is where it starts in the text
            line = text.rfind("\n", 0, hint - 1) + 1
            if line < done:
                continue
            m, shift = lines.match(_LEAD_LIST, line)
            if m:
                found.append(Atom(m.start(1) + shift - 1, m.end(1) + shift - 1, "list"))
                done = m.end() + shift
        groups += len(found) > n
    if groups < 2:
        return found
    return compiled.native.disjoint_atoms(found) if compiled.active() else disjoint(found)


def disjoint(found: list[Atom]) -> list[Atom]:
    """The first of overlapping spans (non-empty: a line or more), by start (code wins over
    what is inside); at a shared start the longest, the first found of equal ones. One pass
    after a stable sort by start (starts rarely meet: no second sort on the end). Compiled:
    ``_sentscan.disjoint_atoms``, which leaves ``found`` as it is."""
    if not found:
        return []
    found.sort(key=_START)
    rest = iter(found)
    last = next(rest)
    out = [last]
    for atom in rest:
        if atom.start == last.start:
            if atom.end > last.end:
                out[-1] = last = atom
        elif atom.start >= last.end:
            out.append(atom)
            last = atom
    return out


_START = attrgetter("start")


def _tabs_at_least(text: str, k: int) -> bool:
    """``text.count("\t") >= k``, stopping at the k-th (most texts have no tab at all)."""
    p = -1
    for _ in range(k):
        p = text.find("\t", p + 1)
        if p < 0:
            return False
    return True


def _tsv_lines(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each line (with its newline) that ``_TSV_LINE`` matches: two tabs
    or more. Found from tab to tab, so that the lines without one (most) are never read."""
    out, n = [], len(text)
    p = text.find("\t")
    while p >= 0:
        e = text.find("\n", p)
        if e < 0:
            e = n
        if text.find("\t", p + 1, e) >= 0:
            out.append((text.rfind("\n", 0, p) + 1, min(n, e + 1)))
        p = text.find("\t", e)
    return out


def _tsv_atom(text: str, run: list[tuple[int, int]]) -> list[Atom]:
    if len(run) < 3:
        return []
    return [Atom(run[0][0], run[-1][1], "table", run[0][1], text[run[0][0] : run[0][1]])]


def _table_atoms(lines: TextLines) -> list[Atom]:
    """The table atoms of the text, searched everywhere (``t``: ``nl_text``). Compiled, the
    line scan finds the tables and ``_sentscan.table_atoms_from`` makes these atoms of them (a
    property test holds them to each other)."""
    t = lines.nl_text
    return _bordered(t, _tables(t, None))


def _bordered(t: str, spans: list[tuple[int, int, int]]) -> list[Atom]:
    """The table atoms of ``(start, body_start, end)`` spans in ``t`` ("\n" + text), each with
    the border line drawn right above it (``+-----+``, a grid table's top), so that no chunk
    is that line alone."""
    out: list[Atom] = []
    for a, h, e in spans:
        above = t.rfind("\n", 0, a - 1) + 1 if a >= 2 else a
        start = above if above < a and _BORDER.fullmatch(t, above, a) else a
        out.append(Atom(start - 1, e - 1, "table", h - 1, t[a:h]))
    return out


def _code_atoms(lines: TextLines, at: list[int] | None) -> list[Atom]:
    """The fenced code blocks, tried at the lines ``at`` (the compiled line scan's) or
    everywhere; the compiled matcher reads ``_FENCED`` as the regex does (a property test
    holds them to each other), over the text itself."""
    if at is not None and compiled.active():
        return compiled.native.code_atoms(lines.text, at)
    return [Atom(m.start(1) - 1, m.end(1) - 1, "code") for m in line_matches(_FENCED, lines.nl_text, at)]


def _tables(t: str, lines: list[int] | None) -> list[tuple[int, int, int]]:
    """``(start, body_start, end)`` of the Markdown tables in ``t`` (``nl_text``), tried at
    ``lines`` or everywhere."""
    return [(m.start(1), m.end(2), m.end(1)) for m in line_matches(_MD_TABLE, t, lines)]
