"""The identifier rules, as data: one pattern per kind of identifier, Japanese and English.

Each rule has a class (what the surrogate says: ``name``, ``id``, ``phone`` ...) and a regular
expression whose group ``v`` is the identifier (the rest is context: a field label, an
honorific). ``ALLOW`` lists words that look like names to these rules and are not (患者様,
ご家族様, eponymous diseases). A user's rules file adds to both.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import regex

from ..errors import OptionError

__all__ = ["Rule", "RULES", "ALLOW", "NOT_NAME_ENDINGS", "LABELS", "read_rules"]

# a Japanese name: one or two runs of kanji/katakana (姓 名), at most four characters each
_JA_NAME = (
    r"[\p{Han}々\p{Katakana}ー]{1,4}(?:[ 　][\p{Han}々\p{Katakana}ー]{1,4}(?![\p{Han}々\p{Katakana}ー]|[ 　]?[：:]))?"
)
_EN_NAME = r"[A-Z][a-z]+(?:[ '-][A-Z][a-z]+){0,2}"
_ROLES_JA = (
    "主治医|担当医|担当医師|担当|記載者|記録者|作成者|院長|副院長|確認医|読影医|報告医|依頼医|紹介医|"
    "執刀医|術者|助手|麻酔科医|麻酔担当|看護師|担当看護師|薬剤師|管理栄養士|理学療法士|ソーシャルワーカー"
)
_ROLES_EN = (
    "Attending|Physician|Doctor|Author|Signed by|Dictated by|Reported by|Read by|Surgeon|Assistant|"
    "Anesthesiologist|Nurse|Referring physician|Patient name|Patient|Name"
)
_DATE = (
    r"(?:(?:明治|大正|昭和|平成|令和)\d{1,2}年(?:[（(]\d{4}年[）)])?\d{1,2}月\d{1,2}日"
    r"|\d{4}年\d{1,2}月\d{1,2}日|\d{4}[/.-]\d{1,2}[/.-]\d{1,2}|\d{1,2}/\d{1,2}/\d{4}"
    r"|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.? \d{1,2},? \d{4}"
    r"|\d{1,2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* \d{4})"
)


@dataclass(frozen=True)
class Rule:
    cls: str
    pattern: str
    flags: int = 0

    def compiled(self) -> regex.Pattern:
        return _compile(self.pattern, self.flags)


_CACHE: dict[tuple[str, int], regex.Pattern] = {}


def _compile(pattern: str, flags: int) -> regex.Pattern:
    key = (pattern, flags)
    if key not in _CACHE:
        _CACHE[key] = regex.compile(pattern, flags)
    return _CACHE[key]


RULES: tuple[Rule, ...] = (
    # names: a title or honorific next to them, or a field that holds a person
    Rule("name", rf"(?:Dr|Mr|Mrs|Ms|Miss|Prof)\.?[ 　]*(?P<v>{_JA_NAME}|{_EN_NAME})"),
    Rule("name", rf"(?:{_ROLES_JA})[ 　]*[：:][ 　]*(?:(?:{_ROLES_JA}|Dr\.?)[ 　]*)?(?P<v>{_JA_NAME})"),
    Rule(
        "name",
        rf"(?<![\p{{Han}}\p{{Katakana}}])(?:{_ROLES_JA})[ 　]+(?P<v>{_JA_NAME})(?=[\s　（(\p{{Hiragana}}、。]|$)",
        regex.M,
    ),
    Rule(
        "name",
        rf"(?<![\p{{Han}}々\p{{Katakana}}ー])(?P<v>{_JA_NAME})[ 　]?"
        r"(?:様|さん|先生|医師|殿|氏|くん|ちゃん)(?![\p{Han}])",
    ),
    Rule("name", rf"(?:{_ROLES_EN})[ \t]*:[ \t]*(?:Dr\.?[ \t]*)?(?P<v>{_EN_NAME})"),
    # identifiers of patients and records
    Rule(
        "id",
        r"(?:患者ID|当院ID|ID|カルテ番号|カルテNo\.?|診察券番号|患者番号|MRN|Patient ID|Medical Record(?: Number)?|"
        r"Record No\.?)[ \t　]*[：:#]?[ \t　]*(?P<v>[A-Za-z0-9][A-Za-z0-9-]{2,})",
    ),
    Rule("id", r"(?<![A-Za-z0-9-])(?P<v>[A-Z]{2,6}-\d{3,10})(?![A-Za-z0-9])"),
    # contact
    Rule("email", r"(?P<v>[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)"),
    Rule(
        "phone",
        r"(?:TEL|Tel|tel|FAX|Fax|fax|電話|携帯|Phone|PHONE|Fax No\.?)[\s.:：]*(?P<v>\+?\d[\d()\- ]{6,}\d)",
    ),
    Rule(
        "phone",
        r"(?<![\d-])(?P<v>0\d{1,4}-\d{1,4}-\d{3,4}|\(\d{3}\) ?\d{3}-\d{4}|\+\d{1,3}[ -]\d[\d -]{7,}\d)(?![\d-])",
    ),
    Rule("postal", r"〒[ 　]?(?P<v>\d{3}-?\d{4})"),
    Rule(
        "address",
        r"(?P<v>(?:東京都|北海道|(?:京都|大阪)府|\p{Han}{2,3}県)[\p{Han}\p{Katakana}ー]{1,10}[市区町村郡]"
        r"[\p{Han}\p{Katakana}ー\p{Hiragana}]{0,12}\d+(?:[-－‐]\d+){0,3}(?:丁目\d+番\d+号?)?)",
    ),
    Rule(
        "address",
        r"(?P<v>\d{1,5} [A-Z][a-z]+(?: [A-Z][a-z]+)? (?:Street|St\.|Avenue|Ave\.|Road|Rd\.|Lane|Ln\.|Drive|"
        r"Boulevard|Blvd\.)(?:,? (?:Apt|Suite) \d+)?)",
    ),
    Rule("birth_date", rf"(?:生年月日|DOB|D\.O\.B\.|Date of Birth|Born)[ \t　]*[：:]?[ \t　]*(?P<v>{_DATE})"),
    Rule("age", r"(?P<v>(?:9\d|1[01]\d)歳)"),
    Rule("age", r"(?P<v>(?:9\d|1[01]\d))[- ]year[- ]old"),
    Rule("age", r"(?:aged?|Age:?) (?P<v>(?:9\d|1[01]\d))\b"),
    # a facility named next to a person (the pair identifies someone); see detect()
    Rule(
        "facility",
        r"(?P<v>(?<![当貴同本自他\p{Hiragana}])[\p{Han}\p{Katakana}\p{Hiragana}ー]{2,16}(?:病院|クリニック|医院|診療所|医療センター)"
        r"|(?:[A-Z][a-z]+ ){1,4}(?:Hospital|Clinic|Medical Center))",
    ),
)

# looks like a name to the rules above, is not one
ALLOW: frozenset[str] = frozenset(
    """患者 患者さん 皆 各位 家族 ご家族 御家族 本人 ご本人 奥 お母 お父 お子 同 上記 担当 主治 研修 専門 指導
    当直 紹介元 紹介先 貴院 当院 院 医 看護 薬剤 各 先 私 皆様 みな 利用者 相手 お客 同席 長女 長男 次女 次男
    妻 夫 息子 娘 母 父 兄 姉 弟 妹 祖母 祖父 橋本 パーキンソン Parkinson Hashimoto Crohn Alzheimer Down Graves
    Basedow Cushing Addison Hodgkin Bell Wilson Dr Mr Mrs Ms Prof 架空""".split()
)

# a "name" that ends so is a role or a person's relation to the patient, not a name
NOT_NAME_ENDINGS = ("患者", "家族", "本人", "担当", "主治医", "医師", "先生", "看護師", "各位", "上記", "同")

# what the surrogate says, by class, for Japanese and for other text
LABELS: dict[str, tuple[str, str]] = {
    "name": ("氏名", "NAME"),
    "id": ("ID", "ID"),
    "email": ("メール", "EMAIL"),
    "phone": ("電話", "PHONE"),
    "postal": ("郵便番号", "POSTAL"),
    "address": ("住所", "ADDRESS"),
    "birth_date": ("生年月日", "BIRTH_DATE"),
    "age": ("年齢", "AGE"),
    "facility": ("施設", "FACILITY"),
    "date": ("日付", "DATE"),
}


def read_rules(path: str | os.PathLike) -> tuple[tuple[Rule, ...], frozenset[str]]:
    """A user's rules file: ``{"rules": [{"class": "id", "pattern": "Case No\\\\. (?P<v>\\\\d+)"}],
    "allow": ["Basedow"]}``; every pattern needs a group ``v``."""
    from ..option_files import read_option_json

    where = os.fspath(path)
    data = read_option_json(path, "deid_rules", 'an object {"rules": [...], "allow": [...]}')
    rules = []
    for k, item in enumerate(data.get("rules", []) if isinstance(data, dict) else [None]):
        if not isinstance(item, dict) or not isinstance(item.get("pattern"), str) or not item.get("class"):
            raise OptionError("deid_rules", where, 'rules as {"class": ..., "pattern": ...}', f"rule {k} is not")
        try:
            compiled = regex.compile(item["pattern"])
        except regex.error as e:
            raise OptionError("deid_rules", where, "valid regular expressions", f"rule {k}: {e}") from None
        if "v" not in compiled.groupindex:
            raise OptionError("deid_rules", where, "patterns with a group (?P<v>...)", f"rule {k} has none")
        rules.append(Rule(str(item["class"]), item["pattern"]))
    allow = data.get("allow", []) if isinstance(data, dict) else []
    if not isinstance(allow, list) or not all(isinstance(x, str) for x in allow):
        raise OptionError("deid_rules", where, '"allow" as a list of words')
    return tuple(rules), frozenset(allow)
