"""Sentence ends in Japanese, English and both mixed.

Candidate terminators are found with one pass of a compiled pattern, then checked locally
(brackets, quotative continuations, list numbers, abbreviations, decimals, URLs), so the
cost grows with the number of terminators, not characters.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import regex

from . import compiled
from .chars import BREAK as _BREAK
from .chars import HSPACE_STD as _HSPACE_STD
from .chars import snap as _snap

__all__ = ["sentence_cuts", "sentence_and_lower_cuts", "lower_case_text", "emote_cuts"]

_OPENERS = "「『（(【［〈《〔｛[{“‘"
_CLOSERS = "」』）)】］〉》〕｝]}”’"
_PAIR = dict(zip(_CLOSERS, _OPENERS))
_BRACKETS = re.compile("[" + re.escape(_OPENERS + _CLOSERS) + "]")
# A run of terminators, the brackets/quotes that close right after it, trailing spaces.
_SENTENCE_CAND = re.compile(r"([。｡！？!?．.]+)([" + re.escape(_CLOSERS) + r"\"']*)(" + _HSPACE_STD + "*)")
# After a closing bracket (or a terminator) these continue the sentence: 「…。」と言った,
# 「…！」って, 「…。」などと, 「…。」が口癖, 「…。」を繰り返す (not がん, which can start one).
_QUOTATIVE = regex.compile(r"と|っ|など|なんて|が(?!ん)|を")
# After a bracket closed right after a terminator inside it, these continue the sentence too:
# 『吾輩は猫である。』の作者, 『…!!』は, 「…。」「…。」など, （…。）に比べて.
_AFTER_TITLE = regex.compile(r"[はのにでへもや]|から|まで|より")
_CLOSE_OF = {"「": "」", "『": "』", "（": "）", "(": ")"}
# 。 right before a lone particle belongs to a name (モーニング娘。は): not an end. では,
# でも, には ... (a particle followed by kana) can start a sentence and stay ends.
_NAME_PARTICLE = regex.compile(r"[はがをのにへ](?!\p{Hiragana})")
# Emoji, kaomoji and symbols that close a sentence when a new one follows them.
_EMOTE = regex.compile(
    r"(?:\p{Extended_Pictographic}[\p{Emoji_Modifier}\uFE0F\u200D\p{Extended_Pictographic}]*"
    r"|\^_?\^|[(（][笑泣汗][)）]|[♪☆★♡♥]+)"
)
# a quick first look (the standard engine, no Unicode properties) before the full pattern
_EMOTE_HINT = re.compile(
    "[\\^笑泣汗♪☆★♡♥\U0001f000-\U0001fffd\u2190-\u21ff\u2300-\u23ff\u2460-\u27bf\u2900-\u297f\u2b00-\u2bff"
    "\u3030\u303d\u3297\u3299\u00a9\u00ae\u203c\u2049\u2122\u2139]"
)
# what may stand right before such a mark at a sentence's end (a predicate's last kana, a word)
_EMOTE_AFTER = regex.compile(r"[たすいるよねなうかわぞさんだーA-Za-z0-9][\s\u3000]*$")
# Abbreviations that never end a sentence (titles, Latin, dosing, months, organisations).
# Units (mg, min) are not here: "3.5 mg. Next" ends, and "5 mg. of" is kept by the
# lower-case rule.
_ABBREVIATIONS = frozenset(
    """mr mrs ms dr prof sr jr st vs etc al ver ed eds approx dept
    inc ltd co corp jan feb mar apr jun jul aug sep sept oct nov dec e.g i.e cf ca rp op cit
    resp b.i.d t.i.d q.d q.i.d p.o p.r.n h.s col gen gov viz univ""".split()
)
# Abbreviations that introduce a number (No. 5, Fig. 3, Eq. (2)): not an end before a digit,
# "(" or "#", an end otherwise ("No. I disagree.").
_NUMBER_ABBREVIATIONS = frozenset("no nos fig figs vol vols p pp eq eqs sec ch tab ref refs art".split())
_MAX_QUOTE = 240  # an opening bracket left open longer than this is treated as stray
_LATIN_LOWER = regex.compile(r"\p{Ll}")
# letters with inner dots: U.S, b.i.d, e.g, Ph.D, a.html (a decimal number is not one)
_DOTTED = regex.compile(r"\p{L}{1,6}(?:\.\p{L}{1,6})+$")
_CJK = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}]")
# the word before a full stop, read backwards: no white space (str.isspace, hence \x1c-\x1f
# named), no CJK, no opening bracket
_TOKEN_BEFORE = regex.compile(r"[^\s\x1c-\x1f\p{Han}\p{Hiragana}\p{Katakana}「『（(【]{0,41}", regex.REVERSE)


if compiled.native is not None:  # the candidate loop compiled at install (setup.py)
    compiled.native.configure(_OPENERS, _CLOSERS, _CLOSERS + "\"'", _ABBREVIATIONS, _NUMBER_ABBREVIATIONS, _MAX_QUOTE)


def _token_before(text: str, i: int) -> tuple[str, int]:
    """The run of non-space, non-CJK characters ending at ``i`` (exclusive; at most 41 of
    them), and its start."""
    a = max(0, i - 41)
    seg = text[a:i]
    if seg.isascii() and seg.isprintable():  # the usual case: only " " and "(" stop it
        j = a + max(seg.rfind(" "), seg.rfind("(")) + 1
    else:
        j = _TOKEN_BEFORE.match(text, a, i).start()
    return text[j:i], j


def _list_number_before(text: str, i: int, last_cut: int) -> bool:
    """The digits ending at ``i`` are a list number: one or two digits (after an optional
    # or parenthesis) at the start of a sentence or line."""
    j = i
    while j > 0 and text[j - 1].isdigit() and i - j < 3:
        j -= 1
    if j > 0 and text[j - 1] in "#＃(（":
        j -= 1
    return i - j <= 3 and _at_sentence_start(text, j, last_cut)


def _at_sentence_start(text: str, j: int, last_cut: int) -> bool:
    k = j
    while k > 0 and text[k - 1] in " \t\u3000":
        k -= 1
    return k == 0 or k == last_cut or text[k - 1] in "\n\r"


def sentence_cuts(text: str, lo: int = 0, hi: int | None = None) -> list[int]:
    """Sentence ends that are not also line ends (see :func:`sentence_and_lower_cuts`)."""
    return sentence_and_lower_cuts(text, lo, hi)[0]


def sentence_and_lower_cuts(text: str, lo: int = 0, hi: int | None = None) -> tuple[list[int], list[int]]:
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
    if compiled.active():
        out, lower = compiled.native.scan(text, lo, hi, _decide)
    else:
        out, lower = _scan(text, lo, hi)
    emotes = emote_cuts(text, lo, hi)
    return (sorted(set(out) | set(emotes)) if emotes else out), lower


def _scan(text: str, lo: int, hi: int) -> tuple[list[int], list[int]]:
    """The candidate loop in Python (``_sentscan.c`` is the same loop compiled): brackets
    here, what each candidate is in :func:`_decide`."""
    n = len(text)
    out: list[int] = []
    lower: list[int] = []
    # The bracket stack changes only at brackets, and is emptied by a line break: a text
    # without brackets (most prose) never touches it, and breaks are looked for only while
    # a bracket is open.
    events = [(m.start(), m.group()) for m in _BRACKETS.finditer(text, lo, hi)]
    events.append((n + 1, ""))
    ev = 0
    next_event = events[0][0]
    stack: list[tuple[str, int]] = []  # open brackets before the current candidate
    done = lo  # breaks before this have been seen

    def advance(upto: int) -> int:
        """Apply the brackets and breaks before ``upto``; return the next bracket's index."""
        nonlocal done
        k = ev
        while True:
            pos, ch = events[k]
            stop = pos if pos < upto else upto
            if stack and done < stop and _BREAK.search(text, done, stop):  # brackets never span lines
                stack.clear()
            if stop > done:
                done = stop
            if pos >= upto:
                return k
            if ch in _PAIR:
                want = _PAIR[ch]
                for d in range(len(stack) - 1, -1, -1):
                    if stack[d][0] == want:
                        del stack[d:]
                        break
            else:
                stack.append((ch, pos))
            k += 1

    last_cut = lo
    for m in _SENTENCE_CAND.finditer(text, lo, hi):
        ts, te, close_end, end = m.start(), m.end(1), m.end(2), m.end()
        if next_event < ts or stack:
            ev = advance(ts)
            next_event = events[ev][0]
        if stack:
            while stack and stack[0][1] < ts - _MAX_QUOTE:
                stack.pop(0)
        depth_before = len(stack)
        if next_event < close_end or stack:
            ev = advance(close_end)
            next_event = events[ev][0]
        if stack:
            continue  # still inside brackets
        if depth_before and close_end == te:
            continue  # the bracket was closed before the terminator, not by it
        got = _decide(text, ts, te, close_end, end, depth_before, last_cut)
        if got is not None:
            to = lower if got[0] else out
            p = got[1]
            if 0 < p < n and (not to or to[-1] < p):
                to.append(p)
                last_cut = p
    return out, lower


def _decide(
    text: str, ts: int, te: int, close_end: int, end: int, depth_before: int, last_cut: int
) -> tuple[bool, int] | None:
    """What the candidate terminator ``text[ts:te]`` (closers to ``close_end``, spaces to
    ``end``) is, outside brackets: ``None`` (no end), or whether it is a lower-case end and
    the cut. The compiled loop asks this only of the cases it does not decide itself."""
    n = len(text)
    closed = close_end > te
    nxt = text[end] if end < n else ""
    spaced = end > close_end
    if nxt and not spaced:
        if _QUOTATIVE.match(text, end):
            return None  # 「…。」と言った / 行くの？と聞かれた
        if depth_before and closed and _continues_after_quotes(text, end):
            return None  # 『吾輩は猫である。』の作者, 「…。」「…。」など
        if not closed and te - ts == 1 and text[ts] == "。" and _NAME_PARTICLE.match(text, end):
            return None  # モーニング娘。は
    if nxt == "" or nxt in "\r\n\x0b\x0c\x85\u2028\u2029":
        return None  # the line or the text ends here anyway: the line level has this cut

    term = text[ts:te]
    is_lower = False
    if not term.strip("."):
        if not spaced:
            return None  # 3.5, a.html, 2024.3.15, e.g.
        if nxt.isdigit():
            return None  # Fig. 3, No. 5, Ver. 2.0
        if "a" <= nxt <= "z" or (nxt >= "\x80" and _LATIN_LOWER.match(nxt)):
            is_lower = True  # ...request up. to an / e.g. bla (an abbreviation: dropped below)
        token, tstart = _token_before(text, ts)
        low = token.lower().lstrip("(\"'。．！？!?、，")  # 。Q. : the label after a sentence end
        if not token or "@" in low or "://" in low or low.startswith("www."):
            pass  # a word, or an e-mail address / URL at the end of a sentence
        elif low in _ABBREVIATIONS or ("." in low and _DOTTED.match(low)):
            return None  # Dr., et al., U.S., b.i.d. (not 1.5%. or $1.0.)
        elif low in _NUMBER_ABBREVIATIONS:
            if nxt in "(#":
                return None  # Eq. (2), No. #3
        elif len(low) == 1 and low.isalpha():
            return None  # E. coli, p. 45, initials
        elif low.lstrip("#(").rstrip(")").isdigit() and (_at_sentence_start(text, tstart, last_cut) or _CJK.match(nxt)):
            return None  # 1. 高血圧 / #1. 高血圧症 / 高血圧 2. 糖尿病
    elif not term.strip("!?"):
        prev = text[ts - 1] if ts > 0 else ""
        if prev.isascii() and prev.isalnum() and not spaced:
            return None  # Yahoo!ニュース
    elif not term.strip("．"):
        prev = text[ts - 1] if ts > 0 else ""
        if prev.isdigit() and not spaced and (nxt.isdigit() or _list_number_before(text, ts, last_cut)):
            return None  # ６５．５ｋｇ, 1．血液検査 (but 術後POD1．発熱なし． ends)
    return is_lower, (_snap(text, end) if nxt >= "\u0300" else end)


# what a compiled scan asks of the candidates it does not decide itself
candidate_rules = _decide


# the first letter of a sentence: after . ? ! and spaces, or at the start of a paragraph or
# of the text. Each pattern captures that letter; [^\W\d_] also takes non-decimal numerals
# (Ⅻ), which are dropped before counting.
_STARTS_AFTER_END = tuple(
    re.compile(re.escape(c) + r"[\"'’”)\]]*[ \t]+([^\W\d_])") for c in ".!?"
)  # literal first: fast
_STARTS_PARAGRAPH = re.compile(r"\n[ \t]*\n[ \t]*([^\W\d_])")
_STARTS_TEXT = re.compile(r"[ \t]*([^\W\d_])")


def lower_case_text(text: str, sample: int = 200_000) -> bool:
    """The text starts its sentences in lower case (lower-cased filings, chat, transcripts):
    of the letters that begin sentences (after ``. ``, ``? ``, ``! `` and at paragraph
    starts, in the first ``sample`` characters) at least two are lower case, and at least
    four times as many as capitals."""
    low, up = compiled.native.sentence_start_cases(text, sample) if compiled.active() else _start_cases(text[:sample])
    return low >= 2 and up * 4 <= low


def _start_cases(head: str) -> tuple[int, int]:
    """How many letters that begin sentences in ``head`` are lower and upper case."""
    letters = [x for p in _STARTS_AFTER_END for x in p.findall(head)] + _STARTS_PARAGRAPH.findall(head)
    first = _STARTS_TEXT.match(head)
    if first:
        letters.append(first.group(1))
    letters = list(filter(str.isalpha, letters))
    return sum(map(str.islower, letters)), sum(map(str.isupper, letters))


def _continues_after_quotes(text: str, end: int) -> bool:
    """After a closing bracket: a particle continues the sentence (『…。』の, （…。）に); a
    further quote does when the chain of quotes ends in a continuation (「…。」「…。」など), not
    when it ends a sentence of its own (「はい。」「いいえ。」)."""
    n = len(text)
    for _ in range(8):
        if end >= n:
            return False
        opener = text[end]
        if opener not in "「『（(":
            return bool(_QUOTATIVE.match(text, end) or _AFTER_TITLE.match(text, end))
        close = text.find(_CLOSE_OF[opener], end + 1, min(n, end + _MAX_QUOTE))
        if close < 0:
            return False
        end = close + 1
    return False


def _emotes(text: str, lo: int, hi: int) -> Iterator[regex.Match]:
    """``_EMOTE.finditer(text, lo, hi)``, tried only where a mark can start: at a hint
    character or right before one (the ``(`` of ``(笑)``)."""
    pos = lo
    hints = (
        compiled.native.emote_hints(text, lo, hi)
        if compiled.active()
        else [h.start() for h in _EMOTE_HINT.finditer(text, lo, hi)]
    )
    for at in hints:
        for start in (at - 1, at):
            if start >= pos:
                m = _EMOTE.match(text, start, hi)
                if m:
                    yield m
                    pos = m.end()
                    break


def emote_cuts(text: str, lo: int, hi: int) -> list[int]:
    """Sentence ends after an emoji, a kaomoji or a symbol such as ♪: after a predicate (a
    sentence-final kana, a word) and before a new sentence (not a particle, a terminator, a
    closing bracket)."""
    n = len(text)
    out: list[int] = []
    seg = text[lo:hi]
    if seg.isascii() and "^" not in seg:
        return out  # in ASCII only ^_^ is one
    for m in _emotes(text, lo, hi):
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
