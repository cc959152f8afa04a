"""De-identification: what the rules find on annotated notes, and that no annotated identifier
reaches anything that is embedded or exported for embedding."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import norishiro
from clinical import SAMPLES
from norishiro.cli import main
from norishiro.deid import SECRET_ENV, deidentify, detect
from norishiro.deid.score import expected_spans, score

DEID = Path(__file__).parent / "data" / "deid"
ANNOTATIONS = {
    k: v for k, v in json.loads((DEID / "annotations.json").read_text(encoding="utf-8")).items() if k[0] != "_"
}


def _path(stem: str) -> Path:
    return next(p for p in (SAMPLES / f"{stem}.md", DEID / f"{stem}.md") if p.exists())


def _annotated():
    for stem, items in ANNOTATIONS.items():
        doc = norishiro.load_document(_path(stem))
        yield stem, doc, expected_spans(doc.text, items)


def test_recall_and_precision_per_class_on_the_annotated_notes():
    got = score((exp, detect(doc.text)) for _, doc, exp in _annotated())
    assert got["name"]["recall"] >= 0.95
    for cls in ("id", "phone", "email"):
        assert got[cls]["recall"] == 1.0, (cls, got[cls])
    for cls in ("postal", "address", "birth_date", "age", "facility"):
        assert got[cls]["recall"] >= 0.75, (cls, got[cls])
    assert all(r["precision"] >= 0.9 for r in got.values()), got


def _identifiers(doc, expected) -> set[str]:
    """The annotated identifiers long enough to look for as text (a one-character surname
    such as 西, or an age such as 95, also stands in ordinary words and numbers)."""
    return {doc.text[a:b] for a, b, _ in expected if b - a >= 2 and not doc.text[a:b].isdigit()}


def _exported(path: Path, fmt: str, target: Path) -> str:
    """What ``chunk --deid`` sends to be embedded, in one output format."""
    args = ["chunk", str(path), "--deid", "--size", "200", "--header-keys", "patient_id,section", "-q"]
    r = CliRunner().invoke(main, [*args, "--format", fmt, "-o", str(target)])
    assert r.exit_code == 0, r.output
    if fmt == "jsonl":
        return "\n".join(json.loads(x)["embed_text"] for x in target.read_text(encoding="utf-8").splitlines())
    if fmt == "parquet":
        import pyarrow.parquet as pq

        table = pq.read_table(str(target))
        assert all(json.loads(x) is not None for x in table.column("replaced").to_pylist())
        return "\n".join(table.column("embed_text").to_pylist())
    if fmt == "ollama":
        return "\n".join(json.loads(target.read_text(encoding="utf-8"))["input"])
    return target.read_text(encoding="utf-8")


def test_no_annotated_identifier_reaches_an_export_path(tmp_path):
    pytest.importorskip("pyarrow")
    leaks = []
    for stem, doc, exp in _annotated():
        idents = _identifiers(doc, exp) | ({str(doc.metadata["patient_id"])} if "patient_id" in doc.metadata else set())
        for fmt in ("jsonl", "ollama", "curl", "parquet"):
            exported = _exported(_path(stem), fmt, tmp_path / f"{stem}.{fmt}")
            leaks += [(stem, fmt, x) for x in idents if x in exported]
    assert not leaks


def test_offsets_stay_exact_and_chunks_list_what_they_replaced():
    doc = norishiro.load_document(DEID / "n01_referral_ja.md")
    plain = norishiro.chunk(doc, size=120)
    chunks = norishiro.chunk(doc, size=120, deid=True)
    pos = 0
    for c in chunks:
        assert doc.text[c.start : c.end] == c.text and c.start >= pos
        assert c.size <= 120 and c.size == len(c.embed_text)
        for r in c.replaced:
            assert c.start <= r["start"] < r["end"] <= c.end
            assert doc.text[r["start"] : r["end"]] not in c.embed_text or r["end"] - r["start"] < 2
        pos = c.end
    assert pos == len(doc.text.rstrip()) or doc.text[pos:].strip() == ""
    assert "村瀬 千代子" in "".join(c.text for c in chunks)  # the source text is untouched
    assert all(c.replaced is None for c in plain) and any(c.replaced for c in chunks)
    assert any(r["class"] == "phone" for c in chunks for r in c.replaced)
    assert "replaced" in chunks[0].to_dict() and "replaced" not in plain[0].to_dict()


def test_surrogates_are_consistent_in_a_document_and_across_documents_with_a_secret(monkeypatch):
    text = "主治医：Dr. 榊原。榊原先生に連絡。担当医：架空 太郎\n"
    d = deidentify(text)
    assert d.text == "主治医：Dr. [氏名1]。[氏名1]先生に連絡。担当医：[氏名2]\n"
    english = deidentify("Attending: Samuel Ortiz. Call Dr. Ortiz.")
    assert english.text == "Attending: [NAME1]. Call Dr. [NAME2]."
    a = deidentify("Dr. 榊原", secret="s3cret").text
    b = deidentify("担当医：榊原\nDr. 東", secret="s3cret").text
    assert a.split()[-1] in b and a != "Dr. [氏名1]"
    assert deidentify("Dr. 榊原", secret="other").text != a
    monkeypatch.setenv(SECRET_ENV, "s3cret")
    doc = norishiro.Document("本文。Dr. 榊原\n", metadata={"patient_id": "P-1"})
    chunks = norishiro.chunk(doc, size=80, deid=True, header_keys=["patient_id"])
    assert "P-1" not in chunks[0].embed_text and "patient-" in chunks[0].embed_text


def test_allowed_words_and_eponyms_are_not_names():
    text = "上記の患者様。ご家族様より。橋本病、パーキンソン病。Parkinson disease. コレステロール結石様の構造。"
    assert detect(text) == []


def test_user_rules_file_and_the_deid_command(tmp_path):
    note = tmp_path / "note.md"
    note.write_text("Case No. 4471: seen by Dr. Okafor. Basedow disease.\n", encoding="utf-8")
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps({"rules": [{"class": "id", "pattern": r"Case No\. (?P<v>\d+)"}]}), encoding="utf-8")
    r = CliRunner().invoke(main, ["deid", str(note), "--deid-rules", str(rules)])
    assert r.exit_code == 0 and "Case No. [ID1]" in r.stdout and "Dr. [NAME1]" in r.stdout
    r = CliRunner().invoke(main, ["chunk", str(note), "--deid", "--deid-rules", str(rules), "-q"])
    assert "4471" not in json.loads(r.stdout)["embed_text"]
    r = CliRunner().invoke(main, ["deid", str(note), "--json"])
    found = json.loads(r.stdout)["found"]
    assert {"start": 27, "end": 33, "class": "name", "text": "Okafor"} in found
    rules.write_text(json.dumps({"rules": [{"class": "id", "pattern": "no group"}]}), encoding="utf-8")
    bad = CliRunner().invoke(main, ["chunk", str(note), "--deid", "--deid-rules", str(rules)])
    assert bad.exit_code == 2 and "--deid-rules" in bad.output and "(?P<v>" in bad.output


def test_lint_reports_an_identifier_left_in_embed_text(tmp_path):
    note = DEID / "n02_discharge_en.md"
    out = tmp_path / "c.jsonl"
    assert (
        CliRunner().invoke(main, ["chunk", str(note), "--deid", "--size", "300", "-o", str(out), "-q"]).exit_code == 0
    )
    clean = CliRunner().invoke(main, ["lint", "--chunks", str(out), "--json"])
    assert json.loads(clean.stdout)["summary"]["findings"]["identifier"] == 0
    rows = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    rows[0]["embed_text"] += " Contact: h.whitman@example.org"  # a header or a rule gap let one through
    out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    r = CliRunner().invoke(main, ["lint", "--chunks", str(out), "--json", "--fail-on", "identifier"])
    found = [f for f in json.loads(r.stdout)["findings"] if f["kind"] == "identifier"]
    assert r.exit_code == 1 and found and found[0]["detail"] == "email"


def test_dates_kept_shifted_with_intervals_intact_or_coarsened():
    import datetime as dt

    text = "入院日：2026年1月14日、退院日 2026/1/23。1月20日にCT。Admitted March 3, 2026. 2026-02-29 is no date."
    assert deidentify(text).text == text  # kept by default
    shifted = deidentify(text, dates="shift", patient="P-1", secret="s").text
    a, b = (dt.date(*map(int, m)) for m in re.findall(r"(\d{4})[年/](\d{1,2})[月/](\d{1,2})", shifted))
    assert (b - a).days == 9 and "2026年1月14日" not in shifted and "2026-02-29" in shifted
    again = deidentify("受診日 2026年1月14日", dates="shift", patient="P-1", secret="s").text
    assert again.split()[-1] in shifted  # the same patient moves by the same days in every document
    other = deidentify("受診日 2026年1月14日", dates="shift", patient="P-2", secret="s").text
    assert other != again
    coarse = deidentify(text, dates="coarsen").text
    assert "2026年1月、" in coarse and "2026/1。" in coarse and "1月にCT" in coarse and "March 2026" in coarse
    with pytest.raises(norishiro.OptionError):
        norishiro.ChunkConfig(deid=True, deid_dates="blur")
    note = DEID / "n03_nursing_ja.md"
    r = CliRunner().invoke(main, ["chunk", str(note), "--deid", "--deid-dates", "shift", "-q"])
    assert r.exit_code == 0 and r.stdout
    bad = CliRunner().invoke(main, ["chunk", str(note), "--deid", "--deid-dates", "blur"])
    assert bad.exit_code == 2


def test_sections_left_out_under_deid_keep_original_offsets():
    doc = norishiro.load_document(DEID / "n01_referral_ja.md")
    left: list = []
    kept = list(
        norishiro.iter_chunks(doc, size=300, deid=True, sections_exclude=["history_of_present_illness"], excluded=left)
    )
    spans = sorted([(c.start, c.end) for c in kept] + [(s.start, s.end) for s in left])
    pos = 0
    for a, b in spans:  # chunks and left-out sections cover the original text
        assert doc.text[pos:a].strip() == ""
        pos = max(pos, b)
    assert pos == len(doc.text)
