"""PDF, HTML and Word files: text kept, pages and sections right, bad files reported.

Every input is written by the test (tests/docgen.py), so the text put in is known.
"""

from __future__ import annotations

import json
import re
import sys

import pytest
from click.testing import CliRunner

import norishiro
from docgen import HTML_PAGE, make_docx, make_pdf
from norishiro.cli import main
from norishiro.document import DocumentError
from norishiro.loaders import LoadOptions, load_document, sniff_format
from norishiro.loaders.pagetext import Line, assemble, remove_cjk_spaces

pytest.importorskip("pypdf")
pytest.importorskip("reportlab")

ENGINES = ["pypdf"] + (["pdfium"] if pytest.importorskip("importlib").util.find_spec("pypdfium2") else [])


def _bare(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _check_offsets(doc, chunks):
    for c in chunks:
        assert doc.text[c.start : c.end] == c.text


@pytest.fixture(scope="module")
def clinical_pdf(tmp_path_factory):
    path = tmp_path_factory.mktemp("pdf") / "summary.pdf"
    put = make_pdf(path)
    return path, put


@pytest.mark.parametrize("engine", ENGINES)
def test_pdf_keeps_every_body_text_and_drops_running_header_and_page_numbers(clinical_pdf, engine):
    path, put = clinical_pdf
    doc = load_document(path, options=LoadOptions(pdf_engine=engine))
    bare = _bare(doc.text)
    for text in put:
        assert _bare(text) in bare, text
    assert "〇〇総合病院" not in doc.text
    assert not re.search(r"^- \d -$", doc.text, re.M)
    assert doc.metadata["title"] == "Discharge summary"
    assert len(doc.pages) == 3 and doc.warnings == []
    kept = load_document(path, options=LoadOptions(pdf_engine=engine, page_furniture="keep"))
    assert kept.text.count("〇〇総合病院") == 3 and "- 2 -" in kept.text


@pytest.mark.parametrize("engine", ENGINES)
def test_pdf_chunks_carry_their_pages_and_sections(clinical_pdf, engine):
    path, _ = clinical_pdf
    doc = load_document(path, options=LoadOptions(pdf_engine=engine))
    chunks = norishiro.chunk(doc, size=120)
    _check_offsets(doc, chunks)

    def page_of(needle):
        (c,) = [c for c in chunks if needle in c.text]
        return c.page_start, c.page_end, c.headings

    assert page_of("38度台") == (1, 1, ["退院サマリ", "現病歴"])
    assert page_of("セフトリアキソン") == (2, 2, ["退院サマリ", "入院経過"])
    assert page_of("Follow-up chest") == (3, 3, ["退院サマリ", "Plan"])
    whole = norishiro.chunk(doc, size=5000, cross_sections=True)
    assert len(whole) == 1 and (whole[0].page_start, whole[0].page_end) == (1, 3)
    assert whole[0].to_dict()["page_end"] == 3


def test_page_span_edges():
    doc = norishiro.Document("aaaa\nbbbb\n", pages=[0, 5])
    assert doc.page_span(0, 5) == (1, 1)  # ends where page 2 begins: page 1 only
    assert doc.page_span(4, 6) == (1, 2)
    assert doc.page_span(5, 10) == (2, 2)
    assert norishiro.Document("x").page_span(0, 1) is None
    with pytest.raises(ValueError):
        norishiro.Document("abc", pages=[0, 9])
    empty_page = norishiro.Document("aaaa\nbbbb\n", pages=[0, 5, 5])
    assert empty_page.page_span(5, 10) == (3, 3)


def test_scanned_page_is_a_warning_and_a_scan_only_file_an_error(tmp_path):
    path = tmp_path / "scan.pdf"
    make_pdf(path, blank_image_pages=(2,))
    doc = load_document(path)
    assert len(doc.pages) == 4
    assert doc.warnings == [f"{path}: page 2 has no text layer (a scanned image?); run OCR first "
                            "(for example ocrmypdf); the other pages were chunked"]  # fmt: skip
    chunks = norishiro.chunk(doc, size=120)
    assert 2 not in {p for c in chunks for p in range(c.page_start, c.page_end + 1)}
    assert {c.page_start for c in chunks if "セフトリアキソン" in c.text} == {3}
    out = tmp_path / "chunks.jsonl"
    r = CliRunner().invoke(main, ["chunk", str(path), "--size", "120", "-o", str(out), "-q"])
    assert r.exit_code == 1 and "page 2 has no text layer" in r.stderr and "run OCR first" in r.stderr
    assert len(out.read_text(encoding="utf-8").splitlines()) == len(chunks)  # the rest was written
    only = tmp_path / "only-scan.pdf"
    make_pdf(only, pages=[], blank_image_pages=(1, 2))
    with pytest.raises(DocumentError, match="no text layer on any of its 2 page"):
        load_document(only)


@pytest.mark.parametrize("engine", ENGINES)
def test_encrypted_pdf_needs_its_password(tmp_path, engine):
    path = tmp_path / "locked.pdf"
    put = make_pdf(path, password="s3cret")
    with pytest.raises(DocumentError, match=r"encrypted; pass its password \(--password\)"):
        load_document(path, options=LoadOptions(pdf_engine=engine))
    with pytest.raises(DocumentError, match="password given is wrong"):
        load_document(path, options=LoadOptions(pdf_engine=engine, password="nope"))
    doc = load_document(path, options=LoadOptions(pdf_engine=engine, password="s3cret"))
    assert _bare(put[2]) in _bare(doc.text)
    r = CliRunner().invoke(main, ["chunk", str(path), "--password", "s3cret", "-q"])
    assert r.exit_code == 0 and "38度台" in r.stdout
    r = CliRunner().invoke(main, ["chunk", str(path), "-q"])
    assert r.exit_code == 1 and "--password" in r.stderr


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("keep", [0.3, 0.9])
def test_truncated_pdf_is_an_error_naming_the_file(clinical_pdf, tmp_path, engine, keep):
    data = clinical_pdf[0].read_bytes()
    bad = tmp_path / "cut.pdf"
    bad.write_bytes(data[: int(len(data) * keep)])
    with pytest.raises(DocumentError, match=re.escape(str(bad)) + ": not a readable PDF"):
        load_document(bad, options=LoadOptions(pdf_engine=engine))
    good = tmp_path / "good.txt"
    good.write_text("本文です。", encoding="utf-8")
    r = CliRunner().invoke(main, ["chunk", str(bad), str(good), "-q"])
    assert r.exit_code == 1 and "cut.pdf: not a readable PDF" in r.stderr
    assert [json.loads(x)["text"] for x in r.stdout.splitlines()] == ["本文です。"]


def test_format_is_sniffed_from_content_and_can_be_forced(clinical_pdf, tmp_path):
    src = clinical_pdf[0]
    renamed = tmp_path / "summary.bin"
    renamed.write_bytes(src.read_bytes())
    assert sniff_format(renamed) == "pdf"
    page = tmp_path / "page"
    page.write_text(HTML_PAGE, encoding="utf-8")
    assert sniff_format(page) == "html"
    word = tmp_path / "letter"
    make_docx(word.with_suffix(".docx"))
    word.write_bytes(word.with_suffix(".docx").read_bytes())
    assert sniff_format(word) == "docx"
    assert sniff_format(tmp_path / "missing.md") == "text"
    r = CliRunner().invoke(main, ["chunk", str(page), "--format-in", "text", "-q"])
    assert r.exit_code == 0 and "<table>" in r.stdout  # read as text: the markup stays
    r = CliRunner().invoke(main, ["chunk", str(page), "-q"])
    assert r.exit_code == 0 and "<table>" not in r.stdout and "| CRP | 12.3 mg/dL |" in r.stdout


def test_a_missing_extra_is_one_line_naming_it(clinical_pdf, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "pypdf", None)
    with pytest.raises(DocumentError, match=r"pip install 'norishiro\[pdf\]'"):
        load_document(clinical_pdf[0], options=LoadOptions(pdf_engine="pypdf"))
    monkeypatch.setitem(sys.modules, "docx", None)
    word = tmp_path / "a.docx"
    word.write_bytes(b"PK\x03\x04 not really")
    with pytest.raises(DocumentError, match=r"norishiro\[docx\]"):
        load_document(word)


def test_html_headings_tables_lists_and_no_scripts_or_navigation(tmp_path):
    pytest.importorskip("lxml")
    path = tmp_path / "summary.html"
    path.write_text(HTML_PAGE, encoding="utf-8")
    doc = load_document(path)
    assert doc.metadata["title"] == "退院サマリ"
    for gone in ("secret", "color", "Home", "Menu", "Copyright"):
        assert gone not in doc.text
    assert "発熱と咳嗽が出現した。\n近医で" in doc.text  # a source line break between CJK is no space; <br> a line
    assert "| 項目 | 値 |\n|---|---|\n| CRP | 12.3 mg/dL |\n| WBC | 15,200/μL |" in doc.text
    assert "- Amoxicillin 250 mg\n  - three times a day\n- Probiotic" in doc.text
    assert "1. Chest X-ray in four weeks\n2. Outpatient visit" in doc.text
    chunks = norishiro.chunk(doc, size=90)
    _check_offsets(doc, chunks)
    (table,) = [c for c in chunks if "| CRP" in c.text]
    assert "| WBC" in table.text and table.headings == ["退院サマリ", "検査所見"]
    assert [c.headings for c in chunks if "Probiotic" in c.text] == [["退院サマリ", "Plan"]]
    small = norishiro.chunk(doc, size=60)  # the table split: its header row goes with the body rows
    rows = [c for c in small if "| WBC" in c.text and "| CRP" not in c.text]
    assert rows and rows[0].embed_text.startswith("| 項目 | 値 |")


def test_html_in_a_declared_legacy_charset(tmp_path):
    pytest.importorskip("lxml")
    page = HTML_PAGE.replace('charset="utf-8"', 'charset="shift_jis"').replace("μ", "u")
    path = tmp_path / "sjis.htm"
    path.write_bytes(page.encode("shift_jis"))
    assert "咳嗽が出現した" in load_document(path).text


def test_docx_headings_become_sections_tables_and_lists_kept(tmp_path):
    pytest.importorskip("docx")
    path = tmp_path / "letter.docx"
    put = make_docx(path)
    doc = load_document(path)
    bare = _bare(doc.text)
    for text in put:
        assert _bare(text) in bare, text
    assert doc.metadata["title"] == "Discharge summary"
    assert doc.text.startswith("# 退院サマリ\n\n## 現病歴\n")
    assert "- アモキシシリン 250 mg\n- 整腸剤\n\n1. 外来受診\n2. 胸部X線再検" in doc.text
    assert "| 項目 | 値 | 基準値 |\n|---|---|---|\n| CRP | 12.3 mg/dL | <0.3 |" in doc.text
    chunks = norishiro.chunk(doc, size=200)
    _check_offsets(doc, chunks)
    (table,) = [c for c in chunks if "| CRP" in c.text]
    assert table.headings == ["退院サマリ", "退院時処方", "血液検査"]


def test_damaged_docx_is_an_error_naming_the_file(tmp_path):
    pytest.importorskip("docx")
    path = tmp_path / "broken.docx"
    make_docx(path)
    path.write_bytes(path.read_bytes()[:500])
    with pytest.raises(DocumentError, match=re.escape(str(path)) + ": not a readable Word"):
        load_document(path)


def test_one_command_reads_pdf_html_and_word_with_pages_in_every_output(clinical_pdf, tmp_path):
    pytest.importorskip("lxml")
    pytest.importorskip("docx")
    html, word = tmp_path / "page.html", tmp_path / "letter.docx"
    html.write_text(HTML_PAGE, encoding="utf-8")
    make_docx(word)
    out = tmp_path / "chunks.jsonl"
    r = CliRunner().invoke(main, ["chunk", str(clinical_pdf[0]), str(html), str(word), "--size", "150", "-o", str(out)])
    assert r.exit_code == 0, r.output
    rows = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    pdf_rows = [x for x in rows if x["doc_id"].endswith(".pdf")]
    assert pdf_rows and all(1 <= x["page_start"] <= x["page_end"] <= 3 for x in pdf_rows)
    assert all("page_start" not in x for x in rows if not x["doc_id"].endswith(".pdf"))
    assert {x["section"] for x in rows if x["doc_id"].endswith(".docx")} >= {"現病歴", "血液検査"}
    text = CliRunner().invoke(main, ["chunk", str(clinical_pdf[0]), "--size", "150", "--format", "text", "-q"])
    assert " p.2 " in text.stdout
    pa = pytest.importorskip("pyarrow.parquet")
    folder = tmp_path / "pq"
    r = CliRunner().invoke(main, ["chunk", str(clinical_pdf[0]), str(html), "--size", "150", "--format", "parquet",
                                  "-o", str(folder), "-q"])  # fmt: skip
    assert r.exit_code == 0, r.output
    table = pa.read_table(str(folder)).to_pylist()
    assert [x.get("page_start") for x in rows if x["doc_id"].endswith((".pdf", ".html"))] == [
        x["page_start"] for x in table
    ]
    par = CliRunner().invoke(main, ["chunk", str(clinical_pdf[0]), str(word), "--workers", "2", "-q"])
    ser = CliRunner().invoke(main, ["chunk", str(clinical_pdf[0]), str(word), "-q"])
    assert par.exit_code == 0 and par.stdout == ser.stdout


def test_folder_walk_picks_up_the_new_formats(clinical_pdf, tmp_path):
    pytest.importorskip("lxml")
    (tmp_path / "a.pdf").write_bytes(clinical_pdf[0].read_bytes())
    (tmp_path / "b.html").write_text(HTML_PAGE, encoding="utf-8")
    (tmp_path / "c.png").write_bytes(b"\x89PNG\r\n")
    r = CliRunner().invoke(main, ["chunk", str(tmp_path), "-q"])
    assert r.exit_code == 0, r.output
    assert {json.loads(x)["doc_id"].rsplit("/", 1)[-1] for x in r.stdout.splitlines()} == {"a.pdf", "b.html"}


def test_spurious_cjk_spaces_are_removed_only_where_they_are_an_artefact():
    spaced = ["本 日 の 議 事 録 を 確 認 し た 。 患 者 は 発 熱 な し 。 BP 130/80"]
    assert remove_cjk_spaces(spaced) == ["本日の議事録を確認した。患者は発熱なし。 BP 130/80"]
    words = ["本日 の 議事録 を 確認 した 。 患者 は 発熱 なし 。"]
    assert remove_cjk_spaces(words) == ["本日の議事録を確認した。患者は発熱なし。"]
    authored = ["氏名 山田太郎", "項目 結果 基準値", "これは普通に書かれた日本語の文章であり、スペースはほとんどない。"]
    assert remove_cjk_spaces(authored) == authored
    assert remove_cjk_spaces(authored, "on")[0] == "氏名山田太郎"
    assert remove_cjk_spaces(spaced, "off") == spaced


def test_assemble_marks_headings_by_size_and_paragraphs_by_gaps():
    body = 10.0
    page = [
        Line("Report title", 800, 20),
        Line("First paragraph line one", 760, body),
        Line("line two of it.", 748, body),
        Line("Second paragraph.", 724, body),
        Line("Findings", 700, 14),
        Line("No fever.", 680, body),
    ]
    got = assemble([page, [Line("Next page text.", 800, body)]])
    assert got.text == (
        "# Report title\n\nFirst paragraph line one\nline two of it.\n\nSecond paragraph.\n\n"
        "## Findings\n\nNo fever.\nNext page text.\n"
    )
    assert got.pages == [0, got.text.index("Next page")]


def test_nfkc_option_folds_width_variants():
    got = assemble([[Line("ＣＲＰ　１２．３ｍｇ／ｄＬ ｶﾀｶﾅ", 700, 10)]], nfkc=True)
    assert got.text == "CRP 12.3mg/dL カタカナ\n"


def test_html_main_keeps_the_article_and_drops_the_page_around_it(tmp_path):
    pytest.importorskip("trafilatura")
    page = HTML_PAGE.replace(
        "<footer>", "<div class='related'><p>Related: <a href='/a'>Ten tips for summer</a></p></div><footer>"
    )
    path = tmp_path / "page.html"
    path.write_text(page, encoding="utf-8")
    full = load_document(path)
    main_only = load_document(path, options=LoadOptions(html_main=True))
    assert "Ten tips" in full.text and "Ten tips" not in main_only.text
    for kept in ("## 現病歴", "咳嗽が出現した", "| CRP | 12.3 mg/dL |", "Amoxicillin 250 mg"):
        assert kept in main_only.text


def test_words_run_together_are_detected():
    from norishiro.loaders.pagetext import run_together

    glued = "Therearetwomethodsofassociatingafilewithadifferentfilename. " * 20
    assert run_together(glued)
    prose = "There are two methods of associating a file with a different filename. " * 20
    assert not run_together(prose)
    assert not run_together("Pneumonoultramicroscopicsilicovolcanoconiosis is long. " + prose)


def test_auto_engine_turns_to_pdfium_when_pypdf_runs_words_together(clinical_pdf, monkeypatch):
    pytest.importorskip("pypdfium2")
    from norishiro.loaders import pdf

    monkeypatch.setattr(pdf, "run_together", lambda text: True)  # as pypdf does on some LaTeX files
    auto = load_document(clinical_pdf[0])
    assert auto.text == load_document(clinical_pdf[0], options=LoadOptions(pdf_engine="pdfium")).text
    assert auto.warnings == []
    forced = load_document(clinical_pdf[0], options=LoadOptions(pdf_engine="pypdf"))
    assert forced.text and "runs the words of this PDF together" in forced.warnings[0]


def test_a_hash_line_of_the_body_is_not_a_heading(tmp_path):
    body = [
        ("p", "Add this to your profile:"),
        ("p", "# set PATH so it includes the private bin"),
        ("p", "PATH=$HOME/bin"),
    ]
    pages = [[("h1", "Shell setup"), *body, ("h2", "Editors"), ("p", "Vim and Emacs are popular.")]]
    pdf = tmp_path / "shell.pdf"
    make_pdf(pdf, pages=pages, header=None, footer=False)
    doc = load_document(pdf)
    assert "# set PATH" in doc.text and len(doc.outline) == 2
    paths = {c.text.split("\n")[0]: c.headings for c in norishiro.chunk(doc, size=60)}
    assert ["Shell setup"] in paths.values() and ["Shell setup", "Editors"] in paths.values()
    assert not any("set PATH" in h for hs in paths.values() for h in hs)
    pytest.importorskip("lxml")
    page = tmp_path / "p.html"
    page.write_text("<h1>Setup</h1><p># not a heading</p><p>text</p><h2>Next</h2><p>more</p>", encoding="utf-8")
    doc = load_document(page)
    heads = [c.headings for c in norishiro.chunk(doc, size=30)]
    assert (
        heads[0] == ["Setup"]
        and heads[-1] == ["Setup", "Next"]
        and all(h in (["Setup"], ["Setup", "Next"]) for h in heads)
    )
    md = tmp_path / "n.md"
    md.write_text("# Setup\n\n# real heading in Markdown\n\ntext\n", encoding="utf-8")
    assert norishiro.chunk(load_document(md), size=20)[-1].headings == ["real heading in Markdown"]
