"""``_sentscan.para_spans``: the packer's spans in characters for a region with atoms,
headings or a table's repeated header, found in C where a chunk ends at a paragraph cut (or
at the start of the atom its window ends in), are the packer's own spans."""

from bisect import bisect_right

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from norishiro import iter_chunks
from norishiro.chunkers import CHUNKERS, Region
from norishiro.chunkers.base import PackingChunker
from norishiro.core import compiled, compiled_packing, packer
from norishiro.core.boundaries import Boundaries
from norishiro.core.measure import CharMeasure, CharSizer
from norishiro.core.packer import Packer
from test_properties import texts

pytestmark = pytest.mark.skipif(not compiled.active(), reason="the compiled module is not built here")

_PIECES = [
    "word ",
    "end. ",
    "\n",
    "\n\n",
    "\n\n\n",
    "  ",
    "\t",
    "所見：異常なし。",
    "| a | b |",
    "\u3000",
    "\r\n",
    "e\u0301 ",
]
_paragraphs = st.lists(
    st.lists(st.sampled_from(_PIECES), min_size=1, max_size=8).map("".join), min_size=3, max_size=40
).map("\n\n".join)


class _TablePrefix:
    """A prefix like the regions' own: ``base`` but in some spans, where a table's header follows."""

    def __init__(self, base: str, starts: list[int], ends: list[int], headers: list[str]):
        self.base, self._starts, self._ends, self._headers = base, starts, ends, headers

    def __call__(self, p: int) -> str:
        i = bisect_right(self._starts, p) - 1
        return self.base + self._headers[i] if i >= 0 and p < self._ends[i] else self.base

    def spans(self) -> tuple[list[int], list[int]]:
        return self._starts, self._ends


# hard-wrapped paragraphs longer than a chunk: the line level ends most chunks
_wrapped = st.lists(
    st.lists(
        st.sampled_from(["word word word", "an end.", "  indented", "| a | b |", "  ", "所見：異常なし。"]),
        min_size=4,
        max_size=30,
    ).map("\n".join),
    min_size=1,
    max_size=6,
).map("\n\n".join)


@st.composite
def _regions(draw):
    text = draw(st.one_of(_paragraphs, _paragraphs, _paragraphs, _wrapped, _wrapped, texts))
    n = len(text)
    cuts = sorted(set(draw(st.lists(st.integers(0, n), max_size=12))))
    # atoms from pairs of cut points, many at line starts (where an atom's start may end a chunk)
    line_starts = [i + 1 for i, c in enumerate(text) if c == "\n" and i + 1 < n]
    if line_starts and draw(st.booleans()):
        cuts = sorted(set(cuts) | set(draw(st.lists(st.sampled_from(line_starts), max_size=8))))
    pairs = list(zip(cuts[::2], cuts[1::2]))
    atoms = [pair for pair in pairs if draw(st.booleans())]
    heads = [(a, min(n, a + draw(st.integers(0, 40)))) for a, _b in pairs if draw(st.integers(0, 3)) == 0]
    heads = [h for k, h in enumerate(heads) if k == 0 or h[0] >= heads[k - 1][1]]
    prefix = None
    if draw(st.booleans()):
        base = draw(st.sampled_from(["", "# H\n", "section: 所見\n"]))
        tables = [pair for pair in pairs if draw(st.booleans())]
        prefix = _TablePrefix(
            base,
            [a for a, _ in tables],
            [b for _, b in tables],
            [draw(st.sampled_from(["| a | b |\n|---|---|\n", "x\n", ""])) for _ in tables],
        )
    return text, atoms, heads, prefix


def _spans(region, size: int, balance: bool, levels) -> list:
    text, atoms, heads, prefix = region
    return list(
        Packer(
            text,
            CharMeasure(text),
            size,
            0,
            end_levels=levels,
            prefix=prefix,
            atoms=atoms,
            heads=heads,
            balance=balance,
        ).spans()
    )


