"""The sentence rules as they were before the candidate loop was made faster: the reference
that the fast loop must agree with (tests/test_properties.py)."""

from __future__ import annotations

import regex

from norishiro.core.chars import HSPACE as _HSPACE
from norishiro.core.chars import snap as _snap
from norishiro.core.sentences import (
    _ABBREVIATIONS,
    _BRACKETS,
    _CJK,
    _CLOSERS,
    _DOTTED,
    _EMOTE,
    _EMOTE_AFTER,
    _EMOTE_HINT,
    _LATIN_LOWER,
    _MAX_QUOTE,
    _NAME_PARTICLE,
    _NUMBER_ABBREVIATIONS,
    _PAIR,
    _QUOTATIVE,
    _at_sentence_start,
    _continues_after_quotes,
    _list_number_before,
)

_LAST_BREAK = regex.compile(r"[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]", regex.REVERSE)
_SENTENCE_CAND = regex.compile(
    r"(?P<term>[。｡！？!?．.]+)(?P<close>[" + regex.escape(_CLOSERS) + r"\"']*)(?P<space>" + _HSPACE + "*)"
)


def _token_before(text: str, i: int) -> tuple[str, int]:
    """The run of non-space, non-CJK characters ending at ``i`` (exclusive), and its start."""
    j = i
    while j > 0 and not text[j - 1].isspace() and not _CJK.match(text[j - 1]) and text[j - 1] not in "「『（(【":
        j -= 1
        if i - j > 40:
            break
    return text[j:i], j


