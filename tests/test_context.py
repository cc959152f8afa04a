"""Context headers, sections and Markdown structure (seed 003 §5)."""

import json
import re
from unittest import mock

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import norishiro
from clinical import load_facts, sample_paths
from invariants import check_chunks, tiktoken_count
from norishiro.cli import main
from norishiro.core.headers import HeaderRenderer
from norishiro.core.structure import find_atoms, find_sections
from norishiro.errors import ContextHeaderError

O200K = tiktoken_count("o200k_base")


def test_clinical_samples_with_header_at_256_tokens():
    known = total = 0
    for p in sample_paths():
        doc = norishiro.load_document(p)
        chunks = norishiro.chunk(
            doc, size=256, unit="tokens", tokenizer="o200k_base", header_keys=["patient_id", "date", "section"]
        )
        check_chunks(doc.text, chunks, 256, tiktoken_count())
        pid, date = doc.metadata["patient_id"], str(doc.metadata["date"])
        for c in chunks:
            head = c.embed_text[: len(c.embed_text) - len(c.text)]
            assert head.startswith("(Metadata: ") and f"Patient_ID={pid}" in head and f"Date={date}" in head
            assert O200K(c.embed_text) == c.size <= 256
            known += bool(c.section)
            total += 1
        for f in load_facts(p):
            assert any(c.start <= f["start"] and f["end"] <= c.end for c in chunks), (p.name, f["text"])
    assert known / total >= 0.8, known / total


def test_seed003_header_format():
    r = HeaderRenderer(["patient_id", "date", "section"])
    assert (
        r.render({"patient_id": "12345", "date": "2026-02-18"}, ["Assessment"])
        == "(Metadata: Patient_ID=12345, Date=2026-02-18, Section=Assessment)\n"
    )
    t = HeaderRenderer(None, "[{patient_id}] {section}")
    assert t.render({"patient_id": "P"}, ["A", "B"]) == "[P] A > B\n"


def test_no_header_keys_means_embed_text_is_text():
    doc = norishiro.Document.from_text("# T\n\n本文。", front_matter=False)
    for c in norishiro.chunk(doc, size=50):
        assert c.embed_text == c.text


def test_header_too_big_is_an_error_naming_the_document():
    doc = norishiro.Document("本文です。" * 20, id="note-1", metadata={"patient_id": "X" * 80})
    with pytest.raises(ContextHeaderError, match="note-1.*patient_id"):
        norishiro.chunk(doc, size=100, header_keys=["patient_id"])


def test_sections_from_markdown_and_labels():
    text = (
        "# 退院サマリ\n\n【主訴】\n発熱\n\n■ 2026/1/20\nS：頭痛あり。\nO）BT 36.8℃。\nA: 緊張型頭痛。\n"
        "P：経過観察。\n\n1. 現病歴\n高血圧で通院中。\n\n[既往歴]\nなし\n\nTitle\n=====\ntext\n"
    )
    secs = find_sections(text)
    paths = [" > ".join(s.headings) for s in secs]
    assert "退院サマリ > 主訴" in paths
    assert "退院サマリ > 2026/1/20 > Subjective" in paths
    assert "退院サマリ > 2026/1/20 > Assessment" in paths
    assert "退院サマリ > 2026/1/20 > 現病歴" in paths or "退院サマリ > 現病歴" in paths
    assert "退院サマリ > 既往歴" in paths and paths[-1] == "Title"
    assert "".join(text[s.start : s.end] for s in secs) == text


@settings(max_examples=1500, deadline=None)
@given(
    st.text(alphabet=" \t#a\r\u3000", max_size=14)
    | st.builds(
        lambda i, h, tail: " " * i + "#" * h + tail, st.integers(0, 5), st.integers(0, 8), st.text(" \t#a", max_size=6)
    )
)
def test_a_heading_line_is_read_as_the_atx_pattern_reads_it(line):
    """``_atx`` is ``_ATX`` written out: the same lines, levels and stripped titles."""
    from norishiro.core import heading_lines

    m = heading_lines._ATX.match(line)
    assert heading_lines._atx(line) == ((len(m.group(1)), m.group(2).strip()) if m else None)


def test_chunks_do_not_cross_sections_unless_asked():
    text = "【所見】\n" + "結節影を認める。" * 3 + "\n【結論】\n肺癌の疑いなし。\n"
    doc = norishiro.Document(text, id="d")
    chunks = norishiro.chunk(doc, size=200)
    assert [c.section for c in chunks] == ["所見", "結論"]
    assert len(norishiro.chunk(doc, size=200, cross_sections=True)) == 1


