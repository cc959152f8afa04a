"""Greedy packing of a text into spans within a budget, cutting only at allowed levels.

Both the recursive and the fixed-window chunker are this one loop with different levels:

* the end of a chunk is the farthest cut of the *coarsest* level that still fits the budget
  (paragraph, else line, else sentence, ... else grapheme), which is what "split at the
  largest boundary that fits, then merge" produces, without building intermediate lists;
* with ``balance``, when what is left needs at most four chunks, each ends at the first cut
  of that same level past an even share of it, so a text of 1.1 budgets becomes two halves
  rather than a full chunk and a sliver;
* the next chunk starts earlier by the overlap: the last whole units of the previous chunk
  that fit the overlap budget (never a partial unit), and only as much overlap as leaves
  room for new text within the budget.

Sizes come from a :class:`~norishiro.core.measure.Measure` of the text and are exact: the
packer only searches (:mod:`.packer_sizes`). Where the measure's index is exact (characters)
no count is needed; otherwise the index's estimate says where to look first and one exact
count verifies it. Without overlap, in characters, :mod:`.compiled_packing` runs the search
compiled; for plain text in tokens, :mod:`.token_lines` answers its common cases.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Sequence
from itertools import islice

from .boundaries import Boundaries
from .compiled_packing import paragraph_spans
from .levels import CLAUSE, GRAPHEME, LEVELS, LINE, LOWER_SENTENCE, PARAGRAPH, SENTENCE, WORD, Level
from .measure import Measure
from .newlines import no_newline
from .overlap import OverlapSearch
from .packer_sizes import PackerSizes
from .plain import BALANCED_TAIL, find_ink, paragraph_end, past_blank
from .token_lines import serves, token_end

Span = tuple[int, int, int]  # start, end, size


def _sorted_levels(levels: Sequence[Level]) -> list[Level]:
    """``sorted(levels)``, sorted once per chunker's tuple (a section of a Markdown page is
    a packer of its own); a new list each time for any other sequence. The lists are read,
    never changed."""
    if type(levels) is not tuple:
        return sorted(levels)
    got = _SORTED.get(levels)
    if got is None:
        got = _SORTED[levels] = sorted(levels)
    return got


_SORTED: dict[tuple[Level, ...], list[Level]] = {}


class Packer(OverlapSearch, PackerSizes):
    def __init__(
        self,
        text: str,
        measure: Measure,
        size: int,
        overlap: int = 0,
        end_levels: Sequence[Level] = LEVELS,
        overlap_levels: Sequence[Level] = (SENTENCE, LOWER_SENTENCE, CLAUSE, WORD),
        boundaries: Boundaries | None = None,
        prefix: Callable[[int], str] | None = None,
        atoms: Sequence[tuple[int, int]] = (),
        heads: Sequence[tuple[int, int]] = (),
        merge_coarser: bool = False,
        balance: bool = False,
    ):
        self.text = text
        self._level: Level | None = None
        self.n = len(text)
        self.m = measure
        self.size = size
        self.overlap = overlap
        self.end_levels = _sorted_levels(end_levels)
        self.overlap_levels = _sorted_levels(overlap_levels)
        # characters with the sentence level first: the compiled pass finds the overlap's start
        self._quick = measure.exact_index and self.overlap_levels[:1] == [SENTENCE]
        self.bnd = boundaries or Boundaries(text)
        # an end level's cuts include those of every coarser level (farthest cut wins)
        self.merge_coarser = merge_coarser
        # the index is exact (characters): sizes need no count, only positions
        self.exact = measure.exact_index
        # the measure has an index whose estimates guide the search (tokens)
        self.indexed = not self.exact and measure.estimate(0, 0) is not None
        # with ``balance``, chunks from here on (the last four budgets) may end earlier
        self._balance_from = self.n + 1
        if balance and (self.exact or self.indexed):
            self._balance_from = measure.back(self.n, BALANCED_TAIL * size)
        self._counts: dict[tuple[int, int], int] = {}
        # text put in front of a chunk starting at s (context header, repeated table header):
        # it counts against the budget, so every size below is of prefix + text
        self._prefix = prefix
        self._plens: dict[int, int] = {}
        # a prefix that is one text but in some spans (a table's header in its body, the
        # regions' ``_TablePrefix``) says where: elsewhere its size needs no look-up
        self._base_len: int | None = None
        if prefix is not None and hasattr(prefix, "spans"):
            self._vary_starts, self._vary_ends = prefix.spans()
            self._base_len = measure.count_text(prefix.base)
        # characters with no prefix: a span's size is its length (written out where asked per chunk)
        self._plain = self.exact and not prefix
        # spans kept whole (code, tables, lists with their lead-in) when they fit
        self._atom_starts: list[int] = []
        self._atom_ends: list[int] = []
        if atoms:
            fitting = self._fitting(atoms, size)
            self._atom_starts = [a for a, _ in fitting]
            self._atom_ends = [b for _, b in fitting]
        # headings on their own lines (start, where their text begins): no chunk should end on one
        self._head_starts: list[int] = []
        self._head_bodies: list[int] = []
        if heads:
            ordered = sorted((a, b) for a, b in heads if b > a)
            self._head_starts = [a for a, _ in ordered]
            self._head_bodies = [b for _, b in ordered]

    def _fitting(self, atoms: Sequence[tuple[int, int]], size: int) -> list[tuple[int, int]]:
        """The atoms that fit ``size``, in order. In characters an atom's size is its length
        and its prefix's (``plen``: the base text's size but where it may vary), with no count
        (a section's atoms are hundreds of a manual's tables)."""
        if not self.exact:
            return sorted((a, b) for a, b in atoms if b > a and self.fits(a, b, size))
        if not self._prefix:  # a size is a length
            return sorted((a, b) for a, b in atoms if a < b <= a + size)
        plen = self.plen
        return sorted((a, b) for a, b in atoms if b > a and plen(a) + b - a <= size)

    def prefix(self, s: int) -> str:
        return self._prefix(s) if self._prefix else ""

    def plen(self, s: int) -> int:
        """Size of the prefix of a chunk starting at ``s``."""
        if not self._prefix:
            return 0
        if self._base_len is not None:
            i = bisect_right(self._vary_starts, s) - 1
            if i < 0 or s >= self._vary_ends[i]:
                return self._base_len
        got = self._plens.get(s)
        if got is None:
            got = self._plens[s] = self.m.count_text(self._prefix(s))
        return got

    def _blocked(self, c: int) -> bool:
        i = bisect_right(self._atom_starts, c - 1) - 1
        return i >= 0 and c < self._atom_ends[i]

    def _atom_free(self, lo: int, hi: int) -> bool:
        """No span kept whole holds a cut in ``(lo, hi]`` (then every cut there is usable as
        far as atoms go, and the search may take the quick paths of a text without them)."""
        starts = self._atom_starts
        if not starts:
            return True
        i = bisect_right(starts, hi - 1) - 1  # the last one that starts before hi
        return i < 0 or self._atom_ends[i] <= lo + 1

    def _tail_only(self, lo: int, hi: int, avoid_heads: bool) -> bool:
        """The cuts of ``(lo, hi]`` may be asked for the tail only (the farthest one that fits
        is taken as it comes): no atom there, or none in the window and no heading to avoid."""
        return not self._atom_starts or (not avoid_heads and self._atom_free(lo, hi))

    def _on_heading(self, c: int) -> bool:
        """``c`` lies inside a heading or right after it (before its text)."""
        i = bisect_right(self._head_starts, c - 1) - 1
        return i >= 0 and c <= self._head_bodies[i]

    # -- the search ----------------------------------------------------------------------
    def _cuts(self, level: Level, lo: int, hi: int, avoid_heads: bool = False) -> list[int]:
        free = self._tail_only(lo, hi, avoid_heads)
        if self.merge_coarser:
            cuts = self._cuts_upto(level, lo, hi)
        else:
            tail = self.exact and free and not (avoid_heads and level > SENTENCE)  # a heading may hold a tail's cuts
            cuts = self.bnd.window_cuts(level, lo, hi, tail_only=tail, packing=True)
        if not free:
            cuts = [c for c in cuts if not self._blocked(c)]
        if avoid_heads:
            cuts = [c for c in cuts if not self._on_heading(c)]
        # the end of the text is the coarsest boundary of all
        if hi >= self.n > lo and level == self.end_levels[0] and (not cuts or cuts[-1] != self.n):
            cuts = cuts + [self.n]
        return cuts

    def find_end(self, s: int, lo: int) -> int | None:
        """Best end for a chunk starting at ``s`` that must reach beyond ``lo``, leaving no
        heading at its end where one can, and more than white space where one can."""
        if self._plain and s < self._balance_from and not (self._atom_starts or self._head_starts):
            hi = self._window_end(s)
            if lo < hi < self.n and self.end_levels[-1] is GRAPHEME and not self.text[s : hi + 1].strip(" \t"):
                # spaces and tabs alone (a padded page): no level but the grapheme has a cut
                # in the window, and none past it fits; the search would end where the budget does
                return hi
        # only a heading whose text begins after s and that starts within reach matters
        i, got = bisect_right(self._head_bodies, s), None
        self._level = None
        if i < len(self._head_bodies) and self._head_starts[i] < self._reach(s, self.size):
            got = self._find_end(s, lo, avoid_heads=True)
            got = self._balanced(s, lo, got, True) if s >= self._balance_from and got is not None else got
        if got is None:
            got = self._find_end(s, lo)
            got = self._balanced(s, lo, got, False) if s >= self._balance_from and got is not None else got
        if got is not None and self.text[s].isspace() and find_ink(self.text, s, got) is None:  # white space alone
            past = past_blank(self.text, got, lo, self._window_end(s))  # past it, where an end can be
            got = self.find_end(s, past) or got
        return got

    def _window_end(self, s: int) -> int:
        """Where the search's window for a chunk from ``s`` ends: no end past it fits."""
        return min(self.n, s + self.size) if self._plain else self._reach(s, self.size)

    def _find_end(self, s: int, lo: int, avoid_heads: bool = False) -> int | None:
        hi = self._window_end(s)
        held = self._before_atom(hi) if self._atom_starts else hi
        hi, edge = held, (held if held < hi else None)  # edge: where the atom holding hi starts
        if hi <= lo:
            return None
        levels = self.end_levels
        if self.exact and levels[0] is PARAGRAPH:
            # characters: most chunks end at the text end or the farthest usable paragraph cut (all fit)
            if hi >= self.n:
                return self.n
            para = self.bnd.paragraph_cuts()
            j = bisect_right(para, hi) - 1
            free = not avoid_heads and (not self._atom_starts or self._atom_free(lo, hi))  # every cut is usable
            while j >= 0 and para[j] > lo:
                if free or self._usable(para[j], avoid_heads):
                    self._level = PARAGRAPH
                    return para[j]
                j -= 1
            levels = levels[1:]
        # with a token index, look first near where the budget is predicted to run out (every
        # line and sentence cut of a long window costs more than counting); see there for an atom
        near = lo
        if self.indexed:
            guess = self.m.reach(s, self.size)
            near = max(lo, s + (guess - s) * 3 // 4)
            if edge is None and self._atom_starts and lo < guess < hi:  # hi is generous: the atom at guess
                held = self._before_atom(guess)
                edge = held if lo < held < guess else None
        for level in levels:
            # the farthest line cut the window can have (merged levels hold the line's cuts)
            if edge is not None and (level >= LINE if self.merge_coarser else level is LINE):
                if self._line_before_atom(s, edge, avoid_heads):
                    self._level = level
                    return edge
            if level is PARAGRAPH and hi < self.n and not self.bnd.window_cuts(level, lo, hi):
                continue  # none in the wide window (tokens): none in the near one
            wide = None
            if near > lo and level is LINE and no_newline(self.text, lo, hi):
                # a text that lost its lines: the wide window's line cuts first (its inferred line starts
                # hold the near one's); with none there and no glued row near hi, the near one has none either
                wide = self._cuts(level, lo, hi, avoid_heads)
                if not wide and not self.bnd.glued_near(near, hi):
                    continue
            for window_lo in (near, lo) if near > lo else (lo,):
                if self.exact and level is LINE and not self.merge_coarser and hi < self.n:
                    # every cut up to hi fits: the farthest usable line cut is the answer, and
                    # the cuts are looked at from the end, so the newlines and sentence ends
                    # before it need no test (near the text end, _cuts may add the end itself)
                    tail = self._tail_only(window_lo, hi, avoid_heads)
                    # with atoms in the window all the cuts are asked for; in a "\n"-only text
                    # the tail's come first in that list, and are found for less: look there first
                    for only_tail in (True,) if tail else (True, False) if self.bnd.lf else (False,):
                        for c in self.bnd.line_cuts_from_end(window_lo, hi, tail_only=only_tail):
                            if self._usable(c, avoid_heads):
                                self._level = level
                                return c
                    continue
                if wide is not None and (window_lo == lo or not self.bnd.glued_near(lo, hi)):  # the same cuts
                    cuts = [c for c in wide if c > window_lo]
                else:
                    cuts = self._cuts(level, window_lo, hi, avoid_heads)
                got = self._largest_fitting(s, cuts, self.size)
                if got is not None:
                    self._level = level
                    return got
        return None

    def _balanced(self, s: int, lo: int, e: int, avoid_heads: bool) -> int:
        """``e``, or an earlier cut of the level ``e`` was found at, so that when what is
        left of the text needs at most four chunks they share it evenly: no short last chunk
        beside full ones (at equal mean length, chunks of like size retrieve tighter)."""
        lv = self._level
        if lv is None or e >= self.n:
            return e
        rest = (self.n - s) if self._plain else (self.estimate(s, self.n) or 0)
        k = -(-rest // self.size)  # the fewest chunks that can hold the rest
        if not 2 <= k <= BALANCED_TAIL:
            return e
        share = -(-rest // k)
        t = min(self.n, s + share) if self._plain else self._reach(s, share + self.plen(s))
        t = max(t, lo + 1)  # never at or before lo: an overlapping chunk must reach past the one before it
        if t >= e:
            return e
        if lv is PARAGRAPH:  # window_cuts(PARAGRAPH, t - 1, e), read in place
            para = self.bnd.paragraph_cuts()
            cands = islice(para, bisect_left(para, t), bisect_right(para, e))
        else:
            cands = self.bnd.window_cuts(lv, t - 1, e, packing=True)
        for c in cands:
            if c >= t and self._usable(c, avoid_heads):
                # a shorter span fits where a longer one does; BPE counts are checked anyway
                return c if self.exact or self.fits(s, c, self.size) else e
        return e

    def _before_atom(self, hi: int) -> int:
        """``hi``, or the start of the atom that holds it: every cut between the two is
        blocked too, so no level need look there (a window ending inside a long code block
        found none at any level, down to every grapheme). For a packer with atoms."""
        if hi < self.n and self._blocked(hi):
            return self._atom_starts[bisect_right(self._atom_starts, hi - 1) - 1]
        return hi

    def _line_before_atom(self, s: int, a: int, avoid_heads: bool) -> bool:
        """An atom's start ``a`` is a line cut where a line starts: no soft wrap joins a table, code
        or a list to the text before (else: a word's end, or a chunk of the spaces before a table)."""
        return self.text[a - 1] == "\n" and self._usable(a, avoid_heads) and (self.exact or self.fits(s, a, self.size))

    def _usable(self, c: int, avoid_heads: bool) -> bool:
        """``c`` may end a chunk: not inside an atom, and not on a heading when avoided."""
        return not (self._atom_starts and self._blocked(c)) and not (avoid_heads and self._on_heading(c))

    def _plain_end(self, s: int, lo: int) -> int | None:
        """``find_end`` for plain text in characters: ``paragraph_end``, else the search."""
        got = paragraph_end(self.text, self._para, self.size, self._balance_from, s, lo)
        return self.find_end(s, lo) if got == -1 else got

    def _token_end(self, s: int, lo: int) -> int | None:
        """``find_end`` for plain text in tokens: ``token_end``, else the search."""
        got = token_end(self, s, lo)
        return self.find_end(s, lo) if got == -1 else got

    def overlap_next(
        self, s: int, e: int, first: int, find_end: Callable[[int, int], int | None]
    ) -> tuple[int, int] | None:
        """The chunk after ``s..e`` that starts at the first of ``overlap_starts`` (at most
        eight tried) for which ``find_end`` gives an end, or None (the next starts at ``e``)."""
        for tries, cand in enumerate(self.overlap_starts(s, e, first)):
            if tries >= 8:
                break
            got = find_end(cand, e)
            if got is not None:
                return cand, got
        return None

    def spans(self, after: tuple[int, int] | None = None) -> Iterator[Span]:
        """Yield ``(start, end, size)`` covering the text in order; with ``after``, those
        after the chunk ``(start, end)`` (which another search gave: see ``plain``)."""
        n, s = self.n, 0
        got = paragraph_spans(self) if after is None and n else None  # compiled, where it serves
        if n == 0 or got is not None:
            yield from got or ()
            return
        find_end = self.find_end
        plain = self._plain and not (self._atom_starts or self._head_starts or self.merge_coarser)
        if plain and self.end_levels[0] is PARAGRAPH and n > self.size:
            self._para = self.bnd.paragraph_cuts()  # read by _plain_end at every chunk
            find_end = self._plain_end
        elif serves(self):  # tokens, plain text: the paragraph level, or one look where a window lost its lines
            find_end = self._token_end
        if after is None:
            e = find_end(s, s)
            if e is None:  # a single grapheme larger than the budget: emit it, reported by size
                e = self.bnd.first_grapheme_end(s)
        else:
            s, e = after
        first_start = None  # made at the first overlap start (a text of one chunk needs none)
        while True:
            if after is None:
                yield s, e, (e - s) if self._plain else self.count(s, e)
            after = None
            if e >= n:
                return
            nxt_s, nxt_e = e, None
            if first_start is None:
                first_start = self.first_starts()
            first = first_start(s, e)
            if first > 0:  # the search's first candidate, compiled; the search only if it fails
                nxt_e = find_end(first, e)
                nxt_s = first if nxt_e is not None else e
            if self.overlap > 0 and nxt_e is None:
                got = self.overlap_next(s, e, first, find_end)
                if got is not None:
                    nxt_s, nxt_e = got
            if nxt_e is None:
                nxt_e = find_end(e, e)
                if nxt_e is None:
                    nxt_e = self.bnd.first_grapheme_end(e)
            s, e = nxt_s, nxt_e
