"""Reading one line that may be a heading (``structure.find_sections``' candidates): a
Markdown heading (ATX, setext, or a reStructuredText title), a bracketed or marked label,
a SOAP line or a field label, with where its section starts and where its text begins.
:class:`HeadingReader` reads the lines a compiled reading leaves (or all of them), keeping
what a text's earlier lines decide: whether it is in a code fence, its title styles.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .chars import columns
from .labels import SOAP_NAMES
from .line_scan import TextLines, line_matches

__all__ = ["HeadingReader", "Heading"]

# (kind, level, title, line_end, body, at): kind "md" (with its level), "block" or
# "field"; the line's end; where its text begins; where its section starts
Heading = tuple[str, int, str, int, int, int]

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
_SURE = ("#", "```", "~~~")  # line starts that structure._CAND_LINE takes at once
_REST_FIRST, _BLOCK_FIRST = '=-*^"+_#', "【[［■□◆◇●◎▼▶"  # what _REST, _BRACKET and _MARK begin with
_ADORNED = tuple(c * 3 for c in '*^"+_#')  # how a line that _REST_ONLY matches starts
_BLANK_LINES = re.compile(r"(?:\r?\n)?(?:[ \t\u3000]*\r?\n)*")


class HeadingReader:
    """Reads the candidate lines of one text in order (``read(q, last_heading_end)``: the line
    starting at ``q``, the last heading line's end so far). ``markdown``: Markdown headings
    are read; ``allowed``: the only line starts where one may be (a loader's outline);
    ``every``: the starts of every candidate line (where a reStructuredText title is looked
    for); ``cand``: the full candidate test; ``label_re``: a field label's pattern."""

    __slots__ = ("text", "lines", "cand", "label_re", "markdown", "allowed", "every", "rest", "styles", "in_fence")

    def __init__(
        self,
        text: str,
        lines: TextLines,
        cand: re.Pattern,
        label_re: re.Pattern,
        markdown: bool,
        allowed: set[int] | None,
        every: Sequence[int],
    ):
        self.text, self.lines, self.cand, self.label_re = text, lines, cand, label_re
        self.markdown, self.allowed, self.every = markdown, allowed, every
        # a text with reStructuredText titles ranks every adorned title in the order its style
        # appears; whether it has one is asked at its first line adorned like a title (most have none)
        self.rest: bool | None = None if markdown and allowed is None else False
        self.styles: list[tuple[str, bool]] = []
        self.in_fence = False

    def read(self, q: int, last_heading_end: int) -> Heading | None:
        """The heading the line at ``q`` is, or None (no heading, a fence's line or one inside)."""
        text, lines = self.text, self.lines
        if self.in_fence:  # only the line that closes the fence matters
            if _FENCE_AT.match(text, q):
                self.in_fence = False
            return None
        # a line that starts with # or a fence is a candidate (the test's first alternatives)
        if not text.startswith(_SURE, q) and lines.match(self.cand, q)[0] is None:
            return None
        a = q
        nl = text.find("\n", a)
        line_end = len(text) if nl < 0 else nl
        line = text[a:line_end].rstrip("\r")
        first = line.lstrip(" \t")[:1]  # each pattern below needs its own first characters
        if first.isspace():
            return None  # indented with other white space (NBSP, U+3000): code or a quote, no heading
        if first in "`~" and _FENCE.match(line):
            self.in_fence = True
            return None
        markdown, allowed = self.markdown, self.allowed
        kind, level, title = "", 0, ""  # kind: "md" (with level), "block" or "field"
        at = a
        alone = True  # the heading line holds nothing but the heading
        atx = _atx(line) if first == "#" and markdown and (allowed is None or a in allowed) else None
        if atx:
            kind, (level, title) = "md", atx
        elif (
            self.rest is not False
            and a > 0
            and first in _REST_FIRST
            and _REST.match(line)
            and (self.rest or self._has_rest())
        ):
            got = _rest_title(text, a, line, last_heading_end)
            if got is None:
                return None
            at, style, title = got
            if style not in self.styles:
                self.styles.append(style)
            kind, level = "md", self.styles.index(style) + 1
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
                    m = self.label_re.match(line)
                    if m is None:
                        return None
                    kind, title = "field", m.group(1)
            alone = not line[m.end() :].strip()
        # the text begins after a heading alone on its line and any blank lines
        body = _BLANK_LINES.match(text, line_end).end() if alone else at
        return kind, level, title, line_end, body, at

    def _has_rest(self) -> bool:
        self.rest = _is_rest(self.text, self.lines.nl_text, self.every)
        return self.rest


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
