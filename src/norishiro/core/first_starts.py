"""Where an overlap begins, found in one compiled pass (``_sentscan.overlap_start``): the half
of :class:`~norishiro.core.boundaries.Boundaries` that serves the packer's overlap search
(which provides ``text``, ``lf``, ``crlf``, ``paragraph_cuts``, ``_sw`` / ``_new_sentences``,
``_wr`` / ``_new_wraps``, ``_ctx``, ``_soft_wraps`` and ``_widths``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from . import compiled
from .glued import glued_line_cuts
from .line_starts import FIRSTS
from .sentences import candidate_rules, emote_cuts, lower_case_text

__all__ = ["FirstStarts"]


class FirstStarts:
    def first_start(self, lo: int, hi: int, atoms: tuple[list[int], list[int]] | None = None) -> int:
        """The first cut in ``(lo, hi]`` at the sentence level or coarser, or a newline before
        it that is no soft wrap (where an overlap begins; 0: none), found in one compiled pass;
        -1 where the Python search must look (see ``_sentscan.overlap_start``). ``atoms``:
        the starts and ends of spans kept whole (none of their inner cuts is a start)."""
        if not (self.lf or self.crlf) or not compiled.active():
            return -1
        sw, context = self._sw or self._new_sentences(), self._ctx or self._first_context()
        for _ in range(3):  # the common round, then one with each thing the pass may ask for
            case = sw.lower_text
            got = compiled.native.overlap_start(context, lo, hi, -1 if case is None else int(case), atoms)
            if got == -3:  # a long line: its paragraph is scanned whole, once
                sw.scanned(lo, scan=True)
            elif got == -1 and case is None:  # perhaps only the text's case was not known: learn it, once
                sw.lower_text = lower_case_text(self.text)
            else:
                break
        return got

    def first_starts(self, atoms: tuple[list[int], list[int]] | None, back: int) -> Callable[[int, int], int] | None:
        """``(s, e) ->`` ``first_start`` of ``(max(s, e - back), e - 1)`` (0 where that is
        empty) with these atoms, as one function for a caller that asks at every chunk;
        None where the compiled pass does not serve the text."""
        if not (self.lf or self.crlf) or not compiled.active():
            return None
        sw, context = self._sw or self._new_sentences(), self._ctx or self._first_context()
        call = compiled.native.overlap_start

        def first(s: int, e: int) -> int:
            lo, hi = max(s, e - back), e - 1
            if hi <= lo:
                return 0
            case = sw.lower_text
            got = call(context, lo, hi, -1 if case is None else int(case), atoms)
            return self.first_start(lo, hi, atoms) if got == -3 or (got == -1 and case is None) else got

        return first

    def overlap_run(
        self, back: int, size: int, balance_from: int, sentences: bool = False
    ) -> Callable[[int, int, list], tuple[int, int, int]]:
        """``(s, e, out) ->`` ``(s, e, first)``: from the chunk ``s..e`` (the last in ``out``;
        0, 0: from the text's start, ``(0, 0, 0)`` where its first chunk is not found so),
        the chunks of plain text in characters whose overlap ``first_starts`` finds and whose
        end is the text's end or a paragraph cut (``plain.paragraph_end``), or, with
        ``sentences`` (the end levels paragraph, line, sentence), ``plain.sentence_end``'s
        where it is sure, appended to ``out`` in one compiled loop (a short document's
        chunks, one-line prose's, without a Python round each); then the last chunk and
        ``first_starts``' answer after it (-2: the pass does not serve the text), for the
        Python loop to go on from."""
        if not (self.lf or self.crlf) or not compiled.active():
            return _not_served
        sw, context = self._sw or self._new_sentences(), self._ctx or self._first_context()
        call, again = compiled.native.overlap_run, self.first_start
        # sentence_end's line-start test, where the text's only breaks are "\n" (as it asks)
        line_start, firsts = (self.line_start, FIRSTS) if sentences and self.lf else (None, None)

        def run(s: int, e: int, out: list) -> tuple[int, int, int]:
            case = -1 if sw.lower_text is None else int(sw.lower_text)
            s, e, got = call(context, case, size, balance_from, back, s, e, out, line_start, firsts)
            return s, e, (again(max(s, e - back), e - 1) if got < 0 and e else got)  # -1, -3: as first_start does

        return run

    def _first_context(self) -> tuple:
        """What ``first_start``'s compiled pass reads of the text, gathered once (the lists
        and dicts in it fill as the text is read) into ``_ctx``."""
        # glued rows: the pass looks at each window itself (a look at the whole text, as
        # glued_cuts makes for its wider windows, would cost more than it saves here)
        # nothing here refers to this object (a cycle would wait for the collector)
        paras = self.paragraph_cuts()
        wraps, memo = (self._wr or self._new_wraps()).at, (self._sw or self._new_sentences()).memo
        rules = (candidate_rules, partial(wraps, paras), memo, glued_line_cuts, emote_cuts)
        self._ctx = (self.text, paras, self._soft_wraps, *rules, self._widths)
        return self._ctx


def _not_served(s: int, e: int, out: list) -> tuple[int, int, int]:
    """``overlap_run``'s answer where the compiled pass does not serve the text."""
    return s, e, -2
