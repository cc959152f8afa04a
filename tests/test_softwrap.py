"""Hard-wrapped text: a newline inside a sentence is a soft wrap, not a line boundary."""

import bisect

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import norishiro
from clinical import hard_wrap, load_facts, remove_single_newlines, sample_paths
from invariants import check_chunks
from norishiro.analysis.lint import lint_chunks
from norishiro.chunk import Chunk
from norishiro.core.boundaries import Boundaries, Level
from norishiro.core.softwrap import SoftWraps, soft_wraps


def _after_sentence(text, b, c):
    """The chunk ends at a paragraph break, a (hard) line end, or after a sentence."""
    if c.end >= len(text) or b.level_of(c.end) <= Level.SENTENCE:
        return True
    q = c.end
    while q > c.start and text[q - 1].isspace():
        q -= 1
    return bool(b.window_cuts(Level.SENTENCE, q - 1, c.end))


def _measure(width):
    lost = total = n = good = 0
    for p in sample_paths():
        doc = norishiro.load_document(p)
        facts = load_facts(p)
        text, spans = remove_single_newlines(doc.text, [(f["start"], f["end"]) for f in facts])
        if width:
            text, spans = hard_wrap(text, width, spans)
            for f, (s, e) in zip(facts, spans):
                assert "".join(text[s:e].split()) == "".join(f["text"].split())
        chunks = norishiro.chunk(text, size=200)
        check_chunks(text, chunks, 200)
        b = Boundaries(text)
        n += len(chunks)
        good += sum(_after_sentence(text, b, c) for c in chunks)
        total += len(spans)
        lost += sum(not any(c.start <= s and e <= c.end for c in chunks) for s, e in spans)
    return 1 - lost / total, good / n


@pytest.mark.parametrize("width", [30, 38, 60])
def test_wrapped_samples_chunk_as_well_as_unwrapped(width):
    facts, ends = _measure(width)
    facts0, ends0 = _measure(0)
    assert facts >= 0.98, facts
    assert ends >= 0.90 and ends >= ends0 - 0.01, (ends, ends0)


def _soft_lines(text):
    return [text[:p].rsplit("\n", 2)[-2] for p in soft_wraps(text)]


def test_japanese_and_english_wraps_are_soft():
    ja = (
        "右肺上葉に径12mmの結節影を認めるが、前回と比べて増大はなく、\n悪性を示唆する所見は認めない。経過観察とする。\n"
    )
    assert soft_wraps(ja) == [ja.index("\n") + 1]
    en = "The biopsy was negative\nfor malignancy, and the margins were\nclear of tumour.\n"
    assert len(soft_wraps(en)) == 2
    wrapped = ("本日の検査結果について説明した。血圧は安定しており内服の変更は不要と判断した。" * 4)[:150]
    text = "\n".join(wrapped[i : i + 38] for i in range(0, len(wrapped), 38))
    assert len(soft_wraps(text)) == text.count("\n") - sum(
        text[i - 1] == "。" for i in range(1, len(text)) if text[i] == "\n"
    )


@pytest.mark.parametrize(
    "text",
    [
        "静かな湖\n月を映して\n風もなし\n",  # a poem
        "〒100-0001\n東京都千代田区千代田1-1\n架空ビル3階\n",  # an address
        "・発熱あり\n・咳嗽なし\n・食欲良好\n",  # a list
        "所見：\n右肺に結節影なし。\n",  # a lead-in and its text
        "## 経過\n入院後は抗菌薬で改善した。\n",  # a heading
        "| 検査 | 値 |\n| CRP | 0.3 |\n| WBC | 5,000 |\n",  # table rows
        "日付\t検査\t値\n2026/1/1\tCRP\t0.3\n2026/1/2\tCRP\t0.2\n",  # tab-separated rows
        "```\nfor x in items:\n    print(x)\n```\n",  # code
        "Hb 13.4 g/dL、Plt 21.6万/μL、WBC 8,900/μL\nTP 6.8 g/dL、Alb 3.4 g/dL、AST 28 U/L\n"
        "BUN 28.4 mg/dL、Cre 1.12 mg/dL、K 4.1 mEq/L\n",  # lab values one line each
        "患者ID：FICT-0107　58歳　男性　会社員（営業職）\n病名：2型糖尿病、脂質異常症、脂肪肝\n"
        "担当：Dr. 山田（架空）　外来：内分泌代謝科\n",  # label: value lines
    ],
)
def test_real_lines_stay_hard(text):
    assert soft_wraps(text) == [], _soft_lines(text)


