"""Bad input gets a clear error and loses nothing: every case of the hardening issue.

CLI cases run the real command in a subprocess (exit codes, signals, files left behind);
the embedding client talks to misbehaving servers on loopback; web cases use the app.
"""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from clinical import SAMPLES
from fake_ollama import FakeOllama

PY = [sys.executable, "-m", "norishiro.cli"]


def cli(*args, input=None, timeout=120, cwd=None):
    return subprocess.run([*PY, *map(str, args)], input=input, capture_output=True, text=True, timeout=timeout, cwd=cwd)


def no_traceback(r):
    assert "Traceback" not in r.stderr, r.stderr
    assert r.returncode in (0, 1, 2), (r.returncode, r.stderr)


# ------------------------------------------------------------------ data loss
def test_output_that_is_an_input_is_refused_and_the_input_kept(tmp_path):
    v = tmp_path / "v.txt"
    v.write_text("本文です。" * 50, encoding="utf-8")
    before = v.read_bytes()
    r = cli("chunk", v, "-o", v)
    assert r.returncode == 2 and "also an input" in r.stderr
    assert v.read_bytes() == before


def test_output_inside_an_input_folder_is_not_read_back(tmp_path):
    d = tmp_path / "docs"
    d.mkdir()
    (d / "a.txt").write_text("一つ目の文書。" * 20, encoding="utf-8")
    out = d / "out.txt"
    first = cli("chunk", d, "--format", "text", "-o", out, "-q")
    assert first.returncode == 0, first.stderr
    once = out.read_text(encoding="utf-8")
    second = cli("chunk", d, "--format", "text", "-o", out, "-q")
    assert second.returncode == 0 and out.read_text(encoding="utf-8") == once


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
@pytest.mark.parametrize("fmt", ["jsonl", "json"])
def test_interrupted_run_keeps_the_previous_output(tmp_path, sig, fmt):
    out = tmp_path / "out.json"
    out.write_text('["the previous, complete output"]\n', encoding="utf-8")
    before = out.read_bytes()
    # reads standard input, which stays open: the run is certainly under way when signalled
    p = subprocess.Popen(
        [*PY, "chunk", "-", "--format", fmt, "-o", str(out)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while not list(tmp_path.glob(".out.json.*.partial")) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert list(tmp_path.glob(".out.json.*.partial")), "the run never started writing"
    p.send_signal(sig)
    _, stderr = p.communicate(timeout=60)
    assert p.returncode == 130, stderr
    assert "output incomplete" in stderr and "Traceback" not in stderr
    assert out.read_bytes() == before
    assert not list(tmp_path.glob(".out.json.*"))  # the partial file is gone


def test_a_finished_run_replaces_the_output_whole(tmp_path):
    out = tmp_path / "out.json"
    out.write_text("old", encoding="utf-8")
    r = cli("chunk", SAMPLES, "--format", "json", "-o", out, "-q")
    assert r.returncode == 0, r.stderr
    assert len(json.loads(out.read_text(encoding="utf-8"))) > 50


def _chunks_file(tmp_path, n=6):
    r = cli("chunk", "-", "--size", "40", "-q", input="".join(f"文{i}はここで終わる。" for i in range(n * 3)))
    p = tmp_path / "chunks.jsonl"
    p.write_text(r.stdout, encoding="utf-8")
    return p


def test_embed_refuses_a_file_that_is_not_a_vector_log(tmp_path):
    chunks = _chunks_file(tmp_path)
    other = tmp_path / "notes.jsonl"
    other.write_text('{"title": "my notes"}\n', encoding="utf-8")
    r = cli("embed", chunks, "--embedder", "hash", "-o", other)
    assert r.returncode == 2 and "not a norishiro vector log" in r.stderr
    assert other.read_text(encoding="utf-8") == '{"title": "my notes"}\n'
    r = cli("embed", chunks, "--embedder", "hash", "-o", chunks)
    assert r.returncode == 2 and "chunks file itself" in r.stderr


@pytest.mark.parametrize("suffix", [".jsonl", ".npy"])
def test_resume_refuses_another_model(tmp_path, suffix):
    chunks = _chunks_file(tmp_path)
    out = tmp_path / f"v{suffix}"
    assert cli("embed", chunks, "--embedder", "hash", "-o", out).returncode == 0
    before = out.read_bytes()
    with FakeOllama() as srv:
        r = cli("embed", chunks, "--ollama-url", srv.url, "-o", out)
    assert r.returncode == 2 and "must not mix" in r.stderr
    assert out.read_bytes() == before


def _rows(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    return head, [json.loads(x) for x in lines[1:]]


@pytest.mark.parametrize("mode", ["nan", "empty", "strings", "null", "dimchange"])
def test_bad_vectors_are_never_written(tmp_path, mode):
    chunks = _chunks_file(tmp_path)
    out = tmp_path / "v.jsonl"
    with FakeOllama(mode=mode) as srv:
        r = cli("embed", chunks, "--ollama-url", srv.url, "-o", out, "--batch-size", "2", "--retries", "0")
    no_traceback(r)
    assert r.returncode == 1 and "stopped early" in r.stderr
    if out.exists():
        head, rows = _rows(out)
        dims = {len(x["vector"]) for x in rows}
        assert len(dims) <= 1 and head["dim"] in dims
        assert all(isinstance(v, float) and v == v for x in rows for v in x["vector"])


def test_dimension_change_into_npy_fails_clearly_and_resumes(tmp_path):
    chunks = _chunks_file(tmp_path)
    out = tmp_path / "v.npy"
    with FakeOllama(mode="dimchange") as srv:
        r = cli("embed", chunks, "--ollama-url", srv.url, "-o", out, "--batch-size", "2", "--retries", "0")
        assert r.returncode == 1 and "values where the others have" in r.stderr
    with FakeOllama() as srv:
        r = cli("embed", chunks, "--ollama-url", srv.url, "-o", out, "--batch-size", "2")
    assert r.returncode == 0, r.stderr
    import numpy as np

    assert np.load(out).shape[1] == 8


def test_duplicate_ids_with_other_text_fail_naming_both_lines(tmp_path):
    chunks = _chunks_file(tmp_path)
    rows = [json.loads(x) for x in chunks.read_text(encoding="utf-8").splitlines()]
    rows[2]["id"] = rows[0]["id"]
    chunks.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    r = cli("embed", chunks, "--embedder", "hash", "-o", tmp_path / "v.jsonl")
    assert r.returncode == 1 and "lines 1 and 3" in r.stderr
    assert not (tmp_path / "v.jsonl").exists()


@pytest.mark.parametrize("enc", ["utf-8-sig", "utf-16", "utf-16-be-bom", "utf-32"])
def test_files_with_a_byte_order_mark_are_read(tmp_path, enc):
    import codecs

    text = "【所見】\n肺野に結節影なし。心拡大なし。\n"
    data = codecs.BOM_UTF16_BE + text.encode("utf-16-be") if enc == "utf-16-be-bom" else text.encode(enc)
    f = tmp_path / "note.txt"
    f.write_bytes(data)
    r = cli("chunk", f, "-q")
    assert r.returncode == 0, r.stderr
    assert "".join(json.loads(x)["text"] for x in r.stdout.splitlines()) == text


def test_encoding_is_honoured_and_skipped_inputs_exit_1(tmp_path):
    f = tmp_path / "le.txt"
    f.write_bytes("BP 120/80. 血圧は安定。".encode("utf-16-le"))  # no byte order mark
    r = cli("chunk", f, "-q")
    assert r.returncode == 1 and "skipped" in r.stderr and "utf-16-le" in r.stderr
    r = cli("chunk", f, "--encoding", "utf-16-le", "-q")
    assert r.returncode == 0 and json.loads(r.stdout)["text"] == "BP 120/80. 血圧は安定。"


@pytest.mark.parametrize("workers", ["1", "2"])
def test_bad_sidecars_are_reported_and_the_rest_goes_on(tmp_path, workers):
    for name in ("a", "b", "c"):
        (tmp_path / f"{name}.txt").write_text(f"{name}の本文。", encoding="utf-8")
    (tmp_path / "a.meta.json").write_bytes(b'{"x": "\xff"}')
    (tmp_path / "b.meta.json").mkdir()
    r = cli("chunk", tmp_path, "--workers", workers, "-q")
    no_traceback(r)
    assert r.returncode == 1
    assert "a.meta.json" in r.stderr and "b.meta.json" in r.stderr
    assert [json.loads(x)["text"] for x in r.stdout.splitlines()] == ["cの本文。"]


def test_a_folder_that_cannot_be_listed_is_named(tmp_path, monkeypatch):
    from norishiro.loaders import iter_paths

    (tmp_path / "ok.txt").write_text("x", encoding="utf-8")
    real_walk = os.walk

    def walk(top, onerror=None, **kw):
        onerror(PermissionError(13, "Permission denied", str(Path(top) / "locked")))
        yield from real_walk(top, onerror=onerror, **kw)

    monkeypatch.setattr(os, "walk", walk)
    seen = []
    assert [p.name for p in iter_paths([tmp_path], on_problem=seen.append)] == ["ok.txt"]
    assert len(seen) == 1 and "locked" in seen[0].message and "cannot list" in seen[0].message


# ------------------------------------------------------------------ web
@pytest.fixture(scope="module")
def client():
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from norishiro.web.app import create_app

    return TestClient(create_app(), base_url="http://localhost")


def test_web_answers_only_this_machine_and_json(client):
    assert client.get("/", headers={"host": "evil.example"}).status_code == 421
    assert client.get("/", headers={"host": "localhost:8765"}).status_code == 200
    assert client.get("/", headers={"host": "[::1]:8765"}).status_code == 200
    r = client.post("/api/chunk", content=b'{"text": "x"}', headers={"content-type": "text/plain"})
    assert r.status_code == 415
    r = client.post("/api/chunk", data={"text": "x"})  # a cross-site form
    assert r.status_code == 415


def test_web_caps_the_chunks_of_one_request(client):
    r = client.post("/api/chunk", json={"text": "a" * 200_000, "size": 1})
    assert r.status_code == 400 and r.json()["field"] == "size" and "norishiro chunk" in r.json()["error"]


@pytest.mark.parametrize(
    "raw",
    [
        b'{"text": "a", "size": 1e400}',
        b'{"text": "a", "size": Infinity}',
        b'{"text": "\\ud800 lone"}',
        b'{"text": "---\\n: [\\n---\\nbody"}',
        b'{"text": "a", "size": "12"}',
        b'{"text": "a", "size": true}',
        b'{"text": "a", "size": 3.9}',
        b'{"text": "a", "header_keys": ["patient_id"]}',
        b'{"text": "a", "metadata": {"k": {"deep": 1}}}',
    ],
)
def test_web_bad_values_are_400_not_500(client, raw):
    r = client.post("/api/chunk", content=raw, headers={"content-type": "application/json"})
    assert r.status_code == 400, r.text
    assert r.json()["error"]


def test_web_other_500s_are_gone(client):
    r = client.post("/api/count", json={"text": 5})
    assert r.status_code == 400 and r.json()["field"] == "text"
    assert client.get("/static/%00").status_code == 404
    assert client.get("/static/..%2fapp.py").status_code == 404


def test_web_counts_a_chunked_body_as_it_arrives(tmp_path):
    """A body without Content-Length is answered 413 once the limit is passed, while the
    client is still sending (it is counted as it arrives, not buffered whole first)."""
    pytest.importorskip("uvicorn")
    import select
    import socket
    import threading

    import uvicorn

    from norishiro.web.app import MAX_BODY, create_app

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    srv = uvicorn.Server(uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning"))
    th = threading.Thread(target=srv.run, daemon=True)
    th.start()
    while not srv.started:
        time.sleep(0.05)
    sent, answer = 0, b""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=60) as c:
            c.sendall(
                b"POST /api/chunk HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                b"Transfer-Encoding: chunked\r\n\r\n"
            )
            block = b" " * (1 << 20)
            while sent < 100 << 20 and not answer:
                try:
                    c.sendall(b"%x\r\n%s\r\n" % (len(block), block))
                except OSError:
                    break
                sent += len(block)
                if select.select([c], [], [], 0)[0]:
                    answer = c.recv(65536)
            while not answer:
                answer = c.recv(65536)
        assert answer.startswith(b"HTTP/1.1 413"), answer[:80]
        assert sent < 100 << 20 and sent <= MAX_BODY + (8 << 20), sent
    finally:
        srv.should_exit = True
        th.join(10)


# ------------------------------------------------------------------ embedding client
def test_a_trickling_server_meets_the_deadline(tmp_path):
    chunks = _chunks_file(tmp_path, n=2)
    with FakeOllama(mode="trickle") as srv:
        r = cli(
            "embed", chunks, "--ollama-url", srv.url, "-o", tmp_path / "v.jsonl", "--timeout", "2", "--retries", "0"
        )
    assert r.returncode == 1 and "longer than 2 s" in r.stderr


def test_an_html_answer_is_named_and_nothing_is_written(tmp_path):
    chunks = _chunks_file(tmp_path)
    out = tmp_path / "v.jsonl"
    with FakeOllama(mode="html") as srv:
        r = cli("embed", chunks, "--ollama-url", srv.url, "-o", out)
    no_traceback(r)
    assert r.returncode == 1 and "not an Ollama answer" in r.stderr and srv.url in r.stderr
    assert not out.exists() or len(out.read_text().splitlines()) <= 1


def test_an_url_without_scheme_says_so():
    r = cli("embed", __file__, "--ollama-url", "localhost:11434", "-o", "/tmp/never.jsonl")
    assert r.returncode in (1, 2)
    r = subprocess.run(
        [*PY, "chunk", "-", "--strategy", "semantic", "--embedder", "ollama:m", "--ollama-url", "localhost:11434"],
        input="a.",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2 and "http://localhost:11434" in r.stderr


# ------------------------------------------------------------------ one-line errors
def test_one_line_errors(tmp_path):
    doc = tmp_path / "d.txt"
    doc.write_text("一文目。二文目。", encoding="utf-8")
    chunks = _chunks_file(tmp_path)
    garbage = tmp_path / "tokenizer.json"
    garbage.write_text("{not json", encoding="utf-8")
    empty = tmp_path / "empty.json"
    empty.write_text("", encoding="utf-8")
    facts = tmp_path / "facts.json"
    facts.write_text('{"start": 0}', encoding="utf-8")
    nulltext = tmp_path / "null.jsonl"
    nulltext.write_text('{"text": null, "start": 0, "end": 1}\n{"text": 5, "start": 0, "end": 1}\n', encoding="utf-8")
    trunc = tmp_path / "trunc.jsonl"
    trunc.write_bytes(chunks.read_bytes() + '{"text": "あ'.encode()[:-1])
    cases = [
        (["chunk", doc, "-o", tmp_path / "no" / "out.jsonl"], 1, "does not exist"),
        (["embed", chunks, "--embedder", "hash", "-o", tmp_path / "no" / "v.jsonl"], 1, "does not exist"),
        (["chunk", doc, "--tokenizer", garbage], 2, "tokenizer.json"),
        (["chunk", doc, "--tokenizer", empty], 2, "tokenizer.json"),
        (["chunk", doc, "--header-template", "{foo.bar}"], 2, "--header-template"),
        (["lint", doc, "--facts", facts], 2, "--facts needs"),
        (["lint", "--chunks", nulltext], 1, "text must be a string"),
        (["embed", nulltext, "--embedder", "hash", "-o", tmp_path / "v1.jsonl"], 1, "text must be a string"),
        (["embed", chunks, "--timeout", "-1", "-o", tmp_path / "v2.jsonl"], 2, "--timeout"),
        (["embed", chunks, "--ollama-url", "http://[bad", "-o", tmp_path / "v3.jsonl"], 2, "--ollama-url"),
        (["serve", "--port", "80000"], 2, "--port"),
        (["lint", "--chunks", trunc], 1, "line"),
        (["embed", trunc, "--embedder", "hash", "-o", tmp_path / "v4.jsonl"], 1, "line"),
        (
            ["chunk", doc, "--strategy", "semantic", "--embedder", "hash", "--plot", tmp_path / "no" / "p.html"],
            1,
            "--plot",
        ),
    ]
    for args, code, words in cases:
        r = cli(*args)
        no_traceback(r)
        assert r.returncode == code, (args, r.returncode, r.stderr)
        assert words in r.stderr, (args, r.stderr)


def test_semantic_with_the_server_down_stops_with_one_line(tmp_path):
    for name in ("a", "b"):
        (tmp_path / f"{name}.txt").write_text("一文目。二文目。三文目。", encoding="utf-8")
    r = cli("chunk", tmp_path, "--strategy", "semantic", "--embedder", "ollama:m", "--ollama-url", "http://127.0.0.1:9")
    no_traceback(r)
    assert r.returncode == 1 and "is Ollama running" in r.stderr and "stopped" in r.stderr


def test_header_key_in_no_document_is_warned_about(tmp_path):
    (tmp_path / "a.md").write_text("---\ndate: 2026-01-01\n---\n本文。", encoding="utf-8")
    r = cli("chunk", tmp_path, "--header-keys", "date,patient_id,section", "-q")
    assert r.returncode == 0 and "'patient_id' is in no document" in r.stderr and "'date'" not in r.stderr


def test_a_whitespace_only_file_gives_no_chunk(tmp_path):
    (tmp_path / "blank.txt").write_text(" \n\u3000\n\t", encoding="utf-8")
    r = cli("chunk", tmp_path / "blank.txt", "-q")
    assert r.returncode == 0 and r.stdout == ""


def test_progress_bar_only_on_a_terminal(tmp_path):
    import pty

    for i in range(3):
        (tmp_path / f"{i}.txt").write_text("文。" * 2000, encoding="utf-8")
    out = tmp_path / "out.jsonl"
    r = cli("chunk", tmp_path, "-o", out)
    assert "chunking" not in r.stderr  # a pipe: no bar
    main_fd, sub_fd = pty.openpty()
    p = subprocess.Popen([*PY, "chunk", str(tmp_path), "-o", str(out)], stderr=sub_fd, stdout=subprocess.DEVNULL)
    os.close(sub_fd)
    seen = b""
    while True:
        try:
            part = os.read(main_fd, 4096)
        except OSError:
            break
        if not part:
            break
        seen += part
    p.wait(timeout=60)
    os.close(main_fd)
    assert p.returncode == 0 and b"chunking" in seen
    q = subprocess.Popen([*PY, "chunk", str(tmp_path), "-o", str(out), "-q"], stderr=subprocess.PIPE)
    assert b"chunking" not in q.communicate(timeout=60)[1]
