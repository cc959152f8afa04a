"""The OpenAI-compatible embedding client, against a real HTTP server on loopback
(tests/fake_openai.py implements the documented request, response and error shapes)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from fake_ollama import fake_vector
from fake_openai import FakeOpenAI
from norishiro.cli import main
from norishiro.embed import get_embedder
from norishiro.embed.http import AccessDenied, ModelNotFound, ServerUnavailable
from norishiro.embed.openai import OpenAIClient

MODEL = "text-embedding-test"


def run(args, env=None):
    return CliRunner().invoke(main, args, catch_exceptions=False, env=env)


def chunks_file(tmp_path, texts, docs=None):
    p = tmp_path / "chunks.jsonl"
    rows, start = [], 0
    for i, t in enumerate(texts):
        rows.append(
            {
                "doc_id": docs[i] if docs else f"d{i // 2}",
                "id": f"c{i}",
                "index": i,
                "start": start,
                "end": start + len(t),
                "text": t,
            }
        )
        start += len(t)
    p.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return p


def test_rows_come_back_in_index_order_and_normalised():
    with FakeOpenAI() as srv:
        emb = get_embedder(f"openai:{MODEL}", url=srv.url, batch_size=2)
        out = emb.embed_documents(["one", "two", "three"])
    want = np.array([fake_vector(t) for t in ("one", "two", "three")], dtype=np.float32)
    want /= np.linalg.norm(want, axis=1, keepdims=True)
    assert np.allclose(out, want) and srv.embedded == ["one", "two", "three"]


def test_the_key_is_sent_as_a_bearer_token_and_never_shown(monkeypatch):
    monkeypatch.setenv("MY_EMBED_KEY", "sk-secret-123")
    with FakeOpenAI(key="sk-secret-123") as srv:
        assert len(OpenAIClient(srv.url, "MY_EMBED_KEY").embed(MODEL, ["x"])) == 1
        assert srv.auth_headers[-1] == "Bearer sk-secret-123"
        monkeypatch.setenv("MY_EMBED_KEY", "wrong-key-456")
        with pytest.raises(AccessDenied) as e:
            OpenAIClient(srv.url, "MY_EMBED_KEY", retries=0).embed(MODEL, ["x"])
    assert "$MY_EMBED_KEY" in str(e.value) and "wrong-key-456" not in str(e.value)


def test_unknown_model_and_unreachable_server_say_what_to_do():
    with FakeOpenAI() as srv:
        with pytest.raises(ModelNotFound, match="/v1/models"):
            OpenAIClient(srv.url, retries=0).embed("nope", ["x"])
        url = srv.url
    with pytest.raises(ServerUnavailable, match="--base-url"):
        OpenAIClient(url, retries=1, sleep=lambda s: None, timeout=2).embed(MODEL, ["x"])


def test_429_and_5xx_are_retried():
    waits = []
    with FakeOpenAI(rate_limited=2, fail_5xx=1) as srv:
        vecs = OpenAIClient(srv.url, retries=3, sleep=waits.append).embed(MODEL, ["a", "b"])
    assert len(vecs) == 2 and len(waits) == 3


def test_cli_embed_isolates_a_too_long_chunk_and_resumes(tmp_path):
    texts = ["short one. ", "x" * 50, "short two. ", "short three. "]
    chunks = chunks_file(tmp_path, texts)
    out = tmp_path / "v.jsonl"
    with FakeOpenAI(context=40) as srv:
        args = ["embed", str(chunks), "--embedder", f"openai:{MODEL}", "--base-url", srv.url, "-o", str(out)]
        r = run(args + ["--retries", "0"])
        assert r.exit_code == 1 and "rejected chunk c1" in r.stderr and "maximum context length" in r.stderr
        assert len(out.read_text().splitlines()) == 1 + 3
        assert sorted(srv.embedded) == sorted(t for t in texts if len(t) <= 40)


def test_cli_embed_into_a_store_twice_writes_once(tmp_path):
    pytest.importorskip("lancedb")
    chunks = chunks_file(tmp_path, ["alpha beta. ", "gamma delta. ", "epsilon. "])
    idx = f"lancedb:{tmp_path / 'idx'}"
    with FakeOpenAI() as srv:
        args = ["embed", str(chunks), "--embedder", f"openai:{MODEL}", "--base-url", srv.url, "--to", idx]
        first = run(args)
        second = run(args)
        assert first.exit_code == 0 and "3 row(s) written" in first.stderr
        assert second.exit_code == 0 and "0 row(s) written" in second.stderr and len(srv.embedded) == 3
        hits = run(["search", "gamma delta. ", "--in", idx, "-k", "1", "--base-url", srv.url, "--format", "jsonl"])
    assert hits.exit_code == 0 and json.loads(hits.stdout)["id"] == "c1"


def test_cli_needs_a_base_url_for_openai(tmp_path):
    chunks = chunks_file(tmp_path, ["a. "])
    r = CliRunner().invoke(main, ["embed", str(chunks), "--embedder", "openai:m", "-o", str(tmp_path / "v.jsonl")])
    assert r.exit_code == 2 and "--base-url" in r.stderr


def test_cli_embed_into_a_store_stops_at_a_document_split_in_two(tmp_path):
    pytest.importorskip("lancedb")
    chunks = chunks_file(tmp_path, ["one. ", "two. ", "three. "], docs=["d0", "d1", "d0"])
    r = run(["embed", str(chunks), "--embedder", "hash", "--to", f"lancedb:{tmp_path / 'idx'}"])
    assert r.exit_code == 1 and "given twice" in r.stderr and "before it were written" in r.stderr
    from norishiro.stores import open_store

    assert open_store(f"lancedb:{tmp_path / 'idx'}").documents() == ["d0", "d1"]
