"""How to read files: one frozen value that travels to worker processes with the job."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import OptionError

__all__ = ["LoadOptions", "PDF_ENGINES"]

PDF_ENGINES = ("auto", "pypdf", "pdfium")


@dataclass(frozen=True)
class LoadOptions:
    """Options of the loaders; each loader reads the ones it knows.

    ``format`` overrides sniffing (text, pdf, html, docx). ``password`` opens an encrypted
    PDF. ``pdf_engine``: ``pypdf`` (pure Python), ``pdfium`` (``pypdfium2``: faster, and
    right on files whose words pypdf runs together), or ``auto``: pypdf, then pdfium for a
    file whose text comes out without spaces between words. ``page_furniture``: running
    headers, footers and page numbers repeated on the pages are left out (``drop``) or kept
    (``keep``). ``cjk_spaces``: spaces that PDF extraction puts between two CJK characters
    (本日 の 議事録) are removed: ``auto`` on pages where such spaces are frequent enough to
    be an artefact of extraction, ``on`` everywhere, ``off`` never. ``nfkc``: full-width
    ASCII and half-width kana folded (NFKC) in PDF text. ``html_main``: keep only the main
    content of a web page (``trafilatura``).
    """

    format: str | None = None
    password: str | None = None
    pdf_engine: str = "auto"
    page_furniture: str = "drop"
    cjk_spaces: str = "auto"
    nfkc: bool = False
    html_main: bool = False

    def __post_init__(self) -> None:
        for name, allowed in (
            ("pdf_engine", PDF_ENGINES),
            ("page_furniture", ("drop", "keep")),
            ("cjk_spaces", ("auto", "on", "off")),
        ):
            if getattr(self, name) not in allowed:
                raise OptionError(name, getattr(self, name), " or ".join(allowed))
