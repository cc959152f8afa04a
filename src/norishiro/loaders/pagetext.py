"""Lines of PDF pages to one document text with a page map.

A PDF has no paragraphs or headings, only positioned text. From each line's vertical
position and font size this module makes the text the chunkers understand: a blank line
where the gap between lines is wider than the page's usual line spacing (a paragraph
break), ``#`` headings for lines set larger than the body text, and no running headers,
footers or page numbers (lines that repeat at the top or bottom of the pages), which would
otherwise sit in the middle of sentences that run across pages.
"""

from __future__ import annotations

import math
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import regex

__all__ = ["Line", "PageText", "assemble", "remove_cjk_spaces", "run_together"]


@dataclass
class Line:
    """One line of a page as extracted: ``y`` is its baseline (larger is higher up the
    page) and ``size`` its font size in points; both None when the engine gives none."""

    text: str
    y: float | None = None
    size: float | None = None


@dataclass
class PageText:
    text: str
    pages: list[int]  # offset where each page begins
    dropped: int  # running header/footer lines left out
    outline: list[int]  # offsets of the heading lines written here


_CJK = r"[\p{Han}\p{Hiragana}\p{Katakana}々〆ー\u3000-\u303f\uff00-\uffef]"
_CJK_SPACE = regex.compile(rf"(?<={_CJK}) +(?={_CJK})")
_CJK_CHAR = regex.compile(_CJK)
_PAGE_NUMBER = regex.compile(
    r"^[\s\-–—‐‑・(（\[]*(?:(?:page|p\.)\s*)?(?:\d{1,4}|[ivxlcdm]{1,7})(?:\s*(?:/|of|／)\s*\d{1,4})?"
    r"[\s\-–—‐‑・)）\]]*(?:ページ|頁)?$",
    regex.I,
)
_SENTENCE_END = tuple(".。!?！？:：;；,，、")


def remove_cjk_spaces(lines: list[str], mode: str = "auto") -> list[str]:
    """Drop the spaces PDF extraction puts between CJK characters (本日 の 議事録 ->
    本日の議事録) in a page's lines. ``auto`` does it only on a page where such spaces are
    frequent (at least one for every four CJK characters, over twenty or more), which
    authored spacing (table cells, 氏名 山田) never is."""
    if mode == "off":
        return lines
    if mode == "auto":
        found = sum(len(_CJK_SPACE.findall(x)) for x in lines if " " in x)
        cjk = sum(len(_CJK_CHAR.findall(x)) for x in lines)
        if cjk < 20 or found * 4 < cjk:
            return lines
    return [_CJK_SPACE.sub("", x) if " " in x else x for x in lines]


_NUMBERS = regex.compile(r"(?:\d+|\b[ivxlcdm]{1,7}\b)(?:\s*(?:/|of|／)\s*\d+)?")
_LATIN_RUN = regex.compile(r"[A-Za-z]{20,}")
_LATIN = regex.compile(r"[A-Za-z]")


def _key(line: str) -> str:
    """A line with its page numbers blanked, so that 'Report xi' matches 'Report 3/ 24'."""
    return _NUMBERS.sub("#", line.strip().lower())


def run_together(text: str) -> bool:
    """Latin text extracted without the spaces between its words ("Therearetwomethods"):
    over a tenth of its letters in runs of twenty letters or more, which prose never has."""
    letters = len(_LATIN.findall(text))
    return letters >= 200 and sum(len(m) for m in _LATIN_RUN.findall(text)) * 10 > letters


def _furniture(pages: Sequence[list[Line]]) -> set[tuple[int, int]]:
    """(page, line) positions of running headers, footers and page numbers: among the two
    first and two last lines of a page, those that are a page number, or that repeat
    (numbers aside) on at least half of the pages with text (and on two pages or more)."""
    edges: list[list[int]] = []
    for lines in pages:
        idx = [k for k, line in enumerate(lines) if line.text.strip()]
        edges.append(sorted(set(idx[:2] + idx[-2:])))
    with_text = sum(1 for e in edges if e)
    counts: Counter[str] = Counter()
    for lines, idx in zip(pages, edges):
        counts.update({_key(lines[k].text) for k in idx})
    need = max(2, math.ceil(with_text / 2))
    out = set()
    for p, (lines, idx) in enumerate(zip(pages, edges)):
        for k in idx:
            text = lines[k].text.strip()
            repeated = with_text >= 2 and len(text) <= 100 and counts[_key(text)] >= need
            if repeated or _PAGE_NUMBER.match(text):
                out.add((p, k))
    return out


def _body_size(pages: Sequence[list[Line]]) -> float | None:
    """The font size most of the text is set in (weighted by characters)."""
    weights: Counter[float] = Counter()
    for lines in pages:
        for line in lines:
            if line.size:
                weights[round(line.size, 1)] += len(line.text.strip())
    return weights.most_common(1)[0][0] if weights else None


