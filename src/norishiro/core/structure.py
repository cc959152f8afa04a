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
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import repeat
from typing import Protocol

from . import compiled
from .atoms import Atom, find_atoms
from .chars import columns
from .labels import DEFAULT_LABELS, SOAP_NAMES
from .line_scan import TextLines, line_matches

__all__ = [
    "Section",
    "Atom",
    "DEFAULT_LABELS",
    "SOAP_NAMES",
    "Structure",
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


_ATX = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.+?)[ \t#]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
# reStructuredText adorns a title with a line of one repeated punctuation character at least
# as wide as the title (Python's and Sphinx's docs, pydoc text: ``*`` chapters, ``=``
# sections, ``^`` below); ``~`` and backticks stay code fences
_REST = re.compile(r"^([=\-*^\"+_#])\1{2,}[ \t]*$")
_REST_ONLY = re.compile(r"\n([*^\"+_#])\1{2,}[ \t]*\r?(?:\n|$)")
# a bracketed label holds a name, not only digits and separators: [09:02] in a chat log, [1]
# before a reference and [2024-01-05] are not headings
# a label starts its line (at most three spaces or one tab before it, as for a Markdown
# heading): an indented ["else" ":" suite] is grammar or code, not a heading
_BRACKET = re.compile(r"^(?: {0,3}|\t)[【\[［](?![\d\s:：./\-年月日時分秒]+[】\]］])([^】\]］\n]{1,24})[】\]］]")
_MARK = re.compile(r"^(?: {0,3}|\t)[■□◆◇●◎▼▶]\s*(.{1,30}?)\s*$")
_CHECKBOX, _FENCE_AT = re.compile(r"^\s*\[[ xX]\]"), re.compile(r" {0,3}(?:`{3,}|~{3,})")  # _FENCE at a line start
_SOAP = re.compile(r"^\s*([SOAP])\s*[:：)）]")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_SURE = ("#", "```", "~~~")  # line starts that _CAND_LINE takes at once
_REST_FIRST, _BLOCK_FIRST = '=-*^"+_#', "【[［■□◆◇●◎▼▶"  # what _REST, _BRACKET and _MARK begin with
_ADORNED = tuple(c * 3 for c in '*^"+_#')  # how a line that _REST_ONLY matches starts
_BLANK_LINES = re.compile(r"(?:\r?\n)?(?:[ \t\u3000]*\r?\n)*")


@lru_cache(maxsize=8)
def _label_re(labels: tuple[str, ...]) -> re.Pattern:
    alts = "|".join(re.escape(x) for x in sorted(set(labels), key=len, reverse=True))
    return re.compile(rf"^\s*(?:\d{{1,2}}[.．)）]\s*|[#＃]\s*)?({alts})\s*(?:[:：]|$)", re.I)


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


def find_sections(
    text: str,
    labels: Sequence[str] = DEFAULT_LABELS,
    markdown: bool = True,
    outline: Sequence[int] | None = None,
    lines: TextLines | None = None,
) -> list[Section]:
    """Split ``text`` into sections, each with its heading path; they cover the text.

    Markdown headings nest by level; bracketed and marked labels (【】 [] ■) sit below
    them; field labels (所見：, S：) sit below those. A new label replaces the previous one
    of its rank, so the path reads like 退院サマリ > 2026/1/20 > Assessment. Only lines
    that can start a heading are looked at (one regex pass), so long texts stay cheap.
    ``outline``: the only line starts where a Markdown heading may be (the heading lines a
    loader wrote); other ``#`` lines and setext underlines are then body text.
    ``lines``: the text's line scan, when ``find_atoms`` shares it (made for these labels).
    """
    allowed = None if outline is None else set(outline)
    key = tuple(labels)
    label_re = _label_re(key)
    quick, cand = _candidates(key)
    starts: list[tuple[int, list[str], int]] = []  # (start, path, body)
    block: str | None = None
    fieldl: str | None = None
    in_fence = False
    last_heading_end = -1
    if lines is None:
        lines = TextLines(text, key)
    heads = lines.headings if lines.headings is not None else [q.start() for q in quick.finditer(lines.nl_text)]
    # a text with reStructuredText titles ranks every adorned title in the order its style
    # appears; whether it has one is asked at its first line adorned like a title (most have none)
    rest: bool | None = None if markdown and allowed is None else False
    every = heads
    # what the compiled reading makes of each line: a # heading or a bracketed or marked label
    # (their reading needs no line around them), or None: read here with the patterns
    read: list | repeat = repeat(None)
    if lines.headings is not None and compiled.active():  # fences and what they hold: skipped below
        heads = compiled.native.unfenced(text, heads)
        if markdown and allowed is None:  # with an outline or Markdown off, a # line is read here
            read = compiled.native.heading_kinds(text, heads)
    styles: list[tuple[str, bool]] = []
    levels: list[int] = []  # the Markdown path: each heading's level and title
    titles: list[str] = []
    for q, known in zip(heads, read):
        if in_fence:  # only the line that closes the fence matters (the "\n" put in front: q is its start)
            if _FENCE_AT.match(text, q):
                in_fence = False
            continue
        if known is not None:  # a # heading or a bracketed or marked label, read as below
            kind, level, title, line_end, body = known
            at = q
        else:
            # a line that starts with # or a fence is a candidate (the test's first alternatives)
            if not text.startswith(_SURE, q) and lines.match(cand, q)[0] is None:
                continue
            a = q  # the "\n" put in front shifts positions by one: this is the line start
            nl = text.find("\n", a)
            line_end = len(text) if nl < 0 else nl
            line = text[a:line_end].rstrip("\r")
            first = line.lstrip(" \t")[:1]  # each pattern below needs its own first characters
            if first.isspace():
                continue  # indented with other white space (NBSP, U+3000): code or a quote, no heading
            if first in "`~" and _FENCE.match(line):
                in_fence = not in_fence
                continue
            if in_fence:
                continue
            kind = ""  # "md" (with level), "block" or "field"; title
            at = a
            alone = True  # the heading line holds nothing but the heading
            atx = _atx(line) if first == "#" and markdown and (allowed is None or a in allowed) else None
            if atx:
                kind, (level, title) = "md", atx
            elif (
                rest is not False
                and a > 0
                and first in _REST_FIRST
                and _REST.match(line)
                and (rest or (rest := _is_rest(text, lines.nl_text, every)))
            ):
                got = _rest_title(text, a, line, last_heading_end)
                if got is None:
                    continue
                at, style, title = got
                if style not in styles:
                    styles.append(style)
                kind, level = "md", styles.index(style) + 1
            elif first in "=-" and markdown and allowed is None and _SETEXT.match(line) and a > 0:
                pa = text.rfind("\n", 0, a - 1) + 1
                prev = text[pa:a].rstrip("\r\n")
                if prev.strip() and "|" not in prev and pa > last_heading_end and not _SETEXT.match(prev):
                    at = pa
                    kind, level, title = "md", (1 if line.strip().startswith("=") else 2), prev.strip()
            if not kind:
                m = (_BRACKET.match(line) or _MARK.match(line)) if first in _BLOCK_FIRST else None
                if m and not _CHECKBOX.match(line):
                    kind, title = "block", m.group(1).strip()
                else:
                    m = _SOAP.match(line) if first in "SOAP" else None
                    if m:
                        kind, title = "field", SOAP_NAMES[m.group(1)]
                    else:
                        m = label_re.match(line)
                        if m is None:
                            continue
                        kind, title = "field", m.group(1)
                alone = not line[m.end() :].strip()
            # the text begins after a heading alone on its line and any blank lines
            body = _BLANK_LINES.match(text, line_end).end() if alone else at
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
    if not starts or starts[0][0] != 0:
        starts.insert(0, (0, [], 0))
    out = []
    for k, (s, p, body) in enumerate(starts):
        e = starts[k + 1][0] if k + 1 < len(starts) else len(text)
        if e > s:
            out.append(Section(s, e, p, min(body, e)))
    return out or [Section(0, len(text), [])]


def _atx(line: str) -> tuple[int, str] | None:
    """``(level, title)`` of a Markdown ATX heading line, as ``_ATX`` reads it (its level,
    its title stripped), or None. Written out: the pattern's lazy title tries every end,
    and a manual page has hundreds of headings."""
    body = line.lstrip(" ")
    if len(line) - len(body) > 3:
        return None
    rest = body.lstrip("#")
    level = len(body) - len(rest)
    if not 1 <= level <= 6 or rest[:1] not in (" ", "\t"):
        return None
    title = rest.lstrip(" \t")
    if not title:  # white space only: the pattern's title is its last character, if two
        return (level, "") if len(rest) > 1 else None
    # the shortest title that leaves only spaces, tabs and closing #s (at least one character)
    return level, (title.rstrip(" \t#") or title[0]).strip()


def _rest_title(text: str, a: int, line: str, last_heading_end: int) -> tuple[int, tuple[str, bool], str] | None:
    """The title that the adornment line at ``a`` underlines: ``(start, style, title)``,
    the start being its overline's when it has one; None when the line above is no title
    (blank, too wide for the adornment, or not after a blank line as reST requires)."""
    pa = text.rfind("\n", 0, a - 1) + 1
    line_text = text[pa:a].rstrip("\r\n")
    title = line_text.strip()
    if not title or line_text[:1].isspace() or pa <= last_heading_end or columns(title) > len(line.rstrip()):
        return None
    if _REST.match(line_text) or _SETEXT.match(line_text):
        return None
    if pa == 0:
        return pa, (line[0], False), title
    pb = text.rfind("\n", 0, pa - 1) + 1
    above = text[pb:pa].rstrip("\r\n")
    if above.rstrip() == line.rstrip():  # overline and underline alike
        return pb, (line[0], True), title
    return (pa, (line[0], False), title) if not above.strip() else None


def _is_rest(text: str, nl_text: str, lines: Sequence[int]) -> bool:
    """Some title is underlined with a character only reStructuredText uses for that
    (``nl_text`` is ``"\n" + text``: positions in it are line starts in ``text``; ``lines``
    the starts of the lines that may be headings, which hold every adornment line)."""
    for m in line_matches(_REST_ONLY, nl_text, [q for q in lines if nl_text.startswith(_ADORNED, q + 1)]):
        line = text[m.start() : m.end() - 1].rstrip("\r\n")
        if m.start() > 0 and _rest_title(text, m.start(), line, -1) is not None:
            return True
    return False


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
        self.labels = tuple(DEFAULT_LABELS) + tuple(extra_labels)
        self.outline = outline
        self._lines: TextLines | None = None  # sections' line scan, kept for atoms
        self._of: str | None = None
        self._paragraphs: tuple[str, tuple[list[int], list[int]] | None] | None = None

    def sections(self, text: str) -> list[Section]:
        self._lines, self._of = TextLines(text, self.labels), text
        self._paragraphs = (text, self._lines.paragraphs)
        return attach_bare_headings(find_sections(text, self.labels, outline=self.outline, lines=self._lines))

    def atoms(self, text: str) -> list[Atom]:
        lines = self._lines if self._of is text else None
        self._lines = self._of = None  # a copy of the text: not kept longer than needed
        return find_atoms(text, lines)

    def paragraph_ends(self, text: str) -> tuple[list[int], list[int]] | None:
        """The paragraph ends the line scan of ``sections(text)`` found, as ``TextLines``
        gives them (None: not scanned, or not compiled): a region takes its paragraph cuts
        from them instead of a pass of its own."""
        got = self._paragraphs
        return got[1] if got is not None and got[0] is text else None
