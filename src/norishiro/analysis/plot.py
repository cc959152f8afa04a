"""Pictures people judge faster than tables: the semantic similarity curve, and metric
curves for ``tune``. HTML/SVG needs nothing; PNG needs matplotlib (``norishiro[plot]``)."""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path


def _need_matplotlib():
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise RuntimeError("PNG plots need matplotlib: pip install 'norishiro[plot]', or write .html") from None
    return plt


def similarity_plot(trace, path: str | Path, title: str = "") -> Path:
    """The neighbour similarity curve with the threshold, the semantic breakpoints and the
    final cuts (after the size limit), as .html (inline SVG) or .png."""
    path = Path(path)
    sims = list(trace.similarities)
    cuts = set(trace.cuts)
    cut_pairs = [k for k, pe in enumerate(trace.pair_ends) if pe in cuts]
    if path.suffix.lower() == ".png":
        plt = _need_matplotlib()
        fig, ax = plt.subplots(figsize=(max(6, len(sims) / 12), 3.2))
        ax.plot(range(len(sims)), sims, lw=1, color="#336")
        if trace.threshold is not None:
            ax.axhline(trace.threshold, color="#c33", ls="--", lw=1, label="threshold")
        ax.scatter(trace.breakpoints, [sims[i] for i in trace.breakpoints], color="#c33", s=14, label="breakpoint")
        for i in cut_pairs:
            ax.axvline(i, color="#999", lw=0.6)
        ax.set_xlabel("sentence pair")
        ax.set_ylabel("cosine similarity")
        ax.set_title(title or "neighbour similarity")
        ax.legend(loc="lower right", fontsize=7)
        fig.tight_layout()
        fig.savefig(path, dpi=120)
        plt.close(fig)
        return path
    w, h, pad = max(600, 8 * len(sims)), 260, 30
    lo = min(sims + [trace.threshold or 1.0, 0.0]) if sims else 0.0
    hi = 1.0
    x = lambda i: pad + (w - 2 * pad) * (i / max(1, len(sims) - 1))  # noqa: E731
    y = lambda v: h - pad - (h - 2 * pad) * ((v - lo) / max(1e-9, hi - lo))  # noqa: E731
    pts = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(sims))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="11">',
        f'<rect width="{w}" height="{h}" fill="white"/>',
    ]
    for i in cut_pairs:
        parts.append(f'<line x1="{x(i):.1f}" y1="{pad}" x2="{x(i):.1f}" y2="{h - pad}" stroke="#bbb"/>')
    if trace.threshold is not None:
        parts.append(
            f'<line x1="{pad}" y1="{y(trace.threshold):.1f}" x2="{w - pad}" y2="{y(trace.threshold):.1f}" '
            f'stroke="#c33" stroke-dasharray="4 3"/>'
        )
    parts.append(f'<polyline fill="none" stroke="#336" stroke-width="1.2" points="{pts}"/>')
    for i in trace.breakpoints:
        parts.append(f'<circle cx="{x(i):.1f}" cy="{y(sims[i]):.1f}" r="3" fill="#c33"/>')
    parts.append(
        f'<text x="{pad}" y="16">{html.escape(title or "neighbour similarity")}: '
        f"{len(sims)} pairs, {len(trace.breakpoints)} breakpoints (red), {len(cut_pairs)} cuts (grey), "
        f"threshold {trace.threshold if trace.threshold is None else round(trace.threshold, 3)}</text>"
    )
    parts.append(f'<text x="{pad}" y="{h - 8}">sentence pair →   y: cosine similarity {lo:.2f} … {hi:.2f}</text></svg>')
    path.write_text(
        "<!doctype html><meta charset=utf-8><title>norishiro similarity</title>\n" + "\n".join(parts) + "\n",
        encoding="utf-8",
    )
    return path


def metric_plot(rows: Sequence[dict], metric: str, path: str | Path, title: str = "") -> Path:
    """``metric`` against chunk size, one line per strategy (for ``tune``), as PNG."""
    plt = _need_matplotlib()
    fig, ax = plt.subplots(figsize=(6, 3.6))
    by: dict[str, list[tuple[float, float]]] = {}
    for r in rows:
        share = round(100 * r["overlap"] / r["size"]) if r["size"] else 0
        by.setdefault(f"{r['strategy']} overlap {share}%", []).append((r["size"], r[metric]))
    for label, pts in sorted(by.items()):
        pts.sort()
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=label)
    ax.set_xlabel("chunk size")
    ax.set_ylabel(metric)
    ax.set_xscale("log", base=2)
    ax.set_title(title or f"{metric} by chunk size")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return Path(path)
