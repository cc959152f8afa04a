"""The sizes half of :class:`~norishiro.core.packer.Packer` (which provides ``text``, ``n``,
the measure ``m``, ``exact``, ``indexed``, ``prefix``, ``plen`` and the ``_counts`` memo): a
span's count with its prefix, whether it fits, the index's estimate and reach, and the
farthest candidate end that fits a budget, found on the estimate and verified by one count.
"""

from __future__ import annotations

from bisect import bisect_right

__all__ = ["PackerSizes"]


class PackerSizes:
    def count(self, s: int, e: int) -> int:
        if self.exact:
            return self.plen(s) + e - s
        key = (s, e)
        c = self._counts.get(key)
        if c is None:
            c = self.m.count(s, e, self.prefix(s))
            if len(self._counts) > 4096:
                self._counts.clear()
            self._counts[key] = c
        return c

    def raw_fits(self, s: int, e: int, budget: int) -> bool:
        """Size of the text alone (no prefix) within ``budget``: for the overlap."""
        if self.exact:
            return e - s <= budget
        return self.m.count(s, e) <= budget

    def fits(self, s: int, e: int, budget: int) -> bool:
        """``count(s, e) <= budget``."""
        if self.exact:
            return self.plen(s) + e - s <= budget
        return self.count(s, e) <= budget

    def estimate(self, s: int, e: int) -> int | None:
        if self.exact:
            return self.plen(s) + e - s
        if self.indexed:
            return self.m.estimate(s, e) + self.plen(s)
        return None

    def _reach(self, s: int, budget: int) -> int:
        """A position beyond which no span from ``s`` can fit ``budget`` (or a good guess)."""
        budget -= self.plen(s)
        if budget <= 0:
            return s
        if self.exact:  # the measure's reach, written out (asked several times a chunk)
            return min(self.n, s + budget)
        if self.indexed:
            # generous: BPE counts at the edges differ from the index by a few tokens
            return min(self.n, self.m.reach(s, budget + 8) + 16)
        hi = min(self.n, s + max(16, budget * 4))
        while hi < self.n and self.fits(s, hi, budget):
            hi = min(self.n, s + (hi - s) * 2)
        return hi

    def _largest_fitting(self, s: int, cands: list[int], budget: int) -> int | None:
        """Largest candidate ``c`` (sorted list) with ``count(s, c) <= budget``, or None."""
        if not cands:
            return None
        if self.exact:
            i = bisect_right(cands, s + budget - self.plen(s)) - 1
            return cands[i] if i >= 0 else None
        est = self.estimate
        if est(s, cands[0]) is not None:
            # start at the candidate the index predicts, then verify exactly
            within = getattr(self.m, "last_within", None)
            if within is not None:  # the estimate is monotone: its bound found in the index
                j = within(s, cands, budget - self.plen(s))
            else:
                lo_i, hi_i = 0, len(cands) - 1
                j = -1
                while lo_i <= hi_i:
                    mid = (lo_i + hi_i) // 2
                    if est(s, cands[mid]) <= budget:
                        j = mid
                        lo_i = mid + 1
                    else:
                        hi_i = mid - 1
            j = max(j, 0)
            if self.fits(s, cands[j], budget):
                while j + 1 < len(cands) and est(s, cands[j + 1]) <= budget + 3 and self.fits(s, cands[j + 1], budget):
                    j += 1
                return cands[j]
            while j > 0:
                j -= 1
                if self.fits(s, cands[j], budget):
                    return cands[j]
            return None
        # no index: binary search with exact counts (counts grow with the span)
        lo_i, hi_i, best = 0, len(cands) - 1, None
        while lo_i <= hi_i:
            mid = (lo_i + hi_i) // 2
            if self.fits(s, cands[mid], budget):
                best = cands[mid]
                lo_i = mid + 1
            else:
                hi_i = mid - 1
        return best
