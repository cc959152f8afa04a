"""The compiled reading of heading lines (``_sentscan.heading_kinds``) against the patterns
``find_sections`` reads them with: a Markdown # heading (``_atx``), a bracketed label
(``_BRACKET`` but a check box) and a marked one (``_MARK``), with where the text after it
begins (``_BLANK_LINES``)."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from compiled_mode import compiled_helpers
from norishiro.core import compiled, heading_lines, structure
from norishiro.core.atoms import _tsv_lines
from norishiro.core.structure import find_sections

pytestmark = pytest.mark.skipif(compiled.native is None, reason="no compiled helpers in this install")

# what heading lines are made of: their marks, the white space around them (U+001C and
# U+2028 are white space to Python too), digits and the date and time marks a bracket holds
# when it is no label, closing brackets, a check box; characters beyond the BMP, which make
# the text four bytes a character
_ALPHABET = " \t\r#【】[]［］■□●▶xX1２:：/-年時\u3000\x0b\xa0\x85\x1c\u2028a\U0002000b\U0001f600"


def _reading(text: str, a: int) -> tuple | None:
    """What find_sections' patterns make of the line at ``a``: the compiled reading's tuple
    for a # heading or a bracketed or marked label, None for any other line."""
    nl = text.find("\n", a)
    line_end = len(text) if nl < 0 else nl
    line = text[a:line_end].rstrip("\r")
    first = line.lstrip(" \t")[:1]
    if first == "#":
        atx = heading_lines._atx(line)
        if atx is None:
            return None
        kind, (level, title), alone = "md", atx, True
    elif first and first in heading_lines._BLOCK_FIRST:
        m = heading_lines._BRACKET.match(line) or heading_lines._MARK.match(line)
        if m is None or heading_lines._CHECKBOX.match(line):
            return None
        kind, level, title, alone = "block", 0, m.group(1).strip(), not line[m.end() :].strip()
    else:
        return None
    body = heading_lines._BLANK_LINES.match(text, line_end).end() if alone else a
    return kind, level, title, line_end, body


def _line_starts(text: str) -> list[int]:
    return [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]


_LINE = st.text(alphabet=_ALPHABET, max_size=40) | st.builds(
    lambda lead, mark, inner, close, tail: lead + mark + inner + close + tail,
    st.sampled_from(["", " ", "   ", "    ", "\t", " \t", "\t\t"]),
    st.sampled_from(["#", "##", "###### ", "#######", "【", "[", "［", "■", "▶"]),
    st.text(alphabet="ab 1:年\t\u3000", max_size=34),
    st.sampled_from(["", "】", "]", "］", " #", "##"]),
    st.text(alphabet=" \tx\r\u3000", max_size=3),
)


@settings(max_examples=1500, deadline=None)
@given(st.lists(_LINE, min_size=1, max_size=8), st.sampled_from(["\n", "\r\n"]))
def test_the_compiled_heading_reading_is_the_patterns(lines, eol):
    """Every line the compiled reading reads is read as the patterns read it, and every
    line the patterns take for a # heading or a bracketed or marked label is read there."""
    text = eol.join(lines)
    starts = _line_starts(text)
    assert compiled.native.heading_kinds(text, starts) == [_reading(text, a) for a in starts]


def test_the_compiled_heading_reading_at_its_limits():
    """Titles of 24 and 25 characters in brackets, 30 and 31 after a mark, six and seven
    #s, four spaces in, a date in brackets, a check box, white space only after a mark."""
    lines = [
        "【" + "a" * 24 + "】",
        "【" + "a" * 25 + "】",
        "■ " + "b" * 30,
        "■ " + "b" * 31 + " ",
        "###### six",
        "####### seven",
        "    # deep",
        "   # shallow #",
        "[2024-01-05] x",
        "[ 1 ]",
        "[x] done",
        "\t[X] Done",
        " [ ] todo",
        "■ \u3000",
        "■",
        "# ",
        "#  ",
        "【主訴】頭痛\n\n\u3000\n",
    ]
    text = "\n".join(lines)
    starts = _line_starts(text)
    got = compiled.native.heading_kinds(text, starts)
    assert got == [_reading(text, a) for a in starts]
    assert [x[0] if x else None for x in got[:6]] == ["block", None, "block", None, "md", None]


