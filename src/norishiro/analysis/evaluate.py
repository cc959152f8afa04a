"""Retrieval quality of chunking configurations (Chroma's "Evaluating Chunking Strategies
for Retrieval", Smith & Troynikov, 2024), offline.

For every question: embed it, retrieve the top-k chunks by cosine similarity from one pool
of all chunks of all documents, and compare the retrieved character ranges with the
question's reference excerpts:

* recall    = |excerpts ∩ retrieved| / |excerpts|
* precision = |excerpts ∩ retrieved| / Σ |retrieved chunk|
* IoU       = |excerpts ∩ retrieved| / (Σ |retrieved chunk| + |excerpts not retrieved|)
* precision-Ω: precision when every chunk touching an excerpt is retrieved (an upper bound
  that does not depend on the embedder).

Sizes are characters, or tokens of the chosen tokenizer. Results are means with standard
errors over questions.
"""

from __future__ import annotations

import csv
import json
import math
import shlex
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Union

import numpy as np

from ..api import iter_chunks
from ..config import ChunkConfig
from ..core.measure import get_sizer
from ..document import Document
from ..loaders import load_document
from .lint import LintReport, lint_chunks
from .peers import PEERS, PeerConfig

__all__ = [
    "Question",
    "Dataset",
    "load_dataset",
    "parse_config",
    "PeerConfig",
    "EvalConfig",
    "PEERS",
    "short_label",
    "evaluate_config",
    "range_metrics",
    "EvalRow",
    "grid",
    "mean_chunk_length",
    "match_length",
    "paired_differences",
]

Range = tuple[str, int, int]  # doc_id, start, end


@dataclass
class Question:
    text: str
    refs: list[Range]
    answer: str = ""


@dataclass
class Dataset:
    documents: list[Document]
    questions: list[Question]
    source: str = ""


# ---------------------------------------------------------------------------- inputs
def load_dataset(path: str | Path) -> Dataset:
    """Our format (NAME.qa.json beside NAME.md/.txt) or Chroma's (questions_df.csv and
    corpora/CORPUS_ID.md)."""
    p = Path(path)
    if p.is_file() and p.suffix == ".csv":
        return _load_chroma(p.parent, p)
    if (p / "questions_df.csv").exists():
        return _load_chroma(p, p / "questions_df.csv")
    docs, qs = [], []
    for qa in sorted(p.glob("*.qa.json")):
        stem = qa.name[: -len(".qa.json")]
        src = next((qa.with_name(stem + ext) for ext in (".md", ".txt") if qa.with_name(stem + ext).exists()), None)
        if src is None:
            raise ValueError(f"{qa}: no {stem}.md or {stem}.txt beside it")
        doc = load_document(src, doc_id=stem)
        docs.append(doc)
        try:
            items = json.loads(qa.read_text(encoding="utf-8"))
        except json.JSONDecodeError as e:
            raise ValueError(f"{qa}: line {e.lineno}: invalid JSON ({e.msg})") from None
        for i, item in enumerate(items):
            refs = []
            for r in item.get("refs", []):
                s, e = int(r["start"]), int(r["end"])
                if not 0 <= s < e <= len(doc.text):
                    raise ValueError(
                        f"{qa}: question {i}: reference {s}-{e} is outside the document body "
                        f"({len(doc.text)} characters)"
                    )
                refs.append((doc.id, s, e))
            if refs:
                qs.append(Question(item["question"], refs, item.get("answer", "")))
    if not docs:
        raise ValueError(f"{p}: no NAME.qa.json files (or questions_df.csv for Chroma's format)")
    return Dataset(docs, qs, str(p))


def _load_chroma(root: Path, csv_path: Path) -> Dataset:
    corpora = root / "corpora"
    docs: dict[str, Document] = {}
    qs = []
    with open(csv_path, encoding="utf-8", newline="") as f:
        for row_no, row in enumerate(csv.DictReader(f), 2):
            cid = row["corpus_id"]
            if cid not in docs:
                src = corpora / f"{cid}.md"
                if not src.exists():
                    src = corpora / cid
                if not src.exists():
                    raise ValueError(f"{csv_path}: line {row_no}: corpus {cid!r} not found in {corpora}")
                docs[cid] = Document(src.read_text(encoding="utf-8"), id=cid, source=str(src))
            refs = []
            for r in json.loads(row["references"]):
                refs.append((cid, int(r["start_index"]), int(r["end_index"])))
            qs.append(Question(row["question"], refs))
    return Dataset(list(docs.values()), qs, str(root))


# ---------------------------------------------------------------------------- configs
EvalConfig = Union[ChunkConfig, PeerConfig]


