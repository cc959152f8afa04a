"""Documents written by the tests themselves: PDF (reportlab, with its built-in Japanese
CID fonts), Word (python-docx) and HTML, so that no binary fixture is kept in the repo.

Each generator returns the body text it put in, for checking that nothing was lost.
"""

from __future__ import annotations

from pathlib import Path

A4_HEIGHT = 842

# (kind, text): kind is "h1", "h2", "p" or "row" (table cells separated by "|"); one list per page
ClinicalPages = list[list[tuple[str, str]]]

CLINICAL: ClinicalPages = [
    [
        ("h1", "退院サマリ"),
        ("h2", "現病歴"),
        ("p", "2026年1月10日より38度台の発熱と咳嗽が出現した。"),
        ("p", "近医で抗菌薬を処方されたが改善せず、1月14日に当院を受診した。"),
        ("h2", "検査所見"),
        ("row", "項目|結果|基準値"),
        ("row", "CRP|12.3 mg/dL|<0.3"),
        ("row", "WBC|15,200/μL|3,300-8,600"),
        ("p", "CRP 12.3 mg/dL、白血球 15,200/μL と上昇していた。"),
        ("p", "胸部CTで右下葉に浸潤影を認めたが、胸水は認めなかった。"),
    ],
    [
        ("h2", "入院経過"),
        ("p", "セフトリアキソン投与により第3病日に解熱した。"),
        ("p", "Blood cultures were negative. No adverse drug reaction was observed."),
        ("h2", "退院時処方"),
        ("p", "アモキシシリン 250 mg 1日3回 5日分。"),
    ],
    [
        ("h2", "Plan"),
        ("p", "Follow-up chest X-ray in four weeks at the outpatient clinic."),
        ("p", "外来で4週間後に胸部X線を再検する予定である。"),
    ],
]


def make_pdf(
    path: Path,
    pages: ClinicalPages = CLINICAL,
    header: str | None = "〇〇総合病院　退院サマリ",
    footer: bool = True,
    password: str | None = None,
    blank_image_pages: tuple[int, ...] = (),
) -> list[str]:
    """A PDF with one page per item of ``pages`` (plus an image-only page, a "scan", at
    each 1-based position in ``blank_image_pages``), a running header and a page-number
    footer. Returns the headings and paragraphs as put in."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("HeiseiKakuGo-W5"))
    pdfmetrics.registerFont(UnicodeCIDFont("HeiseiMin-W3"))
    enc = None
    if password:
        from reportlab.lib import pdfencrypt

        enc = pdfencrypt.StandardEncryption(password, ownerPassword=password + "-owner")
    c = canvas.Canvas(str(path), pagesize=A4, encrypt=enc)
    c.setTitle("Discharge summary")
    put: list[str] = []
    number = 0
    plan = list(pages)
    for pos in sorted(blank_image_pages):
        plan.insert(pos - 1, None)
    for page in plan:
        number += 1
        if page is None:
            c.drawImage(ImageReader(_tiny_png()), 50, 400, 200, 200)
            c.showPage()
            continue
        if header:
            c.setFont("HeiseiMin-W3", 9)
            c.drawString(50, A4_HEIGHT - 30, header)
        y = A4_HEIGHT - 70
        for kind, text in page:
            if kind == "row":
                c.setFont("HeiseiMin-W3", 10.5)
                for col, cell in enumerate(text.split("|")):
                    c.drawString(50 + 120 * col, y, cell)
                    put.append(cell)
                y -= 15.75
                continue
            size = {"h1": 18, "h2": 14}.get(kind, 10.5)
            font = "HeiseiKakuGo-W5" if kind != "p" else "HeiseiMin-W3"
            if kind != "p":
                y -= 10
            c.setFont(font, size)
            for line in _wrap(text, 40 if _cjk(text) else 80):
                c.drawString(50, y, line)
                y -= size * 1.5
            y -= 8 if kind == "p" else 0  # paragraph gap
            put.append(text)
        if footer:
            c.setFont("Helvetica", 9)
            c.drawString(290, 30, f"- {number} -")
        c.showPage()
    c.save()
    return put


def _cjk(text: str) -> bool:
    return any("\u3040" <= ch <= "\u9fff" for ch in text)


def _wrap(text: str, width: int) -> list[str]:
    if _cjk(text):
        return [text[i : i + width] for i in range(0, len(text), width)]
    lines, cur = [], ""
    for word in text.split():
        if cur and len(cur) + 1 + len(word) > width:
            lines.append(cur)
            cur = word
        else:
            cur = f"{cur} {word}".strip()
    return lines + ([cur] if cur else [])


def _tiny_png():
    import io
    import struct
    import zlib

    raw = b"".join(b"\x00" + b"\x80\x80\x80" * 4 for _ in range(4))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 4, 4, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
    return io.BytesIO(png)


def make_docx(path: Path) -> list[str]:
    """A Word file with a title, headings, paragraphs, a bulleted and a numbered list and a
    table; returns the texts put in."""
    import docx

    d = docx.Document()
    d.core_properties.title = "Discharge summary"
    put = []

    def add(kind: str, text: str, style: str | None = None) -> None:
        if kind == "title":
            d.add_heading(text, level=0)
        elif kind.startswith("h"):
            d.add_heading(text, level=int(kind[1]))
        else:
            d.add_paragraph(text, style=style)
        put.append(text)

    add("title", "退院サマリ")
    add("h1", "現病歴")
    add("p", "2026年1月10日より38度台の発熱と咳嗽が出現した。")
    add("p", "Blood cultures were negative.")
    add("h1", "退院時処方")
    add("p", "アモキシシリン 250 mg", style="List Bullet")
    add("p", "整腸剤", style="List Bullet")
    add("p", "外来受診", style="List Number")
    add("p", "胸部X線再検", style="List Number")
    add("h2", "血液検査")
    table = d.add_table(rows=3, cols=3)
    cells = [["項目", "値", "基準値"], ["CRP", "12.3 mg/dL", "<0.3"], ["WBC", "15,200/μL", "3,300-8,600"]]
    for r, row in enumerate(cells):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
            put.append(value)
    add("p", "以上。")
    d.save(str(path))
    return put


HTML_PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>退院サマリ</title>
<style>p {color: red}</style><script>var secret = "script text";</script></head>
<body><nav><a href="/">Home</a> <a href="/menu">Menu</a></nav>
<article><h1>退院サマリ</h1>
<h2>現病歴</h2><p>2026年1月10日より<b>38度台</b>の発熱と
咳嗽が出現した。<br>近医で抗菌薬を処方された。</p>
<h2>検査所見</h2>
<table><caption>血液検査</caption><thead><tr><th>項目</th><th>値</th></tr></thead>
<tbody><tr><td>CRP</td><td>12.3 mg/dL</td></tr><tr><td>WBC</td><td>15,200/μL</td></tr></tbody></table>
<h2>Plan</h2><ul><li>Amoxicillin 250 mg<ul><li>three times a day</li></ul></li><li>Probiotic</li></ul>
<ol><li>Chest X-ray in four weeks</li><li>Outpatient visit</li></ol>
</article><footer>Copyright 2026 Example Hospital</footer></body></html>
"""


if __name__ == "__main__":  # the bundled example: python tests/docgen.py examples/discharge_summary_ja.pdf
    import sys

    make_pdf(Path(sys.argv[1]))