def _heading_levels(pages: Sequence[list[Line]], body: float | None) -> dict[float, int]:
    """Font size -> heading level (1 for the largest) for short lines set at least 15%
    larger than the body text; at most six levels, as in Markdown."""
    if body is None:
        return {}
    sizes = {
        round(line.size, 1)
        for lines in pages
        for line in lines
        if line.size and line.size >= body * 1.15 and _headline(line.text)
    }
    return {size: min(6, k + 1) for k, size in enumerate(sorted(sizes, reverse=True))}


def _headline(text: str) -> bool:
    t = text.strip()
    return 0 < len(t) <= 120 and any(ch.isalnum() for ch in t) and not t.endswith(("。", "、", ","))


def assemble(
    pages: Sequence[list[Line]], furniture: str = "drop", cjk_spaces: str = "auto", nfkc: bool = False
) -> PageText:
    """Join the pages' lines into one text, recording where each page begins."""
    cleaned = []
    for lines in pages:
        texts = [line.text.replace("\r", "").rstrip() for line in lines]
        if nfkc:
            texts = [unicodedata.normalize("NFKC", t) for t in texts]
        texts = remove_cjk_spaces(texts, cjk_spaces)
        cleaned.append([Line(t, line.y, line.size) for t, line in zip(texts, lines)])
    drop = _furniture(cleaned) if furniture == "drop" else set()
    kept = [[line for k, line in enumerate(lines) if (p, k) not in drop] for p, lines in enumerate(cleaned)]
    levels = _heading_levels(kept, _body_size(kept))
    parts: list[str] = []
    starts: list[int] = []
    outline: list[int] = []
    at = 0
    for lines in kept:
        starts.append(at)
        page, heads = _page_text(lines, levels)
        parts.append(page)
        outline += [at + h for h in heads]
        at += len(page)
    return PageText("".join(parts), starts, len(drop), outline)


def _level(line: Line, levels: dict[float, int]) -> int:
    if not line.size or not _headline(line.text):
        return 0
    return levels.get(round(line.size, 1), 0)


def _page_text(lines: list[Line], levels: dict[float, int]) -> tuple[str, list[int]]:
    """One page: paragraphs split where the line gap is wide, headings marked; and the
    offsets of the heading lines in it."""
    lines = [line for line in lines if line.text.strip()]
    if not lines:
        return "", []
    usual = _usual_spacing(lines)
    marked: set[int] = set()  # indices in ``out`` of the heading lines (a body line may start with "#" too)
    out: list[str] = []
    k = 0
    while k < len(lines):
        line = lines[k]
        level = _level(line, levels)
        if level:
            # a heading set over several lines is one heading
            words = [line.text.strip()]
            while k + 1 < len(lines) and _level(lines[k + 1], levels) == level:
                if _wide(lines[k], lines[k + 1], 2.2):
                    break
                k += 1
                words.append(lines[k].text.strip())
            if out and out[-1] != "":
                out.append("")
            out.append("#" * level + " " + _join(words))
            marked.add(len(out) - 1)
            out.append("")
        else:
            if out and out[-1] != "" and usual is not None and _wide(lines[k - 1], line, 1.3 * usual):
                out.append("")
            out.append(line.text)
        k += 1
    while out and out[-1] == "":
        out.pop()
    heads, at = [], 0
    for k, line in enumerate(out):
        if k in marked:
            heads.append(at)
        at += len(line) + 1
    return "\n".join(out) + "\n", heads


def _usual_spacing(lines: list[Line]) -> float | None:
    """The page's line spacing in multiples of the font size: a low percentile of the gaps
    (most gaps are between the lines of a paragraph), at most 1.6 so that a page of short
    paragraphs, whose gaps are nearly all paragraph breaks, still shows them."""
    ratios = sorted(
        (a.y - b.y) / (a.size or 10)
        for a, b in zip(lines, lines[1:])
        if a.y is not None and b.y is not None and a.y > b.y
    )
    if not ratios:
        return None
    return min(ratios[len(ratios) // 5], 1.6)


def _wide(a: Line, b: Line, limit: float) -> bool:
    """The gap from line ``a`` down to ``b`` exceeds ``limit`` times ``a``'s font size;
    a move up the page (a new column) counts as wide."""
    if a.y is None or b.y is None:
        return False
    gap = a.y - b.y
    return gap <= 0 or gap > limit * (a.size or 10)


def _join(words: list[str]) -> str:
    out = words[0]
    for w in words[1:]:
        cjk = _CJK_CHAR.match(out[-1:]) and _CJK_CHAR.match(w[:1])
        out += w if cjk else " " + w
    return out
