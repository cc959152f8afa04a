"""Word (.docx) files to documents (``norishiro[docx]``): headings, tables, lists kept.

Paragraphs in a heading style (Title, Heading 1-6, or any style or paragraph with an
outline level) become ``#`` headings, tables pipe tables (rows marked "repeat as header"
and at least the first row form the header), numbered and bulleted paragraphs list items
with their level. The body is read in document order; headers and footers of the page
layout, comments and text boxes are not read.
"""

from __future__ import annotations

import os
import re
import zipfile
from pathlib import Path
from typing import Any

from ..document import Document, DocumentError
from .markdown import MarkdownText
from .options import LoadOptions
from .text import sidecar_metadata

__all__ = ["load"]

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_TITLE = 99  # the Title style, above Heading 1
_HEADING = re.compile(r"^(?:heading|見出し)\s*(\d)$", re.I)


def load(
    path: str | os.PathLike,
    encoding: str = "utf-8",
    doc_id: str | None = None,
    metadata: dict[str, Any] | None = None,
    options: LoadOptions | None = None,
) -> Document:
    """Read a .docx file; its core title goes to metadata ``title``."""
    p = Path(path)
    where = str(path)
    try:
        import docx
        from docx.opc.exceptions import PackageNotFoundError
    except ImportError:
        raise DocumentError(
            f"{where}: reading Word files needs python-docx: pip install 'norishiro[docx]'", where
        ) from None
    try:
        document = docx.Document(str(p))
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError, OSError) as e:
        raise DocumentError(
            f"{where}: not a readable Word (.docx) file ({type(e).__name__}: {e}); it may be damaged, or an old "
            ".doc file: save it again as .docx",
            where,
        ) from None
    md = MarkdownText()
    styles = _Styles(document)
    numbering = _Numbering(document)
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    blocks = []
    for el in document.element.body.iterchildren():
        if el.tag == _W + "p":
            par = Paragraph(el, document)
            text = par.text
            if text.strip():
                blocks.append((par, text, *styles.of(el)))
        elif el.tag == _W + "tbl":
            blocks.append((Table(el, document), None, "", 0))
    # a document with a Title: the title is level 1 and Heading N level N+1
    shift = int(any(level == _TITLE for *_, level in blocks))
    for block, text, style, level in blocks:
        if text is None:
            _table(block, md)
        elif level:
            md.heading(1 if level == _TITLE else level + shift, text)
        else:
            num = numbering.item(block, style)
            if num is None:
                md.paragraph(text)
            else:
                md.list_item(text, *num)
    meta = sidecar_metadata(p)
    title = (document.core_properties.title or "").strip()
    if title:
        meta["title"] = title
    meta.update(metadata or {})
    return Document(md.text(), id=doc_id or p.as_posix(), metadata=meta, source=where, outline=md.outline())


class _Styles:
    """Paragraph style name and heading level by style id, looked up once per style
    (python-docx's ``Paragraph.style`` scans every style on each call)."""

    def __init__(self, document: Any):
        from docx.enum.style import WD_STYLE_TYPE

        self.by_id = {s.style_id: s for s in document.styles if s.type == WD_STYLE_TYPE.PARAGRAPH}
        self.default = document.styles.default(WD_STYLE_TYPE.PARAGRAPH)
        self.cache: dict[str | None, tuple[str, int]] = {}

    def of(self, p: Any) -> tuple[str, int]:
        """(style name, heading level or 0) of a ``w:p`` element."""
        ppr = p.pPr
        sid = ppr.pStyle.val if ppr is not None and ppr.pStyle is not None else None
        if sid not in self.cache:
            style = self.by_id.get(sid, self.default)
            self.cache[sid] = ((style.name or "") if style is not None else "", _style_level(style))
        name, level = self.cache[sid]
        return name, level or _outline_level(p) or 0


def _style_level(style: Any) -> int:
    while style is not None:
        name = (style.name or "").strip()
        if name.lower() == "title":
            return _TITLE
        m = _HEADING.match(name)
        if m:
            return int(m.group(1))
        lvl = _outline_level(style.element)
        if lvl is not None:
            return lvl
        style = style.base_style
    return 0


def _outline_level(el: Any) -> int | None:
    """Word's outline level (0-8; 9 is body text) as a heading level, if set."""
    found = el.find(f"{_W}pPr/{_W}outlineLvl")
    if found is None:
        return None
    val = found.get(_W + "val", "9")
    return int(val) + 1 if val.isdigit() and int(val) < 6 else None


class _Numbering:
    """List paragraphs: level and, for numbered lists, the item's number."""

    def __init__(self, document: Any):
        self.formats: dict[tuple[str, int], str] = {}
        self.counters: dict[tuple[str, int], int] = {}
        try:
            root = document.part.numbering_part.element
        except (KeyError, NotImplementedError, AttributeError):
            return
        abstract = {a.get(_W + "abstractNumId"): a for a in root.findall(_W + "abstractNum")}
        for num in root.findall(_W + "num"):
            ref = num.find(_W + "abstractNumId")
            a = abstract.get(ref.get(_W + "val")) if ref is not None else None
            if a is None:
                continue
            for lvl in a.findall(_W + "lvl"):
                fmt = lvl.find(_W + "numFmt")
                self.formats[(num.get(_W + "numId"), int(lvl.get(_W + "ilvl", "0")))] = (
                    fmt.get(_W + "val", "bullet") if fmt is not None else "bullet"
                )

    def item(self, par: Any, style: str) -> tuple[int, int | None] | None:
        ppr = par._p.pPr
        num_pr = ppr.find(_W + "numPr") if ppr is not None else None
        if num_pr is None:
            if style.lower().startswith("list bullet"):
                return 0, None
            if style.lower().startswith("list number"):
                key = (style, 0)
                self.counters[key] = self.counters.get(key, 0) + 1
                return 0, self.counters[key]
            return None
        num_id_el, ilvl_el = num_pr.find(_W + "numId"), num_pr.find(_W + "ilvl")
        num_id = num_id_el.get(_W + "val") if num_id_el is not None else None
        if num_id in (None, "0"):
            return None
        ilvl = int(ilvl_el.get(_W + "val", "0")) if ilvl_el is not None else 0
        fmt = self.formats.get((num_id, ilvl), "bullet")
        if fmt in ("bullet", "none"):
            return ilvl, None
        key = (num_id, ilvl)
        self.counters[key] = self.counters.get(key, 0) + 1
        for deeper in [k for k in self.counters if k[0] == num_id and k[1] > ilvl]:
            del self.counters[deeper]  # a new item restarts its sub-lists
        return ilvl, self.counters[key]


def _table(table: Any, md: MarkdownText) -> None:
    rows: list[list[str]] = []
    head = 0
    for k, row in enumerate(table.rows):
        trpr = row._tr.trPr
        repeat = trpr is not None and trpr.find(_W + "tblHeader") is not None
        if repeat and head == k:
            head += 1
        rows.append([" ".join(cell.text.split("\n")) for cell in row.cells])
    md.table(rows, header_rows=head or 1)