def short_label(cfg: EvalConfig) -> str:
    """``recursive 256/0 tok`` and the options that differ from the defaults."""
    unit = " tok" if cfg.unit == "tokens" else " ch"
    extra = cfg.label.split(f"unit={cfg.unit}", 1)[1] if isinstance(cfg, ChunkConfig) else ""
    return f"{cfg.strategy} {cfg.size}/{cfg.overlap}{unit}{extra}"


def parse_config(spec: str) -> EvalConfig:
    """``"recursive size=256 overlap=0 unit=tokens"``; overlap may be a fraction of size;
    a peer's name (``langchain``) as the strategy runs that project's chunker."""
    words = shlex.split(spec)
    if words and words[0] in PEERS:
        cfg = ChunkConfig.from_spec("recursive " + " ".join(shlex.quote(w) for w in words[1:]))
        return PeerConfig(words[0], cfg.size, cfg.overlap, cfg.unit, cfg.tokenizer)
    return ChunkConfig.from_spec(spec)


def grid(
    strategies: Sequence[str],
    sizes: Sequence[int],
    overlaps: Sequence[float],
    unit: str = "chars",
    tokenizer: str | None = None,
) -> list[EvalConfig]:
    out: list[EvalConfig] = []
    for st in strategies:
        for size in sizes:
            for ov in overlaps:
                o = int(round(ov * size)) if 0 < ov < 1 else int(ov)
                if o < size:
                    tok = f" tokenizer={shlex.quote(tokenizer)}" if tokenizer else ""
                    out.append(parse_config(f"{st} size={size} overlap={o} unit={unit}{tok}"))
    return out


# ---------------------------------------------------------------------------- chunking
def chunk_dataset(ds: Dataset, cfg: EvalConfig, embedder=None, cache=None) -> dict[str, list]:
    """Chunks of every document under one configuration (offsets into the bodies)."""
    if isinstance(cfg, PeerConfig):
        return {d.id: PEERS[cfg.strategy](d, cfg) for d in ds.documents}
    return {d.id: list(iter_chunks(d, cfg, embedder=embedder, cache=cache)) for d in ds.documents}


