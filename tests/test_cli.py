import json
import subprocess
import sys

from click.testing import CliRunner

from norishiro.cli import main
from seeds import needs_seeds, seed002_text


def run(args, input=None):
    return CliRunner().invoke(main, args, input=input, catch_exceptions=False)


@needs_seeds
def test_chunk_jsonl_from_stdin_matches_seed002():
    r = run(["chunk", "-", "--size", "300", "-q"], input=seed002_text())
    assert r.exit_code == 0, r.output
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert [(x["start"], x["end"], x["size"]) for x in rows] == [(0, 294, 294), (294, 496, 202), (496, 665, 169)]
    assert {"doc_id", "id", "index", "start", "end", "size", "text"} <= rows[0].keys()


def test_chunk_greedy_fills_every_chunk_and_the_default_balances():
    text = "".join(f"Paragraph {i} has some words in it. It ends here.\n\n" for i in range(22))  # 1.1 budgets
    sizes = {}
    for flag in ([], ["--greedy"]):
        r = run(["chunk", "-", "--size", "1000", "-q", *flag], input=text)
        assert r.exit_code == 0, r.output
        sizes[bool(flag)] = [json.loads(line)["size"] for line in r.stdout.splitlines()]
    assert sizes[True][-1] < 200 <= min(sizes[False])
    assert len(sizes[True]) == len(sizes[False]) == 2
    assert "--greedy" in run(["chunk", "--help"]).output


def test_chunk_files_and_directories_with_summary(tmp_path):
    (tmp_path / "a.md").write_text("---\ntitle: A\n---\n本文です。次の文。\n", encoding="utf-8")
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "b.txt").write_text("\ufeffHello world. Bye.", encoding="utf-8")
    (sub / "empty.txt").write_text("", encoding="utf-8")
    out = tmp_path / "chunks.jsonl"
    r = run(["chunk", str(tmp_path), "--size", "50", "-o", str(out)])
    assert r.exit_code == 0, r.output
    rows = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [x["text"] for x in rows] == ["本文です。次の文。\n", "Hello world. Bye."]
    assert rows[0]["metadata"] == {"title": "A"}
    assert "documents" in r.stderr and "3" in r.stderr


def test_bad_utf8_names_file_and_byte_and_keeps_going(tmp_path):
    (tmp_path / "good.txt").write_text("ok text.", encoding="utf-8")
    (tmp_path / "bad.txt").write_bytes("正しい\n".encode() + b"\xff\xfe broken")
    out = tmp_path / "o.jsonl"
    r = run(["chunk", str(tmp_path / "bad.txt"), str(tmp_path / "good.txt"), "-o", str(out), "--size", "20"])
    assert r.exit_code == 1
    assert "bad.txt" in r.stderr and "byte 10" in r.stderr and "line 2" in r.stderr and "--encoding" in r.stderr
    assert json.loads(out.read_text(encoding="utf-8").splitlines()[0])["text"] == "ok text."


def test_encoding_override(tmp_path):
    (tmp_path / "sjis.txt").write_bytes("肺癌の疑いなし。".encode("cp932"))
    r = run(["chunk", str(tmp_path / "sjis.txt"), "--encoding", "cp932", "-q"])
    assert r.exit_code == 0
    assert json.loads(r.stdout)["text"] == "肺癌の疑いなし。"


def test_binary_file_is_skipped_with_warning(tmp_path):
    (tmp_path / "x.txt").write_bytes(b"\x00\x01\x02binary")
    r = run(["chunk", str(tmp_path / "x.txt"), "-q"])
    assert r.exit_code == 1 and "binary" in r.stderr and "skipped" in r.stderr and r.stdout == ""


def test_usage_errors_exit_2():
    for args in (["--size", "0"], ["--size", "10", "--overlap", "10"], ["--overlap", "-1"]):
        r = run(["chunk", "-", *args], input="x")
        assert r.exit_code == 2, args
        assert "size" in r.stderr or "overlap" in r.stderr
    assert run(["chunk", "/no/such/file", "-q"]).exit_code == 1


def test_segment_levels():
    r = run(["segment", "--level", "sentence", "-"], input="一文目。二文目！\n三行目")
    rows = [json.loads(x) for x in r.stdout.splitlines()]
    assert [x["text"] for x in rows] == ["一文目。", "二文目！\n", "三行目"]


def test_plan_seed000_example_and_json():
    r = run(["plan", "--tokens", "8000", "--size", "512", "--overlap", "64", "--json"])
    assert r.exit_code == 0
    d = json.loads(r.stdout)
    assert (d["stride"], d["chunks"], d["embedded_upper"], d["embedded_exact"]) == (448, 18, 9216, 9088)
    assert round(d["overhead_upper"], 2) == 0.15


def test_plan_invalid_exit_2():
    assert run(["plan", "--tokens", "100", "--size", "64", "--overlap", "64"]).exit_code == 2
    assert run(["plan", "--tokens", "100", "--size", "0"]).exit_code == 2
    assert run(["plan", "--tokens", "-1", "--size", "10"]).exit_code == 2
    assert run(["plan"]).exit_code == 2


def test_plan_on_documents_shows_estimate_and_actual(tmp_path):
    (tmp_path / "d.txt").write_text("短い文です。" * 200, encoding="utf-8")
    r = run(["plan", str(tmp_path), "--size", "64", "--overlap", "8", "--json"])
    d = json.loads(r.stdout)
    doc = d["documents"][0]
    assert doc["estimate"]["chunks"] >= 1 and doc["actual"]["chunks"] >= doc["estimate"]["chunks"] - 1
    assert doc["actual"]["longest"] <= 64


def test_console_script_installed():
    out = subprocess.run([sys.executable, "-m", "norishiro.cli", "--help"], capture_output=True, text=True)
    assert out.returncode == 0 and "chunk" in out.stdout
