"""The token index of one text: where each token of the whole text ends, kept once, so
that where a budget runs out is estimated without tokenizing spans, and (for the tiktoken
encodings) a span's exact count needs only its two ends tokenized again.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence

from . import compiled

__all__ = ["TokenIndexMeasure", "TiktokenMeasure"]


class TokenIndexMeasure:
    """Tokens, with an index of where each token of the whole text ends: estimates from
    the index, exact counts by counting the span (its ends may tokenize differently).
    The index is an ``array('q')`` (a list is taken and copied): a Python int per token
    would cost about a tenth of tokenizing, and the index is only searched and read at a
    few positions per chunk, by the compiled search where there is one."""

    __slots__ = ("text", "ends", "n", "_count", "_right", "_left")
    unit = "tokens"
    exact_index = False

    def __init__(self, text: str, ends: Sequence[int], count: Callable[[str], int]):
        self.text = text
        # sorted char offsets (exclusive) at which tokens end
        self.ends = ends if type(ends) is array else array("q", ends)
        self.n = len(text)
        self._count = count
        # bisect_right and bisect_left over the index (bisect makes an int of every element it reads)
        native = compiled.native if compiled.active() else None
        self._right, self._left = (native.ends_right, native.ends_left) if native else (bisect_right, bisect_left)

    def count(self, start: int, end: int, head: str = "") -> int:
        return self._count(head + self.text[start:end])

    def count_text(self, text: str) -> int:
        return self._count(text)

    def estimate(self, start: int, end: int) -> int:
        if end <= start:
            return 0
        ends = self.ends
        return min(self._left(ends, end) + 1, len(ends)) - self._right(ends, start)

    def last_within(self, start: int, cands: Sequence[int], budget: int) -> int:
        """The index of the last of ``cands`` (ascending, after ``start``) whose estimate is
        at most ``budget``, or -1: two look-ups, not a search estimating each candidate."""
        k = budget + self._right(self.ends, start) - 1  # estimate(start, c) <= budget: c <= ends[k]
        if k >= len(self.ends) - 1:  # every candidate (the estimate stops growing at the last end)
            return len(cands) - 1
        return bisect_right(cands, self.ends[k]) - 1 if k >= 0 else -1

    def reach(self, start: int, budget: int) -> int:
        ends = self.ends
        i = self._right(ends, start) + budget - 1
        if i >= len(ends):
            return self.n
        return ends[i]

    def back(self, end: int, budget: int) -> int:
        i = self._right(self.ends, end) - budget - 1
        return self.ends[i] if i >= 0 else 0


# Where a tiktoken text can be cut so that count(a + b) == count(a) + count(b) exactly.
# o200k_base and cl100k_base first split text into pieces with a regular expression, then
# encode every piece alone; a position is a piece boundary in *any* text around it, and no
# piece match before it looks past it, when (the character before | the one after):
#   not white space | " "        every alternative that can hold the left character stops
#                                at a space, and a space only ever starts a piece;
#   "\n"            | not white space, not "/"   white-space pieces end at the run's end,
#                                and a punctuation piece's tail [\r\n/]* stops there;
#   letter or digit | CJK/ASCII punctuation, no apostrophe   letter and digit pieces stop
#                                there ("'" could start a contraction like "'s").
# Letters are listed by stable ranges (Latin, kana, CJK, fullwidth) rather than \p{L}, so a
# newer Unicode version in the tokenizer can never disagree with Python's tables.
_CUT_SAFE = re.compile(
    r"(?<=\S)(?= )"
    r"|(?<=\n)(?=[^\s/])"
    r"|(?<=[A-Za-z0-9\u3041-\u3096\u309d-\u309f\u30a1-\u30fa\u30fc-\u30ff\u4e00-\u9fff"
    r"\uff10-\uff19\uff21-\uff3a\uff41-\uff5a])"
    r"(?=[、。，．！？「」『』（）【】〈〉《》〔〕・：；…,.!?;:()\[\]\"])"
)
_SHORT = 64  # spans up to this long are simply counted


class TiktokenMeasure(TokenIndexMeasure):
    """Tokens of a tiktoken encoding, with exact counts of any span from the index.

    The count of ``head + text[s:e]`` is the tokenizer's count of the short stretches up
    to the first and from the last cut-safe position, plus the whole-text tokens between
    them: one small count at each end instead of re-tokenizing the span.
    """

    __slots__ = ("_span",)

    def __init__(self, text: str, ends: Sequence[int], count: Callable[[str], int]):
        super().__init__(text, ends, count)
        # the count below compiled (the cut-safe positions tested in place): asked per chunk
        self._span = compiled.native.span_count if compiled.active() else None

    def count(self, start: int, end: int, head: str = "") -> int:
        if self._span is not None:
            return self._span(self.text, self.ends, start, end, head, self._count, _SHORT)
        return self.count_here(start, end, head)

    def count_here(self, start: int, end: int, head: str = "") -> int:
        """Exactly ``count(head + text[start:end])`` (``count``'s Python twin). The text's own start and end are
        piece boundaries as the cut-safe positions are: a span from the start without a head,
        or to the end, needs no recount there (the whole text: none at all); nor does an end
        that is cut-safe itself, the start without a head (a paragraph's first character:
        a span between two paragraph cuts is counted from the index alone)."""
        text, count, ends = self.text, self._count, self.ends
        from_start, to_end = start == 0 and not head, end == self.n
        if from_start and to_end:
            return len(ends)
        if end - start <= _SHORT:
            return count(head + text[start:end])
        first = None if from_start else _CUT_SAFE.search(text, start + 1 if head else start, end)
        if first is None and not from_start:
            return count(head + text[start:end])
        p1 = first.start() if first else 0
        p2, window = (end if to_end or _CUT_SAFE.match(text, end) else p1), 16  # the end itself, or one near it
        while p2 == p1 and end - window > p1:
            for m in _CUT_SAFE.finditer(text, end - window, end):
                p2 = m.start()
            window *= 8
        between = self._right(ends, p2) - self._right(ends, p1)
        first = count(head + text[start:p1]) if p1 > start or head else 0
        return first + between + (count(text[p2:end]) if p2 < end else 0)
