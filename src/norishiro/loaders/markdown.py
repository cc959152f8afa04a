"""Blocks of a structured file (HTML, Word) written out as Markdown text.

The chunkers already understand Markdown: ``#`` headings become sections, pipe tables are
kept whole with their header row repeated, list items stay lists. Writing HTML and Word
documents out this way gives them all of that, and chunk offsets index this text exactly.
"""

from __future__ import annotations

import re

__all__ = ["MarkdownText", "clean_inline", "LINE_BREAK"]

_SPACES = re.compile(r"[ \t\r\n\f\v\x1f]+")
LINE_BREAK = "\x1f"  # where the source had a line break inside running text
_CJK = "\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
_CJK_BREAK = re.compile(f"(?<=[{_CJK}])[ \t\x1f]*\x1f[ \t\x1f]*(?=[{_CJK}])")


def clean_inline(text: str) -> str:
    """Whitespace of running text collapsed as a browser shows it: a run becomes one space,
    but a line break between two CJK characters disappears (発熱と⏎咳嗽 reads 発熱と咳嗽).
    No-break and ideographic spaces are kept: they are written on purpose."""
    return _SPACES.sub(" ", _CJK_BREAK.sub("", text)).strip()


class MarkdownText:
    """Collects blocks; :meth:`text` joins them with blank lines (list items and table
    rows stay on consecutive lines)."""

    def __init__(self) -> None:
        self.blocks: list[str] = []
        self.headings: set[int] = set()  # indices of the heading blocks
        self._list_open: str | None = None  # the kind of the list being written ("-" or "1.")

    def heading(self, level: int, text: str) -> None:
        text = clean_inline(text)
        if text:
            self._add("#" * max(1, min(6, level)) + " " + text)
            self.headings.add(len(self.blocks) - 1)

    def paragraph(self, text: str) -> None:
        lines = [clean_inline(x) for x in text.split("\n")]
        text = "\n".join(x for x in lines if x)
        if text:
            self._add(text)

    def list_item(self, text: str, depth: int = 0, number: int | None = None) -> None:
        text = clean_inline(text)
        if not text:
            return
        mark = f"{number}." if number is not None else "-"
        item = "  " * depth + f"{mark} {text}"
        kind = "1." if number is not None and depth == 0 else "-" if depth == 0 else self._list_open
        if self._list_open and self._list_open == kind and self.blocks:
            self.blocks[-1] += "\n" + item
        else:  # a new list, or a numbered list right after a bulleted one
            self.blocks.append(item)
        self._list_open = kind

    def table(self, rows: list[list[str]], header_rows: int = 1) -> None:
        """A pipe table; the first ``header_rows`` rows (at least one) form its header."""
        rows = [[clean_inline(c).replace("|", "\\|") for c in row] for row in rows]
        rows = [r for r in rows if any(r)]
        if not rows:
            return
        width = max(len(r) for r in rows)
        rows = [r + [""] * (width - len(r)) for r in rows]
        head = max(1, min(header_rows, len(rows)))
        if head > 1:  # Markdown has one header row: join the header rows cell by cell
            merged = [" ".join(x for x in col if x) for col in zip(*rows[:head])]
            rows = [merged] + rows[head:]
        out = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * width]
        out += ["| " + " | ".join(r) + " |" for r in rows[1:]]
        self._add("\n".join(out))

    def code(self, text: str) -> None:
        text = text.strip("\n")
        if text.strip():
            fence = "````" if "```" in text else "```"
            self._add(f"{fence}\n{text}\n{fence}")

    def _add(self, block: str) -> None:
        self.blocks.append(block)
        self._list_open = None

    def end_list(self) -> None:
        self._list_open = None

    def text(self) -> str:
        return "\n\n".join(self.blocks) + ("\n" if self.blocks else "")

    def outline(self) -> list[int]:
        """Offsets in :meth:`text` of the heading lines written by :meth:`heading`."""
        out, at = [], 0
        for k, block in enumerate(self.blocks):
            if k in self.headings:
                out.append(at)
            at += len(block) + 2
        return out
