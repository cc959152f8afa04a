"""Sentence cuts of one text, window by window, for :class:`~norishiro.core.boundaries.Boundaries`.

The sentence rules need no context from before a line: brackets never span a line break
(the scan empties its bracket stack at one), a candidate terminator never holds one, and a
sentence start is a line start or the last cut. So the cuts of a window are those of the
lines it covers, scanned alone. A chunker asks for many windows of a paragraph that it
chunks by sentences (text without line breaks): such a paragraph is scanned whole, once.
An overlap window or a line-level look into a long hard-wrapped paragraph needs only its
few lines: they are scanned alone, and the paragraph never is.
"""

from __future__ import annotations

import bisect

from .sentences import lower_case_text, sentence_and_lower_cuts

__all__ = ["SentenceWindows"]

Pair = tuple[list[int], list[int]]
# the lines a window covers are scanned alone when they are this much shorter than their
# paragraph (and the paragraph is not scanned already)
_LOCAL_SHARE = 4
_NO_WINDOW: tuple[int, int, Pair] = (-1, -1, ([], []))  # no window is (-1, -1): never given out


class SentenceWindows:
    def __init__(self, text: str, paragraph_cuts: list[int]):
        self.text = text
        # the cuts themselves, not the Boundaries' method: a bound method here would make the
        # text's objects a reference cycle, which only the collector frees
        self.paragraphs = paragraph_cuts
        self.memo: dict[int, Pair] = {}  # the paragraphs scanned whole, by their start
        # the last two windows asked for: a token packer asks for a window near the budget's
        # end and a wider one at the line level, then the near one at the sentence level
        self._recent: list[tuple[int, int, Pair]] = [_NO_WINDOW, _NO_WINDOW]
        self.lower_text: bool | None = None  # the text starts its sentences in lower case (when known)
        self.local = True  # scan the covered lines alone where that is shorter (tests: False)

    def window(self, lo: int, hi: int, lower: bool = False) -> list[int]:
        """Sentence cuts in ``(lo, hi]``, or with ``lower`` the lower_sentence ones. In a
        text that starts its sentences in lower case, both are sentence cuts."""
        sentence, before_lower = self.pair(lo, hi)
        if not before_lower:
            return [] if lower else sentence
        if self.lower_text is None:
            self.lower_text = lower_case_text(self.text)
        if self.lower_text:
            return [] if lower else sorted(set(sentence) | set(before_lower))
        return before_lower if lower else sentence

    def pair(self, lo: int, hi: int) -> Pair:
        """Both kinds of sentence cuts in ``(lo, hi]``, paragraph by paragraph."""
        for a, b, got in self._recent:
            if a == lo and b == hi:
                return got
        text = self.text
        paras = self.paragraphs
        k = bisect.bisect_right(paras, lo)  # the paragraph holding lo
        sentence: list[int] = []
        before_lower: list[int] = []
        while k <= len(paras):
            start = paras[k - 1] if k else 0
            if start >= hi:
                break
            end = paras[k] if k < len(paras) else len(text)
            got = self.memo.get(start)
            if got is None:
                got = self._lines(start, end, lo, hi)
            for src, dst in zip(got, (sentence, before_lower)):
                dst += src[bisect.bisect_right(src, lo) : bisect.bisect_right(src, hi)]
            k += 1
        # the packer asks for the same window at the line level, then the sentence level
        self._recent = [(lo, hi, (sentence, before_lower)), self._recent[0]]
        return sentence, before_lower

    def scanned(self, p: int, scan: bool = False) -> Pair | None:
        """The cuts of the paragraph holding ``p`` when it was scanned whole (with ``scan``:
        scanned now if it was not), else None."""
        start, end = self._holding(p)
        got = self.memo.get(start)
        return self._whole(start, end) if got is None and scan else got

    def learn(self, lo: int, hi: int) -> bool:
        """What ``window(lo, hi)`` would learn first, learnt now, for a compiled reader of
        the memo that found it lacking (a window inside one paragraph): the paragraph
        holding ``lo`` scanned whole where ``_lines`` would scan it whole, else the text's
        case. False where there is nothing to learn so (the window's lines alone would be
        scanned, not remembered)."""
        start, end = self._holding(lo)
        if start not in self.memo:
            if self._local(start, end, lo, hi) is not None:
                return False
            self._whole(start, end)
            return True
        if self.lower_text is None:
            self.lower_text = lower_case_text(self.text)
            return True
        return False

    def _holding(self, p: int) -> tuple[int, int]:
        """Where the paragraph holding ``p`` starts and ends."""
        paras = self.paragraphs
        k = bisect.bisect_right(paras, p)
        return (paras[k - 1] if k else 0), (paras[k] if k < len(paras) else len(self.text))

    def _whole(self, start: int, end: int) -> Pair:
        """The cuts of the paragraph ``text[start:end]`` scanned whole, remembered."""
        got = self.memo[start] = sentence_and_lower_cuts(self.text, start, end)
        return got

    def _local(self, start: int, end: int, lo: int, hi: int) -> tuple[int, int] | None:
        """The lines of ``text[start:end]`` that hold ``(lo, hi]``, where they are a small
        share of it (scanned alone); None where the paragraph is scanned whole."""
        text = self.text
        a = max(start, text.rfind("\n", start, lo) + 1) if lo > start else start
        b = text.find("\n", hi, end) if hi < end else -1
        b = end if b < 0 else b
        return (a, b) if self.local and (b - a) * _LOCAL_SHARE <= end - start else None

    def _lines(self, start: int, end: int, lo: int, hi: int) -> Pair:
        """The cuts of the lines of ``text[start:end]`` that hold ``(lo, hi]``, or of the
        whole paragraph (then remembered) when those lines are most of it."""
        lines = self._local(start, end, lo, hi)
        return sentence_and_lower_cuts(self.text, *lines) if lines is not None else self._whole(start, end)