def test_code_fence_and_table_stay_whole_when_they_fit():
    code = "```python\n" + "".join(f"x{i} = {i}\n" for i in range(8)) + "```\n"
    table = "| 項目 | 値 |\n|---|---|\n" + "".join(f"| CRP{i} | {i}.0 |\n" for i in range(5))
    text = "# Doc\n\n" + "前置きの文です。" * 6 + "\n" + code + "\n" + table + "\n後の文。\n"
    doc = norishiro.Document(text, id="md")
    for size in (120, 160, 200):
        chunks = norishiro.chunk(doc, size=size)
        check_chunks(text, chunks, size)
        assert any(code in c.text for c in chunks), size
        assert any(table in c.text for c in chunks), size


def test_long_table_is_split_by_rows_with_header_repeated():
    header = "| 検査 | 1日目 | 3日目 |\n|---|---|---|\n"
    rows = "".join(f"| 項目{i:02d} | {i}.0 | {i}.5 |\n" for i in range(40))
    text = "# 検査\n\n" + header + rows
    doc = norishiro.Document(text, id="t")
    chunks = norishiro.chunk(doc, size=150)
    check_chunks(text, chunks, 150)
    body = [c for c in chunks if c.start > text.index(rows)]
    assert body
    for c in body:
        assert c.embed_text.startswith(header) and c.text.startswith("| 項目")  # cut between rows
        assert len(c.embed_text) <= 150


def test_list_stays_with_negating_lead_in():
    lead = "以下の所見は認めない：\n・胸水\n・心嚢液貯留\n・リンパ節腫大\n"
    text = "所見の記載。" * 10 + "\n" + lead + "以上。\n"
    doc = norishiro.Document(text, id="l")
    chunks = norishiro.chunk(doc, size=70)
    assert any(lead in c.text for c in chunks)
    assert [a.kind for a in find_atoms(text)] == ["list"]


def test_cli_header_meta_and_jsonl_fields(tmp_path):
    p = tmp_path / "note.txt"
    p.write_text("【評価】\n血圧は130/80で安定。降圧剤の増量は不要と判断。\n", encoding="utf-8")
    (tmp_path / "note.meta.json").write_text(json.dumps({"date": "2026-02-18"}), encoding="utf-8")
    r = CliRunner().invoke(
        main,
        [
            "chunk",
            str(p),
            "--size",
            "200",
            "--meta",
            "patient_id=12345",
            "--header-keys",
            "patient_id,date,section",
            "-q",
        ],
    )
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["embed_text"] == (
        "(Metadata: Patient_ID=12345, Date=2026-02-18, Section=評価)\n"
        "【評価】\n血圧は130/80で安定。降圧剤の増量は不要と判断。\n"
    )
    assert d["section"] == "評価" and d["headings"] == ["評価"]
    assert d["metadata"] == {"date": "2026-02-18", "patient_id": "12345"}
    assert d["size"] == len(d["embed_text"])
    bad = CliRunner().invoke(main, ["chunk", str(p), "--meta", "oops", "-q"])
    assert bad.exit_code == 2


def test_a_heading_is_never_a_chunk_of_its_own_when_its_text_can_follow():
    """A title section with no text joins the next section, and a section whose first
    paragraph is too long to fit with its heading still starts with heading + text."""
    para = "所見として特記すべきものはない。" * 40  # about 640 characters, no paragraph break
    text = "# 退院サマリ\n\n■ 2025/8/19\n\n現病歴：\n" + para + "\n\n経過：\n短い経過。\n"
    doc = norishiro.Document(text, metadata={})
    chunks = norishiro.chunk(doc, size=200)
    check_chunks(text, chunks, 200)
    for c in chunks:
        body = [
            ln for ln in c.text.splitlines() if ln.strip() and not ln.startswith(("#", "■")) and not ln.endswith("：")
        ]
        assert body, f"heading-only chunk {c.text!r}"
    first = chunks[0]
    assert first.text.startswith("# 退院サマリ\n\n■ 2025/8/19\n\n現病歴：\n所見")
    assert first.headings == ["退院サマリ", "2025/8/19", "現病歴"]
    # the heading still ends a chunk when nothing after it fits (a budget below the first sentence)
    tight = norishiro.chunk(norishiro.Document("## 現病歴\n\n" + "あ" * 50, metadata={}), size=12)
    check_chunks("## 現病歴\n\n" + "あ" * 50, tight, 12)