def test_segment_lines_are_physical_and_sentences_cross_wraps():
    text = "悪性を示唆する所見は\nない。次の検査へ。\n"
    assert [u["text"] for u in norishiro.segment(text, "line")] == ["悪性を示唆する所見は\n", "ない。次の検査へ。\n"]
    assert [u["text"] for u in norishiro.segment(text, "sentence")] == [
        "悪性を示唆する所見は\nない。",
        "次の検査へ。\n",
    ]


def test_a_hyphenated_wrap_stays_in_the_text():
    text = "Dense retrie-\nval beats sparse lexical matching on paraphrased questions by a wide\nmargin today.\n"
    chunks = norishiro.chunk(text, size=40)
    assert "".join(c.text for c in chunks) == text
    check_chunks(text, chunks, 40)


def test_lint_reports_soft_wraps_and_cuts_at_them():
    text = "The biopsy was negative\nfor malignancy, and the margins were\nclear of tumour.\n"
    p = text.index("\n") + 1
    chunks = [Chunk(text[:p], 0, p, 0, p), Chunk(text[p:], p, len(text), 1, len(text) - p)]
    s = lint_chunks(text, chunks, size=100).summary()
    assert s["soft_wraps"] == 2 and s["boundaries_at_soft_wraps"] + s["findings"]["negation"] >= 1


# lines of the kinds the decisions tell apart: words, sentence ends, labels, list items,
# rows, fences, headings, Japanese, blank lines, CR, wide and short lines
_LINE_PARTS = st.sampled_from(
    [
        "the line goes on",
        "The Line Goes On",
        "ends here.",
        "a comma,",
        "Label: value",
        "所見：異常なし",
        "- item",
        "1. step",
        "| a | b |",
        "a\tb\tc",
        "```",
        "~~~",
        "`x`",
        "# Heading",
        "【所見】",
        "右肺に結節影を認めるが",
        "増大はない。",
        "Na 140 mEq/L",
        "    code",
        "===",
        "",
        " ",
        "\r",
        "x" * 30,
        "word " * 12,
    ]
)


@settings(deadline=None)
@given(st.lists(st.lists(_LINE_PARTS, min_size=0, max_size=3).map(" ".join), min_size=1, max_size=12))
def test_soft_decisions_from_two_lines_agree_with_the_paragraph_profile(lines):
    """A newline decided from its two lines alone (before any paragraph profile) gets the
    answer the profile gives, asked in order, in reverse, or one at a time."""
    text = "\n".join(lines)
    b = Boundaries(text)
    paras = b.paragraph_cuts()
    nls = [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    bounds = [0, *paras, len(text)]
    want = {}
    for s, e in zip(bounds, bounds[1:]):
        if e > s:
            soft = set(soft_wraps(text, s, e))
            want.update({p: p in soft for p in nls if s < p <= e})
    for order in (nls, nls[::-1]):
        sw = SoftWraps(text)
        for p in order:
            i = bisect.bisect_right(paras, p - 1)
            s, e = (paras[i - 1] if i else 0), (paras[i] if i < len(paras) else len(text))
            assert sw.is_soft(p, s, e) == want[p], (p, text)
            assert SoftWraps(text).is_soft(p, s, e) == want[p], (p, text)


_ANY_LINE = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)


@settings(deadline=None)
@given(_ANY_LINE | st.lists(_LINE_PARTS, max_size=4).map(" ".join))
def test_line_end_patterns_searched_from_the_end_find_what_a_forward_search_finds(line):
    """The line-end patterns that ``softwrap`` searches backwards (``(?r)``) match a line
    exactly when the same pattern searched forwards does."""
    import regex

    from norishiro.core import softwrap

    for name in ("_COLON_END", "_KANJI_END", "_EN_CONTINUES", "_UNIT_END"):
        backwards = getattr(softwrap, name)
        forwards = regex.compile(backwards.pattern.removeprefix("(?r)"))
        assert backwards.pattern.startswith("(?r)"), name
        for text in (line, line + "\n", line.rstrip()):
            assert bool(backwards.search(text)) == bool(forwards.search(text)), (name, text)