def reference_sentence_and_lower_cuts(text: str, lo: int = 0, hi: int | None = None) -> tuple[list[int], list[int]]:
    """Sentence ends that are not also line ends, and, apart, the ends that would be
    sentence ends but for the lower-case letter after them (``...request up. to an``).

    The second kind is a sentence end in lower-cased text (chat, transcripts, some filings),
    and an abbreviation or a slip elsewhere; the caller decides which by looking at how the
    whole text starts its sentences.

    Rules (Japanese, English, mixed):
    * 。｡！？!?． and runs of them end a sentence; closing brackets/quotes right after stay
      with it, and so do spaces before the next sentence;
    * no end inside 「」『』（）()【】 and similar; a bracket closed by the terminator's run ends
      the sentence unless a quotative particle follows (「…。」と言った); a bracket left open
      for more than a few hundred characters, or across a newline, is treated as stray;
    * ASCII '.' ends a sentence only in English-sentence position: followed by white space
      and not by a digit, and not after an abbreviation (Dr., e.g., b.i.d.), a single letter
      (E. coli, p. 45), or a list number at a sentence start (1.); before a lower-case
      letter it goes to the second list;
    * ！？!? after a Latin word and glued to the next character (Yahoo!ニュース) is not an
      end, nor is ． between digits or after a list number (６５．５, 1．血液).
    """
    n = len(text)
    hi = n if hi is None else min(hi, n)
    out: list[int] = []
    lower: list[int] = []
    stack: list[tuple[str, int]] = []  # open brackets before the current candidate
    done = lo

    def advance(upto: int) -> None:
        """Bring the bracket stack up to ``upto``: only the text after the last line break
        counts, because brackets never span lines."""
        nonlocal done
        if upto <= done:
            return
        start = done
        br = _LAST_BREAK.search(text, done, upto)
        if br is not None:
            stack.clear()
            start = br.end()
        for b in _BRACKETS.finditer(text, start, upto):
            ch = b.group()
            if ch in _PAIR:
                want = _PAIR[ch]
                for k in range(len(stack) - 1, -1, -1):
                    if stack[k][0] == want:
                        del stack[k:]
                        break
            else:
                stack.append((ch, b.start()))
        done = upto

    last_cut = lo
    for m in _SENTENCE_CAND.finditer(text, lo, hi):
        ts, te = m.span("term")
        advance(ts)
        while stack and stack[0][1] < ts - _MAX_QUOTE:
            stack.pop(0)
        depth_before = len(stack)
        advance(m.end("close"))
        depth_after = len(stack)
        end = m.end()
        term = m.group("term")
        nxt = text[end] if end < n else ""
        spaced = bool(m.group("space"))

        if depth_after > 0:
            continue  # still inside brackets
        if depth_before > 0 and not m.group("close"):
            continue
        if nxt and not spaced and _QUOTATIVE.match(text, end):
            continue  # 「…。」と言った / 行くの？と聞かれた
        if depth_before > 0 and m.group("close") and nxt and not spaced and _continues_after_quotes(text, end):
            continue  # 『吾輩は猫である。』の作者, 「…。」「…。」など
        if term == "。" and not m.group("close") and not spaced and _NAME_PARTICLE.match(text, end):
            continue  # モーニング娘。は
        if nxt == "" or nxt in "\r\n\x0b\x0c\x85\u2028\u2029":
            continue  # the line or the text ends here anyway: the line level has this cut

        prev = text[ts - 1] if ts > 0 else ""
        to = out
        if set(term) <= {"."}:
            if not spaced:
                continue  # 3.5, a.html, 2024.3.15, e.g.
            if nxt.isdigit():
                continue  # Fig. 3, No. 5, Ver. 2.0
            if _LATIN_LOWER.match(nxt):
                to = lower  # ...request up. to an / e.g. bla (an abbreviation: dropped below)
            token, tstart = _token_before(text, ts)
            low = token.lower().lstrip("(\"'。．！？!?、，")  # 。Q. : the label after a sentence end
            address = "@" in low or "://" in low or low.startswith("www.")
            if not token or address:
                pass  # a word, or an e-mail address / URL at the end of a sentence
            elif low in _ABBREVIATIONS or _DOTTED.match(low):
                continue  # Dr., et al., U.S., b.i.d. (not 1.5%. or $1.0.)
            elif low in _NUMBER_ABBREVIATIONS:
                if nxt in "(#":
                    continue  # Eq. (2), No. #3
            elif len(low) == 1 and low.isalpha():
                continue  # E. coli, p. 45, initials
            elif low.lstrip("#(").rstrip(")").isdigit() and (
                _at_sentence_start(text, tstart, last_cut) or _CJK.match(nxt)
            ):
                continue  # 1. 高血圧 / #1. 高血圧症 / 高血圧 2. 糖尿病
        elif set(term) <= {"!", "?"}:
            if prev.isascii() and prev.isalnum() and not spaced:
                continue  # Yahoo!ニュース
        elif set(term) <= {"．"}:
            if prev.isdigit() and not spaced and (nxt.isdigit() or _list_number_before(text, ts, last_cut)):
                continue  # ６５．５ｋｇ, 1．血液検査 (but 術後POD1．発熱なし． ends)
        p = _snap(text, end)
        if 0 < p < n and (not to or to[-1] < p):
            to.append(p)
            last_cut = p
    emotes = _emote_cuts(text, lo, hi)
    return (sorted(set(out) | set(emotes)) if emotes else out), lower


def _emote_cuts(text: str, lo: int, hi: int) -> list[int]:
    """Sentence ends after an emoji, a kaomoji or a symbol such as ♪: after a predicate (a
    sentence-final kana, a word) and before a new sentence (not a particle, a terminator, a
    closing bracket)."""
    n = len(text)
    out = []
    if not _EMOTE_HINT.search(text, lo, hi):
        return out
    for m in _EMOTE.finditer(text, lo, hi):
        if not _EMOTE_AFTER.search(text, max(0, m.start() - 8), m.start()):
            continue
        end = m.end()
        while end < n and text[end] in " \t\u3000":
            end += 1
        if end >= n or text[end] in "\r\n" or text[end] in _CLOSERS or text[end] in "。．.!?！？、，,":
            continue
        if _NAME_PARTICLE.match(text, end) or _EMOTE.match(text, end):
            continue
        if text[m.start() - 1 : m.start()].isascii() and not (text[end].isupper() or _CJK.match(text[end])):
            continue  # English: a new sentence starts with a capital
        p = _snap(text, end)
        if lo < p < n:
            out.append(p)
    return out
