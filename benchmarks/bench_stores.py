"""Vector stores: rows written per second, a re-run that writes nothing, one edited
document, and search latency, on LanceDB and on PostgreSQL + pgvector (a pgserver started
in a temporary folder).

Two data sets:
* ``samples``: the Japanese clinical samples (tests/data/ja-clinical), chunked at 300
  characters, embedded with the local e5 model once (the time is reported apart), then
  written to each store;
* ``synthetic``: N chunks (100,000 by default) in documents of 100 chunks, each with a
  few hundred characters of text and a 384-dimensional unit vector derived from its text
  (the e5-small dimension), so that the store is measured, not a model.

Search latency is the time of ``store.search(vector, k=5)`` for 100 query vectors (query
embedding not included), median and 95th percentile, in milliseconds. For the approximate
indexes, each query is a stored chunk's vector plus a little noise, and the table says how
often the index still returns that chunk first, as the exact search does.

    python benchmarks/bench_stores.py [--chunks 100000] [--stores lancedb,postgres]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import zlib
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from norishiro.document import Document  # noqa: E402
from norishiro.stores import Indexer, open_store, row_from_chunk  # noqa: E402
from norishiro.stores.api import document_rows  # noqa: E402

DIM = 384
WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau".split()


class TextVectors:
    """A unit vector per text, from a generator seeded by the text (no model). Like real
    embeddings, the vectors cluster: a text ``... docN chunkM.`` lies near document N's
    centre (random unit vectors alone are all nearly equidistant, which no real model gives
    and which makes approximate indexes look far worse than they are)."""

    def __init__(self, dim: int = DIM, table: dict | None = None, spread: float = 0.5):
        self.dim = dim
        self.name = f"synthetic-{dim}"
        self.table = table or {}
        self.spread = spread

    def _unit(self, seed: int) -> np.ndarray:
        v = np.random.default_rng(seed).standard_normal(self.dim).astype(np.float32)
        return v / np.linalg.norm(v)

    def _one(self, t: str) -> np.ndarray:
        if t in self.table:
            return self.table[t]
        doc = t.rsplit(" doc", 1)[-1].split(" ", 1)[0] if " doc" in t else t
        v = self._unit(zlib.crc32(doc.encode())) + self.spread * self._unit(zlib.crc32(t.encode()))
        return v / np.linalg.norm(v)

    def embed_documents(self, texts):
        return np.stack([self._one(t) for t in texts]) if texts else np.zeros((0, self.dim), np.float32)

    embed_queries = embed_documents


def synthetic_docs(n_chunks: int, per_doc: int = 100):
    rng = np.random.default_rng(7)
    for d in range(n_chunks // per_doc):
        rows = []
        start = 0
        for i in range(per_doc):
            text = " ".join(rng.choice(WORDS, size=45)) + f" doc{d} chunk{i}.\n"
            rows.append(
                {"id": f"d{d:06d}-c{i:03d}", "doc_id": f"doc{d:06d}.txt", "index": i, "start": start, "text": text}
                | {"end": start + len(text), "section": f"Section {i // 10}", "headings": [f"Section {i // 10}"]}
            )
            start += len(text)
        yield f"doc{d:06d}.txt", [row_from_chunk(r) for r in rows]


def postgres_url(folder: Path) -> str:
    import pgserver

    return pgserver.get_server(folder, cleanup_mode="stop").get_uri()


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


def latency(store, vectors) -> tuple[float, float]:
    times = []
    for v in vectors:
        t = time.perf_counter()
        store.search(v, k=5)
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))]


def near_queries(emb, texts: list[str], n: int = 100) -> list[np.ndarray]:
    """Query vectors each close to one stored chunk (its vector plus a little noise), so that
    every query has one clear nearest neighbour."""
    rng = np.random.default_rng(3)
    out = []
    for i in rng.choice(len(texts), n, replace=False):
        v = emb.embed_documents([texts[i]])[0] + 0.1 * rng.standard_normal(emb.dim).astype(np.float32) / emb.dim**0.5
        out.append(v / np.linalg.norm(v))
    return out


def top_ids(store, queries, k: int = 1) -> list[set[str]]:
    return [{h.row["id"] for h in store.search(q, k=k)} for q in queries]


def measure(target: str, table: str, docs: list, emb, queries) -> dict:
    store = open_store(target, table=table)
    n = sum(len(r) for _, r in docs)
    docs = [(d, [row_from_chunk(r.fields()) for r in rows]) for d, rows in docs]  # no vectors from another run
    rep, t_write = timed(lambda: Indexer(store, emb, batch_size=256).run(iter(docs)))
    assert rep.rows_written == n and not rep.stopped, rep
    fresh = [(d, [row_from_chunk(r.fields()) for r in rows]) for d, rows in docs]
    again, t_again = timed(lambda: Indexer(open_store(target, table=table), emb).run(iter(fresh)))
    assert again.rows_written == 0, again
    d0, rows0 = docs[len(docs) // 2]
    edited = [row_from_chunk(r.fields() | {"text": r.text + "!", "end": r.end + 1}) for r in rows0[:3]]
    one, t_edit = timed(lambda: Indexer(open_store(target, table=table), emb).run([(d0, edited)]))
    p50, p95 = latency(open_store(target, table=table), queries)
    out = {"rows": n, "write_s": t_write, "rows_per_s": n / t_write, "noop_s": t_again, "edit_s": t_edit}
    out |= {"search_p50_ms": p50, "search_p95_ms": p95}
    if n >= 10_000:
        s = open_store(target, table=table)
        exact = top_ids(s, queries)
        built, t_ix = timed(s.build_vector_index)
        if built:
            s = open_store(target, table=table)
            p50, p95 = latency(s, queries)
            got = top_ids(s, queries)
            hit = sum(len(a & b) for a, b in zip(exact, got)) / sum(len(a) for a in exact)
            out |= {"ann_build_s": t_ix, "ann_p50_ms": p50, "ann_p95_ms": p95, "ann_recall": hit}
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--chunks", type=int, default=100_000)
    ap.add_argument("--stores", default="lancedb,postgres")
    args = ap.parse_args(argv)
    kinds = args.stores.split(",")
    work = Path(tempfile.mkdtemp(prefix="norishiro-bench-stores-"))
    pg = postgres_url(work / "pgdata") if "postgres" in kinds else None
    targets = {"lancedb": lambda name: f"lancedb:{work / name}", "postgres": lambda name: pg}

    # samples: embed once with the local model, then write to each store
    paths = sorted(p for p in (ROOT / "tests/data/ja-clinical").glob("*.md") if p.name != "README.md")
    sample_docs = list(document_rows([Document(p.read_text(encoding="utf-8"), id=p.name) for p in paths], size=300))
    texts = [r.embed_text for _, rows in sample_docs for r in rows]
    try:
        from norishiro.embed.local import LocalE5Embedder

        local = LocalE5Embedder()
        vecs, t_embed = timed(lambda: local.embed_documents(texts))
        emb = TextVectors(local.dim, dict(zip(texts, vecs)))
        emb.name = local.name
        queries = list(local.embed_queries(["退院時の血糖値は?", "抗菌薬は何日間投与した?", "アレルギーはある?"] * 34))
        print(
            f"samples: {len(texts)} chunks embedded with {local.name} in {t_embed:.1f} s "
            f"({len(texts) / t_embed:.1f} chunks/s)"
        )
    except ImportError:
        emb, queries = TextVectors(), list(TextVectors().embed_queries([f"q{i}" for i in range(100)]))
    print(
        "| data | store | rows | write (rows/s) | re-run, nothing written (s) | one document edited (s) "
        "| search p50 / p95 (ms) |"
    )
    print("|---|---|---:|---:|---:|---:|---:|")
    for kind in kinds:
        r = measure(targets[kind]("samples"), "samples", sample_docs, emb, queries)
        print(
            f"| samples | {kind} | {r['rows']} | {r['rows_per_s']:,.0f} | {r['noop_s']:.2f} | {r['edit_s']:.2f} "
            f"| {r['search_p50_ms']:.1f} / {r['search_p95_ms']:.1f} |",
            flush=True,
        )
    syn = list(synthetic_docs(args.chunks))
    emb = TextVectors()
    queries = near_queries(emb, [r.embed_text for _, rows in syn for r in rows])
    for kind in kinds:
        r = measure(targets[kind]("synthetic"), "synthetic", syn, emb, queries)
        line = (
            f"| synthetic | {kind} | {r['rows']:,} | {r['rows_per_s']:,.0f} | {r['noop_s']:.1f} | {r['edit_s']:.2f} "
            f"| {r['search_p50_ms']:.1f} / {r['search_p95_ms']:.1f} |"
        )
        print(line, flush=True)
        if "ann_p50_ms" in r:
            ann = "IVF-PQ" if kind == "lancedb" else "HNSW"
            print(
                f"| synthetic + {ann} index ({r['ann_build_s']:.0f} s to build; the exact nearest chunk first in "
                f"{r['ann_recall']:.0%} of queries) | {kind} | {r['rows']:,} | | | "
                f"| {r['ann_p50_ms']:.1f} / {r['ann_p95_ms']:.1f} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
