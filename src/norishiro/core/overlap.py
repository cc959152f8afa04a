"""Where the next chunk starts when chunks overlap: the last whole units of the previous
chunk that fit the overlap budget (never a partial unit), at the coarsest overlap level
that has one, the longest overlap first."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterator

from .levels import CLAUSE, GRAPHEME, LEVELS, LINE, LOWER_SENTENCE, SENTENCE, WORD, Level

__all__ = ["OverlapSearch"]

_FINER = (LOWER_SENTENCE, CLAUSE, WORD)  # the overlap levels below the sentence


class OverlapSearch:
    """The overlap half of :class:`~norishiro.core.packer.Packer` (which provides the text's
    boundaries ``bnd``, the measure ``m``, ``overlap``, ``overlap_levels``, ``exact``,
    ``indexed``, ``_quick`` (characters, the sentence level first: ``first_starts`` answers),
    and ``_blocked``, ``raw_fits``)."""

    def _overlap_lo(self, s: int, e: int) -> int:
        """Where overlap candidates begin: no start before it fits the overlap budget.

        For tokens the index predicts it, with a margin wider than the few tokens by which
        a span's own count can differ from the index (the edges of its first and last piece).
        """
        if self.exact:
            return max(s, e - self.overlap - 1)
        if not self.indexed:
            return s
        return max(s, self.m.back(e, self.overlap + 8) - 16)

    def first_starts(self) -> Callable[[int, int], int]:
        """``(s, e) ->`` the first start ``overlap_starts`` yields at the sentence level for
        the chunk ``s..e``, from one compiled pass (characters, the sentence level first):
        the packer's common case without the search's generators, as one function made for
        the text (the packer asks at every chunk). 0: there is none at that level; -1: the
        Python search must look; -2: not asked (no overlap, tokens, another first level, or
        a text the compiled pass does not serve)."""
        # in characters the candidates begin ``overlap + 1`` before the chunk's end (``_overlap_lo``)
        first = self.bnd.first_starts(self._kept(), self.overlap + 1) if self._quick and self.overlap > 0 else None
        return first if first is not None else lambda s, e: -2

    def overlap_starts(self, s: int, e: int, first: int = -2) -> Iterator[int]:
        """Candidate starts for the next chunk, most overlap first (whole units only).

        The coarsest overlap level that has a unit fitting the overlap budget is used;
        within it, starts are tried from the longest overlap to the shortest. ``first``:
        what ``first_starts`` said, when the caller asked it.
        """
        if self.overlap <= 0 or not self.overlap_levels:
            return
        lo = self._overlap_lo(s, e)
        if self._atom_starts and self._held(lo, e):
            return
        empty: list[Level] = []  # finer levels searched in these windows without a start
        for level in self.overlap_levels:
            if self.exact:
                # every cut after lo fits, and the first is the longest overlap
                found = False
                if level is SENTENCE:  # nearly always the level that has one
                    for c in self._sentence_starts(s, e, lo, first):
                        found = True
                        yield c
                    if found:
                        return
                    continue
                # look in a window about half the usual overlap long first (each window
                # costs a round of look-ups, each character little) and go on only if asked
                a, step = lo, 128
                # the compiled pass found no start at the sentence level or coarser: only the
                # finer levels' own cuts can be starts
                finer = first == 0 and level is not GRAPHEME
                while a < e - 1:
                    b = min(e - 1, a + step)
                    got = self._finer_cuts(level, s, e, a, b, empty) if finer else self._overlap_iter(level, s, e, a, b)
                    for c in got:
                        found = True
                        yield c
                    a, step = b, step * 4
                if found:
                    return
                empty.append(level)
                continue
            cands = self._overlap_cands(level, s, e, lo, e - 1)
            a = self._first_fitting(cands, e, self.overlap)
            if a < len(cands):
                yield from cands[a:]
                return

    def _kept(self) -> tuple[list[int], list[int]] | None:
        """The starts and ends of the spans kept whole, for the compiled pass (None: none)."""
        return (self._atom_starts, self._atom_ends) if self._atom_starts else None

    def _held(self, lo: int, e: int) -> bool:
        """One span kept whole holds the window ``(lo, e - 1]`` but for a short tail with no
        cut of the finest overlap level (the newlines that end a table or a code block): no
        level has a start there, and the search need not look level by level."""
        i = bisect_right(self._atom_starts, lo) - 1
        if i < 0 or bisect_right(self._atom_starts, e - 2) - 1 != i:  # another one begins inside
            return False
        free = self._atom_ends[i]  # the first position not inside it
        if free > e - 1:
            return True
        finest = self.overlap_levels[-1]
        return e - 1 - free < 64 and finest is not GRAPHEME and not self._cuts_upto(finest, free - 1, e - 1)

    def _overlap_cands(self, level: Level, s: int, e: int, lo: int, hi: int) -> list[int]:
        """Starts in ``(lo, hi]`` at ``level`` or any coarser level (a line start is also a
        sentence start), inside the chunk ``s..e`` and not inside an atom."""
        if level is GRAPHEME:
            cands = self.bnd.window_cuts(GRAPHEME, lo, hi)
        else:
            cands = self._cuts_upto(level, lo, hi)
        return [c for c in cands if s < c < e and not self._blocked(c)]

    def _overlap_iter(self, level: Level, s: int, e: int, lo: int, hi: int) -> Iterator[int]:
        """``_overlap_cands`` one at a time, in order: a newline gets its soft-wrap test only
        when it is reached (the first start usually serves, and most need none)."""
        if level < SENTENCE or level is GRAPHEME:
            yield from self._overlap_cands(level, s, e, lo, hi)
            return
        sure: set[int] = set(self.bnd.glued_cuts(lo, hi))
        for lv in LEVELS:
            if lv > level:
                break
            if lv is not LINE:  # a line start inferred at a sentence end is a sentence cut
                sure.update(self.bnd.window_cuts(lv, lo, hi))
        for c in sorted(sure.union(self.bnd.newline_cuts(lo, hi))):
            if s < c < e and not self._blocked(c) and (c in sure or not self.bnd.is_soft(c)):
                yield c

    def _finer_cuts(self, level: Level, s: int, e: int, lo: int, hi: int, empty: list[Level] = ()) -> list[int]:
        """``_overlap_iter(level, s, e, lo, hi)`` for a level finer than the sentence where
        the window holds no start at the sentence level or coarser: its own cuts and those
        of the levels between (no newline, paragraph or sentence cut to merge or to test),
        but for the levels in ``empty``, which had no start in this window (the same filter
        would drop every cut of theirs)."""
        levels = [lv for lv in _FINER if lv <= level and lv not in empty]
        cuts = self.bnd.window_cuts(levels[0], lo, hi)
        if len(levels) > 1:
            cuts = sorted(set(cuts).union(*(self.bnd.window_cuts(lv, lo, hi) for lv in levels[1:])))
        return [c for c in cuts if s < c < e and not self._blocked(c)]

    def _sentence_starts(self, s: int, e: int, lo: int, first: int = -2) -> Iterator[int]:
        """The starts of ``_overlap_iter(Level.SENTENCE, s, e, lo, e - 1)``: the first from
        one compiled pass where it can be found there (``Boundaries.first_start``: the
        packer nearly always takes it), the rest from ``_overlap_iter`` when asked for.
        ``first``: that pass's answer when the caller has it (-2: ask)."""
        bnd, hi = self.bnd, e - 1
        if hi <= lo:
            return
        if first == -2:
            first = bnd.first_start(lo, hi, self._kept())
        if first == 0:
            return
        if first > 0:  # the compiled pass found the first; the rest only if asked for
            yield first
        for c in self._overlap_iter(SENTENCE, s, e, lo, hi):
            if c > first:
                yield c

    def _first_fitting(self, cands: list[int], e: int, budget: int) -> int:
        """Index of the first candidate ``c`` with the text ``c..e`` within ``budget``
        (``len(cands)`` if none): the count shrinks as ``c`` grows."""
        index = self.m if self.indexed else None
        fits = self.raw_fits
        a, b = 0, len(cands)
        while a < b:  # on the index's estimate when there is one, else on exact counts
            mid = (a + b) // 2
            if (index.estimate(cands[mid], e) <= budget) if index else fits(cands[mid], e, budget):
                b = mid
            else:
                a = mid + 1
        if index is None:
            return a
        # verify exactly around the estimate: BPE counts at the edges differ by a few tokens
        if a < len(cands) and fits(cands[a], e, budget):
            while a > 0 and index.estimate(cands[a - 1], e) <= budget + 3 and fits(cands[a - 1], e, budget):
                a -= 1
            return a
        while a < len(cands) and not fits(cands[a], e, budget):
            a += 1
        return a

    def _cuts_upto(self, level: Level, lo: int, hi: int) -> list[int]:
        """Cuts in ``(lo, hi]`` at ``level`` or any coarser level, sorted."""
        merged: set[int] = set()
        for lv in LEVELS:
            if lv > level:
                break
            if lv is LINE and level >= SENTENCE:  # sentence ends come next
                merged.update(self.bnd.line_cuts_beside_sentences(lo, hi))
            else:
                merged.update(self.bnd.window_cuts(lv, lo, hi))
        return sorted(merged)