# ---------------------------------------------------------------------------- metrics
def _union(ranges: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for a, b in sorted(ranges):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def _intersect(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int] | None:
    lo, hi = max(a[0], b[0]), min(a[1], b[1])
    return (lo, hi) if lo < hi else None


def range_metrics(
    refs: Sequence[Range], retrieved: Sequence[Range], measure: Callable[[str, int, int], int] | None = None
) -> dict[str, float]:
    """Recall, precision and IoU of ``retrieved`` ranges against reference ranges.

    ``measure(doc_id, a, b)`` sizes a range (characters by default, tokens when given).
    Overlapping retrieved chunks count fully in the precision denominator (as in Chroma's
    evaluation), repeated text is not double-counted in the numerator.
    """
    size = measure or (lambda _d, a, b: b - a)
    docs = {d for d, _, _ in refs} | {d for d, _, _ in retrieved}
    inter_total = ref_total = unused_total = 0
    for d in docs:
        rr = _union((a, b) for dd, a, b in refs if dd == d)
        got = [(a, b) for dd, a, b in retrieved if dd == d]
        inter = _union(x for r in rr for c in got if (x := _intersect(r, c)))
        inter_total += sum(size(d, a, b) for a, b in inter)
        ref_total += sum(size(d, a, b) for a, b in rr)
        # reference parts no retrieved chunk touches
        for a, b in rr:
            pos = a
            for x, y in inter:
                if y <= a or x >= b:
                    continue
                if x > pos:
                    unused_total += size(d, pos, x)
                pos = max(pos, y)
            if pos < b:
                unused_total += size(d, pos, b)
    retrieved_total = sum(size(d, a, b) for d, a, b in retrieved)
    return {
        "recall": inter_total / ref_total if ref_total else 0.0,
        "precision": inter_total / retrieved_total if retrieved_total else 0.0,
        "iou": inter_total / (retrieved_total + unused_total) if (retrieved_total + unused_total) else 0.0,
    }


@dataclass
class EvalRow:
    config: str
    short: str
    strategy: str
    size: int
    overlap: int
    chunks: int
    mean_size: float
    recall: float
    recall_se: float
    precision: float
    precision_se: float
    iou: float
    iou_se: float
    precision_omega: float
    precision_omega_se: float
    fragmentation_per_1000: float
    questions: int
    # every question's recall, precision and IoU, for paired comparisons
    per_question: dict[str, list[float]] = field(default_factory=dict, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "per_question"}


def _mean_se(xs: Sequence[float]) -> tuple[float, float]:
    if not xs:
        return 0.0, 0.0
    m = float(np.mean(xs))
    se = float(np.std(xs, ddof=1) / math.sqrt(len(xs))) if len(xs) > 1 else 0.0
    return m, se


def evaluate_config(
    ds: Dataset,
    cfg: EvalConfig,
    embedder,
    k: int = 5,
    cache=None,
    metric_unit: str = "chars",
    tokenizer: str | None = None,
) -> EvalRow:
    """One row of the evaluation table for ``cfg``."""
    from ..embed.cache import EmbeddingCache

    cache = cache or EmbeddingCache()
    by_doc = chunk_dataset(ds, cfg, embedder, cache)
    texts = {d.id: d.text for d in ds.documents}
    pool = [c for d in ds.documents for c in by_doc[d.id]]
    if not pool:
        raise ValueError("no chunks: the dataset has no text")
    chunk_vecs = cache.embed(embedder, [c.embed_text for c in pool])
    q_vecs = cache.embed(embedder, [q.text for q in ds.questions], query=True)
    sims = q_vecs @ chunk_vecs.T
    measure = None
    if metric_unit == "tokens":
        sizer = get_sizer("tokens", tokenizer)
        measure = lambda d, a, b: sizer.count(texts[d][a:b])  # noqa: E731
    ranges = [(c.doc_id, c.start, c.end) for c in pool]
    rec, prec, iou, omega = [], [], [], []
    for qi, q in enumerate(ds.questions):
        top = np.argsort(-sims[qi], kind="stable")[:k]
        m = range_metrics(q.refs, [ranges[i] for i in top], measure)
        rec.append(m["recall"])
        prec.append(m["precision"])
        iou.append(m["iou"])
        touching = [r for r in ranges if any(r[0] == d and r[1] < b and a < r[2] for d, a, b in q.refs)]
        omega.append(range_metrics(q.refs, touching, measure)["precision"])
    report = LintReport()
    for d in ds.documents:
        report.merge(lint_chunks(d.text, by_doc[d.id], doc_id=d.id, size=cfg.size))
    s = report.summary()
    (r, rse), (p, pse), (i, ise), (o, ose) = map(_mean_se, (rec, prec, iou, omega))
    return EvalRow(
        cfg.label,
        short_label(cfg),
        cfg.strategy,
        cfg.size,
        cfg.overlap,
        len(pool),
        float(np.mean([c.size for c in pool])),
        r,
        rse,
        p,
        pse,
        i,
        ise,
        o,
        ose,
        s["fragmentation_per_1000_boundaries"],
        len(ds.questions),
        {"recall": rec, "precision": prec, "iou": iou},
    )


def mean_chunk_length(ds: Dataset, cfg: EvalConfig, unit: str = "chars", tokenizer: str | None = None) -> float:
    """Mean length of the chunks' text (not ``embed_text``) in characters or tokens."""
    chunks = [c for cs in chunk_dataset(ds, cfg).values() for c in cs]
    if not chunks:
        return 0.0
    if unit == "tokens":
        sizer = get_sizer("tokens", tokenizer)
        return float(np.mean([sizer.count(c.text) for c in chunks]))
    return float(np.mean([len(c.text) for c in chunks]))


def match_length(
    ds: Dataset, cfg: EvalConfig, target: float, unit: str = "chars", tokenizer: str | None = None
) -> tuple[EvalConfig, float]:
    """``cfg`` with the size whose mean chunk length comes closest to ``target`` (overlap
    scaled with the size), and that mean. Comparing chunkers at their nominal size favours
    the one that fills chunks fuller; at equal mean length the comparison is fair."""

    def sized(size: int) -> EvalConfig:
        overlap = min(size - 1, round(cfg.overlap * size / cfg.size))
        return replace(cfg, size=size, overlap=overlap)

    memo: dict[int, float] = {}

    def mean(size: int) -> float:
        if size not in memo:
            memo[size] = mean_chunk_length(ds, sized(size), unit, tokenizer)
        return memo[size]

    lo, hi = 1, max(2, cfg.size)
    while mean(hi) < target and hi < 64 * max(cfg.size, 1):
        lo, hi = hi, hi * 2
    while hi - lo > 1:  # the smallest size whose mean reaches the target
        mid = (lo + hi) // 2
        if mean(mid) >= target:
            hi = mid
        else:
            lo = mid
    best = min((lo, hi), key=lambda s: (abs(mean(s) - target), s))
    return sized(best), mean(best)


def paired_differences(base: EvalRow, other: EvalRow) -> dict[str, tuple[float, float]]:
    """Per question ``other - base`` for recall, precision and IoU: mean and standard error
    (the same questions, so the noise of question difficulty cancels)."""
    out = {}
    for m in ("recall", "precision", "iou"):
        a, b = base.per_question.get(m, []), other.per_question.get(m, [])
        if len(a) != len(b) or not a:
            raise ValueError("paired differences need the same questions in both rows")
        out[m] = _mean_se([y - x for x, y in zip(a, b)])
    return out