def test_sections_know_where_their_text_begins():
    text = "【主訴】\n\n労作時の息切れ\n所見：異常なし\nS：頭痛\n"
    secs = find_sections(text)
    assert [(text[s.start : s.body], s.headings[-1]) for s in secs] == [
        ("【主訴】\n\n", "主訴"),
        ("", "所見"),
        ("", "Subjective"),
    ]


def test_bracketed_times_numbers_and_dates_are_not_headings():
    text = (
        "[09:02] maya: morning. the backup failed.\n[09:03] tomas: same error?\n"
        "[1] Smith J. A paper.\n[2026-01-05] note\n[    0.004000] Memory: 990528k\n"
        "[現病歴] 発熱。\n【所見】右肺に結節影なし。\n[Plan] follow up\n"
    )
    heads = [s.headings for s in find_sections(text)]
    assert heads == [[], ["現病歴"], ["所見"], ["Plan"]]


def test_restructuredtext_titles_nest_in_the_order_their_styles_appear():
    text = (
        "The try statement\n*****************\n\n   try_stmt ::= try1_stmt\n"
        '                 ["else" ":" suite]\n\n'
        "except clause\n=============\n\nText.\n\n"
        "Details\n-------\n\nMore.\n\n"
        "The with statement\n******************\n\nWith.\n\n"
        "##########\nA part\n##########\n\nPart text.\n"
    )
    secs = find_sections(text)
    assert [s.headings for s in secs] == [
        ["The try statement"],
        ["The try statement", "except clause"],
        ["The try statement", "except clause", "Details"],
        ["The with statement"],
        # overlined and underlined: a style of its own, met last, so the deepest rank
        ["The with statement", "A part"],
    ]
    assert text[secs[-1].start :].startswith("##########\nA part")
    assert "".join(text[s.start : s.end] for s in secs) == text


def test_restructuredtext_titles_only_where_markdown_headings_are_read():
    """Not in plain labelled text (``markdown=False``), nor where a loader's outline says
    where the headings are: there an adorned line is text."""
    text = "The try statement\n*****************\n\nBody.\n\n[所見]\nなし\n"
    assert [s.headings for s in find_sections(text)] == [["The try statement"], ["The try statement", "所見"]]
    assert [s.headings for s in find_sections(text, markdown=False)] == [[], ["所見"]]
    assert [s.headings for s in find_sections(text, outline=[])] == [[], ["所見"]]


def test_adornments_that_are_no_titles():
    # wider than its line: a thematic break or a rule, not a title; no reST title, so Markdown
    # setext ranks stay as they were
    text = "A paragraph line\n***\n\nTitle\n=====\n\nSub\n---\n\nx\n"
    assert [s.headings for s in find_sections(text)] == [[], ["Title"], ["Title", "Sub"]]
    # an underline must follow a blank line (or start the text) in reStructuredText
    text = "Intro\n*****\n\nline one\nline two\n********\n"
    assert [s.headings for s in find_sections(text)] == [["Intro"]]


def test_labels_indented_like_code_are_not_headings():
    text = "[Unit]\nDescription=x\n\n    [Socket]\n    ListenStream=1\n\t[Plan] review\n"
    assert [s.headings for s in find_sections(text)] == [["Unit"], ["Plan"]]


