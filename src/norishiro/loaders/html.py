"""HTML files to documents (``norishiro[html]``): headings, tables and lists kept.

The page is written out as Markdown (:mod:`.markdown`): h1-h6 become ``#`` headings (so,
sections), tables pipe tables with their header row, lists ``-``/``1.`` items, ``pre``
fenced code. Scripts, styles, navigation, forms and asides are left out. With
``html_main`` only the main content that ``trafilatura`` finds is kept (menus, footers,
related links and cookie notices go too).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from ..document import Document, DocumentError
from .markdown import LINE_BREAK, MarkdownText, clean_inline
from .options import LoadOptions
from .text import decode_bytes, read_file, sidecar_metadata

__all__ = ["load", "html_to_markdown"]

_DROP = {
    "script",
    "style",
    "noscript",
    "template",
    "nav",
    "aside",
    "footer",
    "form",
    "button",
    "select",
    "textarea",
    "svg",
    "iframe",
    "object",
    "canvas",
    "head",
    "menu",
}
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_LISTS = {"ul", "ol"}
_BLOCKS = {
    "p",
    "div",
    "section",
    "article",
    "main",
    "header",
    "blockquote",
    "figure",
    "figcaption",
    "address",
    "dl",
    "dt",
    "dd",
    "li",
    "body",
    "html",
    "center",
    "details",
    "summary",
    "caption",
    "hr",
}
_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_\-]+)""", re.I)
_XML_DECL = re.compile(r"^\s*<\?xml[^>]*>")
_WS = re.compile(r"[ \t\r\n\f\v]+")


def load(
    path: str | os.PathLike,
    encoding: str = "utf-8",
    doc_id: str | None = None,
    metadata: dict[str, Any] | None = None,
    options: LoadOptions | None = None,
) -> Document:
    """Read an HTML file; its ``<title>`` goes to metadata ``title``."""
    options = options or LoadOptions()
    p = Path(path)
    where = str(path)
    data = read_file(p)
    declared = _CHARSET.search(data[:4096])
    if declared:
        encoding = declared.group(1).decode("ascii")
    try:
        markup = decode_bytes(data, where, encoding)
    except DocumentError:
        if not declared:
            raise
        markup = decode_bytes(data, where, "utf-8")  # a page that says one charset and is in UTF-8
    md, title = _convert(markup, where, options.html_main)
    meta = sidecar_metadata(p)
    if title:
        meta["title"] = title
    meta.update(metadata or {})
    return Document(md.text(), id=doc_id or p.as_posix(), metadata=meta, source=where, outline=md.outline())


def html_to_markdown(markup: str, where: str = "<html>", main_only: bool = False) -> tuple[str, str | None]:
    """The page's text as Markdown, and its title."""
    md, title = _convert(markup, where, main_only)
    return md.text(), title


def _convert(markup: str, where: str, main_only: bool) -> tuple[MarkdownText, str | None]:
    html = _lxml(where)
    markup = _XML_DECL.sub("", markup, count=1)
    if not markup.strip():
        return MarkdownText(), None
    try:
        root = html.document_fromstring(markup)
    except Exception as e:  # lxml raises ParserError or ValueError on what it cannot parse
        raise DocumentError(f"{where}: not readable as HTML ({e})", where) from None
    title_el = root.find(".//title")
    title = clean_inline(title_el.text_content()) if title_el is not None else None
    if main_only:
        main = _main_content(markup, where, html)
        root = main if main is not None else root
    md = MarkdownText()
    _Walker(md).block(root)
    return md, title or None


def _lxml(where: str) -> Any:
    try:
        import lxml.html
    except ImportError:
        raise DocumentError(f"{where}: reading HTML needs lxml: pip install 'norishiro[html]'", where) from None
    return lxml.html


def _main_content(markup: str, where: str, html: Any) -> Any:
    try:
        import trafilatura
    except ImportError:
        raise DocumentError(
            f"{where}: --html-main needs trafilatura: pip install 'norishiro[html-main]'", where
        ) from None
    got = trafilatura.extract(markup, output_format="html", include_tables=True, include_formatting=True)
    return html.document_fromstring(got) if got else None