@settings(max_examples=400, deadline=None)
@given(st.lists(_LINE, max_size=10), st.sampled_from(["\n", "\r\n"]), st.booleans())
def test_sections_are_the_same_with_the_compiled_heading_reading_and_without(lines, eol, markdown):
    text = eol.join(lines)
    got = {}
    for on in (False, True):
        with compiled_helpers(on):
            got[on] = [(s.start, s.end, s.headings, s.body) for s in find_sections(text, markdown=markdown)]
    assert got[True] == got[False]


def test_the_compiled_heading_reading_refuses_positions_that_start_no_line():
    with pytest.raises(ValueError, match="starts of lines"):
        compiled.native.heading_kinds("ab\ncd", [1])


# labels whose initials are many characters beyond U+FFFF (mathematical letters): the scan
# reads the initials of ASCII only, and tries every other line with the labels themselves
_ASTRAL_LABELS = tuple(chr(0x1D400 + i) + "x" for i in range(20)) + ("note",)


@pytest.mark.parametrize("labels", [structure.DEFAULT_LABELS, ("x-ray",), ("Àpropos", "note", "所見"), _ASTRAL_LABELS])
def test_every_first_character_of_a_line_is_read_as_the_patterns_read_it(labels):
    """The compiled line scan skips a line at once by its first ASCII character: for every
    first character of Latin-1 (and a few beyond), after no, some or a tab's indentation,
    the sections and atoms are those of the patterns alone, for labels whose initials vary."""
    from norishiro.core.atoms import find_atoms
    from norishiro.core.line_scan import TextLines

    tails = ["", ": x", " ：y", "lan", "propos:", "ote", ". note", ") 所見：", "||", "-ray", "`` a", "~~"]
    tails += ["| a |\n|--|--|\n| 1 |"]  # a table: its header row starts with the first character
    firsts = [chr(c) for c in range(1, 256) if chr(c) not in "\n\r"] + ["Ā", "Σ", "ｓ", "所", "【", "\U0001d401"]
    lines = [lead + f + tail for f in firsts for tail in tails for lead in ("", "  ", "\t")]
    text = "\n".join(["Intro:"] + lines + ["end"])
    got = {}
    for on in (False, True):
        with compiled_helpers(on):
            lines_of = TextLines(text, tuple(labels))
            sections = find_sections(text, labels, lines=lines_of)
            got[on] = (
                [(s.start, s.end, s.headings, s.body) for s in sections],
                [(a.start, a.end, a.kind) for a in find_atoms(text, lines_of)],
            )
    assert got[True] == got[False]


# labels whose case-insensitive reading goes beyond ASCII: the Kelvin sign and the long s
# match k and s, U+0130's lower case is two characters, U+0345 has no case but an upper
# case, U+01C5 is title case; a label with a space, one that starts another (an empty label
# never comes from the options, which drop it: the patterns' line filter takes none)
_ODD_LABELS = ("Kelvin", "ſtatus", "İndex", "\u0345x", "ǅungla", "Chief Complaint", "Plan of care", "A/P", "所見")
_LABEL_FORMS = [str.lower, str.upper, str.swapcase, lambda w: w[:-1], lambda w: w + "s", lambda w: w + " x"]
_SWAPS = {"k": "\u212a", "K": "k", "s": "ſ", "S": "ſ", "i": "İ", "I": "ı", "ſ": "S", "İ": "i", "\u0345": "ι", "ǅ": "ǆ"}


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(
                ["", "  ", "\t", "1. ", "12)", "# ", "    ＃ ", "９．", "\u0663) ", "\ua621.", "123. ", "1", "#", "##"]
                + ["###", "【", "[x] ", "■ ", "S", "O ", "A\u3000：", "p)", "\u3000", "* ", "`"]
            ),
            st.sampled_from(structure.DEFAULT_LABELS[-16:] + _ODD_LABELS),
            st.sampled_from([lambda w: w] + _LABEL_FORMS),
            st.booleans(),
            st.sampled_from(["", ":", " ：", " x", "\r", " \u3000", "s:", ":x", "\x0b:", "】", ": \r\r", "###"]),
        ),
        max_size=12,
    ),
    # (the last: no label starts with a cased letter beyond ASCII, which lets more lines through)
    st.sampled_from(
        [structure.DEFAULT_LABELS, structure.DEFAULT_LABELS + _ODD_LABELS, _ODD_LABELS[:5], ("Kelvin", "所見")]
        # labels the compiled reading leaves to the reader: one starting with a digit or a #
        + [("1st visit", "所見", "Plan"), ("#tag", "Plan")]
    ),
)
def test_labels_are_matched_as_the_patterns_match_them_without_case(rows, labels):
    """The compiled line scan tries a label line with the labels themselves (case-insensitive,
    letting through where characters beyond ASCII with a case meet), and ``sections_of`` reads
    a field label's line itself (after a number, a # or a bracket that is no label; the
    reader where another reading may come first): the sections are those of the patterns
    alone, however the labels' letters are cased or swapped."""
    from norishiro.core.line_scan import TextLines

    lines = []
    for lead, label, form, swap, tail in rows:
        word = form(label)
        if swap:
            word = "".join(_SWAPS.get(c, c) for c in word)
        lines.append(lead + word + tail)
    text = "\n".join(lines)
    got = {}
    for on in (False, True):
        with compiled_helpers(on):
            for attach in (False, True):  # a section that is its heading alone joins the next, or not
                sections = find_sections(text, labels, lines=TextLines(text, tuple(labels)), attach=attach)
                got[on, attach] = [(s.start, s.end, s.headings, s.body) for s in sections]
    assert got[True, False] == got[False, False]
    assert got[True, True] == got[False, True]