@settings(max_examples=400, deadline=None)
@given(_regions(), st.integers(1, 240), st.booleans(), st.sampled_from(["recursive", "recursive", "sentences"]))
def test_compiled_spans_are_the_packers(region, size, balance, strategy):
    levels = CHUNKERS[strategy].end_levels
    got = _spans(region, size, balance, levels)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(packer, "paragraph_spans", lambda p: None)
        want = _spans(region, size, balance, levels)
    assert got == want


@settings(max_examples=300, deadline=None)
@given(_regions(), st.integers(1, 240), st.booleans(), st.sampled_from(["recursive", "sentences"]), st.booleans())
@example(
    ("word word word\n" * 15 + "an end.\n" * 2 + "word word word\n" * 2 + "an end.\nan end.", [], [(0, 1)], None),
    61,
    True,
    "recursive",
    False,
)
@example(
    ("a\n\nb\n\ncccc\n\n", [(3, 12)], [], _TablePrefix("# H\n", [], [], [])), 11, False, "recursive", True
)  # no fit
def test_section_spans_are_the_regions_spans(region, size, balance, strategy, given_cuts):
    """A chunker's spans from a region's lists, without the region, are those of the region
    made and packed by the packer's own loop; None only where that loop must run."""
    text, atoms, heads, prefix = region
    chunker = CHUNKERS[strategy](_Config(balance))
    paragraphs = Boundaries(text).paragraph_cuts() if given_cuts and "\r" not in text else None
    got = chunker.section_spans(text, size, atoms, heads, prefix, paragraphs)
    made = Region(text, 0, CharSizer(), CharMeasure(text), size, 0, prefix, atoms, heads, paragraphs)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(packer, "paragraph_spans", lambda p: None)
        want = list(chunker.spans(made))
    if got is None:  # another first level, an empty text, or plain text (no prefix, atom that fits or heading)
        kept = Packer(text, CharMeasure(text), size, prefix=prefix, atoms=atoms, heads=heads)
        plain = prefix is None and not (kept._atom_starts or kept._head_starts)
        assert strategy == "sentences" or not text or plain
    else:
        assert got == want


class _Config:
    def __init__(self, balance: bool):
        self.balance = balance


@settings(max_examples=300, deadline=None)
@given(_regions(), st.integers(1, 240))
def test_the_atoms_kept_are_those_that_fit_with_their_prefix(region, size):
    """In characters the packer keeps the atoms whose length and prefix fit, asking the
    prefix only where it may vary: the same atoms as a size asked of each."""
    text, atoms, heads, prefix = region
    p = Packer(text, CharMeasure(text), size, prefix=prefix, atoms=atoms)
    want = sorted((a, b) for a, b in atoms if b > a and p.fits(a, b, size))
    assert list(zip(p._atom_starts, p._atom_ends)) == want
    # an atom inside the first span where the prefix is longer: there it does not fit
    text = "x" * 80
    p = Packer(text, CharMeasure(text), 30, prefix=_TablePrefix("", [0], [50], ["| h |\n"]), atoms=[(10, 35), (50, 75)])
    assert list(zip(p._atom_starts, p._atom_ends)) == [(50, 75)]


_MARKDOWN = (
    "# Title\n\nIntro paragraph that runs on. " * 3
    + "\n\n## Table\n\n| a | b |\n|---|---|\n"
    + "| 1 | 2 |\n" * 40
    + "\nAfter the table.\n\n"
    + "```\ncode line\n" * 5
    + "```\n\nNotes:\n- one\n- two\n\n"
    + "    +-----+-----+\n    |  x  |  y  |\n    |-----+-----|\n" * 4
)


@pytest.mark.parametrize("size", [60, 120, 200, 400, 900])
def test_a_structured_page_gives_the_same_chunks(monkeypatch, size):
    got = [c.to_dict() for c in iter_chunks(_MARKDOWN, size=size)]
    monkeypatch.setattr(packer, "paragraph_spans", lambda p: None)
    monkeypatch.setattr(PackingChunker, "section_spans", lambda *a: None)  # every region made, the packer's loop
    want = [c.to_dict() for c in iter_chunks(_MARKDOWN, size=size)]
    assert got == want
    assert any(c["embed_text"] != c["text"] for c in got) or size >= 900  # a table's header repeated


