"""Context fragmentation and boundary quality of a set of chunks.

A chunk boundary that falls inside a sentence can cut a finding off from its negation
(``肺癌の疑い`` | ``なし``), a cause from its effect, or a date from its result. ``lint``
finds such boundaries and classifies them by the cue on either side of the cut (the list in
``tests/data/fixtures/fragmentation-cues.md``). These are heuristics: each finding is a place
to look, reported with a rate per 1,000 boundaries, not a proof.

A boundary is *healed* when some chunk holds the whole sentence around it (overlap can do
that); healed boundaries are counted but not reported as fragmentation.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import regex

from ..core.boundaries import Boundaries, Level

__all__ = ["Finding", "LintReport", "lint_chunks", "FRAGMENTATION_KINDS", "ALL_KINDS", "classify_cut"]

FRAGMENTATION_KINDS = ("negation", "double-negation", "negative-result", "hedge", "causal", "temporal", "list-scope")
ALL_KINDS = FRAGMENTATION_KINDS + (
    "mid-sentence",
    "soft-wrap",
    "broken-sentence",
    "broken-fact",
    "tiny",
    "blank",
    "over-budget",
    "identifier",
)

_WIN = 24  # characters looked at on each side of a cut

# Cues that decide a finding's polarity or certainty. Japanese puts them after the finding
# (at the end of the clause), so a cut anywhere before them leaves the left part reading as
# positive; English puts negation before the finding, so a cut after it loses its scope.
_DOUBLE = regex.compile(
    r"(?:否定|除外)(?:は|も)?(?:でき|しきれ|し得|しえ)(?:ない|ず)|cannot be (?:excluded|ruled out)", regex.I
)
_NEG_RESULT = regex.compile(
    r"陰性|[(（]\s*[-−－ー]\s*[)）]|マイナス|否定的|消失|正常範囲|特記事項なし|特記すべき(?:異常)?(?:所見)?(?:は)?なし|"
    r"異常なし|異常(?:所見)?(?:は|を)?認めない|除外された|未施行|\bWNL\b|\bn\.p\.|\bnegative\b|within normal limits",
    regex.I,
)
_JA_NEG = regex.compile(
    r"(?:なし|無し|ない|無い|なく|無く|ません|(?<=[^\s])ず(?=[、。，．\s]|$)|せず|"
    r"認めない|認められない|認めず|見られない|みられない|指摘できない|指摘されない|明らかでない)"
)
_EN_NEG = regex.compile(
    r"\b(?:no|not|without|negative|ruled out|denies|denied|absence of|free of|"
    r"unremarkable|no evidence of|none)\b",
    regex.I,
)
_HEDGE = regex.compile(
    r"疑い|疑われ|疑診|可能性|示唆|考えられ|思われ|考えにく|推定|鑑別|要精査|境界域|"
    r"\b(?:rule out|r/o|possible|possibly|probable|suspicious for|likely|unlikely|"
    r"consistent with|suggestive of|may represent)\b",
    regex.I,
)
_CAUSAL = regex.compile(
    r"後に|後より|ため|により|によって|による|ので|に伴い|に伴って|を契機に|が原因|"
    r"\b(?:because|due to|after|following|secondary to|caused by|resulting in)\b",
    regex.I,
)
_TEMPORAL = regex.compile(
    r"\d{4}\s*年|\d{1,2}\s*月\s*\d{1,2}\s*日|\d{4}[/.-]\d{1,2}|\d{1,2}/\d{1,2}|R\d+\.\d+|第\s*\d+\s*病日|術後|"
    r"昨日|前日|翌日|本日|今回|前回|\d+\s*(?:日|週|か月|ヶ月|年)(?:前|後)|\b(?:in|on|since) \d{4}\b|"
    r"\b(?:yesterday|today|previous(?:ly)?|prior)\b",
    regex.I,
)
_LIST_ITEM_HEAD = regex.compile(r"^\s*(?:[・•●○■□◆◇\-*]|\d{1,2}[.．)）]|[（(]\d{1,2}[)）]|[①-⑳])")
_NEG_HEADER_TAIL = regex.compile(
    r"(?:ない|なし|認めない|認められない|否定的|陰性|以下|次の"
    r"|none of the following|no|negative for|denies)\s*[：:]\s*$",
    regex.I,
)


def _lost_after(pattern: regex.Pattern, left: str, right: str) -> bool:
    """True when a cue ends after the cut: the left part is left without it."""
    joined = left + right
    start = max(0, len(left) - 12)
    return any(m.end() > len(left) for m in pattern.finditer(joined, start))


def classify_cut(left: str, right: str, mid_sentence: bool = True) -> str | None:
    """The fragmentation class of a cut, or None.

    ``left``/``right``: the parts of the sentence before and after the cut (for a cut at a
    line or paragraph, the text just before and after it).
    """
    if not mid_sentence:
        last_line = left.rstrip("\r\n ").splitlines()[-1] if left.strip() else ""
        if _NEG_HEADER_TAIL.search(last_line) and _LIST_ITEM_HEAD.match(right):
            return "list-scope"
        return None
    if not left.strip() or not right.strip():
        return None
    if _lost_after(_DOUBLE, left, right):
        return "double-negation"
    if _lost_after(_NEG_RESULT, left, right):
        return "negative-result"
    if _lost_after(_JA_NEG, left, right) or _lost_after(_EN_NEG, left, right) or _EN_NEG.search(left[-30:]):
        return "negation"
    if _lost_after(_HEDGE, left, right) or _HEDGE.search(left[-12:]):
        return "hedge"
    if _CAUSAL.search(left):
        return "causal"
    if _TEMPORAL.search(left):
        return "temporal"
    return None


@dataclass
class Finding:
    kind: str
    doc_id: str
    offset: int
    level: str | None = None
    left: str = ""
    right: str = ""
    chunk_index: int | None = None
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None and v != ""}


@dataclass
class LintReport:
    findings: list[Finding] = field(default_factory=list)
    documents: int = 0
    chunks: int = 0
    boundaries: int = 0
    healed: int = 0
    levels: Counter = field(default_factory=Counter)
    chunk_ends_at_sentence: int = 0
    sentences: int = 0
    facts: int = 0
    soft_wraps: int = 0  # newlines inside sentences (hard-wrapped text) that were found
    fills: list[float] = field(default_factory=list)
    size: int | None = None

    def merge(self, other: LintReport) -> None:
        self.findings += other.findings
        self.documents += other.documents
        self.chunks += other.chunks
        self.boundaries += other.boundaries
        self.healed += other.healed
        self.levels.update(other.levels)
        self.chunk_ends_at_sentence += other.chunk_ends_at_sentence
        self.sentences += other.sentences
        self.facts += other.facts
        self.soft_wraps += other.soft_wraps
        self.fills += other.fills
        self.size = self.size or other.size

    def count(self, kind: str) -> int:
        return sum(1 for f in self.findings if f.kind == kind)

    def summary(self) -> dict[str, Any]:
        kinds = Counter(f.kind for f in self.findings)
        per_k = {k: round(1000 * kinds[k] / self.boundaries, 1) if self.boundaries else 0.0 for k in ALL_KINDS}
        fills = sorted(self.fills)

        def q(p: float) -> float | None:
            return round(fills[min(len(fills) - 1, int(p * len(fills)))], 3) if fills else None

        return {
            "documents": self.documents,
            "chunks": self.chunks,
            "boundaries": self.boundaries,
            "healed_by_overlap": self.healed,
            "findings": {k: kinds[k] for k in ALL_KINDS},
            "per_1000_boundaries": per_k,
            "fragmentation": sum(kinds[k] for k in FRAGMENTATION_KINDS),
            "fragmentation_per_1000_boundaries": round(
                1000 * sum(kinds[k] for k in FRAGMENTATION_KINDS) / self.boundaries, 1
            )
            if self.boundaries
            else 0.0,
            "boundary_levels": {lv.name.lower(): self.levels.get(lv.name.lower(), 0) for lv in Level},
            "chunks_ending_at_sentence_end": round(self.chunk_ends_at_sentence / self.chunks, 4)
            if self.chunks
            else 0.0,
            "sentences": self.sentences,
            "sentences_not_whole": kinds["broken-sentence"],
            "soft_wraps": self.soft_wraps,
            "boundaries_at_soft_wraps": kinds["soft-wrap"],
            "facts": self.facts,
            "facts_not_whole": kinds["broken-fact"],
            "fill": {
                "mean": round(sum(fills) / len(fills), 3) if fills else None,
                "p10": q(0.1),
                "median": q(0.5),
                "p90": q(0.9),
            },
            "size": self.size,
        }

    def to_dict(self) -> dict[str, Any]:
        return {"summary": self.summary(), "findings": [f.to_dict() for f in self.findings]}


def _covered(spans: Sequence[tuple[int, int]], starts: list[int], a: int, b: int) -> bool:
    """True when some chunk span contains [a, b)."""
    i = bisect.bisect_right(starts, a) - 1
    while i >= 0:
        s, e = spans[i]
        if e >= b:
            return True
        if e <= a:
            break
        i -= 1
    return False


def lint_chunks(
    text: str,
    chunks: Iterable[Any],
    *,
    doc_id: str = "",
    size: int | None = None,
    facts: Sequence[dict] | None = None,
    tiny: float = 0.1,
    identifiers: bool = False,
) -> LintReport:
    """Analyse the chunks of one document (``chunk.start``/``end``/``size`` are used).

    ``identifiers``: report every identifier the de-identification rules still find in a
    chunk's ``embed_text`` (for chunks made with ``deid``: what the surrogates missed, or
    what a header added).

    ``facts``: annotated spans (``{"start", "end", "text"?, "kind"?}``) that must each lie
    whole inside some chunk. ``tiny``: chunks under this share of ``size`` are reported.
    """
    chunks = list(chunks)
    rep = LintReport(documents=1, chunks=len(chunks), size=size)
    if not text or not chunks:
        return rep
    bnd = Boundaries(text)
    spans = [(c.start, c.end) for c in chunks]
    starts = [s for s, _ in spans]
    sentences = list(bnd.units(Level.SENTENCE))
    sent_starts = [s for s, _ in sentences]
    rep.sentences = len(sentences)
    soft = set(bnd.soft_wraps())
    rep.soft_wraps = len(soft)
    n = len(text)

    for i, c in enumerate(chunks):
        csize = getattr(c, "size", None)
        blank = not c.text.strip()  # nothing of the document's own to embed (a header at most)
        if blank:
            rep.findings.append(Finding("blank", doc_id, c.start, chunk_index=i, left=c.text[:_WIN]))
        if size:
            if csize is not None:
                rep.fills.append(csize / size)
                if csize > size:
                    rep.findings.append(
                        Finding("over-budget", doc_id, c.start, chunk_index=i, detail=f"{csize} > {size}")
                    )
                elif csize < tiny * size and i < len(chunks) - 1 and not blank:
                    rep.findings.append(
                        Finding("tiny", doc_id, c.start, chunk_index=i, detail=f"{csize} of {size}", left=c.text[:_WIN])
                    )
        e = c.end
        if e >= n:
            rep.chunk_ends_at_sentence += 1
            continue
        rep.boundaries += 1
        level = bnd.level_of(e)
        rep.levels[level.name.lower()] += 1
        if level <= Level.SENTENCE:
            rep.chunk_ends_at_sentence += 1
        k = bisect.bisect_right(sent_starts, e) - 1
        ss, se = sentences[k] if k >= 0 else (0, n)
        mid = level > Level.SENTENCE and ss < e < se
        left = text[max(ss, e - 160) : e] if mid else text[max(0, e - _WIN) : e]
        right = text[e : min(se, e + 160)] if mid else text[e : e + _WIN]
        kind = classify_cut(left, right, mid_sentence=mid)
        if mid and _covered(spans, starts, ss, se):
            rep.healed += 1
            continue
        if kind is None and mid:
            kind = "soft-wrap" if e in soft else "mid-sentence"
        if kind:
            rep.findings.append(Finding(kind, doc_id, e, level.name.lower(), left, right, chunk_index=i))

    for s, e in sentences:
        if text[s:e].strip() and not _covered(spans, starts, s, e):
            rep.findings.append(Finding("broken-sentence", doc_id, s, left=text[s:e][:60]))
    if identifiers:
        from ..deid import detect

        for i, c in enumerate(chunks):
            for f in detect(getattr(c, "embed_text", c.text)):
                value = c.embed_text[f.start : f.end]
                rep.findings.append(Finding("identifier", doc_id, c.start, chunk_index=i, detail=f.cls, left=value))
    if facts:
        rep.facts = len(facts)
        for f in facts:
            a, b = int(f["start"]), int(f["end"])
            if not _covered(spans, starts, a, b):
                rep.findings.append(
                    Finding("broken-fact", doc_id, a, left=text[a:b][:60], detail=str(f.get("kind", "")))
                )
    return rep