def test_the_line_scan_lets_through_a_label_line_and_no_other_word():
    """Lines that start with a label's initial but hold no label (a word alone on its line,
    a longer word, a label not followed by a colon) are not tried: only the label lines."""
    from norishiro.core.line_scan import TextLines

    heads = ["Plan", "PLAN:", "plan \t：x", "1. Plan", "    # plan:", "Plan of care", "所見：", "Chief Complaint:"]
    others = ["Plans:", "Planet", "Caution", "apt-get install", "Finding:", "Plan x", "Pla", "所見あり", "Chief"]
    text = "\n".join(heads + others)
    starts = [0]
    for line in heads + others:
        starts.append(starts[-1] + len(line) + 1)
    labels = structure.DEFAULT_LABELS + ("Plan of care", "Chief Complaint")
    with compiled_helpers(True):
        assert TextLines(text, labels).headings == starts[: len(heads)]


def test_no_cjk_character_has_a_case_or_a_decimal_value():
    """The compiled line scan answers U+3000 to U+9FFF without the library's case and digit
    lookups: no character there has a case, a case mapping or a decimal value, and none
    matches another without case (the tables of this Python are the scan's)."""
    import re

    for c in map(chr, range(0x3000, 0xA000)):
        assert not (c.isupper() or c.islower() or c.istitle() or c.isdecimal()), hex(ord(c))
        assert c.lower() == c.upper() == c.casefold() == c, hex(ord(c))
        assert not re.match("[a-z]", c, re.I), hex(ord(c))


@settings(max_examples=1500, deadline=None)
@given(st.text(alphabet=" \t\n\n\n\r\u3000\xa0\x0b\u2028\u0301x#|", max_size=60))
def test_the_line_scan_finds_the_paragraph_ends_of_the_paragraph_pass(text):
    """The line scan's paragraph ends (which regions take instead of a pass of their own)
    are those the paragraph pass finds, with the same ends a grapheme may extend past."""
    assert compiled.native.structure_lines(text, "", ())[4] == compiled.native.paragraph_ends(text, False)


@settings(max_examples=1500, deadline=None)
@given(st.text(alphabet="\t\t\n\r x\u3042", max_size=80), st.sampled_from(["", "\U0001f600", "\xe9"]))
@example("a\tb\tc\nd\te\n\tf\t", "")
def test_the_line_scan_finds_the_tab_separated_lines(text, wide):
    """Its lines with two tabs or more are atoms' ``_tsv_lines``, in any width of text."""
    text = wide + text
    want = [x for pair in _tsv_lines(text) for x in pair]
    assert compiled.native.structure_lines(text, "", ())[5] == want
    blocks = wide + "x" * 37 + "\t" + "y" * 40 + "\t\n" + "\t" * 3  # tabs past the first blocks, a last line of tabs
    assert compiled.native.structure_lines(blocks, "", ())[5] == [x for p in _tsv_lines(blocks) for x in p] != []


