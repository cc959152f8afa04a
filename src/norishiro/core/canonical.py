"""Canonical section names: 現病歴, 現病歴・経過, HPI and History of Present Illness are one
section, ``history_of_present_illness``.

Clinical pipelines route by section ("only 現病歴 and 検査所見"), but every hospital, form and
author writes its headers its own way. A heading is normalised (NFKC, case, brackets and
marks such as 【】■ and a trailing colon, list numbers such as ``1.`` dropped) and looked up
in a table of variants; a heading made of several names (``現病歴・経過``, ``Findings/
Impression``) takes the first one the table knows. The table is data, extendable with a
user's own variants. A chunk's canonical section is that of the innermost heading of its
path that the table knows.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from ..errors import OptionError

__all__ = ["CANONICAL_SECTIONS", "SectionNames", "read_section_map", "normalise_heading"]

# canonical name -> variants (Japanese and English: SOAP, discharge summaries, radiology,
# operative and nursing notes). Variants are compared after normalise_heading().
CANONICAL_SECTIONS: dict[str, tuple[str, ...]] = {
    "chief_complaint": ("主訴", "主な訴え", "CC", "Chief Complaint", "Presenting Complaint"),
    "history_of_present_illness": (
        "現病歴",
        "現病歴・経過",
        "病歴",
        "現症歴",
        "HPI",
        "History of Present Illness",
        "Present Illness",
        "History",
    ),
    "past_medical_history": ("既往歴", "既往", "既往症", "PMH", "Past Medical History", "Past History", "PMHx"),
    "family_history": ("家族歴", "FH", "Family History", "FHx"),
    "social_history": ("生活歴", "社会歴", "嗜好", "SH", "Social History", "SHx"),
    "allergies": ("アレルギー", "アレルギー歴", "薬剤アレルギー", "Allergies", "Allergy", "Drug Allergies"),
    "medications": (
        "内服薬",
        "服薬歴",
        "常用薬",
        "内服",
        "持参薬",
        "現在の処方",
        "Medications",
        "Current Medications",
        "Meds",
        "Home Medications",
    ),
    "physical_exam": (
        "現症",
        "身体所見",
        "理学所見",
        "入院時身体所見",
        "現症",
        "身体診察",
        "Physical Exam",
        "Physical Examination",
        "PE",
        "Examination",
    ),
    "vital_signs": ("バイタル", "バイタルサイン", "Vital Signs", "Vitals"),
    "lab_results": (
        "検査所見",
        "血液検査",
        "検査結果",
        "入院時検査所見",
        "血液検査所見",
        "検査",
        "Laboratory",
        "Laboratory Data",
        "Labs",
        "Lab Results",
        "Laboratory Results",
    ),
    "imaging": ("画像所見", "画像検査", "画像", "Imaging", "Radiology"),
    "indication": ("臨床情報", "検査目的", "依頼目的", "依頼内容", "Indication", "Clinical History", "Reason for Exam"),
    "technique": ("撮影方法", "検査方法", "Technique", "Protocol"),
    "comparison": ("比較", "前回比較", "Comparison"),
    "findings": ("所見", "Findings"),
    "impression": ("印象", "結論", "まとめ", "Impression", "Conclusion", "Conclusions", "Summary"),
    "diagnosis": (
        "診断",
        "診断名",
        "病名",
        "退院時診断",
        "入院時診断",
        "確定診断",
        "Diagnosis",
        "Diagnoses",
        "Discharge Diagnosis",
        "Admission Diagnosis",
    ),
    "subjective": ("S", "Subjective", "主観的情報"),
    "objective": ("O", "Objective", "客観的情報"),
    "assessment": ("A", "Assessment", "評価", "アセスメント", "考察", "Assessment and Plan", "A/P"),
    "plan": ("P", "Plan", "計画", "方針", "治療方針", "今後の方針", "予定", "Treatment Plan"),
    "hospital_course": ("入院経過", "経過", "治療経過", "臨床経過", "Hospital Course", "Clinical Course", "Course"),
    "flowsheet": ("経過表", "温度板", "Flowsheet", "Flow Sheet"),
    "discharge_medications": ("退院時処方", "退院処方", "Discharge Medications"),
    "discharge_instructions": (
        "退院時指導",
        "退院指導",
        "指導",
        "患者説明",
        "Discharge Instructions",
        "Instructions",
        "Patient Education",
    ),
    "medication_counseling": ("薬剤管理指導", "服薬指導", "Medication Counseling", "Pharmacy Notes"),
    "review_of_systems": ("陰性所見", "問診", "ROS", "Review of Systems", "Pertinent Negatives"),
    "immunizations": ("ワクチン歴", "予防接種歴", "予防接種", "Immunizations", "Vaccinations"),
    "rehabilitation": ("リハビリテーション", "リハビリ", "Rehabilitation", "Physical Therapy"),
    "nutrition": ("栄養", "栄養指導", "食事", "Nutrition", "Diet"),
    "nursing_summary": ("看護サマリ", "看護サマリー", "看護要約", "Nursing Summary"),
    "procedure": ("術式", "手術", "手術所見", "手術記録", "Procedure", "Operation", "Operative Findings", "Procedures"),
    "pathology": ("病理", "病理結果", "病理所見", "病理診断", "Pathology"),
    "nursing_problem": ("看護問題", "看護診断", "Nursing Problem", "Nursing Diagnosis"),
    "nursing_plan": ("看護計画", "Nursing Plan", "Care Plan"),
}

_MARKS = re.compile(r"^[\s#＃【\[［(（<〈■□◆◇●○◎▼▶・*\-]+|[\s】\]］)）>〉:：.。]+$")
_NUMBER = re.compile(r"^(?:\d{1,2}|[ivx]{1,4})[.)．）]\s*", re.I)
# when a heading says when (入院時の..., 退院時..., 術後...) or adds a note in brackets
# (退院時検査（2/16）, 看護サマリ（要約）), the table is asked for what remains too
_WHEN = re.compile(r"^(?:入院時|退院時|入院後|退院後|術前|術後|初診時|受診時|admission|discharge)\s*の?\s*(?:主な)?\s*")
_NOTE = re.compile(r"\s*[(（][^()（）]*[)）]?\s*$")  # its closing bracket may be gone already
_PARTS = re.compile(r"\s*(?:[・/／,、]|\band\b|&)\s*")


def normalise_heading(heading: str) -> str:
    """``【現病歴】`` -> ``現病歴``; ``1. History of Present Illness:`` -> ``history of present
    illness`` (NFKC, case folded, marks and list numbers dropped, spaces collapsed)."""
    t = unicodedata.normalize("NFKC", heading).strip()
    t = _MARKS.sub("", t)
    t = _NUMBER.sub("", t)
    t = _MARKS.sub("", t)
    return " ".join(t.split()).casefold()


_UNSEEN = object()


class SectionNames:
    """Looks up canonical names: the built-in table plus ``extra`` (variant -> canonical)."""

    def __init__(self, extra: Iterable[tuple[str, str]] = ()):
        table: dict[str, str] = {}
        for canonical, variants in CANONICAL_SECTIONS.items():
            table[normalise_heading(canonical.replace("_", " "))] = canonical
            table[normalise_heading(canonical)] = canonical
            for v in variants:
                table[normalise_heading(v)] = canonical
        for variant, canonical in extra:  # the user's variants win
            table[normalise_heading(variant)] = canonical
        self.table = table
        self.names = frozenset(table.values())
        self._memo: dict[str, str | None] = {}
        self._paths: dict[tuple[str, ...], str | None] = {}

    def of_heading(self, heading: str) -> str | None:
        """The canonical name of one heading, or None when the table knows none of it."""
        if heading in self._memo:
            return self._memo[heading]
        key = normalise_heading(heading)
        got = None
        for k in dict.fromkeys((key, _NOTE.sub("", key), _WHEN.sub("", _NOTE.sub("", key)))):
            got = self.table.get(k)
            if got is None:
                for part in _PARTS.split(k):  # 現病歴・経過, findings/impression: the first known part
                    got = self.table.get(part) or self.table.get(_WHEN.sub("", part))
                    if got is not None:
                        break
            if got is not None:
                break
        self._memo[heading] = got
        return got

    @property
    def memo(self) -> dict[tuple[str, ...], str | None]:
        """``of_path``'s answers by the path as a tuple (a chunk maker that names many
        sections reads it before it calls ``of_path``)."""
        return self._paths

    def of_path(self, headings: Sequence[str]) -> str | None:
        """The canonical name of the innermost heading of a section path the table knows
        (remembered per path: every chunk of a Markdown page asks for one)."""
        key = tuple(headings)
        got = self._paths.get(key, _UNSEEN)
        if got is _UNSEEN:
            got = None
            for h in reversed(key):
                got = self.of_heading(h)
                if got is not None:
                    break
            if len(self._paths) >= 65536:
                self._paths.clear()
            self._paths[key] = got
        return got

    def selects(self, headings: Sequence[str], include: Sequence[str], exclude: Sequence[str]) -> bool:
        """Whether a section with this path is kept: with ``include``, only sections whose
        canonical name (or a heading of their path, as written) is listed; never those
        ``exclude`` lists."""
        keys = {self.of_path(headings)} | {normalise_heading(h) for h in headings}
        wanted = {self._key(x) for x in include}
        unwanted = {self._key(x) for x in exclude}
        if include and not keys & wanted:
            return False
        return not keys & unwanted

    def _key(self, name: str) -> str:
        """A name given by the user: a canonical name stays, a variant becomes its canonical."""
        return name if name in self.names else self.table.get(normalise_heading(name), normalise_heading(name))


@lru_cache(maxsize=16)
def section_names(extra: tuple[tuple[str, str], ...] = ()) -> SectionNames:
    return SectionNames(extra)


def read_section_map(path: str | os.PathLike) -> tuple[tuple[str, str], ...]:
    """A user's variants from a JSON file ``{"canonical_name": ["variant", ...], ...}``."""
    from ..option_files import read_option_json

    data = read_option_json(path, "section_map", 'an object {"canonical": ["variant", ...]}')
    return section_map_pairs(data, os.fspath(path))


def section_map_pairs(data: object, where: str = "section_map") -> tuple[tuple[str, str], ...]:
    if not isinstance(data, Mapping) or not all(
        isinstance(k, str) and isinstance(v, list) and all(isinstance(x, str) for x in v) for k, v in data.items()
    ):
        raise OptionError("section_map", where, 'a JSON object {"canonical_name": ["variant", ...]}')
    return tuple((variant, canonical) for canonical, variants in data.items() for variant in variants)
