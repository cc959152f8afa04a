"""PDF files to documents with a page map (``norishiro[pdf]``).

The text layer is read page by page with pypdf (default; gives font sizes and positions,
so headings and paragraph breaks are found) or pypdfium2 (lines only; for files whose
fonts pypdf decodes badly). :mod:`.pagetext` joins the pages. A page with images but no
text (a scan) is reported as a warning on the document; a file with no text at all is an
error, since there is nothing to chunk until it has been through OCR.
"""

from __future__ import annotations

import logging
import math
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..document import Document, DocumentError
from .options import LoadOptions
from .pagetext import Line, assemble, run_together
from .text import sidecar_metadata

__all__ = ["load"]

_EXTRA = "pip install 'norishiro[pdf]'"


def load(
    path: str | os.PathLike,
    encoding: str = "utf-8",
    doc_id: str | None = None,
    metadata: dict[str, Any] | None = None,
    options: LoadOptions | None = None,
) -> Document:
    """Read a PDF's text layer; ``Document.pages`` gives where each page begins."""
    options = options or LoadOptions()
    p = Path(path)
    where = str(path)
    engine = options.pdf_engine
    info: dict[str, Any] = {}
    warnings: list[str] = []
    try:
        pages, scanned = _read(_pdfium_pages if engine == "pdfium" else _pypdf_pages, p, options.password, info)
    except _RunTogether:
        if engine == "auto" and _has_pdfium():
            pages, scanned = _read(_pdfium_pages, p, options.password, info)
        else:
            pages, scanned = _read(_pypdf_pages, p, options.password, info, check=False)
            warnings.append(
                f"{where}: pypdf runs the words of this PDF together (no spaces between them); "
                "read it with pypdfium2 instead: pip install pypdfium2, then --pdf-engine pdfium"
            )
    if pages and len(scanned) == len(pages):
        raise DocumentError(
            f"{where}: no text layer on any of its {len(pages)} page(s) (a scan?); run OCR first "
            "(for example: ocrmypdf -l jpn+eng in.pdf out.pdf) and chunk its output",
            where,
        )
    got = assemble(pages, options.page_furniture, options.cjk_spaces, options.nfkc)
    if not got.text.strip() and not scanned:
        raise DocumentError(f"{where}: the PDF has no text on any of its {len(pages)} page(s)", where)
    meta = sidecar_metadata(p)
    meta.update(info)
    meta.update(metadata or {})
    warnings += [
        f"{where}: page {n} has no text layer (a scanned image?); run OCR first (for example ocrmypdf); "
        "the other pages were chunked"
        for n in scanned
    ]
    doc_id = doc_id or p.as_posix()
    return Document(
        got.text, id=doc_id, metadata=meta, source=where, pages=got.pages, warnings=warnings, outline=got.outline
    )


class _RunTogether(Exception):
    """pypdf's text of the first pages has no spaces between words."""


def _read(
    engine: Any, path: Path, password: str | None, info: dict[str, Any], check: bool = True
) -> tuple[list[list[Line]], list[int]]:
    """Every page's lines, and the numbers of pages that have images but no text. With
    ``check``, pypdf's text is looked at once the first pages give enough of it, so that a
    file it reads badly is abandoned early."""
    pages: list[list[Line]] = []
    scanned: list[int] = []
    seen: list[str] | None = [] if check and engine is _pypdf_pages else None
    for number, lines, has_images in engine(path, password, info):
        pages.append(lines)
        if has_images and not any(line.text.strip() for line in lines):
            scanned.append(number)
        if seen is not None:
            seen += [line.text for line in lines]
            if sum(map(len, seen)) >= 5000 or number >= 20:
                if run_together("\n".join(seen)):
                    raise _RunTogether()
                seen = None
    if seen is not None and run_together("\n".join(seen)):
        raise _RunTogether()
    return pages, scanned


def _has_pdfium() -> bool:
    try:
        import pypdfium2  # noqa: F401
    except ImportError:
        return False
    return True


