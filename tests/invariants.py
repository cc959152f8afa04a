"""The invariants every chunker keeps (DESIGN.md), as one checking function."""

from __future__ import annotations

import regex

_G = regex.compile(r"\X", regex.DOTALL)


def tiktoken_count(name: str = "o200k_base"):
    """The reference token count: tiktoken itself, not the fast counter norishiro uses."""
    from norishiro.core.tokenizers_offline import get_encoding

    enc = get_encoding(name)
    return lambda s: len(enc.encode_ordinary(s))


def grapheme_boundaries(text: str) -> set[int]:
    return {0} | {m.end() for m in _G.finditer(text)}


def check_chunks(text: str, chunks, size: int, count=len, overlap: int = 0) -> None:
    if not text.strip():  # nothing to embed: no chunk
        assert chunks == []
        return
    assert chunks, "non-empty text gave no chunks"
    gb = grapheme_boundaries(text)
    prev_start, covered = -1, 0
    for i, c in enumerate(chunks):
        assert c.index == i
        assert text[c.start : c.end] == c.text, "offsets are not exact"
        assert c.start > prev_start, "starts must strictly increase"
        assert c.start <= covered, f"gap before chunk {i}: text lost"
        assert c.end > covered, f"chunk {i} adds nothing new"
        assert c.start in gb and c.end in gb, f"chunk {i} cuts inside a grapheme cluster"
        assert c.embed_text.endswith(c.text)
        n = count(c.embed_text)
        assert c.size == n, "size is not the count of what is embedded (header + text)"
        if n > size:
            # only a single grapheme larger than the budget may exceed it
            assert len(_G.findall(c.text)) == 1, f"chunk {i} over budget: {n} > {size}"
        prev_start, covered = c.start, c.end
    assert covered == len(text), "text not fully covered"
    if overlap == 0:
        assert "".join(c.text for c in chunks) == text