_LINES = [
    "# Title",
    "ſubjective: x",  # case foldings beyond ASCII: ſ is s, K (Kelvin) is k, İ and ı are i
    "ſ） x",
    "İmpression",
    "\u212a",
    "Plan :",
    "Plan\x0b",
    "plan is to rest",
    "1. Install",
    "12. Findings",
    "3) 所見 ",
    "١. Plan:",
    "123. Plan",
    "- - -",
    "--- x",
    "``",
    "**",
    "*****",
    "^^^^^^^^^^^^",
    '"""',
    "__________",
    "##########",
    "    [Socket]",
    "\t[Plan] x",
    "Chief Complaint: cough",
    "chief complaint",
    "A/P: rest",
    "1. 申し送り",
    "1st:",
    "## 9.1. Part",
    "   ### deep ###",
    "Setext",
    "=====",
    "-----",
    "- item",
    "1. item",
    "12) 主訴：頭痛",
    "3．所見",
    "1.\u3000既往歴：なし",
    "2.\x0bplan: rest",
    "９. 所見：",
    "#主訴：",
    "【主訴】",
    "[Plan] x",
    "[1] ref",
    "■ 2026/1/20",
    "S：頭痛",
    "o) vitals",
    "所見：異常なし",
    "Findings",
    "```",
    "~~~",
    "",
    "   ",
    "text line",
    "\r",
    "\u3000所見：異常なし",
    "\xa0[Plan] x",
    " \t1) Plan:",
    # deeper than a Markdown heading or a bracketed label may be: # and ＃ only before a field label
    "    # 主訴：頭痛",
    "    #  Plan:",
    "    # apt-get install",
    "\t# Title",
    "  \t# x",
    "    ＃ 所見：",
    "\t\t[Plan] x",
    "    【主訴】",
    "\t■ 2026/1/20",
    " \t[Plan] x",
    "     ■ mark",
    # fences three and four spaces in (only the first is one), and a fence's closing kinds
    "   ```",
    "    ```",
    "   ~~~~",
]


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from(_LINES) | st.text(max_size=6), max_size=30),
    st.sampled_from(["\n", "\r\n"]),
    st.booleans(),
    st.sampled_from([(), ("Chief Complaint", "A/P"), ("申し送り", "1st")]),
)
def test_the_heading_line_filter_drops_no_heading(lines, eol, markdown, extra):
    """find_sections looks only at lines its filter lets through (the compiled one, or the
    quick pattern in pure Python); with every line let through it finds the same sections."""
    from norishiro.core import compiled, structure

    text = eol.join(lines)
    labels = structure.DEFAULT_LABELS + extra
    every = (re.compile(r"\n"), re.compile(r"\n"))
    with mock.patch.object(structure, "_candidates", lambda labels: every), mock.patch.object(compiled, "PURE", True):
        reference = [(s.start, s.end, s.headings, s.body) for s in find_sections(text, labels, markdown=markdown)]
    for pure in (True, False):
        with mock.patch.object(compiled, "PURE", pure):
            got = [(s.start, s.end, s.headings, s.body) for s in find_sections(text, labels, markdown=markdown)]
        assert got == reference, f"pure={pure}"


def test_the_heading_line_filter_drops_no_heading_in_many_texts():
    """The same over three thousand seeded texts of those lines (fences around headings, for
    one, are rare for the generator above)."""
    import random

    from norishiro.core import compiled, structure

    rng = random.Random(7)
    every = (re.compile(r"\n"), re.compile(r"\n"))
    for _ in range(3000):
        text = rng.choice(["\n", "\r\n"]).join(rng.choice(_LINES) for _ in range(rng.randint(1, 8)))
        with mock.patch.object(structure, "_candidates", lambda labels: every), mock.patch.object(compiled, "PURE", 1):
            reference = [(s.start, s.end, s.headings, s.body) for s in find_sections(text)]
        assert [(s.start, s.end, s.headings, s.body) for s in find_sections(text)] == reference, repr(text)


# lines that atoms are made of, and near misses: fences, tables and delimiter rows, tab
# rows, lead-in colons (with spaces, tabs, CR after them) before list items of every kind
_ATOM_LINES = [
    "```",
    "~~~",
    "  ```py",
    "``",
    "| a | b |",
    "|---|---|",
    " | :-- | --: |",
    "|x|",
    "a\tb\tc",
    "Steps:",
    "手順：",
    "Note: \t",
    "Note:\r",
    ":",  # a colon that starts its line: the lead-in is that line
    " ：",
    "- one",
    "* two",
    "+ three",
    "・項目",
    "• dot",
    "● 黒丸",
    "○ 白丸",
    "1. first",
    "١. arabic digit",
    "(1) paren",
    "（２）全角",
    "① 丸数字",
    "⑳ last",
    "㉑ beyond",
    "\t- tabbed",
    "plain text",
    "",
    " ",
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_ATOM_LINES) | st.text(max_size=6), max_size=30), st.sampled_from(["\n", "\r\n"]))
def test_atoms_are_the_same_with_the_compiled_line_scan_and_without(lines, eol):
    """find_atoms tries its patterns only where the compiled scan of the lines says they
    may match (fences, tables, lead-in colons); without it, they search the whole text."""
    from norishiro.core import compiled

    text = eol.join(lines)
    got = {}
    for pure in (True, False):
        with mock.patch.object(compiled, "PURE", pure):
            got[pure] = [(a.start, a.end, a.kind, a.body_start, a.header) for a in find_atoms(text)]
    assert got[False] == got[True]