def _wrapped_prose_and_table():
    """Hard-wrapped prose, then a table with a border line above its header (as a plain-text
    rendering of a document draws one): the text, where the table's border and its header
    row start, and the table's length from its border."""
    prose = (
        "Debian keeps its packages in archives that mirrors copy every few hours, and the "
        "package manager reads their lists before it installs anything on the system. "
    ) * 3
    lines = [prose[i : i + 70] for i in range(0, len(prose), 70)]
    rows = "".join(f"    |pkg{i:02d}      |V:{i:03d} |{i:04d}|a tool for task {i:02d}     |\n" for i in range(12))
    table = (
        "    +------------------------------------------------+\n"
        "    |  package  |popcon|size|     description       |\n"
        "    |-----------+------+----+-----------------------|\n" + rows
    )
    text = "\n".join(lines) + "\n\n" + table + "\nAfter the table comes more text.\n"
    return text, text.index("    +---"), text.index("    |  package"), len(table)


@pytest.mark.parametrize("strategy", ["recursive", "sentences"])
@pytest.mark.parametrize("tokens", [False, True])
def test_a_table_that_does_not_fit_with_the_text_before_starts_a_chunk(strategy, tokens):
    """Where the window ends inside a table that fits alone, the table's first line (its
    border's) is a line cut even where newlines are soft wraps: the chunk before ends there,
    not at the spaces before the border (which were a chunk of their own, with nothing to
    embed), and the border stays with the table (it was a chunk of its own where the table
    fitted only without it). In tokens the window is wider than the budget: the table is the
    one where the budget ends."""
    from norishiro.core.measure import CharSizer, TiktokenSizer

    text, border_at, _header_at, table_len = _wrapped_prose_and_table()
    sizer = TiktokenSizer("o200k_base") if tokens else CharSizer()
    size = sizer.count(text[border_at : border_at + table_len]) + (1 if tokens else 20)
    chunks = norishiro.chunk(text, size=size, strategy=strategy, tokenizer=sizer if tokens else None)
    check_chunks(text, chunks, size, sizer.count)
    assert all(c.text.strip() for c in chunks)
    assert border_at in [c.end for c in chunks]
    assert not any(c.text.strip().startswith("+---") and "|" not in c.text for c in chunks)


def test_a_grid_tables_border_line_is_part_of_the_table():
    """The border drawn right above a table's header row belongs to the table (kept whole with
    it, not repeated with its header); a border line apart from it (a blank line between) or
    a table without one is as it was."""
    from norishiro.core.atoms import find_atoms

    text, border_at, header_at, table_len = _wrapped_prose_and_table()
    (table,) = [a for a in find_atoms(text) if a.kind == "table"]
    assert (table.start, table.end) == (border_at, border_at + table_len)
    assert table.header.startswith("    |  package")  # the border is not repeated with the header
    apart = text[:border_at] + text[border_at:header_at] + "\n" + text[header_at:]
    (table,) = [a for a in find_atoms(apart) if a.kind == "table"]
    assert table.start == header_at + 1
    bare = text[:border_at] + text[header_at:]
    (table,) = [a for a in find_atoms(bare) if a.kind == "table"]
    assert table.start == border_at


def test_an_atom_that_starts_inside_a_line_is_no_line_cut():
    """Only an atom that begins a line gives a line cut at its start: a span kept whole that
    starts inside a word (as a caller may give the packer) is not cut before at that word."""
    from norishiro.core.measure import CharSizer
    from norishiro.core.packer import Packer

    text, _, _, _ = _wrapped_prose_and_table()
    inside = text.index("mirrors") + 3  # in a hard-wrapped line, inside a word
    spans = list(Packer(text, CharSizer().measure(text), 60, atoms=[(inside, inside + 40)]).spans())
    ends = [e for _, e, _ in spans]
    assert inside not in ends
    assert all(text[e - 1].isspace() or e == len(text) for e in ends)
