"""De-identification before embedding: identifiers in the text that is embedded become typed,
consistent surrogates (``[氏名1]``, ``[ID1]``, ``[電話1]``), the source text and every offset
stay as they are.

A vector is nearly as revealing as the text it came from, so what goes to the embedding
model (``embed_text``, the Ollama body, a store) is de-identified, while ``text``,
``start`` and ``end`` still point into the original document, and each chunk lists the spans
it replaced (offset, end, class). The same identifier is the same surrogate everywhere in a
document; with a secret (``NORISHIRO_DEID_SECRET``) it is the same across a corpus, keyed by
that secret. These are rules (``deid.rules``), not a guarantee: the README says what they
find and what they miss.
"""

from __future__ import annotations

import bisect
import hashlib
import hmac
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import regex

from .rules import ALLOW, LABELS, NOT_NAME_ENDINGS, RULES, Rule, read_rules

__all__ = [
    "Found",
    "Deidentified",
    "detect",
    "deidentify",
    "pseudonym",
    "read_rules",
    "secret_from_env",
    "SECRET_ENV",
    "RULES",
    "ALLOW",
    "Rule",
]

SECRET_ENV = "NORISHIRO_DEID_SECRET"
_CJK = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}]")


@dataclass(frozen=True)
class Found:
    """One identifier: ``text[start:end]``, of class ``cls``."""

    start: int
    end: int
    cls: str

    def to_dict(self) -> dict:
        return {"start": self.start, "end": self.end, "class": self.cls}


def detect(text: str, rules: Sequence[Rule] = RULES, allow: Iterable[str] = ALLOW) -> list[Found]:
    """The identifiers of ``text``, sorted and not overlapping (the longer wins)."""
    allowed = set(allow)
    raw: list[Found] = []
    for rule in rules:
        for m in rule.compiled().finditer(text):
            a, b = m.span("v")
            value = text[a:b]
            bare = value.replace(" ", "").replace("　", "")
            if a >= b or bare in allowed or value in allowed:
                continue
            if rule.cls == "name" and bare.endswith(NOT_NAME_ENDINGS):
                continue
            raw.append(Found(a, b, rule.cls))
    names = [f for f in raw if f.cls == "name"]
    # a facility counts when a person is named within 40 characters of it
    raw = [
        f
        for f in raw
        if f.cls != "facility" or any(abs(n.start - f.end) <= 40 or abs(f.start - n.end) <= 40 for n in names)
    ]
    # a name of two or more characters is replaced wherever else it appears in the document
    for value in {text[f.start : f.end] for f in names if len(text[f.start : f.end].strip()) >= 2}:
        for m in regex.finditer(regex.escape(value), text):
            raw.append(Found(m.start(), m.end(), "name"))
    raw.sort(key=lambda f: (f.start, -(f.end - f.start)))
    out: list[Found] = []
    for f in raw:
        if out and f.start < out[-1].end:
            continue
        out.append(f)
    return out


def pseudonym(value: str, cls: str, secret: str | bytes) -> str:
    """A short keyed hash of an identifier: the same value and secret give the same string."""
    key = secret.encode() if isinstance(secret, str) else secret
    return hmac.new(key, f"{cls}\x00{value}".encode(), hashlib.sha256).hexdigest()[:6]


@dataclass
class Deidentified:
    """A document's text with its identifiers replaced, and the way back to the original."""

    text: str
    found: list[Found]  # in the original text
    _starts: list[int]  # surrogate start in ``text`` for each found
    _ends: list[int]

    def original(self, p: int, end: bool = False) -> int:
        """The original offset of position ``p`` of the de-identified text (a position inside
        a surrogate maps to the end of the identifier for an ``end``, else its start)."""
        k = bisect.bisect_right(self._starts, p) - 1
        if k < 0:
            return p
        f, s, e = self.found[k], self._starts[k], self._ends[k]
        if p >= e:
            return f.end + (p - e)
        if p == s:
            return f.start
        return f.end if end else f.start

    def __post_init__(self) -> None:
        self._origin = [f.start for f in self.found]  # sorted: found spans do not overlap

    def to_deid(self, p: int) -> int:
        """The position in the de-identified text of original offset ``p``."""
        k = bisect.bisect_right(self._origin, p) - 1
        if k < 0:
            return p
        f = self.found[k]
        return self._ends[k] + (p - f.end) if p >= f.end else self._starts[k]

    def within(self, start: int, end: int) -> list[Found]:
        """The identifiers inside ``[start, end)`` of the original text."""
        k = bisect.bisect_left(self._origin, start)
        out = []
        while k < len(self.found) and self.found[k].start < end:
            if self.found[k].end <= end:
                out.append(self.found[k])
            k += 1
        return out


def deidentify(
    text: str,
    rules: Sequence[Rule] = RULES,
    allow: Iterable[str] = ALLOW,
    secret: str | bytes | None = None,
    dates: str = "keep",
    patient: str = "",
    year: int = 2001,
) -> Deidentified:
    """Replace the identifiers of ``text`` by surrogates: ``[氏名1]`` (numbered by first
    appearance in this text) or, with a ``secret``, ``[氏名-3fa2c1]`` (the same in every
    document); Japanese labels for a text with Japanese in it, English ones otherwise.
    ``dates``: other dates are kept, shifted by the days ``patient`` (with ``secret``) gives,
    or coarsened to the month (see :mod:`.dates`)."""
    found = detect(text, rules, allow)
    written: dict[int, str] = {}  # start of a found date -> its new form
    if dates != "keep":
        from .dates import DATE_PATTERN, offset_days, transform

        days = offset_days(patient, secret)
        taken = [(f.start, f.end) for f in found]
        for m in DATE_PATTERN.finditer(text):
            a, b = m.span("v")
            new = transform(m, dates, days, year)
            if new is not None and not any(x < b and a < y for x, y in taken):
                found.append(Found(a, b, "date"))
                written[a] = new
        found.sort(key=lambda f: f.start)
    japanese = len(_CJK.findall(text[:20000])) * 20 >= min(len(text), 20000)
    numbers: dict[tuple[str, str], str] = {}
    counts: dict[str, int] = {}
    parts: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    pos = at = 0
    for f in found:
        value = text[f.start : f.end]
        key = (f.cls, "".join(value.split()))
        if f.start in written:
            parts.append(text[pos : f.start])
            at += f.start - pos
            starts.append(at)
            parts.append(written[f.start])
            at += len(written[f.start])
            ends.append(at)
            pos = f.end
            continue
        if key not in numbers:
            if secret:
                numbers[key] = "-" + pseudonym(key[1], f.cls, secret)
            else:
                counts[f.cls] = counts.get(f.cls, 0) + 1
                numbers[key] = str(counts[f.cls])
        label = LABELS.get(f.cls, (f.cls, f.cls.upper()))[0 if japanese else 1]
        surrogate = f"[{label}{numbers[key]}]"
        parts.append(text[pos : f.start])
        at += f.start - pos
        starts.append(at)
        parts.append(surrogate)
        at += len(surrogate)
        ends.append(at)
        pos = f.end
    parts.append(text[pos:])
    return Deidentified("".join(parts), found, starts, ends)


def secret_from_env() -> str | None:
    """The corpus-wide secret, if the user set one (never printed or logged)."""
    return os.environ.get(SECRET_ENV) or None
