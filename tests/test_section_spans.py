"""A long section's spans read from the document's lists (``_sentscan.section_spans``
through ``PackingChunker.text_section_spans``, or asked by ``_sentscan.walk_sections``
itself), or from the region's own lists
(``section_spans``), without a ``Region`` made: the chunks are those of every region made
and packed by the packer's own loop."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from norishiro import iter_chunks
from norishiro.chunkers.base import PackingChunker
from norishiro.core import compiled, packer
from test_regions import _LINES as _REGION_LINES

pytestmark = pytest.mark.skipif(not compiled.active(), reason="the compiled module is not built here")

# the regions' test lines, and longer ones, so that sections outgrow small budgets
_LINES = _REGION_LINES + [
    "",
    "Some prose that runs on for a while, and then some more of it.",
    "短い文。次の文。まだ続く文。",
    "| 3 | 4 |",
    "Notes:",
    "  ",
]


def _chunks(text: str, **options) -> list[dict]:
    return [c.to_dict() for c in iter_chunks(text, **options)]


def _packers_own(text: str, **options) -> list[dict]:
    """The chunks with every region made and packed by the packer's loop."""
    with pytest.MonkeyPatch.context() as m:
        m.setattr(PackingChunker, "text_section_spans", lambda *a: None)
        m.setattr(PackingChunker, "reads_lists", property(lambda self: False))  # no walk in C either
        m.setattr(PackingChunker, "section_spans", lambda *a: None)
        m.setattr(packer, "paragraph_spans", lambda p: None)
        return _chunks(text, **options)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(_LINES) | st.text(max_size=14), min_size=1, max_size=60),
    st.integers(min_value=8, max_value=300),
    st.sampled_from(["\n", "\n", "\n", "\r\n"]),
    st.booleans(),
    st.sampled_from(["recursive", "recursive", "sentences"]),
)
@example(["# T", ""] + ["| a | b |", "|---|---|"] + ["| 1 | 2 |"] * 30 + ["", "after."], 40, "\n", True, "recursive")
def test_section_spans_give_the_packers_chunks(lines, size, eol, balance, strategy):
    text = eol.join(lines)
    options = {"size": size, "balance": balance, "strategy": strategy}
    assert _chunks(text, **options) == _packers_own(text, **options)


def test_a_long_section_with_a_table_is_read_from_the_documents_lists(monkeypatch):
    """The compiled reading serves the common case (and the chunks are the packer's)."""
    text = "# Title\n\nIntro.\n\n| a | b |\n|---|---|\n" + "| 1 | 2 |\n" * 60 + "\nAfter.\n"
    served = []
    own = PackingChunker.text_section_spans

    def counted(self, *args):
        got = own(self, *args)
        served.append(got is not None)
        return got

    walk = compiled.native.walk_sections

    def walked(*args):  # the walk over the sections asks section_spans itself
        got = walk(*args)
        served.append(got[2] is not False)
        return got

    monkeypatch.setattr(PackingChunker, "text_section_spans", counted)
    monkeypatch.setattr(compiled.native, "walk_sections", walked)
    got = _chunks(text, size=120)
    assert served and all(served)
    monkeypatch.undo()
    assert got == _packers_own(text, size=120)
    assert any(c["embed_text"].startswith("| a | b |\n|---|---|\n| 1") for c in got[1:])  # the header repeated


def _call(**changes):
    text = "# T\n\nbody.\n\nmore body text.\n"
    args = dict(
        text=text,
        a=0,
        b=len(text),
        size=8,
        paras=[5, 12],
        suspects=[],
        atom_starts=[5],
        atom_ends=[12],
        t_starts=[],
        t_ends=[],
        t_lens=[],
        body=5,
        tail=0,
        line_next=True,
        make=lambda piece, cuts: (None, lambda s: s + 1),
    )
    args.update(changes)
    return compiled.native.section_spans(*args.values())


def test_section_spans_says_what_is_wrong():
    assert _call()[0][0][0] == 0  # as given, it works
    with pytest.raises(ValueError, match="paired lists of unequal length"):
        _call(atom_ends=[])
    with pytest.raises(ValueError, match="size must be positive"):
        _call(size=0)
    with pytest.raises(TypeError, match=r"make must give \(lines, step\)"):
        _call(make=lambda piece, cuts: "lines")
    with pytest.raises(TypeError):
        _call(paras=(5, 12))
    crlf = "# T\r\n\r\nbody.\r\n\r\nmore body text.\r\n"
    assert _call(text=crlf, b=len(crlf)) is None  # another line break: the piece's own boundaries decide
    assert _call(text=" " + "# T\n\nbody.\n\nmore body text.\n"[1:]) is None  # a blank first line: its own cuts
