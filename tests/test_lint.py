import json

import pytest
from click.testing import CliRunner

import norishiro
from clinical import load_facts, remove_single_newlines, sample_paths
from norishiro.analysis.lint import LintReport, lint_chunks
from norishiro.chunk import Chunk
from norishiro.cli import main


def _cut(left: str, right: str):
    text = left + right
    chunks = [Chunk(left, 0, len(left), 0, len(left)), Chunk(right, len(left), len(text), 1, len(right))]
    return lint_chunks(text, chunks, doc_id="t", size=None)


# the cue table's examples (tests/data/fixtures/fragmentation-cues.md), one per class
@pytest.mark.parametrize(
    "left,right,kind",
    [
        ("結論：肺癌の疑い", "なし。", "negation"),
        ("右肺上葉に明らかな結節影は", "認めない。", "negation"),
        ("転移巣を認め", "ない。", "negation"),
        ("EGFR遺伝子変異は", "陰性であった。", "negative-result"),
        ("右下葉に結節影を認め、肺癌が", "疑われる。", "hedge"),
        ("骨転移は否定", "できない。", "double-negation"),
        ("以下の所見は認めない：\n", "・胸水\n・心嚢液貯留\n", "list-scope"),
        ("The biopsy was negative", " for malignancy.", "negation"),
        ("No evidence", " of metastatic disease.", "negation"),
        ("Chest CT to rule", " out pulmonary embolism.", "hedge"),
        ("アスピリン投与後に", "出血傾向が見られた。", "causal"),
        ("2023年の検査では", "軽度の上昇を指摘された。", "temporal"),
    ],
)
def test_cue_classes(left, right, kind):
    rep = _cut(left, right)
    assert [f.kind for f in rep.findings if f.kind not in ("broken-sentence",)] == [kind]


def test_cut_at_sentence_end_is_clean():
    rep = _cut("肺癌の疑いなし。", "次の文。")
    assert rep.findings == []
    assert rep.summary()["chunks_ending_at_sentence_end"] == 1.0


def test_overlap_that_holds_the_sentence_heals_the_cut():
    text = "前文。肺癌の疑いなし。後文。"
    a = Chunk(text[:8], 0, 8, 0, 8)  # ends inside the second sentence
    b = Chunk(text[3:], 3, len(text), 1, len(text) - 3)  # overlap repeats the whole sentence
    rep = lint_chunks(text, [a, b], size=20)
    assert rep.healed == 1 and not [f for f in rep.findings if f.kind == "negation"]


def _flat_report(strategy, size):
    rep = LintReport()
    for p in sample_paths():
        doc = norishiro.load_document(p)
        facts = load_facts(p)
        text, spans = remove_single_newlines(doc.text, [(f["start"], f["end"]) for f in facts])
        chunks = norishiro.chunk(text, size=size, strategy=strategy)
        rep.merge(lint_chunks(text, chunks, doc_id=p.name, size=size, facts=[{"start": a, "end": b} for a, b in spans]))
    return rep


def test_fixed_40_vs_recursive_200_on_flattened_samples():
    fixed = _flat_report("fixed", 40)
    rec = _flat_report("recursive", 200)
    assert fixed.count("negation") >= 50
    assert rec.count("negation") * 5 <= fixed.count("negation")
    assert rec.count("broken-fact") == 0 and fixed.count("broken-fact") > 0


def test_cli_json_and_fail_on(tmp_path):
    p = tmp_path / "a.txt"
    p.write_text("右肺上葉に明らかな結節影は認めない。" * 3, encoding="utf-8")
    r = CliRunner().invoke(
        main, ["lint", str(p), "--strategy", "fixed", "--size", "20", "--json", "--fail-on", "negation"]
    )
    assert r.exit_code == 1
    d = json.loads(r.stdout)
    assert d["summary"]["findings"]["negation"] >= 1 and all("kind" in f for f in d["findings"])
    r = CliRunner().invoke(main, ["lint", str(p), "--size", "200", "--fail-on", "negation"])
    assert r.exit_code == 0
    assert CliRunner().invoke(main, ["lint", str(p), "--fail-on", "nonsense"]).exit_code == 2


def test_cli_lint_existing_chunks_file(tmp_path):
    p = tmp_path / "a.txt"
    p.write_text("EGFR遺伝子変異は陰性であった。次の検査へ。", encoding="utf-8")
    out = tmp_path / "c.jsonl"
    CliRunner().invoke(main, ["chunk", str(p), "--strategy", "fixed", "--size", "10", "-o", str(out), "-q"])
    r = CliRunner().invoke(main, ["lint", "--chunks", str(out), "--json"])
    assert r.exit_code == 0, r.output
    kinds = {f["kind"] for f in json.loads(r.stdout)["findings"]}
    assert "negative-result" in kinds


def test_a_chunk_of_nothing_but_white_space_is_reported_blank(tmp_path):
    """A chunk with nothing to embed is a finding of its own (``blank``), the last chunk too,
    instead of ``tiny``; ``--fail-on blank`` stops a pipeline on one."""
    text = "abc\n    \n    \ndefgh   \n    "
    chunks = norishiro.chunk(text, size=4, strategy="fixed")
    blank = [i for i, c in enumerate(chunks) if not c.text.strip()]
    assert blank and blank[-1] == len(chunks) - 1  # the text ends in white space
    rep = lint_chunks(text, chunks, size=100)  # every chunk but the last is tiny against 100
    assert sorted(f.chunk_index for f in rep.findings if f.kind == "blank") == blank
    tiny = {f.chunk_index for f in rep.findings if f.kind == "tiny"}
    assert tiny == set(range(len(chunks) - 1)) - set(blank)
    p = tmp_path / "a.txt"
    p.write_text(text, encoding="utf-8")
    args = ["lint", str(p), "--strategy", "fixed", "--size", "4", "--json"]
    assert CliRunner().invoke(main, [*args, "--fail-on", "blank"]).exit_code == 1
    p.write_text("abc defgh", encoding="utf-8")
    assert CliRunner().invoke(main, [*args, "--fail-on", "blank"]).exit_code == 0
