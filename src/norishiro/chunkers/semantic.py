"""Semantic chunking: cut where the similarity of neighbouring sentences dips.

Sentences come from the core boundaries; each is embedded (optionally together with its
neighbours, which smooths very short sentences), the cosine similarity of each neighbouring
pair is measured, and breakpoints are chosen by a statistical rule or a threshold. Unlike
peers' semantic chunkers, the size limit is hard: a group over the budget is split by the
recursive chunker (sentence level and below, keeping tables and lists whole), and every chunk is counted exactly. Groups
below a minimum size are merged into their more similar neighbour when the merge fits.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..config import BREAKPOINT_METHODS as METHODS
from ..core.boundaries import Boundaries, Level
from ..core.packer import Packer
from .base import Region, Span

if TYPE_CHECKING:  # numpy is imported where a chunker embeds: importing norishiro does not load it
    import numpy as np

DEFAULT_PARAM = {"percentile": 90.0, "stdev": 1.5, "interquartile": 1.5, "gradient": 90.0, "threshold": 0.6}


@dataclass
class SemanticTrace:
    """What the chunker saw, for plots and reports: one similarity per neighbouring pair."""

    sentence_spans: list[tuple[int, int]] = field(default_factory=list)
    similarities: list[float] = field(default_factory=list)
    pair_ends: list[int] = field(default_factory=list)  # where each pair's first sentence ends
    threshold: float | None = None  # on similarity (cut where similarity < threshold)
    breakpoints: list[int] = field(default_factory=list)  # pair indices chosen as cuts
    cuts: list[int] = field(default_factory=list)  # final chunk ends (character offsets)


def breakpoints(
    sims: Sequence[float], method: str = "percentile", param: float | None = None
) -> tuple[list[int], float]:
    """Indices ``i`` (the pair i, i+1) where the text should be cut, and the similarity
    threshold used. Rules follow the usual ones (LangChain/LlamaIndex style) on the
    distance ``1 - similarity``: percentile, mean + k*stdev, mean + k*IQR, percentile of the
    distance gradient, or an absolute similarity threshold."""
    if method not in METHODS:
        raise ValueError(f"unknown breakpoint method {method!r}; choose one of {', '.join(METHODS)}")
    import numpy as np

    p = DEFAULT_PARAM[method] if param is None else float(param)
    s = np.asarray(sims, dtype=np.float64)
    if s.size == 0:
        return [], 1.0
    d = 1.0 - s
    if method == "threshold":
        cut = 1.0 - p
        return [i for i, x in enumerate(d) if x > cut], p
    if method == "percentile":
        cut = float(np.percentile(d, p))
    elif method == "stdev":
        cut = float(d.mean() + p * d.std())
    elif method == "interquartile":
        q1, q3 = np.percentile(d, [25, 75])
        cut = float(d.mean() + p * (q3 - q1))
    else:  # gradient
        g = np.gradient(d) if d.size > 1 else np.zeros_like(d)
        gcut = float(np.percentile(g, p))
        idx = [i for i, x in enumerate(g) if x > gcut]
        return idx, float(1.0 - (d[idx].min() if idx else d.max()))
    return [i for i, x in enumerate(d) if x > cut], 1.0 - cut


class SemanticChunker:
    """Cuts where neighbouring sentences stop being similar; options in
    ``config.semantic`` (a :class:`~norishiro.config.SemanticConfig`). Runtime objects:
    ``embedder`` (required), ``cache`` (an embedding cache with ``embed(embedder, texts)``),
    ``trace`` (a :class:`SemanticTrace` to fill, for plots)."""

    sectioned = True
    needs_embedder = True

    def __init__(self, config, *, embedder=None, cache=None, trace: SemanticTrace | None = None, **_runtime):
        if embedder is None:
            raise TypeError("the semantic chunker needs an embedder")
        self.config = config
        self.embedder = embedder
        self.cache = cache
        self.trace = trace if trace is not None else SemanticTrace()

    def spans(self, region: Region) -> Iterator[Span]:
        opts = self.config.semantic
        return semantic_spans(
            region,
            self.embedder,
            method=opts.method,
            param=opts.param,
            window=opts.window,
            min_size=opts.min_size,
            cache=self.cache,
            trace=self.trace,
        )


def semantic_spans(
    region: Region,
    embedder,
    *,
    method: str = "percentile",
    param: float | None = None,
    window: int = 0,
    min_size: int | None = None,
    cache=None,
    trace: SemanticTrace | None = None,
) -> Iterator[Span]:
    text, size, overlap, prefix, offset = region.text, region.size, region.overlap, region.prefix, region.offset
    bnd = Boundaries(text)
    packer = Packer(text, region.measure, size, overlap, boundaries=bnd, prefix=prefix, atoms=region.atoms)
    sents = _glue_headings(text, list(bnd.units(Level.SENTENCE)))
    if not sents:
        return
    trace = trace if trace is not None else SemanticTrace()
    base = len(trace.similarities)
    trace.sentence_spans += [(offset + s, offset + e) for s, e in sents]
    # 1. one vector per sentence (or per window of neighbours)
    pieces = []
    for i in range(len(sents)):
        a = sents[max(0, i - window)][0]
        b = sents[min(len(sents) - 1, i + window)][1]
        pieces.append(text[a:b].strip() or text[a:b])
    vecs = _embed(embedder, pieces, cache)
    sims = [float(vecs[i] @ vecs[i + 1]) for i in range(len(sents) - 1)]
    cut_pairs, thr = breakpoints(sims, method, param)
    trace.similarities += sims
    trace.pair_ends += [offset + sents[i][1] for i in range(len(sims))]
    trace.threshold = thr
    trace.breakpoints += [base + i for i in cut_pairs]
    # 2. groups of sentences between breakpoints
    cut_set = set(cut_pairs)
    groups: list[list[int]] = [[0]]
    for i in range(1, len(sents)):
        if (i - 1) in cut_set:
            groups.append([i])
        else:
            groups[-1].append(i)
    spans = [(sents[g[0]][0], sents[g[-1]][1]) for g in groups]
    # 3. merge small groups into the more similar neighbour when the merge fits
    floor = min_size if min_size is not None else max(1, size // 8)
    spans = _merge_small(spans, sents, sims, floor, packer)
    # 4. split what is over the budget as the recursive chunker would, exactly, keeping
    # atoms and headings inside the group whole
    ends: list[int] = []
    for a, b in spans:
        if packer.fits(a, b, size):
            ends.append(b)
            continue
        sub_text = text[a:b]
        sub = Packer(
            sub_text,
            region.sizer.measure(sub_text),
            size,
            0,
            prefix=(lambda p, a=a: prefix(a + p)) if prefix else None,
            atoms=_inside(region.atoms, a, b),
            heads=_inside(region.heads, a, b),
        )
        ends += [a + e for _, e, _ in sub.spans()]
    trace.cuts += [offset + e for e in ends]
    # 5. overlap: repeat the last whole units of the previous chunk where they fit
    prev_s, prev_e = 0, 0
    for e in ends:
        s = prev_e
        if overlap and prev_e > 0:
            for cand in packer.overlap_starts(prev_s, prev_e):
                if packer.fits(cand, e, size):
                    s = cand
                    break
        yield s, e, packer.count(s, e)
        prev_s, prev_e = s, e


def _inside(spans: Sequence[tuple[int, int]], a: int, b: int) -> list[tuple[int, int]]:
    """The spans that lie within ``a..b``, in its coordinates."""
    return [(x - a, y - a) for x, y in spans if a <= x and y <= b]


_TERMINATORS = tuple("。．.!?！？」）)")


def _glue_headings(text: str, units: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """A short line without a sentence end (a heading or label such as 【既往歴】) belongs
    to what follows: glue it to the next unit so that the topic change is measured before
    the heading, not after it."""
    out: list[tuple[int, int]] = []
    carry: int | None = None
    for s, e in units:
        if carry is not None:
            s, carry = carry, None
        body = text[s:e].strip()
        if body and len(body) <= 24 and not body.endswith(_TERMINATORS) and text[s:e].endswith("\n"):
            carry = s
            continue
        out.append((s, e))
    if carry is not None:
        if out:
            out[-1] = (out[-1][0], len(text))
        else:
            out.append((carry, len(text)))
    return out


def _merge_small(spans: list[tuple[int, int]], sents, sims, floor: int, packer: Packer) -> list[tuple[int, int]]:
    if len(spans) < 2:
        return spans
    start_idx = {s: i for i, (s, _) in enumerate(sents)}
    changed = True
    while changed and len(spans) > 1:
        changed = False
        for k, (a, b) in enumerate(spans):
            if packer.count(a, b) >= floor:
                continue
            left_sim = sims[start_idx[a] - 1] if k > 0 else -2.0
            right_sim = sims[start_idx[spans[k + 1][0]] - 1] if k + 1 < len(spans) else -2.0
            for side in sorted(((left_sim, -1), (right_sim, 1)), reverse=True):
                sim, d = side
                if sim <= -2.0:
                    continue
                j = k + d
                na, nb = min(a, spans[j][0]), max(b, spans[j][1])
                if packer.fits(na, nb, packer.size):
                    lo, hi = min(k, j), max(k, j)
                    spans[lo : hi + 1] = [(na, nb)]
                    changed = True
                    break
            if changed:
                break
    return spans


def _embed(embedder, texts: list[str], cache) -> np.ndarray:
    if cache is not None:
        return cache.embed(embedder, texts)
    import numpy as np

    return np.asarray(embedder.embed_documents(texts), dtype=np.float32)