def _pypdf_pages(path: Path, password: str | None, info: dict[str, Any]) -> Iterator[tuple[int, list[Line], bool]]:
    try:
        import pypdf
        from pypdf.errors import DependencyError, PdfReadError
    except ImportError:
        raise DocumentError(f"{path}: reading PDF needs pypdf: {_EXTRA}", str(path)) from None
    where = str(path)
    logging.getLogger("pypdf").setLevel(logging.ERROR)  # damage is reported once, by us
    try:
        reader = pypdf.PdfReader(str(path))
        if reader.is_encrypted:
            try:
                opened = reader.decrypt(password or "")
            except DependencyError:
                raise DocumentError(
                    f"{where}: the PDF is encrypted with AES, which needs the cryptography package: {_EXTRA}", where
                ) from None
            if not opened:
                hint = "the password given is wrong" if password else "pass its password (--password)"
                raise DocumentError(f"{where}: the PDF is encrypted; {hint}", where)
        count = len(reader.pages)
        title = _title(reader)
    except DocumentError:
        raise
    except (PdfReadError, OSError, ValueError, KeyError, TypeError, AssertionError) as e:
        raise DocumentError(
            f"{where}: not a readable PDF ({e}); the file may be truncated or damaged: export it again "
            "or repair it (for example: qpdf in.pdf out.pdf)",
            where,
        ) from None
    if title:
        info["title"] = title
    for k in range(count):
        page = reader.pages[k]
        frags: list[tuple[str, float, float]] = []

        def visit(text: str, cm: list, tm: list, font: Any, size: float, frags: list = frags) -> None:
            if text:
                scale = math.hypot(tm[2], tm[3]) * math.hypot(cm[2], cm[3]) or 1.0
                frags.append((text, tm[5] * cm[3] + cm[5], size * scale))

        try:
            page.extract_text(visitor_text=visit)
        except Exception as e:  # pypdf raises many kinds on a damaged content stream
            raise DocumentError(
                f"{where}: page {k + 1} cannot be read ({type(e).__name__}: {e}); try --pdf-engine pdfium", where
            ) from None
        yield k + 1, _lines(frags), _has_images(page)


def _lines(frags: list[tuple[str, float, float]]) -> list[Line]:
    """Text fragments (with the position and size of each) to lines; a line takes the
    position of its first visible fragment and the size most of its characters have.
    Pieces that pypdf puts on separate lines but that share a baseline are one line."""
    lines: list[Line] = []
    parts: list[str] = []
    y: float | None = None
    weights: dict[float, int] = {}

    def flush() -> None:
        size = max(weights, key=weights.__getitem__) if weights else None
        text = "".join(parts)
        last = lines[-1] if lines else None
        if last is not None and y is not None and last.y is not None and abs(last.y - y) < 1 and text.strip():
            # text drawn piece by piece on one baseline (table cells, a changed font): one line
            lines[-1] = Line(last.text.rstrip() + " " + text.lstrip(), last.y, last.size or size)
        else:
            lines.append(Line(text, y, size))

    for text, fy, size in frags:
        for n, part in enumerate(text.split("\n")):
            if n:
                flush()
                parts, y, weights = [], None, {}
            if part:
                parts.append(part)
                visible = len(part.strip())
                if visible:
                    y = fy if y is None else y
                    weights[size] = weights.get(size, 0) + visible
    if parts:
        flush()
    return lines


def _has_images(page: Any) -> bool:
    try:
        objects = page["/Resources"].get_object().get("/XObject")
        if objects is None:
            return False
        return any(obj.get_object().get("/Subtype") == "/Image" for obj in objects.get_object().values())
    except Exception:
        return False


def _title(reader: Any) -> str | None:
    try:
        meta = reader.metadata
        title = meta.title if meta else None
    except Exception:
        return None
    if not isinstance(title, str) or title.strip().lower() in ("", "untitled"):
        return None
    return title.strip()


def _pdfium_pages(path: Path, password: str | None, info: dict[str, Any]) -> Iterator[tuple[int, list[Line], bool]]:
    try:
        import pypdfium2 as pdfium
        import pypdfium2.raw as pdfium_c
    except ImportError:
        raise DocumentError(f"{path}: --pdf-engine pdfium needs pypdfium2: pip install pypdfium2", str(path)) from None
    where = str(path)
    try:
        pdf = pdfium.PdfDocument(str(path), password=password)
    except pdfium.PdfiumError as e:
        if "password" in str(e).lower():
            hint = "the password given is wrong" if password else "pass its password (--password)"
            raise DocumentError(f"{where}: the PDF is encrypted; {hint}", where) from None
        raise DocumentError(
            f"{where}: not a readable PDF ({e}); the file may be truncated or damaged: export it again "
            "or repair it (for example: qpdf in.pdf out.pdf)",
            where,
        ) from None
    try:
        title = (pdf.get_metadata_dict().get("Title") or "").strip()
        if title and title.lower() != "untitled":
            info["title"] = title
        for k in range(len(pdf)):
            page = pdf[k]
            textpage = page.get_textpage()
            lines = []
            at = 0  # pdfium counts characters in UTF-16 units; the line breaks it adds are "\r\n"
            for text in textpage.get_text_range().split("\r\n"):
                lead = len(text) - len(text.lstrip())
                y = size = None
                if text.strip():
                    first = at + _utf16_len(text[:lead])
                    size = pdfium_c.FPDFText_GetFontSize(textpage, first) or None
                    y = textpage.get_charbox(first)[1]
                lines.append(Line(text.replace("\ufffe", ""), y, size))  # U+FFFE: a hyphen pdfium saw as soft
                at += _utf16_len(text) + 2
            images = any(obj.type == pdfium_c.FPDF_PAGEOBJ_IMAGE for obj in page.get_objects())
            yield k + 1, lines, images
    finally:
        pdf.close()


def _utf16_len(text: str) -> int:
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)