# fences and table rows as the compiled matchers read them, and near misses: longer and
# indented fences, closers with spaces, tabs and CR after them, rows with one bar, CR inside
_FENCE_TABLE_LINES = _ATOM_LINES[:8] + [
    "````",
    "~~~~",
    "   ```",
    "    ```",
    "``` \r",
    "```\t",
    "\t```",
    "`` `",
    "||",
    "|",
    "| |\r",
    "|a|\r",
    "|\r|",
    "\t| x |  ",
    "|--",
    "--",
    ":--",
    "| : --",
    "|-|",
    "x",
]


@settings(max_examples=1500, deadline=None)
@given(
    st.lists(st.sampled_from(_FENCE_TABLE_LINES) | st.text(alphabet="`~|-: \t\rx", max_size=5), max_size=12),
    st.lists(st.sampled_from(["\n", "\r\n", "\r", ""]), min_size=12, max_size=12),
)
def test_the_compiled_fence_and_table_matchers_are_the_patterns(lines, ends):
    """The compiled matchers of code fences and Markdown tables find, at every line, what
    ``_FENCED`` and ``_MD_TABLE`` match there (line by line, none inside the one before)."""
    from norishiro.core import atoms, compiled
    from norishiro.core.line_scan import TextLines, line_matches

    if not compiled.active():
        pytest.skip("the compiled module is not built here")
    t = "\n" + "".join(x + e for x, e in zip(lines, ends))
    every = [i for i, c in enumerate(t) if c == "\n"]
    code = [(m.start(1), m.end(1)) for m in line_matches(atoms._FENCED, t, every)]
    tables = [(m.start(1), m.end(2), m.end(1)) for m in line_matches(atoms._MD_TABLE, t, every)]
    # the compiled matchers read the text itself: its line starts are where t's "\n"s are
    assert compiled.native.fenced_blocks(t[1:], every) == code
    assert compiled.native.md_tables(t[1:], every) == tables
    # the line scan finds the same tables in its one pass, in the text's positions
    assert compiled.native.structure_lines(t[1:], "", ())[2] == [x - 1 for span in tables for x in span]
    # as atoms, in the text's positions, made by the compiled scan as the class makes them
    assert atoms._code_atoms(TextLines(t[1:], ()), every) == [atoms.Atom(a - 1, b - 1, "code") for a, b in code]


def test_the_compiled_scan_makes_atoms_only_of_a_class_with_their_slots():
    """The compiled scans make ``Atom`` objects themselves, through the slots the class
    declares: a class without them is refused, and a made atom is one the class would make
    (equal, hashable fields, no other attribute)."""
    from dataclasses import dataclass, fields

    from norishiro.core import atoms, compiled

    if not compiled.active():
        pytest.skip("the compiled module is not built here")
    # the slots the compiled scan sets are all the class has: a new field must be set there too
    assert [f.name for f in fields(atoms.Atom)] == ["start", "end", "kind", "body_start", "header"]

    @dataclass
    class Loose:
        start: int
        end: int
        kind: str
        body_start: int = 0
        header: str = ""

    with pytest.raises(TypeError, match="no slot"):
        compiled.native.configure_atom(Loose)
    with pytest.raises(TypeError):
        compiled.native.configure_atom("Atom")
    got = atoms.find_atoms("x\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```\ncode\n```\n")
    assert got == [atoms.Atom(2, 32, "table", 22, "| a | b |\n|---|---|\n"), atoms.Atom(33, 46, "code")]
    assert all(type(a) is atoms.Atom and not hasattr(a, "__dict__") for a in got)
    assert {a.kind for a in got} == {"table", "code"}


_BORDER_LINES = ["+---+", "---", " =+=", "  +==+\r", "+-", "++", "+++", "\t+--+ ", "+-x-+", " + --", "x+--", "+-=+|"]


