"""Canonical section names and choosing sections to chunk."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import norishiro
from clinical import sample_paths
from norishiro import ChunkConfig
from norishiro.cli import main
from norishiro.core.canonical import SectionNames, normalise_heading
from norishiro.errors import OptionError


@pytest.mark.parametrize(
    "heading,canonical",
    [
        ("現病歴", "history_of_present_illness"),
        ("【現病歴・経過】", "history_of_present_illness"),
        ("HPI", "history_of_present_illness"),
        ("1. History of Present Illness:", "history_of_present_illness"),
        ("■既往歴", "past_medical_history"),
        ("Past Medical History", "past_medical_history"),
        ("入院時現症", "physical_exam"),
        ("退院時検査（2/16）", "lab_results"),
        ("検査所見", "lab_results"),
        ("Labs", "lab_results"),
        ("Subjective", "subjective"),
        ("S", "subjective"),
        ("Assessment and Plan", "assessment"),
        ("退院後の方針", "plan"),
        ("Findings/Impression", "findings"),
        ("IMPRESSION:", "impression"),
        ("看護計画", "nursing_plan"),
        ("術式", "procedure"),
        ("退院サマリ", None),
        ("患者背景メモ", None),
    ],
)
def test_header_variants_map_to_one_canonical_name(heading, canonical):
    assert SectionNames().of_heading(heading) == canonical


def test_normalising_and_user_variants():
    assert normalise_heading("【 現病歴 】：") == "現病歴"
    assert normalise_heading("２．ＨＰＩ") == "hpi"
    names = SectionNames([("病状経過", "history_of_present_illness"), ("所見", "imaging")])
    assert names.of_heading("病状経過") == "history_of_present_illness"
    assert names.of_heading("所見") == "imaging"  # the user's table wins
    assert names.of_path(["退院サマリ", "入院経過", "経過表"]) == "flowsheet"
    assert names.of_path(["退院サマリ", "メモ"]) is None


def test_chunks_carry_canonical_sections_and_a_filter_loses_nothing_silently():
    doc = norishiro.load_document(sample_paths()[0])
    every = norishiro.chunk(doc, size=200)
    assert {"history_of_present_illness", "lab_results", "chief_complaint"} <= {c.section_canonical for c in every}
    assert all(("section_canonical" in c.to_dict()) == (c.section_canonical is not None) for c in every)
    excluded: list = []
    kept = list(norishiro.iter_chunks(doc, size=200, sections_include=["現病歴", "lab_results"], excluded=excluded))
    assert kept and {c.section_canonical for c in kept} == {"history_of_present_illness", "lab_results"}
    covered = sorted([(c.start, c.end) for c in kept] + [(s.start, s.end) for s in excluded])
    pos = 0
    for a, b in covered:  # chunks and left-out sections together cover the document
        assert doc.text[pos:a].strip() == ""
        pos = max(pos, b)
    assert doc.text[pos:].strip() == ""
    dropped = norishiro.chunk(doc, size=200, sections_exclude=["social_history", "家族歴"])
    assert not {"social_history", "family_history"} & {c.section_canonical for c in dropped}
    assert len(dropped) < len(every)
    whole = norishiro.chunk(doc, size=2000, cross_sections=True, sections_include=["history_of_present_illness"])
    assert whole and all(c.section_canonical == "history_of_present_illness" for c in whole)


def test_config_fields_round_trip_and_are_checked():
    cfg = ChunkConfig(
        sections_include="history_of_present_illness, lab_results",
        section_map={"history_of_present_illness": ["病状経過"]},
    )
    assert cfg.sections_include == ("history_of_present_illness", "lab_results")
    assert cfg.section_map == (("病状経過", "history_of_present_illness"),)
    assert ChunkConfig.from_json(cfg.to_json()) == cfg
    assert "sections_include=history_of_present_illness,lab_results" in cfg.label
    with pytest.raises(OptionError, match="plain text"):
        ChunkConfig(structure=False, sections_exclude=["plan"])
    with pytest.raises(OptionError):
        ChunkConfig(section_map={"plan": "not a list"})


def test_cli_sections_report_what_is_left_out_and_read_a_user_map(tmp_path):
    note = tmp_path / "note.md"
    note.write_text("【主訴】発熱\n\n【病状経過】3日前から発熱。\n\n【生活歴】喫煙なし。\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["chunk", str(note), "--sections", "include=history_of_present_illness", "-q"])
    assert r.exit_code == 0 and r.stdout == "" and "3 section(s)" in r.stderr  # 病状経過 is not in the table
    mapping = tmp_path / "map.json"
    mapping.write_text(json.dumps({"history_of_present_illness": ["病状経過"]}, ensure_ascii=False), encoding="utf-8")
    args = ["chunk", str(note), "--sections", "include=history_of_present_illness", "--section-map", str(mapping)]
    r = CliRunner().invoke(main, [*args, "-q"])
    rows = [json.loads(x) for x in r.stdout.splitlines()]
    assert r.exit_code == 0 and [x["section_canonical"] for x in rows] == ["history_of_present_illness"]
    assert "2 section(s)" in r.stderr and "主訴" in r.stderr and "生活歴" in r.stderr
    par = CliRunner().invoke(main, [*args, "-q", "--workers", "2"])
    assert par.stdout == r.stdout and "2 section(s)" in par.stderr
    bad = CliRunner().invoke(main, ["chunk", str(note), "--sections", "only=plan"])
    assert bad.exit_code == 2 and "include=NAMES or exclude=NAMES" in bad.output
    mapping.write_text("{not json", encoding="utf-8")
    bad = CliRunner().invoke(main, [*args])
    assert bad.exit_code == 2 and "--section-map" in bad.output