def test_a_line_of_any_white_space_is_blank_to_the_line_scan_as_to_the_paragraph_pass():
    """Every character Python's tables call white space, at every width of text, makes a
    blank line for the scan as for the pass (and a line with a letter before it none)."""
    spaces = [chr(c) for c in range(0x110000) if chr(c).isspace() and chr(c) != "\n"]
    for ws in spaces:
        for text in (f"a\n{ws}\nb", f"a\n{ws}{ws}\n\U0001f600", f"a\nx{ws}\nb", f"\u3042\n{ws}\nb"):
            got = compiled.native.structure_lines(text, "", ())[4]
            assert got == compiled.native.paragraph_ends(text, False), (hex(ord(ws)), text)


def test_the_compiled_sections_say_what_is_wrong_and_pass_the_readers_errors_on():
    """``sections_of`` refuses what is no text, list or reader, a position beyond the text and a
    reading that is no heading's tuple; an error of the reader comes through as it is."""
    from norishiro.core.structure import Section

    never = lambda q, last: None  # noqa: E731
    got = compiled.native.sections_of("# A\n\nx\n## B", [0, 7], True, never)
    assert [(s.start, s.end, s.headings, s.body) for s in got] == [(0, 7, ["A"], 5), (7, 11, ["A", "B"], 11)]
    assert all(type(s) is Section for s in got)
    assert [(s.start, s.end, s.headings) for s in compiled.native.sections_of("", [], True, never)] == [(0, 0, [])]
    with pytest.raises(TypeError, match="sections_of"):
        compiled.native.sections_of("# A", (0,), True, never)
    with pytest.raises(ValueError, match="line starts"):
        compiled.native.sections_of("# A", [9], True, never)
    with pytest.raises(TypeError):
        compiled.native.sections_of("x", [0], True, lambda q, last: ("md", 1))
    with pytest.raises(ZeroDivisionError):
        compiled.native.sections_of("x", [0], True, lambda q, last: 1 / 0)
    # a reading the reader gives: a field label below the Markdown path (at, not the line start)
    read = lambda q, last: ("field", 0, "所見", 6, 6, 4)  # noqa: E731
    got = compiled.native.sections_of("# A\n所見：x", [0, 4], True, read)
    assert [(s.start, s.end, s.headings, s.body) for s in got] == [(0, 4, ["A"], 4), (4, 8, ["A", "所見"], 6)]
    # the labels: a tuple of labels (or None), each one character at least
    for bad in (["所見"], ("所見", ""), ("所見", 1)):
        with pytest.raises(TypeError, match="labels"):
            compiled.native.sections_of("所見：x", [0], True, never, bad)
    got = compiled.native.sections_of("# A\n所見：x\n#2 y", [0, 4, 9], True, never, ("所見",))
    assert [(s.start, s.end, s.headings, s.body) for s in got] == [(0, 4, ["A"], 4), (4, 13, ["A", "所見"], 4)]


def test_a_line_of_three_hashes_is_left_to_the_reader_that_knows_titles_adorned_so():
    """A line of three #s alone may be a reStructuredText title's adornment (which the reader
    decides, knowing the text's titles): the compiled reading of field labels leaves it."""
    from norishiro.core.line_scan import TextLines

    text = "###\nAb\n###\n\nx 所見\n\nCd\n###\n\n所見：y\n#\u3000\u3000所見\n1.\t所見：z"
    got = {}
    for on in (False, True):
        with compiled_helpers(on):
            sections = find_sections(text, structure.DEFAULT_LABELS, lines=TextLines(text, structure.DEFAULT_LABELS))
            got[on] = [(s.start, s.end, s.headings, s.body) for s in sections]
    assert got[True] == got[False]
    assert [h for _, _, h, _ in got[True]] == [["Ab"], ["Ab", "Cd"]] + [["Ab", "Cd", "所見"]] * 3


def test_a_heading_alone_joins_the_next_section_only_when_it_names_one():
    """A marked label with no title (■ alone) makes a section with an empty path: alone on its
    line, it does not join the next section, compiled or not."""
    from norishiro.core.line_scan import TextLines

    text = "intro\n■ \n\n所見：x\n## B\n\n### C\ny"
    for on in (False, True):
        with compiled_helpers(on):
            got = find_sections(
                text, structure.DEFAULT_LABELS, lines=TextLines(text, structure.DEFAULT_LABELS), attach=True
            )
            assert [(s.start, s.end, s.headings) for s in got] == [
                (0, 6, []),
                (6, 10, []),
                (10, 15, ["所見"]),
                (15, 28, ["B", "C"]),
            ], on