def _ws(text: str | None) -> str:
    """Source whitespace: a run with a line break becomes LINE_BREAK (dropped between CJK
    characters later), any other run a space."""
    if not text:
        return ""
    return _WS.sub(lambda m: LINE_BREAK if "\n" in m.group() else " ", text)


class _Walker:
    """Block elements to Markdown blocks; inline content flattened to running text."""

    def __init__(self, md: MarkdownText):
        self.md = md

    def block(self, el: Any) -> None:
        buf: list[str] = [_ws(el.text)]

        def flush() -> None:
            self.md.paragraph("".join(buf))
            buf.clear()

        for child in el:
            tag = child.tag if isinstance(child.tag, str) else ""
            tag = tag.lower()
            if not tag or tag in _DROP:
                pass
            elif tag in _HEADINGS:
                flush()
                self.md.heading(_HEADINGS[tag], self.inline(child))
            elif tag in _LISTS:
                flush()
                self.list(child, 0)
                self.md.end_list()
            elif tag == "table":
                flush()
                self.table(child)
            elif tag == "pre":
                flush()
                self.md.code(child.text_content())
            elif tag in _BLOCKS:
                flush()
                self.block(child)
            elif tag == "br":
                buf.append("\n")
            else:
                buf.append(self.inline(child))
            buf.append(_ws(child.tail))
        flush()

    def inline(self, el: Any) -> str:
        parts = [_ws(el.text)]
        for child in el:
            tag = child.tag.lower() if isinstance(child.tag, str) else ""
            if tag == "br":
                parts.append("\n")
            elif tag and tag not in _DROP:
                parts.append(self.inline(child))
            parts.append(_ws(child.tail))
        return "".join(parts)

    def list(self, el: Any, depth: int) -> None:
        ordered = el.tag.lower() == "ol"
        number = int(el.get("start", "1")) if ordered and el.get("start", "1").isdigit() else 1
        for li in el:
            if not isinstance(li.tag, str) or li.tag.lower() != "li":
                continue
            parts = [_ws(li.text)]
            nested = []
            for child in li:
                tag = child.tag.lower() if isinstance(child.tag, str) else ""
                if tag in _LISTS:
                    nested.append(child)
                elif tag and tag not in _DROP:
                    parts.append(" " + self.inline(child) + " " if tag in _BLOCKS else self.inline(child))
                parts.append(_ws(child.tail))
            self.md.list_item(" ".join("".join(parts).split("\n")), depth, number if ordered else None)
            number += 1
            for sub in nested:
                self.list(sub, depth + 1)

    def table(self, el: Any) -> None:
        rows: list[list[str]] = []
        head = 0
        for tr in el.iter("tr"):
            if tr.getparent() is not None and _enclosing_table(tr) is not el:
                continue  # a row of a table nested in a cell
            cells = [c for c in tr if isinstance(c.tag, str) and c.tag.lower() in ("th", "td")]
            if not cells:
                continue
            in_thead = tr.getparent().tag.lower() == "thead"
            all_th = all(c.tag.lower() == "th" for c in cells)
            if len(rows) == head and (in_thead or all_th):
                head += 1
            row: list[str] = []
            for c in cells:
                span = c.get("colspan", "1").strip()
                repeat = min(int(span), 50) if span.isdigit() and span != "0" else 1
                row += [" ".join(self.inline(c).split("\n"))] * repeat
            rows.append(row)
        caption = el.find("caption")
        if caption is not None and clean_inline(self.inline(caption)):
            # in bold, so that a caption that is also a section name (血液検査) is not a heading
            self.md.paragraph(f"**{clean_inline(self.inline(caption))}**")
        self.md.table(rows, header_rows=head or 1)


def _enclosing_table(el: Any) -> Any:
    p = el.getparent()
    while p is not None and not (isinstance(p.tag, str) and p.tag.lower() == "table"):
        p = p.getparent()
    return p