def test_it_serves_a_region_with_atoms_and_not_plain_text():
    text = "a para.\n\n" * 30
    measure = CharMeasure(text)
    with_atoms = Packer(text, measure, 50, atoms=[(9, 27)], end_levels=CHUNKERS["recursive"].end_levels)
    assert packer.paragraph_spans(with_atoms) is not None
    plain = Packer(text, measure, 50, end_levels=CHUNKERS["recursive"].end_levels)
    assert packer.paragraph_spans(plain) is None
    overlapped = Packer(text, measure, 50, 10, atoms=[(9, 27)], end_levels=CHUNKERS["recursive"].end_levels)
    assert packer.paragraph_spans(overlapped) is None


def _both(text: str, size: int, **kw) -> tuple[list, list]:
    def spans() -> list:
        return list(Packer(text, CharMeasure(text), size, end_levels=CHUNKERS["recursive"].end_levels, **kw).spans())

    got = spans()
    with pytest.MonkeyPatch.context() as m:
        m.setattr(packer, "paragraph_spans", lambda p: None)
        return got, spans()


@pytest.mark.parametrize("size", [200, 240, 330, 660, 140, 100])
def test_the_last_budgets_share_the_text_as_the_packers_do(size):
    """658 characters: four budgets of 200 (balanced), three of 240, two of 330, one of 660,
    five of 140 (not balanced); every paragraph 22 characters."""
    text = "\n\n".join(["word end. word word."] * 30)
    got, want = _both(text, size, atoms=[(22, 40)], balance=True)
    assert got == want
    if size == 200:  # an even share: the first chunk ends before the farthest cut that fits
        assert got[0][1] < 198


def test_an_atom_right_after_a_heading_does_not_end_a_chunk_on_it():
    """The window ends inside a table that follows a heading: the table's start would leave
    the heading at the chunk's end, so the line before the heading ends it."""
    text = "Intro line.\n# H\n| a |\n|---|\n| 1 |\n| 2 |\n\nTail para."
    head, table = (12, 16), (16, text.index("\n\nTail") + 1)
    got, want = _both(text, 30, atoms=[table], heads=[head])
    assert got == want
    assert got[0][1] == 12


def test_an_atom_that_starts_inside_a_line_is_no_line_cut():
    """The window ends inside an atom that starts mid-word: its start is no line cut, so a
    finer level ends the chunk (here the word before it, the line end being a soft wrap)."""
    text = "Intro line of words\nsome more wordsXtable row one\nrow two\nrow three\n\nTail para."
    atom = (text.index("Xtable"), text.index("\n\nTail"))
    got, want = _both(text, 40, atoms=[atom])
    assert got == want
    assert got[0][1] == text.index("wordsX")


# a hard-wrapped paragraph's lines, some with a sentence end where a new line evidently
# begins (a label after it), after white space alone or not, with a table at the end (the
# regions' path): the chunks that end at a hard newline are found in C
_LINES = ["word word word", "a much longer line of several words", "short", "an end. Note: more", "了。所見：異常なし"]
_hard_wrapped_with_a_table = st.tuples(
    st.sampled_from(["", "  \n\n", "\n\n\n", " \n", " " * 28 + "\n"]),
    st.lists(st.lists(st.sampled_from(_LINES), min_size=1, max_size=14).map("\n".join), min_size=1, max_size=4).map(
        "\n\n".join
    ),
).map(lambda t: t[0] + t[1] + "\n\n| a | b |\n|---|---|\n| 1 | 2 |\n")


@settings(max_examples=300, deadline=None)
@given(_hard_wrapped_with_a_table, st.integers(8, 160), st.booleans())
# white space alone before the paragraph cut: the packer looks from past it, where the
# newline is in its window's first half, and ends the chunk at the inferred line start
@example("   \n\n\n了。所見：異常なし\nan end. Note: more\n\n| a | b |\n|---|---|\n| 1 | 2 |\n", 30, False)
# a line of spaces before the newline: a chunk of white space alone, which the packer extends
@example(
    " " * 28 + "\nword word word\n了。所見：異常なし\nan end. Note: more\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
    34,
    False,
)
def test_the_compiled_line_end_is_the_packers(text, size, balance):
    table = (text.index("\n| a |") + 1, len(text))
    got, want = _both(text, size, atoms=[table], balance=balance)
    assert got == want