@settings(max_examples=1500, deadline=None)
@given(
    st.lists(
        st.sampled_from(_FENCE_TABLE_LINES + _BORDER_LINES) | st.text(alphabet="+-=|: \t\rx", max_size=5),
        max_size=4,
    ),
    st.sampled_from(_BORDER_LINES) | st.text(alphabet="+-= \t\rx", max_size=6),
    st.lists(st.sampled_from(["|a|", " | b |\r", "|--", "| :-- |", "|x|y|", "x"]), min_size=1, max_size=5),
    st.lists(st.sampled_from(["\n", "\r\n", "\r", ""]), min_size=10, max_size=10),
)
def test_the_compiled_table_atoms_are_the_tables_with_their_borders(before, border, rows, ends):
    """``table_atoms_from`` gives, of the tables the line scan finds, the atoms ``_bordered``
    makes of the tables ``_MD_TABLE`` matches: a grid border line above taken in, the header
    rows' text. The lines are drawn as a table is written: some lines, one that may be its
    border, rows."""
    from norishiro.core import atoms, compiled

    if not compiled.active():
        pytest.skip("the compiled module is not built here")
    lines = before + [border] + rows
    t = "\n" + "".join(x + e for x, e in zip(lines, ends))
    want = atoms._bordered(t, atoms._tables(t, None))
    assert compiled.native.table_atoms_from(t[1:], compiled.native.structure_lines(t[1:], "", ())[2]) == want
    with pytest.raises(ValueError, match="triples"):
        compiled.native.table_atoms_from(t[1:], [0, 0])
    with pytest.raises(ValueError, match="not in the text"):
        compiled.native.table_atoms_from(t[1:], [0, 1, len(t)])


@settings(max_examples=600, deadline=None)
@given(st.text(alphabet="\t\n\r a|", max_size=40))
def test_tab_separated_lines_are_the_patterns_matches(text):
    """The lines read from tab to tab are those ``_TSV_LINE`` finds line by line."""
    from norishiro.core import atoms

    want = [(m.start(1) - 1, min(len(text), m.end(1))) for m in atoms._TSV_LINE.finditer("\n" + text)]
    assert atoms._tsv_lines(text) == want


@pytest.mark.parametrize(
    "text, kept",
    [
        # a tab-separated run and a list start on one line: the longer span is kept
        ("a\tb\tc:\n-\tx\ty\n-\tz\tw\n- more\n", [(0, 26, "list")]),
        # the same span: the table, found first
        ("a\tb\tc:\n-\tx\ty\n-\tz\tw\n", [(0, 19, "table")]),
        # a table inside a code block: the code block
        ("x\n```\nx\ty\tz\na\tb\tc\nd\te\tf\n```\n", [(2, 28, "code")]),
    ],
)
def test_atoms_of_two_kinds_at_one_place_keep_the_longest_then_the_first_kind(text, kept):
    assert [(a.start, a.end, a.kind) for a in find_atoms(text)] == kept


def test_atoms_are_the_same_with_and_without_the_line_scan_for_every_pair_of_lines():
    """Every two of those lines, one under the other, with a line before and after."""
    from norishiro.core import compiled

    for a in _ATOM_LINES:
        for b in _ATOM_LINES:
            for eol in ("\n", "\r\n"):
                text = eol.join(["x", a, b, "y"])
                got = {}
                for pure in (True, False):
                    with mock.patch.object(compiled, "PURE", pure):
                        got[pure] = [(x.start, x.end, x.kind, x.body_start, x.header) for x in find_atoms(text)]
                assert got[False] == got[True], repr(text)


@given(st.lists(st.tuples(st.integers(0, 30), st.integers(1, 12), st.sampled_from(["code", "table", "list"]))))
def test_disjoint_atoms_keep_the_first_of_overlapping_spans_and_the_longest_at_a_shared_start(spans):
    """``atoms.disjoint`` reads as the rule written plainly: sorted by start and, at a shared
    start, longest first (stable), each span kept that starts at or after the last kept end
    (an atom is a line or more: never empty)."""
    from norishiro.core import compiled
    from norishiro.core.atoms import Atom, disjoint

    found = [Atom(a, a + w, kind) for a, w, kind in spans]
    ordered = sorted(found, key=lambda x: (x.start, -x.end))
    want: list = []
    for atom in ordered:
        if not want or atom.start >= want[-1].end:
            want.append(atom)
    assert [(x.start, x.end, x.kind) for x in disjoint(list(found))] == [(x.start, x.end, x.kind) for x in want]
    if compiled.native is not None:  # the compiled twin: the same atoms (the objects), found left as it was
        given_order = list(found)
        got = compiled.native.disjoint_atoms(found)
        assert found == given_order and [id(x) for x in got] == [id(x) for x in disjoint(list(found))]
