"""Random bytes and random JSON shapes into every command's inputs: never a traceback, never
a 500. Exit codes stay within the convention (0 done, 1 input problem, 2 usage)."""

import json

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from norishiro.cli import main

FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
row_keys = st.sampled_from(["id", "doc_id", "text", "embed_text", "start", "end", "size", "index", "metadata"])
rows = st.dictionaries(row_keys, json_values, max_size=9) | json_values


def run(args, input=None):
    r = CliRunner().invoke(main, [str(a) for a in args], input=input, catch_exceptions=True)
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise r.exception
    assert r.exit_code in (0, 1, 2), (args, r.exit_code, r.output)
    return r


@FUZZ
@given(st.binary(max_size=600), st.sampled_from(["chunk", "segment", "plan", "lint"]), st.sampled_from([".txt", ".md"]))
def test_random_bytes_as_a_document(tmp_path_factory, data, command, suffix):
    d = tmp_path_factory.mktemp("docs")
    f = d / f"doc{suffix}"
    f.write_bytes(data)
    (d / "doc.meta.json").write_bytes(data[:40])
    extra = {"chunk": ["--size", "30", "-q"], "segment": [], "plan": ["--size", "30"], "lint": ["--size", "30"]}
    run([command, f, *extra[command]])
    run([command, "-", *extra[command]] if command != "plan" else ["plan", "--tokens", "100"], input=data)


@FUZZ
@given(st.lists(rows, max_size=5), st.binary(max_size=40))
def test_random_chunk_rows(tmp_path_factory, items, tail):
    d = tmp_path_factory.mktemp("rows")
    f = d / "chunks.jsonl"
    f.write_bytes(b"".join(json.dumps(x).encode() + b"\n" for x in items) + tail)
    run(["lint", "--chunks", f])
    run(["embed", f, "--embedder", "hash", "-o", d / "v.jsonl"])


@FUZZ
@given(st.binary(max_size=300), st.sampled_from([".jsonl", ".npy", ".parquet"]))
def test_random_bytes_as_an_existing_vector_output(tmp_path_factory, data, suffix):
    d = tmp_path_factory.mktemp("vec")
    chunks = d / "chunks.jsonl"
    chunks.write_text(json.dumps({"id": "a", "text": "本文。", "start": 0, "end": 3}) + "\n", encoding="utf-8")
    out = d / f"v{suffix}"
    out.write_bytes(data)
    (d / f"v{suffix}.vectors.json").write_bytes(data[:60])
    (d / "v.ids.txt").write_bytes(data[:20])
    run(["embed", chunks, "--embedder", "hash", "-o", out])


@pytest.fixture(scope="module")
def client():
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from norishiro.web.app import create_app

    return TestClient(create_app(), base_url="http://localhost")


bodies = st.dictionaries(
    st.sampled_from(
        [
            "text",
            "size",
            "overlap",
            "unit",
            "tokenizer",
            "strategy",
            "header_keys",
            "metadata",
            "front_matter",
            "model",
            "ollama_url",
            "truncate",
            "tokens",
        ]
    ),
    json_values,
    max_size=8,
)


@FUZZ
@given(
    st.sampled_from(["/api/chunk", "/api/count", "/api/plan", "/api/rows"]),
    bodies | json_values,
    st.binary(max_size=60),
)
def test_random_web_bodies(client, path, body, raw):
    r = client.post(path, content=json.dumps(body).encode(), headers={"content-type": "application/json"})
    assert r.status_code < 500, (path, body, r.text)
    r = client.post(path, content=raw, headers={"content-type": "application/json"})
    assert r.status_code < 500, (path, raw, r.text)
