"""Dates under de-identification: kept, shifted by a per-patient number of days, or made
coarser (the day dropped), in the format they were written in.

Shifting keeps intervals (admission to discharge is still 9 days) while hiding the real
calendar; the offset comes from a keyed hash of the patient (``patient_id``, else the
document), so every document of one patient moves by the same days. Dates without a year
(1月14日) are shifted as dates of the document's year (its ``date`` metadata, else 2001).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac

import regex

__all__ = ["DATE_MODES", "DATE_PATTERN", "offset_days", "transform"]

DATE_MODES = ("keep", "shift", "coarsen")
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"]  # fmt: skip
_MONTH_RE = (
    r"(?P<mon>Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|Jun(?:e)?|Jul(?:y)?|Aug(?:ust)?"
    r"|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
)
DATE_PATTERN = regex.compile(
    r"(?P<v>(?P<y>(?:19|20)\d{2})年(?P<m>\d{1,2})月(?P<d>\d{1,2})日"
    r"|(?P<y2>(?:19|20)\d{2})(?P<sep>[/.-])(?P<m2>\d{1,2})(?P=sep)(?P<d2>\d{1,2})(?![\d/.-])"
    rf"|{_MONTH_RE} (?P<d3>\d{{1,2}}),? (?P<y3>(?:19|20)\d{{2}})"
    r"|(?<![\d年/])(?P<m4>\d{1,2})月(?P<d4>\d{1,2})日)"
)


def offset_days(patient: str, secret: str | bytes | None) -> int:
    """-180..180, never 0: the same for the same patient and secret."""
    key = (secret.encode() if isinstance(secret, str) else secret) or b"norishiro-date-shift"
    n = int(hmac.new(key, patient.encode(), hashlib.sha256).hexdigest()[:8], 16) % 360
    return n - 180 if n < 180 else n - 179


def transform(m: regex.Match, mode: str, days: int, year: int) -> str | None:
    """The surrogate of one matched date, or None for a date that does not exist."""
    g = m.groupdict()
    try:
        if g["y"]:
            d = dt.date(int(g["y"]), int(g["m"]), int(g["d"]))
            fmt = lambda x: f"{x.year}年{x.month}月{x.day}日"  # noqa: E731
            coarse = lambda x: f"{x.year}年{x.month}月"  # noqa: E731
        elif g["y2"]:
            sep, pad = g["sep"], len(g["m2"]) == 2
            d = dt.date(int(g["y2"]), int(g["m2"]), int(g["d2"]))
            fmt = lambda x: (
                f"{x.year}{sep}{x.month:02d}{sep}{x.day:02d}" if pad else f"{x.year}{sep}{x.month}{sep}{x.day}"
            )  # noqa: E731,E501
            coarse = lambda x: f"{x.year}{sep}{x.month:02d}" if pad else f"{x.year}{sep}{x.month}"  # noqa: E731
        elif g["y3"]:
            month = next(i for i, name in enumerate(_MONTHS, 1) if name.startswith(g["mon"][:3]))
            d = dt.date(int(g["y3"]), month, int(g["d3"]))
            fmt = lambda x: f"{_MONTHS[x.month - 1]} {x.day}, {x.year}"  # noqa: E731
            coarse = lambda x: f"{_MONTHS[x.month - 1]} {x.year}"  # noqa: E731
        else:
            d = dt.date(year, int(g["m4"]), int(g["d4"]))
            fmt = lambda x: f"{x.month}月{x.day}日"  # noqa: E731
            coarse = lambda x: f"{x.month}月"  # noqa: E731
    except ValueError:
        return None
    return coarse(d) if mode == "coarsen" else fmt(d + dt.timedelta(days=days))
