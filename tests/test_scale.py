"""Many documents: a process pool with output identical to the serial run, Parquet output,
and the same chunks on a real local Ray (skipped where the extra is not installed)."""

import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

import norishiro
from clinical import SAMPLES, sample_paths
from norishiro import ChunkConfig
from norishiro.cli import main
from norishiro.scale import FileJob, chunk_rows, parallel_chunk_rows


def test_workers_output_identical_to_serial(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    args = ["chunk", str(SAMPLES), "--unit", "tokens", "--size", "128", "--overlap", "16", "-q"]
    assert CliRunner().invoke(main, args + ["-o", str(a)]).exit_code == 0
    assert CliRunner().invoke(main, args + ["-o", str(b), "--workers", "2"]).exit_code == 0
    assert a.read_bytes() == b.read_bytes() and a.stat().st_size > 0


def test_parallel_rows_keep_order_and_report_bad_files(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\xff\x80abc")
    paths = [*sample_paths()[:3], bad, sample_paths()[3]]
    got = list(parallel_chunk_rows(paths, FileJob(ChunkConfig(200)), workers=2))
    assert [g[0] for g in got] == [str(p) for p in paths]
    assert got[3][1] is None and "byte 0" in got[3][2][0].message
    doc = norishiro.load_document(paths[0])
    assert got[0][1] == chunk_rows(doc, ChunkConfig(200))


def test_parquet_dataset_has_the_jsonl_columns(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "pq"
    r = CliRunner().invoke(main, ["chunk", str(SAMPLES), "--format", "parquet", "-o", str(out), "-q"])
    assert r.exit_code == 0, r.output
    rows = pq.read_table(str(out)).to_pylist()
    j = CliRunner().invoke(main, ["chunk", str(SAMPLES), "-q"]).stdout.splitlines()
    ref = [json.loads(x) for x in j]
    assert len(rows) == len(ref)
    for a, b in zip(rows, ref):
        assert json.loads(a["headings"]) == b["headings"] and json.loads(a["metadata"]) == b["metadata"]
        assert {k: a[k] for k in ("doc_id", "id", "start", "end", "text")} == {
            k: b[k] for k in ("doc_id", "id", "start", "end", "text")
        }


@pytest.mark.slow
def test_ray_gives_the_same_chunks_as_the_local_run(tmp_path):
    pytest.importorskip("ray")
    pq = pytest.importorskip("pyarrow.parquet")
    local, remote = tmp_path / "local", tmp_path / "ray"
    base = [
        sys.executable,
        "-m",
        "norishiro.cli",
        "chunk",
        str(SAMPLES),
        "--unit",
        "tokens",
        "--size",
        "256",
        "--header-keys",
        "patient_id,date,section",
        "--format",
        "parquet",
        "-q",
    ]
    subprocess.run(base + ["-o", str(local)], check=True, timeout=300)
    env = dict(os.environ, RAY_DEDUP_LOGS="0")
    for _ in range(2):  # twice: overwrite mode, a re-run does not add rows
        subprocess.run(
            base + ["-o", str(remote), "--engine", "ray"], check=True, timeout=600, env=env, capture_output=True
        )
    key = lambda r: (r["doc_id"], r["index"])  # noqa: E731
    a = sorted(pq.read_table(str(local)).to_pylist(), key=key)
    b = sorted(pq.read_table(str(remote)).to_pylist(), key=key)
    assert len(a) == len(b) > 0
    assert a == b


@pytest.fixture(scope="module")
def ray_session():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True, logging_level="error")
    ctx = ray.data.DataContext.get_current()
    ctx.execution_options.preserve_order = True
    ctx.enable_progress_bars = False
    yield ray
    ray.shutdown()


def _with_timeout(fn, seconds=300):
    import concurrent.futures as cf

    with cf.ThreadPoolExecutor(1) as ex:
        return ex.submit(fn).result(timeout=seconds)


@pytest.mark.slow
def test_ray_library_flat_map_and_embed_stage(ray_session):
    from norishiro.scale.ray import RayEmbedStage, ray_chunk_dataset

    ray = ray_session
    job = FileJob(ChunkConfig(200))
    docs = [norishiro.load_document(p, doc_id=p.stem) for p in sample_paths()[:4]]
    ds = ray.data.from_items([{"text": d.text, "doc_id": d.id, "metadata": json.dumps(d.metadata)} for d in docs])
    chunks = ray_chunk_dataset(ds, job)
    embedded = chunks.map_batches(
        RayEmbedStage, fn_constructor_kwargs={"embedder": "hash"}, batch_size=16, concurrency=1, num_cpus=0.5
    )
    rows = _with_timeout(lambda: embedded.take_all())
    expected = [r for d in docs for r in chunk_rows(d, job.config)]
    assert [(r["doc_id"], r["start"], r["end"], r["id"]) for r in rows] == [
        (r["doc_id"], r["start"], r["end"], r["id"]) for r in expected
    ]
    assert all(len(r["vector"]) == 512 for r in rows)