def test_a_hard_newline_in_the_windows_first_half_leaves_the_end_to_the_packer():
    """The window's last hard newline (after "short") is in its first half; the lines after it
    are soft wraps, and a sentence end before a label lies in the window: a line evidently
    begins there, and the packer ends the chunk at it, not at the newline."""
    text = "short\n" + "了。所見：異常なし\n" * 5 + "\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    got, want = _both(text, 47, atoms=[(text.index("| a |"), len(text))])
    assert got == want
    assert got[0][1] == 38  # 了。|所見：


# in the last four budgets (a section of a Markdown page, a hard-wrapped paragraph's tail),
# chunks that end at the line level are balanced over the line cuts: runs of newlines with
# white space between (no-break and em spaces too), sentence ends where a line may begin
_SENTENCES = [
    "了。所見：異常なし",
    "an end. Note: more",
    "The line ends here.",
    "Summary: fine.",
    "word word",
    "x。",
    "| a |",
]
_RUNS = [" ", " ", "\n", "\n", "\n\u00a0\n", "\n\u2003\n\n", "\n \n"]
_lines_with_runs = st.lists(
    st.tuples(st.sampled_from(_SENTENCES), st.sampled_from(_RUNS)), min_size=2, max_size=25
).map(lambda xs: "".join(a + b for a, b in xs))


@settings(max_examples=300, deadline=None)
@given(_lines_with_runs, st.integers(8, 200), st.none() | st.tuples(st.integers(0, 10**6), st.integers(2, 40)))
# the window's farthest newline ends no run (a no-break space and a newline follow it): the
# packer's list of the balanced window's line cuts is then not the newlines' alone
@example(
    "| a | b | an end. Note: more 了。\n\u2003\n\n| a | b | an end. Note: more\n\xa0\n了。\nPlan: rest.\n \n"
    "Plan: rest.\nan end. Note: more\nSummary: fine.\n\xa0\n",
    65,
    (14, 28),
)
def test_the_last_budgets_share_line_ends_as_the_packers_do(text, size, atom):
    atoms = [] if atom is None else [(atom[0] % len(text), min(len(text), atom[0] % len(text) + atom[1]))]
    got, want = _both(text, size, atoms=atoms, balance=True)
    assert got == want


def _no_search(p, s):
    raise AssertionError(f"the packer's search was asked at {s}")


def test_a_long_sections_lines_are_shared_in_c():
    """A list longer than the budget with a table after it, no paragraph cut in the first
    window, all of it in the last four budgets: the first chunk ends at the first line end
    past an even share (174), not at the farthest that fits (232), without the packer's
    search."""
    text = "".join(f"- item number {i:02d} of the list\n" for i in range(10)) + "\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    table = (text.index("| a |"), len(text))
    with pytest.MonkeyPatch.context() as m:
        m.setattr(compiled_packing, "_next_end", _no_search)
        levels = CHUNKERS["recursive"].end_levels
        got = list(Packer(text, CharMeasure(text), 250, end_levels=levels, atoms=[table], balance=True).spans())
    assert got == _both(text, 250, atoms=[table], balance=True)[1]
    assert got[0][1] == 174


def test_para_spans_says_what_its_lines_must_be():
    text = "word word\nword word\n\n| a |\n|---|\n"
    end = len(text)
    args = (text, [21], 12, 0, [21], [end], [], [], 0, [], [], lambda s: 0, end + 1, lambda s: end, 1)
    with pytest.raises(TypeError, match=r"lines must be None or \(soft_wraps, is_soft, widths: dict\)"):
        compiled.native.para_spans(*args, (True, len, []))
    assert compiled.native.para_spans(*args, None) == compiled.native.para_spans(*args)
