/* The sentence rules' candidate loop of norishiro.core.sentences, compiled.
 *
 * scan(text, lo, hi, decide) -> (cuts, lower_cuts) is exactly sentences._scan: the same
 * candidates (a run of terminators, the closers right after it, horizontal spaces, all
 * within [lo, hi)), the same bracket stack (changed only at brackets, emptied by a line
 * break, an opener left open more than max_quote characters dropped when a candidate
 * comes), and the same decisions. The common decisions (an English full stop after a
 * plain ASCII word, a Japanese 。 before kana or kanji, !? and ．) are made here; every
 * other candidate is handed to decide(text, ts, te, close_end, end, depth_before,
 * last_cut), the Python function that states the rules, so that nothing depending on
 * Unicode properties is written twice. configure() gives the character sets and word
 * lists from the Python module, which stays their only source.
 *
 * The other helpers follow the same rule: each is a quick look or a plain case of a Python
 * function that states the rules (glued rows, lost line starts, paragraph cuts, structure
 * lines; soft wraps: soft_hint, line_width, soft_full; the overlap's first start:
 * overlap_start; sentence-start letters; code fences and tables; line breaks and their runs),
 * and answers "ask Python" where it cannot be sure.
 * The character classes they test are fixed sets or script ranges that tests check against
 * the Python patterns over every code point; display widths come from chars.WIDE itself
 * (configure_wide).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* A set of characters: a bitmap of the Basic Multilingual Plane, a short list beyond it. */
typedef struct {
    unsigned char bmp[8192];
    Py_UCS4 astral[16];
    int n_astral;
} CharSet;

static CharSet brackets, quote_closers;
static Py_UCS4 pair_closer[64], pair_opener[64]; /* closer k closes opener k */
static int n_pairs = 0;
static PyObject *s_abbrev, *s_num_abbrev; /* frozensets of str */
static Py_ssize_t max_quote = 240;
static int configured = 0;

static inline int in_set(const CharSet *s, Py_UCS4 c) {
    if (c < 0x10000) return (s->bmp[c >> 3] >> (c & 7)) & 1;
    for (int i = 0; i < s->n_astral; i++)
        if (s->astral[i] == c) return 1;
    return 0;
}

static int fill_set(CharSet *s, PyObject *chars) {
    Py_ssize_t len = PyUnicode_GET_LENGTH(chars);
    for (Py_ssize_t i = 0; i < len; i++) {
        Py_UCS4 c = PyUnicode_READ_CHAR(chars, i);
        if (c < 0x10000) {
            s->bmp[c >> 3] |= (unsigned char)(1 << (c & 7));
        } else if (s->n_astral < 16) {
            s->astral[s->n_astral++] = c;
        } else {
            PyErr_SetString(PyExc_ValueError, "at most 16 characters beyond U+FFFF in a set");
            return -1;
        }
    }
    return 0;
}

/* small fixed sets, tested often: plain comparisons */
static inline int is_term(Py_UCS4 c) {
    if (c < 0x80) return c == '.' || c == '!' || c == '?';
    return c == '.' || c == '!' || c == '?' || c == 0x3002 || c == 0xFF61 || c == 0xFF01 || c == 0xFF1F ||
           c == 0xFF0E;
}


static inline int is_break(Py_UCS4 c) {
    return c == '\n' || c == '\r' || c == 0x0B || c == 0x0C || c == 0x1C || c == 0x1D || c == 0x1E || c == 0x85 ||
           c == 0x2028 || c == 0x2029;
}

/* HSPACE_STD: the standard engine's \s (str.isspace) but no line break and no \x1f */
static inline int is_hspace(Py_UCS4 c) {
    if (c == ' ' || c == '\t') return 1;
    if (c < 0x80 && c != 0x1F && c > ' ') return 0;
    return Py_UNICODE_ISSPACE(c) && !is_break(c) && c != 0x1F;
}

/* characters that are certainly not Grapheme_Cluster_Break Extend/ZWJ/SpacingMark (so a
   cut before them needs no snapping): CJK ideographs, kana but the combining voiced marks,
   fullwidth ASCII forms, CJK punctuation but its tone marks, the punctuation, arrows, box
   drawing, shapes and other symbols of U+2010..U+2CEE but the marks for symbols
   (U+20D0..U+20FF); the rest asks Python */
static inline int surely_no_extend(Py_UCS4 c) {
    return c < 0x300 || (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3041 && c <= 0x3096) ||
           (c >= 0x309B && c <= 0x30FF) || (c >= 0xFF01 && c <= 0xFF5E) || (c >= 0x3000 && c <= 0x3029) ||
           (c >= 0x3030 && c <= 0x303F) || (c >= 0x2010 && c <= 0x20CF) || (c >= 0x2100 && c <= 0x2CEE);
}

/* surely \p{Han}, \p{Hiragana} or \p{Katakana} (so not \p{Ll}, not a digit, no mark) */
static inline int is_kanji_kana(Py_UCS4 c) {
    return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3041 && c <= 0x3096) || (c >= 0x30A1 && c <= 0x30FA);
}

/* first characters of _QUOTATIVE and _AFTER_TITLE: と っ な が を は の に で へ も や か ま よ */
static inline int is_particle_start(Py_UCS4 c) {
    switch (c) {
    case 0x3068: case 0x3063: case 0x306A: case 0x304C: case 0x3092: case 0x306F: case 0x306E: case 0x306B:
    case 0x3067: case 0x3078: case 0x3082: case 0x3084: case 0x304B: case 0x307E: case 0x3088:
        return 1;
    }
    return 0;
}

/* sentences._EMOTE_HINT: where an emoji, a kaomoji or a mark such as ♪ may be */
static inline int is_emote_hint(Py_UCS4 c) {
    if (c < 0xA9) return c == '^';
    return c == 0xA9 || c == 0xAE || c == 0x203C || c == 0x2049 || c == 0x2122 || c == 0x2139 ||
           (c >= 0x2190 && c <= 0x21FF) || (c >= 0x2300 && c <= 0x23FF) || (c >= 0x2460 && c <= 0x27BF) ||
           (c >= 0x2900 && c <= 0x297F) || (c >= 0x2B00 && c <= 0x2BFF) || c == 0x3030 || c == 0x303D ||
           c == 0x3297 || c == 0x3299 || c == 0x7B11 || c == 0x6CE3 || c == 0x6C57 || c == 0x266A || c == 0x2606 ||
           c == 0x2605 || c == 0x2661 || c == 0x2665 || (c >= 0x1F000 && c <= 0x1FFFD);
}

/* The tests of the searches that read every character of a window, for the whole BMP, one
   byte each: a search then costs one load a character. Filled at import, the brackets again
   by configure. */
#define F_TERM 1
#define F_BRACKET 2
#define F_EMOTE 4
#define F_GLUED 8
#define F_EMOTE_START 16
static unsigned char bmp_flags[0x10000];
#define IS_TERM(c) ((c) < 0x10000 ? (bmp_flags[(c)] & F_TERM) : is_term(c))
#define IS_BRACKET(c) ((c) < 0x10000 ? (bmp_flags[(c)] & F_BRACKET) : in_set(&brackets, (c)))
#define IS_EMOTE_HINT(c) ((c) < 0x10000 ? (bmp_flags[(c)] & F_EMOTE) : is_emote_hint(c))
/* where sentences._EMOTE may match (a superset): an Extended_Pictographic character (every
   one beyond the BMP is in U+1F000..U+1FFFD), ^ or ♪☆★♡♥; the (笑) kind begins at its bracket */
#define IS_EMOTE_START(c) ((c) < 0x10000 ? (bmp_flags[(c)] & F_EMOTE_START) : (c) >= 0x1F000 && (c) <= 0x1FFFD)
/* where a glued row or header may be found: "||", the "H" of "mmHg", 【■◆● or a slash (glued_mark_last) */
#define IS_GLUED_FIRST(c) ((c) < 0x10000 && (bmp_flags[(c)] & F_GLUED))

/* Extended_Pictographic in the BMP (Unicode 14; emoji-data reserves its future code points) */
static const Py_UCS4 pictographic_bmp[][2] = {
    {0xA9, 0xA9}, {0xAE, 0xAE}, {0x203C, 0x203C}, {0x2049, 0x2049}, {0x2122, 0x2122}, {0x2139, 0x2139},
    {0x2194, 0x2199}, {0x21A9, 0x21AA}, {0x231A, 0x231B}, {0x2328, 0x2328}, {0x23CF, 0x23CF}, {0x23E9, 0x23F3},
    {0x23F8, 0x23FA}, {0x24C2, 0x24C2}, {0x25AA, 0x25AB}, {0x25B6, 0x25B6}, {0x25C0, 0x25C0}, {0x25FB, 0x25FE},
    {0x2600, 0x2604}, {0x260E, 0x260E}, {0x2611, 0x2611}, {0x2614, 0x2615}, {0x2618, 0x2618}, {0x261D, 0x261D},
    {0x2620, 0x2620}, {0x2622, 0x2623}, {0x2626, 0x2626}, {0x262A, 0x262A}, {0x262E, 0x262F}, {0x2638, 0x263A},
    {0x2640, 0x2640}, {0x2642, 0x2642}, {0x2648, 0x2653}, {0x265F, 0x2660}, {0x2663, 0x2663}, {0x2665, 0x2666},
    {0x2668, 0x2668}, {0x267B, 0x267B}, {0x267E, 0x267F}, {0x2692, 0x2697}, {0x2699, 0x2699}, {0x269B, 0x269C},
    {0x26A0, 0x26A1}, {0x26A7, 0x26A7}, {0x26AA, 0x26AB}, {0x26B0, 0x26B1}, {0x26BD, 0x26BE}, {0x26C4, 0x26C5},
    {0x26C8, 0x26C8}, {0x26CE, 0x26CF}, {0x26D1, 0x26D1}, {0x26D3, 0x26D4}, {0x26E9, 0x26EA}, {0x26F0, 0x26F5},
    {0x26F7, 0x26FA}, {0x26FD, 0x26FD}, {0x2702, 0x2702}, {0x2705, 0x2705}, {0x2708, 0x270D}, {0x270F, 0x270F},
    {0x2712, 0x2712}, {0x2714, 0x2714}, {0x2716, 0x2716}, {0x271D, 0x271D}, {0x2721, 0x2721}, {0x2728, 0x2728},
    {0x2733, 0x2734}, {0x2744, 0x2744}, {0x2747, 0x2747}, {0x274C, 0x274C}, {0x274E, 0x274E}, {0x2753, 0x2755},
    {0x2757, 0x2757}, {0x2763, 0x2764}, {0x2795, 0x2797}, {0x27A1, 0x27A1}, {0x27B0, 0x27B0}, {0x27BF, 0x27BF},
    {0x2934, 0x2935}, {0x2B05, 0x2B07}, {0x2B1B, 0x2B1C}, {0x2B50, 0x2B50}, {0x2B55, 0x2B55}, {0x3030, 0x3030},
    {0x303D, 0x303D}, {0x3297, 0x3297}, {0x3299, 0x3299},
};

static void fill_flags(void) {
    for (Py_UCS4 c = 0; c < 0x10000; c++) {
        int glued = c == '|' || c == 'H' || c == '/' || c == 0x3010 || c == 0x25A0 || c == 0x25C6 || c == 0x25CF;
        bmp_flags[c] = (unsigned char)((is_term(c) ? F_TERM : 0) | (in_set(&brackets, c) ? F_BRACKET : 0) |
                                       (is_emote_hint(c) ? F_EMOTE : 0) | (glued ? F_GLUED : 0));
    }
    for (size_t k = 0; k < sizeof pictographic_bmp / sizeof pictographic_bmp[0]; k++)
        for (Py_UCS4 c = pictographic_bmp[k][0]; c <= pictographic_bmp[k][1]; c++) bmp_flags[c] |= F_EMOTE_START;
    const Py_UCS4 marks[] = {'^', 0x266A, 0x2606, 0x2605, 0x2661, 0x2665};
    for (size_t k = 0; k < sizeof marks / sizeof marks[0]; k++) bmp_flags[marks[k]] |= F_EMOTE_START;
}

/* Moves i to the first position in [i, end) whose character c passes TEST (an expression
   of c), reading the string at its own width: the loops that touch every character. */
#define FIND_FIRST(st, i, end, TEST)                                                                                  \
    do {                                                                                                              \
        switch ((st)->kind) {                                                                                         \
        case PyUnicode_1BYTE_KIND: {                                                                                  \
            const Py_UCS1 *d_ = (const Py_UCS1 *)(st)->data;                                                          \
            for (; (i) < (end); (i)++) {                                                                              \
                Py_UCS4 c = d_[i];                                                                                    \
                if (TEST) break;                                                                                      \
            }                                                                                                         \
            break;                                                                                                    \
        }                                                                                                             \
        case PyUnicode_2BYTE_KIND: {                                                                                  \
            const Py_UCS2 *d_ = (const Py_UCS2 *)(st)->data;                                                          \
            for (; (i) < (end); (i)++) {                                                                              \
                Py_UCS4 c = d_[i];                                                                                    \
                if (TEST) break;                                                                                      \
            }                                                                                                         \
            break;                                                                                                    \
        }                                                                                                             \
        default: {                                                                                                    \
            const Py_UCS4 *d_ = (const Py_UCS4 *)(st)->data;                                                          \
            for (; (i) < (end); (i)++) {                                                                              \
                Py_UCS4 c = d_[i];                                                                                    \
                if (TEST) break;                                                                                      \
            }                                                                                                         \
        }                                                                                                             \
        }                                                                                                             \
    } while (0)

typedef struct {
    Py_UCS4 ch;
    Py_ssize_t pos;
} Open;

typedef struct {
    Open *items;
    Py_ssize_t len, cap;
} Stack;

static int push(Stack *s, Py_UCS4 ch, Py_ssize_t pos) {
    if (s->len == s->cap) {
        Py_ssize_t cap = s->cap ? s->cap * 2 : 16;
        Open *items = PyMem_Realloc(s->items, cap * sizeof(Open));
        if (!items) {
            PyErr_NoMemory();
            return -1;
        }
        s->items = items;
        s->cap = cap;
    }
    s->items[s->len].ch = ch;
    s->items[s->len].pos = pos;
    s->len++;
    return 0;
}

typedef struct {
    int kind;
    const void *data;
    Py_ssize_t n, lo, hi;
    Py_ssize_t scan; /* next position to look for a bracket */
    Py_ssize_t done; /* breaks before this have been seen */
    Stack stack;
} State;

#define AT(i) PyUnicode_READ(st->kind, st->data, (i))

/* Apply the brackets and breaks before upto (sentences._scan's advance). */
static int advance(State *st, Py_ssize_t upto) {
    Py_ssize_t stop_all = upto < st->hi ? upto : st->hi;
    while (1) {
        /* the next bracket in [scan, stop_all) */
        Py_ssize_t pos = st->scan;
        FIND_FIRST(st, pos, stop_all, IS_BRACKET(c));
        int found = pos < stop_all;
        Py_UCS4 ch = found ? AT(pos) : 0;
        Py_ssize_t stop = found ? pos : upto;
        if (st->stack.len && st->done < stop) {
            Py_ssize_t i = st->done;
            FIND_FIRST(st, i, stop, is_break(c));
            if (i < stop) st->stack.len = 0;
        }
        if (stop > st->done) st->done = stop;
        if (!found) {
            st->scan = stop_all;
            return 0;
        }
        st->scan = pos + 1;
        int k = 0;
        while (k < n_pairs && pair_closer[k] != ch) k++;
        if (k < n_pairs) {
            Py_UCS4 want = pair_opener[k];
            for (Py_ssize_t d = st->stack.len - 1; d >= 0; d--) {
                if (st->stack.items[d].ch == want) {
                    st->stack.len = d;
                    break;
                }
            }
        } else if (push(&st->stack, ch, pos) < 0) {
            return -1;
        }
    }
}

static int at_sentence_start(State *st, Py_ssize_t j, Py_ssize_t last_cut) {
    Py_ssize_t k = j;
    while (k > 0) {
        Py_UCS4 c = AT(k - 1);
        if (c != ' ' && c != '\t' && c != 0x3000) break;
        k--;
    }
    if (k == 0 || k == last_cut) return 1;
    Py_UCS4 c = AT(k - 1);
    return c == '\n' || c == '\r';
}

static int list_number_before(State *st, Py_ssize_t i, Py_ssize_t last_cut) {
    Py_ssize_t j = i;
    while (j > 0 && Py_UNICODE_ISDIGIT(AT(j - 1)) && i - j < 3) j--;
    if (j > 0) {
        Py_UCS4 c = AT(j - 1);
        if (c == '#' || c == 0xFF03 || c == '(' || c == 0xFF08) j--;
    }
    return i - j <= 3 && at_sentence_start(st, j, last_cut);
}

static int is_ascii_letter(Py_UCS4 c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/* the English full stop after a printable-ASCII word, nxt ASCII, spaced:
   1 = an end, 0 = not, -1 = error */
/* the marks full_stop_end strips from a word's start: sentences._decide's lstrip */
static inline int is_lead_mark(Py_UCS4 c) {
    return c == '(' || c == '"' || c == '\'' || c == '!' || c == '?' || c == 0x3002 || c == 0xFF0E || c == 0xFF01 ||
           c == 0xFF1F || c == 0x3001 || c == 0xFF0C;
}

/* wide marks that are no letter, digit or space and of no script _TOKEN_BEFORE stops at:
   part of a word as any other character, and taken by no rule of full_stop_end */
static inline int is_word_mark(Py_UCS4 c) {
    return is_lead_mark(c) || c == 0x3011 || c == 0x300D || c == 0x300F || c == 0xFF09 || c == 0xFF1A ||
           c == 0xFF1B || c == 0x30FB;
}

/* the word before a full stop (sentences._TOKEN_BEFORE): back from ts over at most 41
   characters, to a white space, "(", a kanji or kana, or 「『（【. Only words of plain ASCII
   and the wide marks of is_word_mark are read here: 0 = ask Python. */
static int word_before(State *st, Py_ssize_t ts, Py_ssize_t *start) {
    Py_ssize_t a = ts - 41 > 0 ? ts - 41 : 0, i = ts;
    while (i > a) {
        Py_UCS4 c = AT(i - 1);
        if (c == ' ' || c == '(' || (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x1F)) break;
        if (c > 0x7E && (is_kanji_kana(c) || c == 0x300C || c == 0x300E || c == 0xFF08 || c == 0x3010)) break;
        if ((c < 0x20 || c > 0x7E) && !is_word_mark(c)) return 0; /* the regex decides where it stops */
        i--;
    }
    *start = i;
    return 1;
}

/* the English full stop after a plain ASCII word (from j), nxt not a digit, spaced:
   1 = an end, 0 = not, -1 = error */
static int full_stop_end(State *st, Py_ssize_t j, Py_ssize_t ts, Py_UCS4 nxt, int cjk_nxt, Py_ssize_t last_cut) {
    Py_ssize_t tlen = ts - j;
    if (tlen == 0) return 1; /* no word: an end */
    char low[48];
    Py_ssize_t s = j;
    /* lstrip("(\"'。．！？!?、，") of the lower-cased word */
    while (s < ts && is_lead_mark(AT(s))) s++;
    Py_ssize_t m = ts - s;
    for (Py_ssize_t i = 0; i < m; i++) {
        Py_UCS4 c = AT(s + i);
        /* a wide mark left inside the word: a byte no rule below takes for a letter, a digit,
           "." or "@" (as no rule takes the mark) */
        low[i] = (char)(c > 0x7E ? 1 : c >= 'A' && c <= 'Z' ? c + 32 : c);
    }
    low[m] = 0;
    if (memchr(low, '@', m) || strstr(low, "://") || strncmp(low, "www.", 4) == 0) return 1;
    PyObject *word = PyUnicode_FromStringAndSize(low, m);
    if (!word) return -1;
    int hit = PySet_Contains(s_abbrev, word);
    int num = hit ? 0 : PySet_Contains(s_num_abbrev, word);
    Py_DECREF(word);
    if (hit < 0 || num < 0) return -1;
    if (hit) return 0;
    if (memchr(low, '.', m)) { /* letters{1,6} (. letters{1,6})+ : U.S., b.i.d., a.html */
        int parts = 0, run = 0, ok = 1;
        for (Py_ssize_t i = 0; i <= m && ok; i++) {
            if (i == m || low[i] == '.') {
                if (run < 1 || run > 6) ok = 0;
                parts++;
                run = 0;
            } else if (is_ascii_letter((Py_UCS4)low[i])) {
                run++;
            } else {
                ok = 0;
            }
        }
        if (ok && parts >= 2) return 0;
    }
    if (num) return !(nxt == '(' || nxt == '#');
    if (m == 1 && is_ascii_letter((Py_UCS4)low[0])) return 0; /* E. coli, p. 45 */
    /* lstrip("#(").rstrip(")").isdigit(): a list number, at a sentence start */
    Py_ssize_t b = 0, e = m;
    while (b < e && (low[b] == '#' || low[b] == '(')) b++;
    while (e > b && low[e - 1] == ')') e--;
    if (e > b) {
        int digits = 1;
        for (Py_ssize_t i = b; i < e; i++)
            if (low[i] < '0' || low[i] > '9') digits = 0;
        if (digits && (cjk_nxt || at_sentence_start(st, j, last_cut))) return 0;
    }
    return 1;
}

/* 1 = decided here (*cut set, -1 for no end), 0 = ask Python, -1 = error */
static int decide_fast(State *st, Py_ssize_t ts, Py_ssize_t te, Py_ssize_t close_end, Py_ssize_t end,
                       Py_ssize_t depth_before, Py_ssize_t last_cut, Py_ssize_t *cut, int *is_lower) {
    Py_ssize_t n = st->n;
    int closed = close_end > te, spaced = end > close_end;
    *is_lower = 0;
    if (end >= n) {
        *cut = -1;
        return 1;
    }
    Py_UCS4 nxt = AT(end);
    if (!spaced) {
        /* _QUOTATIVE: と っ など なんて が(?!ん) を */
        if (nxt == 0x3068 || nxt == 0x3063 || nxt == 0x3092) {
            *cut = -1;
            return 1;
        }
        Py_UCS4 nxt2 = end + 1 < n ? AT(end + 1) : 0;
        if ((nxt == 0x306A && nxt2 == 0x3069) || (nxt == 0x304C && (end + 1 >= n || nxt2 != 0x3093)) ||
            (nxt == 0x306A && nxt2 == 0x3093 && end + 2 < n && AT(end + 2) == 0x3066)) {
            *cut = -1; /* など, が (not がん), なんて */
            return 1;
        }
        /* _continues_after_quotes needs a quote or a particle next: ask Python only then */
        if (depth_before && closed && (nxt == 0x300C || nxt == 0x300E || nxt == 0xFF08 || nxt == '(' ||
                                       is_particle_start(nxt)))
            return 0;
        if (!closed && te - ts == 1 && AT(ts) == 0x3002) {
            /* _NAME_PARTICLE: はがをのにへ not followed by hiragana */
            if (nxt == 0x306F || nxt == 0x304C || nxt == 0x3092 || nxt == 0x306E || nxt == 0x306B || nxt == 0x3078)
                return 0;
        }
    }
    if (nxt == '\r' || nxt == '\n' || nxt == 0x0B || nxt == 0x0C || nxt == 0x85 || nxt == 0x2028 || nxt == 0x2029) {
        *cut = -1;
        return 1;
    }
    int dots = 1, bangs = 1, wide = 1;
    for (Py_ssize_t i = ts; i < te; i++) {
        Py_UCS4 c = AT(i);
        if (c != '.') dots = 0;
        if (c != '!' && c != '?') bangs = 0;
        if (c != 0xFF0E) wide = 0;
    }
    if (dots) {
        if (!spaced) {
            *cut = -1;
            return 1;
        }
        int cjk_nxt = is_kanji_kana(nxt);
        if (nxt >= 0x80 && !cjk_nxt) return 0; /* a digit, \p{Ll} or a mark after it: Python */
        if (nxt >= '0' && nxt <= '9') {
            *cut = -1;
            return 1;
        }
        Py_ssize_t j;
        if (!word_before(st, ts, &j)) return 0;
        *is_lower = nxt >= 'a' && nxt <= 'z';
        int r = full_stop_end(st, j, ts, nxt, cjk_nxt, last_cut);
        if (r < 0) return -1;
        *cut = r ? end : -1;
        return 1;
    } else if (bangs) {
        Py_UCS4 prev = ts > 0 ? AT(ts - 1) : 0;
        if (prev && prev < 0x80 && Py_UNICODE_ISALNUM(prev) && !spaced) {
            *cut = -1;
            return 1;
        }
    } else if (wide) {
        Py_UCS4 prev = ts > 0 ? AT(ts - 1) : 0;
        if (prev && Py_UNICODE_ISDIGIT(prev) && !spaced &&
            (Py_UNICODE_ISDIGIT(nxt) || list_number_before(st, ts, last_cut))) {
            *cut = -1;
            return 1;
        }
    }
    if (!surely_no_extend(nxt)) return 0; /* a combining mark may follow: Python snaps */
    *cut = end;
    return 1;
}

static int append_cut(PyObject *to, Py_ssize_t p) {
    PyObject *v = PyLong_FromSsize_t(p);
    if (!v) return -1;
    int r = PyList_Append(to, v);
    Py_DECREF(v);
    return r;
}

static Py_ssize_t last_of(PyObject *list) {
    Py_ssize_t k = PyList_GET_SIZE(list);
    return k ? PyLong_AsSsize_t(PyList_GET_ITEM(list, k - 1)) : -1;
}

/* A growing array of positions: what a scan finds for this module to read, made a list only
   when Python asks for it (a Markdown page's scan finds hundreds). */
typedef struct {
    Py_ssize_t n, cap, *v;
} Vec;

static int vec_put(Vec *a, Py_ssize_t x) {
    if (a->n == a->cap) {
        Py_ssize_t cap = a->cap ? 2 * a->cap : 64, *v = PyMem_Realloc(a->v, cap * sizeof *v);
        if (!v) {
            PyErr_NoMemory();
            return -1;
        }
        a->v = v, a->cap = cap;
    }
    a->v[a->n++] = x;
    return 0;
}

/* the positions as a list of ints, a new reference */
static PyObject *vec_list(const Vec *a) {
    PyObject *out = PyList_New(a->n);
    for (Py_ssize_t k = 0; out && k < a->n; k++) {
        PyObject *x = PyLong_FromSsize_t(a->v[k]);
        if (!x) Py_CLEAR(out);
        else PyList_SET_ITEM(out, k, x);
    }
    return out;
}

/* The candidate loop over [st->lo, st->hi), appending to out and lower. With after >= 0 it
   returns at the first cut beyond after that goes to out (the caller wants only that one).
   0, or -1 on an error. */
static int scan_loop(PyObject *text, State *st, PyObject *decide, PyObject *out, PyObject *lower, Py_ssize_t after) {
    Py_ssize_t hi = st->hi, last_cut = st->lo, i = st->lo;
    while (i < hi) {
        FIND_FIRST(st, i, hi, IS_TERM(c));
        if (i >= hi) break;
        Py_ssize_t ts = i, te = i;
        while (te < hi && is_term(AT(te))) te++;
        Py_ssize_t close_end = te;
        while (close_end < hi && in_set(&quote_closers, AT(close_end))) close_end++;
        Py_ssize_t end = close_end;
        while (end < hi && is_hspace(AT(end))) end++;
        i = end > ts ? end : ts + 1;
        if (advance(st, ts) < 0) return -1;
        if (st->stack.len) {
            Py_ssize_t drop = 0;
            while (drop < st->stack.len && st->stack.items[drop].pos < ts - max_quote) drop++;
            if (drop) {
                memmove(st->stack.items, st->stack.items + drop, (st->stack.len - drop) * sizeof(Open));
                st->stack.len -= drop;
            }
        }
        Py_ssize_t depth_before = st->stack.len;
        if (advance(st, close_end) < 0) return -1;
        if (st->stack.len) continue;
        if (depth_before && close_end == te) continue;
        Py_ssize_t p = -1;
        int is_lower = 0;
        int r = decide_fast(st, ts, te, close_end, end, depth_before, last_cut, &p, &is_lower);
        if (r < 0) return -1;
        if (r == 0) {
            PyObject *got = PyObject_CallFunction(decide, "Onnnnnn", text, ts, te, close_end, end, depth_before, last_cut);
            if (!got) return -1;
            if (got == Py_None) {
                p = -1;
            } else if (!PyTuple_Check(got) || PyTuple_GET_SIZE(got) != 2) {
                Py_DECREF(got);
                PyErr_SetString(PyExc_TypeError, "decide() returns None or (is_lower, cut)");
                return -1;
            } else {
                is_lower = PyObject_IsTrue(PyTuple_GetItem(got, 0));
                p = PyLong_AsSsize_t(PyTuple_GetItem(got, 1));
            }
            Py_DECREF(got);
            if (PyErr_Occurred()) return -1;
        }
        if (p < 0) continue;
        PyObject *to = is_lower ? lower : out;
        if (0 < p && p < st->n && (PyList_GET_SIZE(to) == 0 || last_of(to) < p)) {
            if (append_cut(to, p) < 0) return -1;
            last_cut = p;
            if (after >= 0 && !is_lower && p > after) return 0;
        }
    }
    return 0;
}

static void start_state(State *st, PyObject *text, Py_ssize_t lo, Py_ssize_t hi) {
    memset(st, 0, sizeof *st);
    st->kind = PyUnicode_KIND(text);
    st->data = PyUnicode_DATA(text);
    st->n = PyUnicode_GET_LENGTH(text);
    if (hi > st->n) hi = st->n;
    if (lo < 0) lo = 0;
    st->lo = st->scan = st->done = lo;
    st->hi = hi;
}

static PyObject *scan(PyObject *self, PyObject *args) {
    PyObject *text, *decide;
    Py_ssize_t lo, hi;
    if (!PyArg_ParseTuple(args, "UnnO", &text, &lo, &hi, &decide)) return NULL;
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "_sentscan.configure() was not called");
        return NULL;
    }
    State state, *st = &state;
    start_state(st, text, lo, hi);
    PyObject *out = PyList_New(0), *lower = PyList_New(0), *res = NULL;
    if (out && lower && scan_loop(text, st, decide, out, lower, -1) == 0) res = PyTuple_Pack(2, out, lower);
    PyMem_Free(st->stack.items);
    Py_XDECREF(out);
    Py_XDECREF(lower);
    return res;
}

static PyObject *configure(PyObject *self, PyObject *args) {
    PyObject *openers, *closers, *quotes, *abbrev, *num_abbrev;
    Py_ssize_t mq;
    if (!PyArg_ParseTuple(args, "UUUOOn", &openers, &closers, &quotes, &abbrev, &num_abbrev, &mq)) return NULL;
    Py_ssize_t np = PyUnicode_GET_LENGTH(closers);
    if (np != PyUnicode_GET_LENGTH(openers) || np > 64) {
        PyErr_SetString(PyExc_ValueError, "openers and closers pair up one to one (at most 64)");
        return NULL;
    }
    if (!PyAnySet_Check(abbrev) || !PyAnySet_Check(num_abbrev)) {
        PyErr_SetString(PyExc_TypeError, "abbreviations are sets of str");
        return NULL;
    }
    memset(&brackets, 0, sizeof brackets);
    memset(&quote_closers, 0, sizeof quote_closers);
    if (fill_set(&brackets, openers) < 0 || fill_set(&brackets, closers) < 0 || fill_set(&quote_closers, quotes) < 0)
        return NULL;
    for (Py_ssize_t k = 0; k < np; k++) {
        pair_closer[k] = PyUnicode_READ_CHAR(closers, k);
        pair_opener[k] = PyUnicode_READ_CHAR(openers, k);
    }
    n_pairs = (int)np;
    fill_flags();
    Py_INCREF(abbrev);
    Py_INCREF(num_abbrev);
    Py_XSETREF(s_abbrev, abbrev);
    Py_XSETREF(s_num_abbrev, num_abbrev);
    max_quote = mq;
    configured = 1;
    Py_RETURN_NONE;
}

/* sentences._EMOTE may match at p (necessary, not sufficient): at a start character, or at
   the bracket of (笑), (泣), (汗) */
static int emote_may_start(State *st, Py_ssize_t p) {
    if (p < 0 || p >= st->n) return 0;
    Py_UCS4 c = AT(p);
    if (IS_EMOTE_START(c)) return 1;
    if ((c != '(' && c != 0xFF08) || p + 1 >= st->n) return 0;
    c = AT(p + 1);
    return c == 0x7B11 || c == 0x6CE3 || c == 0x6C57;
}

static Py_ssize_t find_any4(const State *st, Py_ssize_t i, Py_ssize_t end, int a, int b, int c, int d);

/* The first position in [i, end) where IS_EMOTE_HINT holds, or end. In Latin-1 only ^ © ®
   are one; in the BMP, "^", U+00A9..U+2BFF and nine others (〰 〽 ㊗ ㊙ 笑 泣 汗: see
   is_emote_hint): blocks of eight code units without one of those are passed over with SSE2
   (most prose has no hint, Japanese prose's kana and kanji none but three). */
static Py_ssize_t find_emote_hint(State *st, Py_ssize_t i, Py_ssize_t end) {
#if defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
    if (st->kind == PyUnicode_1BYTE_KIND) return find_any4(st, i, end, '^', 0xA9, 0xAE, 0xAE);
    if (st->kind == PyUnicode_2BYTE_KIND) {
        const Py_UCS2 *p = (const Py_UCS2 *)st->data;
        const __m128i from = _mm_set1_epi16(0xA9), span = _mm_set1_epi16(0x2BFF - 0xA9), zero = _mm_setzero_si128();
        static const unsigned short one[] = {'^', 0x3030, 0x303D, 0x3297, 0x3299, 0x7B11, 0x6CE3, 0x6C57};
        for (; i + 8 <= end; i += 8) {
            __m128i x = _mm_loadu_si128((const __m128i *)(p + i));
            /* in U+00A9..U+2BFF: x - 0xA9 (wrapping) is at most the span (saturating, unsigned) */
            __m128i hit = _mm_cmpeq_epi16(_mm_subs_epu16(_mm_sub_epi16(x, from), span), zero);
            for (int k = 0; k < 8; k++) hit = _mm_or_si128(hit, _mm_cmpeq_epi16(x, _mm_set1_epi16((short)one[k])));
            int mask = _mm_movemask_epi8(hit);
            while (mask) {
                int k = __builtin_ctz(mask) / 2;
                if (IS_EMOTE_HINT(p[i + k])) return i + k;
                mask &= ~(3 << (2 * k));
            }
        }
    }
#endif
    FIND_FIRST(st, i, end, IS_EMOTE_HINT(c));
    return i;
}

/* The hint characters in [i, end) where sentences._emotes may find a match (it tries the
   hint and the character before it): the first one's position, or end. A hint where neither
   may start one (→, ①, ■ ...) is passed over, as the search would find nothing there. */
static Py_ssize_t next_emote_hint(State *st, Py_ssize_t i, Py_ssize_t end) {
    while (1) {
        i = find_emote_hint(st, i, end);
        if (i >= end || emote_may_start(st, i) || emote_may_start(st, i - 1)) return i;
        i++;
    }
}

static PyObject *emote_hints(PyObject *self, PyObject *args) {
    PyObject *text;
    Py_ssize_t lo, hi;
    if (!PyArg_ParseTuple(args, "Unn", &text, &lo, &hi)) return NULL;
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    if (hi > n) hi = n;
    if (lo < 0) lo = 0;
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    State state = {0}, *st = &state;
    st->kind = kind;
    st->data = data;
    st->n = n;
    Py_ssize_t i = lo;
    while (1) {
        i = next_emote_hint(st, i, hi);
        if (i >= hi) break;
        if (append_cut(out, i) < 0) goto fail;
        i++;
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* The last position read by the mark found at i (a glued row or header may be there: "||",
   "mmHg" found at its "H" (in prose "m" is common, "H" rare), one of 【■◆●, or a slash of a
   date or unit as glued._GLUED_SLASH says: /(?:(?<=\d{4}/)\d|[dmμu]?[Ll][A-Z]|分[A-Z]),
   whose look back may read before any window), or -1 where none is there; *first: where
   the mark starts (i, or i - 2 for "mmHg"). A window [a, b) holds the mark when a <= *first
   and the last position read is before b. */
static Py_ssize_t glued_mark_last(State *st, Py_ssize_t i, Py_ssize_t n, Py_ssize_t *first) {
    Py_UCS4 c = AT(i);
    *first = i;
    if (c == '|') return i + 1 < n && AT(i + 1) == '|' ? i + 1 : -1;
    if (c == 'H') {
        *first = i - 2;
        return i >= 2 && i + 1 < n && AT(i - 2) == 'm' && AT(i - 1) == 'm' && AT(i + 1) == 'g' ? i + 1 : -1;
    }
    if (c != '/') return i; /* 【■◆● */
    if (i >= 4 && i + 1 < n && Py_UNICODE_ISDECIMAL(AT(i + 1)) && Py_UNICODE_ISDECIMAL(AT(i - 1)) &&
        Py_UNICODE_ISDECIMAL(AT(i - 2)) && Py_UNICODE_ISDECIMAL(AT(i - 3)) && Py_UNICODE_ISDECIMAL(AT(i - 4)))
        return i + 1;
    if (i + 2 >= n) return -1;
    Py_UCS4 c1 = AT(i + 1), c2 = AT(i + 2);
    if (c1 == 0x5206 || c1 == 'L' || c1 == 'l') return c2 >= 'A' && c2 <= 'Z' ? i + 2 : -1;
    if (c1 == 'd' || c1 == 'm' || c1 == 0x3BC || c1 == 'u') {
        if (i + 3 >= n) return -1;
        return (c2 == 'L' || c2 == 'l') && AT(i + 3) >= 'A' && AT(i + 3) <= 'Z' ? i + 3 : -1;
    }
    return -1;
}

/* A position in [i, b) where IS_GLUED_FIRST holds, or b: the first, but for a "|" that no
   "|" follows, which is passed over sixteen or eight code units at a time with SSE2 (it is
   no mark; flattened tables hold one every few dozen characters, as prose holds slashes)
   while the next code unit is before b. */
static Py_ssize_t glued_first_from(State *st, Py_ssize_t i, Py_ssize_t b) {
#if defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
    if (st->kind == PyUnicode_1BYTE_KIND) { /* 【■◆● are not Latin-1 */
        const Py_UCS1 *p = (const Py_UCS1 *)st->data;
        const __m128i bar = _mm_set1_epi8('|'), h = _mm_set1_epi8('H'), slash = _mm_set1_epi8('/');
        for (; i + 17 <= b; i += 16) {
            __m128i x = _mm_loadu_si128((const __m128i *)(p + i)), y = _mm_loadu_si128((const __m128i *)(p + i + 1));
            __m128i m = _mm_and_si128(_mm_cmpeq_epi8(x, bar), _mm_cmpeq_epi8(y, bar));
            m = _mm_or_si128(m, _mm_or_si128(_mm_cmpeq_epi8(x, h), _mm_cmpeq_epi8(x, slash)));
            int mask = _mm_movemask_epi8(m);
            if (mask) return i + __builtin_ctz(mask);
        }
    } else if (st->kind == PyUnicode_2BYTE_KIND) {
        const Py_UCS2 *p = (const Py_UCS2 *)st->data;
        const __m128i v1 = _mm_set1_epi16('|'), v2 = _mm_set1_epi16('H'), v3 = _mm_set1_epi16('/'),
                      v4 = _mm_set1_epi16(0x3010), v5 = _mm_set1_epi16(0x25A0), v6 = _mm_set1_epi16(0x25C6),
                      v7 = _mm_set1_epi16(0x25CF);
        for (; i + 9 <= b; i += 8) {
            __m128i x = _mm_loadu_si128((const __m128i *)(p + i)), y = _mm_loadu_si128((const __m128i *)(p + i + 1));
            __m128i m = _mm_or_si128(_mm_and_si128(_mm_cmpeq_epi16(x, v1), _mm_cmpeq_epi16(y, v1)), _mm_cmpeq_epi16(x, v2));
            m = _mm_or_si128(m, _mm_or_si128(_mm_cmpeq_epi16(x, v3), _mm_cmpeq_epi16(x, v4)));
            m = _mm_or_si128(m, _mm_or_si128(_mm_cmpeq_epi16(x, v5),
                                             _mm_or_si128(_mm_cmpeq_epi16(x, v6), _mm_cmpeq_epi16(x, v7))));
            int mask = _mm_movemask_epi8(m);
            if (mask) return i + __builtin_ctz(mask) / 2;
        }
    }
#endif
    FIND_FIRST(st, i, b, IS_GLUED_FIRST(c));
    return i;
}

/* glued._maybe_glued: a mark lies wholly in [a, b) (0 <= a, b <= n) */
static int glued_mark_in(State *st, Py_ssize_t a, Py_ssize_t b) {
    for (Py_ssize_t i = a;; i++) {
        i = glued_first_from(st, i, b);
        if (i >= b) return 0;
        Py_ssize_t first, last = glued_mark_last(st, i, st->n, &first);
        if (last >= 0 && first >= a && last < b) return 1;
    }
}

/* glued_hint(text, a, b): 1 when a mark lies in text[a:b] (the caller looks closer), 0
   otherwise */
static PyObject *glued_hint(PyObject *self, PyObject *args) {
    PyObject *text;
    Py_ssize_t a, b;
    if (!PyArg_ParseTuple(args, "Unn", &text, &a, &b)) return NULL;
    State state, *st = &state;
    start_state(st, text, 0, 0);
    if (b > st->n) b = st->n;
    if (a < 0) a = 0;
    return PyLong_FromLong(glued_mark_in(st, a, b));
}

/* The set of firsts (line_starts.FIRSTS), filled when the string changes: the packer asks
   for every window with the same one. NULL with an error set. */
static const CharSet *line_firsts(PyObject *firsts) {
    static CharSet first;
    static PyObject *filled_from = NULL;
    if (firsts != filled_from) {
        memset(&first, 0, sizeof first);
        Py_XSETREF(filled_from, NULL);
        if (fill_set(&first, firsts) < 0) return NULL;
        Py_INCREF(firsts);
        filled_from = firsts;
    }
    return &first;
}

/* line_starts.may_start_line at p (0 <= p < n): one of firsts, a digit, S/O/A/P before a
   closing parenthesis, or a colon within the next 40 characters (a label) */
static int may_start_line_at(const State *st, const CharSet *first, Py_ssize_t p) {
    Py_ssize_t n = st->n;
    Py_UCS4 c = AT(p);
    int may = in_set(first, c) || Py_UNICODE_ISDIGIT(c) ||
              ((c == 'S' || c == 'O' || c == 'A' || c == 'P') && p + 1 < n && (AT(p + 1) == 0xFF09 || AT(p + 1) == ')'));
    for (Py_ssize_t j = p, stop = p + 40 < n ? p + 40 : n; !may && j < stop; j++)
        may = AT(j) == ':' || AT(j) == 0xFF1A;
    return may;
}

/* line_start_hints(text, positions, firsts) -> the positions where a line may begin
   although its newline was lost, as line_starts.may_start_line says (may_start_line_at);
   only those need the full pattern. */
static PyObject *line_start_hints(PyObject *self, PyObject *args) {
    PyObject *text, *positions, *firsts;
    if (!PyArg_ParseTuple(args, "UO!U", &text, &PyList_Type, &positions, &firsts)) return NULL;
    const CharSet *first = line_firsts(firsts);
    if (!first) return NULL;
    State state = {0}, *st = &state;
    st->kind = PyUnicode_KIND(text);
    st->data = PyUnicode_DATA(text);
    Py_ssize_t n = st->n = PyUnicode_GET_LENGTH(text);
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(positions); k++) {
        PyObject *item = PyList_GET_ITEM(positions, k);
        Py_ssize_t p = PyLong_AsSsize_t(item);
        if (p == -1 && PyErr_Occurred()) goto fail;
        if (p < 0 || p >= n) continue;
        int may = may_start_line_at(st, first, p);
        if (may && PyList_Append(out, item) < 0) goto fail;
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* The first position from j on that is no space or tab, read at the text's width (most
   lines of a structure scan start with some); *spaces (unless NULL): whether they were all
   spaces. */
static inline Py_ssize_t skip_indent(const State *st, Py_ssize_t j, int *spaces) {
    Py_ssize_t n = st->n;
    int sp = 1;
#define SKIP_INDENT(T)                                                        \
    {                                                                         \
        const T *p = (const T *)st->data;                                     \
        for (; j < n && (p[j] == ' ' || p[j] == '\t'); j++) sp &= p[j] == ' '; \
    }
#if defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
    if (st->kind == PyUnicode_2BYTE_KIND) { /* eight at a time: indents run long */
        const Py_UCS2 *p = (const Py_UCS2 *)st->data;
        const __m128i space = _mm_set1_epi16(' '), tab = _mm_set1_epi16('\t');
        for (; j + 8 <= n; j += 8) {
            __m128i v = _mm_loadu_si128((const __m128i *)(p + j));
            int tabs = _mm_movemask_epi8(_mm_cmpeq_epi16(v, tab));
            int blank = _mm_movemask_epi8(_mm_cmpeq_epi16(v, space)) | tabs;
            if (blank != 0xFFFF) {
                int k = __builtin_ctz(~blank); /* two mask bits a character */
                sp &= !(tabs & ((1 << k) - 1));
                if (spaces) *spaces = sp;
                return j + k / 2;
            }
            sp &= !tabs;
        }
    }
#endif
    if (st->kind == PyUnicode_1BYTE_KIND) SKIP_INDENT(Py_UCS1)
    else if (st->kind == PyUnicode_2BYTE_KIND) SKIP_INDENT(Py_UCS2)
    else SKIP_INDENT(Py_UCS4)
#undef SKIP_INDENT
    if (spaces) *spaces = sp;
    return j;
}

/* The first position from k on that is not white space other than "\n". */
static Py_ssize_t skip_space_in_line(State *st, Py_ssize_t k) {
    while (k < st->n && AT(k) != '\n' && Py_UNICODE_ISSPACE(AT(k))) k++;
    return k;
}

/* paragraph_ends(text, crlf=False) -> (ends, suspects): where every match of
   boundaries._PARAGRAPH_LF ("\n" and one or more lines of white space, for a text whose only
   line break is "\n"), or with crlf of boundaries._PARAGRAPH for a text whose only breaks
   are "\r\n" and "\n", ends, found as its search finds them, and the ends before a character
   that may extend a grapheme (Python snaps those forward). */
static PyObject *paragraph_ends(PyObject *self, PyObject *args) {
    PyObject *text;
    int crlf = 0;
    if (!PyArg_ParseTuple(args, "U|p", &text, &crlf)) return NULL;
    State state = {0}, *st = &state;
    st->kind = PyUnicode_KIND(text);
    st->data = PyUnicode_DATA(text);
    Py_ssize_t n = st->n = PyUnicode_GET_LENGTH(text);
    PyObject *ends = PyList_New(0), *suspects = PyList_New(0);
    if (!ends || !suspects) goto fail;
    Py_ssize_t i = 0;
    while ((i = PyUnicode_FindChar(text, '\n', i, n, 1)) >= 0) {
        Py_ssize_t j = i + 1, last = -1;
        while (!crlf) { /* (?:[white space but "\n"]*\n)+, as far as it goes */
            Py_ssize_t k = skip_space_in_line(st, j);
            if (k >= n || AT(k) != '\n') break;
            last = j = k + 1;
        }
        while (crlf) { /* boundaries._PARAGRAPH's (?:HSPACE*(?:\r\n|\n))+ where those are the only breaks */
            Py_ssize_t k = j;
            while (k < n && is_hspace(AT(k))) k++;
            if (k + 1 < n && AT(k) == '\r' && AT(k + 1) == '\n') last = j = k + 2;
            else if (k < n && AT(k) == '\n') last = j = k + 1;
            else break;
        }
        if (last < 0) {
            i++;
            continue;
        }
        if (append_cut(ends, last) < 0) goto fail;
        if (last < n && !surely_no_extend(AT(last)) && append_cut(suspects, last) < 0) goto fail;
        i = last;
    }
    if (i == -2) goto fail;
    PyObject *out = PyTuple_Pack(2, ends, suspects);
    Py_DECREF(ends);
    Py_DECREF(suspects);
    return out;
fail:
    Py_XDECREF(ends);
    Py_XDECREF(suspects);
    return NULL;
}

/* ---- soft wraps and the overlap start (softwrap.SoftWraps._by_lines, OverlapSearch) ---- */

static inline int is_hira(Py_UCS4 c) { return (c >= 0x3041 && c <= 0x3096) || (c >= 0x309D && c <= 0x309F); }
static inline int is_kata(Py_UCS4 c) { return (c >= 0x30A1 && c <= 0x30FA) || (c >= 0x30FD && c <= 0x30FF); }
static inline int is_han(Py_UCS4 c) { return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF); }
/* \p{Han} beyond is_han: ask Python */
static inline int maybe_han(Py_UCS4 c) {
    return (c >= 0x2E80 && c <= 0x2FDF) || (c >= 0x3005 && c <= 0x3007) || (c >= 0x3021 && c <= 0x3029) ||
           (c >= 0x3038 && c <= 0x303B) || (c >= 0xF900 && c <= 0xFAFF) || c >= 0x10000;
}
static inline int is_ascii_alnum(Py_UCS4 c) { return (c >= '0' && c <= '9') || is_ascii_letter(c); }
/* softwrap._TERMINAL's terminators and the closers after them */
static inline int is_wrap_term(Py_UCS4 c) {
    return c == 0x3002 || c == 0xFF61 || c == '!' || c == '?' || c == 0xFF01 || c == 0xFF1F || c == 0x2026 ||
           c == 0x2025;
}
static inline int is_wrap_closer(Py_UCS4 c) {
    switch (c) {
    case 0x300D: case 0x300F: case 0xFF09: case ')': case 0x3011: case 0xFF3D: case 0x3009: case 0x300B: case 0x3015:
    case 0xFF5D: case ']': case '}': case 0x201D: case 0x2019: case '"': case '\'':
        return 1;
    }
    return 0;
}
static inline int is_any_digit(Py_UCS4 c) { return (c >= '0' && c <= '9') || (c >= 0xFF10 && c <= 0xFF19); }
/* softwrap._STRONG_NEXT's marks but the fences: 【, the bullets and ・ */
static inline int is_strong_bullet(Py_UCS4 c) {
    switch (c) {
    case 0x3010: case 0x25A0: case 0x25A1: case 0x25C6: case 0x25C7: case 0x25CF: case 0x25CE: case 0x25BC:
    case 0x25B6: case 0x25BA: case 0x2022: case 0x203B: case 0x30FB:
        return 1;
    }
    return 0;
}
/* the line may open with these and be prose: no heading, rule, table row or list mark */
static inline int is_prose_open(Py_UCS4 c) {
    return is_ascii_alnum(c) || is_han(c) || is_hira(c) || is_kata(c) || c == '(' || c == '"' || c == '\'' ||
           c == 0x300C || c == 0x300E || c == 0xFF08 || c == 0x201C || c == 0x2018;
}
/* softwrap._JA_CONTINUES's one-character endings: は が を に の で と も へ や て 、 ， */
static inline int is_ja_particle_end(Py_UCS4 c) {
    switch (c) {
    case 0x306F: case 0x304C: case 0x3092: case 0x306B: case 0x306E: case 0x3067: case 0x3068: case 0x3082:
    case 0x3078: case 0x3084: case 0x3066: case 0x3001: case 0xFF0C:
        return 1;
    }
    return 0;
}

/* A colon within the first k characters from i (a label may end there). */
static int colon_near(State *st, Py_ssize_t i, Py_ssize_t end, Py_ssize_t k) {
    for (Py_ssize_t j = i; j < end && j < i + k; j++)
        if (AT(j) == ':' || AT(j) == 0xFF1A) return 1;
    return 0;
}

/* The two lines around the newline before p (softwrap's cur and nxt): where each begins
   and ends, and where its text without the white space around it does. */
typedef struct {
    Py_ssize_t cs, ce, ns, ne; /* cur = [cs, ce), nxt = [ns, ne) */
    Py_ssize_t a, z, xa, xz;   /* cur.strip() = [a, z), nxt.strip() = [xa, xz) */
} TwoLines;

/* 0, or -1 where Python must read them: a "\r" (rstripped there) or \x1c-\x1f (the regex
   module's \s differs from str.isspace on those) */
static int two_lines(State *st, Py_ssize_t p, Py_ssize_t start, Py_ssize_t end, TwoLines *l) {
    l->cs = l->ce = p - 1;
    l->ns = l->ne = p;
    while (l->cs > start && AT(l->cs - 1) != '\n') l->cs--;
    while (l->ne < end && AT(l->ne) != '\n') l->ne++;
    /* the "\r" of a "\r\n" ends no line's text (rstrip("\r") there): left out of both */
    while (l->ce > l->cs && AT(l->ce - 1) == '\r') l->ce--;
    while (l->ne > l->ns && AT(l->ne - 1) == '\r') l->ne--;
    for (Py_ssize_t j = l->cs; j < l->ne; j++) {
        if (j == l->ce) j = l->ns; /* the newline between them (and its "\r") */
        if (j >= l->ne) break;
        Py_UCS4 c = AT(j);
        if (c == '\r' || (c >= 0x1C && c <= 0x1F)) return -1;
    }
    l->a = l->cs, l->z = l->ce, l->xa = l->ns, l->xz = l->ne;
    while (l->a < l->z && Py_UNICODE_ISSPACE(AT(l->a))) l->a++;
    while (l->z > l->a && Py_UNICODE_ISSPACE(AT(l->z - 1))) l->z--;
    while (l->xa < l->xz && Py_UNICODE_ISSPACE(AT(l->xa))) l->xa++;
    while (l->xz > l->xa && Py_UNICODE_ISSPACE(AT(l->xz - 1))) l->xz--;
    return 0;
}

static int has_char(State *st, Py_ssize_t a, Py_ssize_t b, Py_UCS4 c) {
    for (Py_ssize_t j = a; j < b; j++)
        if (AT(j) == c) return 1;
    return 0;
}

static int four_spaces(State *st, Py_ssize_t a, Py_ssize_t b) {
    return b - a >= 4 && AT(a) == ' ' && AT(a + 1) == ' ' && AT(a + 2) == ' ' && AT(a + 3) == ' ';
}

/* softwrap._TEST_START on nxt.strip(): ^[A-Z][A-Za-z0-9-]{0,7} ?[\d<>≦≧] */
static int test_start(State *st, const TwoLines *l) {
    Py_ssize_t i = l->xa, e = l->xz;
    if (i >= e || AT(i) < 'A' || AT(i) > 'Z') return 0;
    for (Py_ssize_t k = i + 1; k <= i + 8 && k <= e; k++) { /* after k - i - 1 characters of the class */
        for (Py_ssize_t j = k; j <= k + 1 && j < e; j++) {
            Py_UCS4 c = AT(j);
            if (Py_UNICODE_ISDECIMAL(c) || c == '<' || c == '>' || c == 0x2266 || c == 0x2267) return 1;
            if (c != ' ') break;
        }
        if (k >= e) break;
        Py_UCS4 c = AT(k);
        if (!(is_ascii_alnum(c) || c == '-')) break;
    }
    return 0;
}

/* The next line starts, after white space, with ``` or ~~~: softwrap._STRONG_NEXT's fence
   alternatives (a fence line itself is up to three spaces in; this may be more). */
static int next_opens_fence(State *st, const TwoLines *l) {
    if (l->xa + 2 >= l->ne) return 0;
    Py_UCS4 c = AT(l->xa);
    return (c == '`' || c == '~') && AT(l->xa + 1) == c && AT(l->xa + 2) == c;
}

/* _hard(cur, nxt) for certain from what the lines hold: a tab, indented code, a table row,
   a colon at the end (1), or not known here (0) */
static int surely_hard_lines(State *st, const TwoLines *l) {
    return has_char(st, l->cs, l->ne, '\t') || four_spaces(st, l->cs, l->ce) || four_spaces(st, l->ns, l->ne) ||
           AT(l->a) == '|' || AT(l->z - 1) == ':' || AT(l->z - 1) == 0xFF1A;
}

/* What both the lines' test and the paragraph's profile say for certain (softwrap:
   _by_lines and _Paragraph.soft): 0 hard, or -1 when that does not settle it. */
static int surely_hard(State *st, const TwoLines *l) {
    if (l->a == l->z || l->xa == l->xz) return 0; /* a blank line on either side */
    Py_UCS4 c0 = AT(l->a), last = AT(l->z - 1), x0 = AT(l->xa);
    /* rows: a table row, a rule line, a line closing a 【label】, cells one under another */
    if (c0 == '|' && last == '|') return 0;
    if (last == 0x3011) return 0;
    if (l->z - l->a >= 3 && !Py_UNICODE_ISALNUM(c0)) {
        Py_ssize_t j = l->a + 1;
        while (j < l->z && AT(j) == c0) j++;
        if (j == l->z) return 0;
    }
    Py_ssize_t tabs = 0, next_tabs = 0;
    for (Py_ssize_t j = l->cs; j < l->ce; j++) tabs += AT(j) == '\t';
    for (Py_ssize_t j = l->ns; j < l->ne; j++) next_tabs += AT(j) == '\t';
    if (tabs >= 2 && tabs == next_tabs) return 0;
    /* a sentence ends: terminators, then closers, then white space */
    Py_ssize_t t = l->z;
    while (t > l->a && is_wrap_closer(AT(t - 1))) t--;
    if (t > l->a) {
        Py_UCS4 c = AT(t - 1);
        if (is_wrap_term(c)) return 0;
        if ((c == '.' || c == 0xFF0E) && !(t - 2 >= l->cs && is_any_digit(AT(t - 2)))) return 0;
    }
    /* a new block begins on the next line (it is hard, and strongly so) */
    if (x0 == '#') {
        Py_ssize_t j = l->xa;
        while (j < l->xz && AT(j) == '#' && j - l->xa < 6) j++;
        if (j < l->ne && Py_UNICODE_ISSPACE(AT(j))) return 0;
    }
    if (is_strong_bullet(x0)) return 0;
    if ((x0 == '-' || x0 == '*' || x0 == '+') && l->xa + 1 < l->ne && Py_UNICODE_ISSPACE(AT(l->xa + 1))) return 0;
    return -1;
}

/* softwrap._FENCE on the line that starts at j: up to three spaces, then ``` or ~~~ */
static int fence_line_at(State *st, Py_ssize_t j, Py_ssize_t end) {
    Py_ssize_t k = j;
    while (k < end && k - j < 3 && AT(k) == ' ') k++;
    if (k + 2 >= end) return 0;
    Py_UCS4 c = AT(k);
    return (c == '`' || c == '~') && AT(k + 1) == c && AT(k + 2) == c;
}

/* In a paragraph with a fence mark, the newline before p is hard when it lies inside a
   fenced block or the next line opens or closes one (_Paragraph.soft's first test): 1 then,
   else 0 (the rest of the rules apply as without fences). */
static int fenced_hard(State *st, Py_ssize_t start, const TwoLines *l) {
    Py_ssize_t fences = 0;
    for (Py_ssize_t j = start; j <= l->cs; j++) /* the fence lines up to and with cur */
        if ((j == start || AT(j - 1) == '\n') && fence_line_at(st, j, l->ce)) fences++;
    return fences % 2 || fence_line_at(st, l->ns, l->ne);
}

/* The two lines around the newline before p, read for both decisions below: 0 when that
   newline is surely hard (the paragraph ends, a fenced block, a blank line, a row, a sentence
   end, a new block), -1 when Python must read them, 1 when the rules below decide. */
static int lines_around(State *st, Py_ssize_t p, Py_ssize_t start, Py_ssize_t end, int fenced, TwoLines *l) {
    if (p >= end) return 0;
    if (two_lines(st, p, start, end, l) < 0) return -1;
    if (fenced && fenced_hard(st, start, l)) return 0;
    return surely_hard(st, l) == 0 ? 0 : 1;
}

/* What softwrap.SoftWraps._by_lines decides for the newline before p in the paragraph
   [start, end) (fenced: it has a fence mark, and a fenced block is looked for around p;
   _by_lines leaves those to the profile, whose answer this is), where the two lines settle it
   in plain cases: 1 soft,
   0 hard, -2 they do not settle it (_by_lines says None), -1 ask Python (which states the
   rules; these are a subset of them). */
static int soft_hint_at(State *st, Py_ssize_t p, Py_ssize_t start, Py_ssize_t end, int fenced) {
    TwoLines lines, *l = &lines;
    int read = lines_around(st, p, start, end, fenced, l);
    if (read < 1) return read;
    int hard = surely_hard_lines(st, l);
    if (next_opens_fence(st, l)) return hard ? 0 : -1; /* never soft by the lines: hard, or the profile's */
    /* hard by the lines' look (a tab, indented code, a table row, a colon), but not so
       strongly that the line's width cannot make it soft: the profile decides (-2) */
    if (hard) {
        int rows_unknown = (colon_near(st, l->a, l->z, 48) && colon_near(st, l->xa, l->xz, 48)) || test_start(st, l);
        return rows_unknown ? -1 : -2;
    }
    /* the line evidently continues: prose on both sides, no label */
    if (l->z - l->a < 8 || has_char(st, l->cs, l->ne, '\t')) return -1;
    Py_UCS4 c0 = AT(l->a), last = AT(l->z - 1), x0 = AT(l->xa);
    if (!is_prose_open(c0) || colon_near(st, l->a, l->z, 48) || colon_near(st, l->xa, l->xz, 48)) return -1;
    int lower_next = x0 >= 'a' && x0 <= 'z';
    if (lower_next && (is_ascii_alnum(last) || last == ',' || last == ';' || last == '-')) return 1;
    if (!(lower_next || is_hira(x0) || is_kata(x0) || is_han(x0))) return -1;
    if (is_ja_particle_end(last)) return 1;
    if (l->z - l->a >= 2) {
        Py_UCS4 b = AT(l->z - 2);
        if ((b == 0x304B && last == 0x3089) || (b == 0x3051 && last == 0x3069) || (b == 0x305F && last == 0x3081) ||
            ((b == 0x3088 || b == 0x53CA) && last == 0x3073)) /* から けど ため よび 及び */
            return (b == 0x3088 && !(l->z - l->a >= 3 && AT(l->z - 3) == 0x304A)) ? -1 : 1;
    }
    if (maybe_han(last)) return -1;
    if (is_han(last) && is_hira(AT(l->ns))) return 1;
    return -1;
}

/* Display columns: chars.WIDE (East_Asian_Width W or F) for the BMP, a bitmap filled by
   configure_wide from the pattern's own runs (once, when a text first needs it). */
static unsigned char wide_bits[8192];
static int wide_ready = 0;

static PyObject *configure_wide(PyObject *self, PyObject *arg) {
    if (!PyList_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "configure_wide(runs): a list of (first, last + 1) code points in the BMP");
        return NULL;
    }
    unsigned char bits[sizeof wide_bits] = {0};
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(arg); k++) {
        Py_ssize_t a, b;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(arg, k), "nn", &a, &b)) return NULL;
        if (a < 0 || b > 0x10000 || a > b) {
            PyErr_SetString(PyExc_ValueError, "configure_wide: a run beyond the BMP");
            return NULL;
        }
        for (Py_ssize_t c = a; c < b; c++) bits[c >> 3] |= (unsigned char)(1 << (c & 7));
    }
    memcpy(wide_bits, bits, sizeof wide_bits);
    wide_ready = 1;
    Py_RETURN_NONE;
}

/* 1 wide, 0 narrow, -1 not known here (beyond the BMP, or before configure_wide) */
static inline int wide_of(Py_UCS4 c) {
    if (c < 0x80) return 0;
    if (c >= 0x10000 || !wide_ready) return -1;
    return (wide_bits[c >> 3] >> (c & 7)) & 1;
}

/* chars.columns of [a, z), or -1 where a character's width is not known here */
static Py_ssize_t columns_of(State *st, Py_ssize_t a, Py_ssize_t z) {
    Py_ssize_t cols = z - a;
    for (Py_ssize_t j = a; j < z; j++) {
        int w = wide_of(AT(j));
        if (w < 0) return -1;
        cols += w;
    }
    return cols;
}

/* softwrap._width: whether the lines (widths[i], spaces[i] of the rstripped line i, whose
   length is lens[i]) mostly end near the widest; the widest, or 0 */
static Py_ssize_t near_one_width(const Py_ssize_t *widths, const Py_ssize_t *lens, const Py_ssize_t *spaces,
                                 Py_ssize_t k) {
    Py_ssize_t top = 0, near = 0;
    for (Py_ssize_t i = 0; i < k; i++)
        if (widths[i] > top) top = widths[i];
    if (k < 2 || top < 16) return 0;
    for (Py_ssize_t i = 0; i < k; i++) {
        double w = (double)widths[i], share = spaces[i] * 12 >= lens[i] ? 0.8 : 0.95;
        near += w >= 0.95 * top || (w >= 0.8 * top && w >= share * top);
    }
    return (double)near >= 0.6 * k ? top : 0;
}

/* The widths softwrap._Paragraph measures, of the paragraph [start, end): by characters
   (*top_c, 0 when its lines do not end near one width) and, for a text beyond ASCII that is
   not wrapped by characters, by display columns (*top_w). 0, or -1 when Python must measure
   it (a "\r", a character of unknown width), or -2 on an error. */
static int width_of(State *st, Py_ssize_t start, Py_ssize_t end, Py_ssize_t *top_c, Py_ssize_t *top_w) {
    *top_c = *top_w = 0;
    /* the last line that is not blank: the lines before it are the body */
    Py_ssize_t last_start = -1, k = 0;
    int ascii = 1;
    for (Py_ssize_t i = start, ls = start; i <= end; i++) {
        Py_UCS4 c = i < end ? AT(i) : '\n';
        if (c == '\r' && !(i + 1 < end && AT(i + 1) == '\n')) return -1; /* a "\r\n" is stripped as space */
        if (c > 127) ascii = 0;
        if (c == '\n') {
            Py_ssize_t j = ls;
            while (j < i && Py_UNICODE_ISSPACE(AT(j))) j++;
            if (j < i) last_start = ls;
            ls = i + 1;
        }
    }
    for (Py_ssize_t ls = start; last_start >= 0 && ls < last_start; ls++) /* body lines */
        if (ls == start || AT(ls - 1) == '\n') k++;
    if (k == 0) return 0;
    Py_ssize_t *buf = PyMem_Malloc(4 * k * sizeof(Py_ssize_t));
    if (!buf) {
        PyErr_NoMemory();
        return -2;
    }
    Py_ssize_t *lens = buf, *spaces = buf + k, *cols = buf + 2 * k, *starts = buf + 3 * k, i = 0;
    for (Py_ssize_t ls = start; i < k; i++) {
        Py_ssize_t le = ls, z = ls;
        while (AT(le) != '\n') le++;
        z = le;
        while (z > ls && Py_UNICODE_ISSPACE(AT(z - 1))) z--;
        starts[i] = ls;
        lens[i] = z - ls;
        spaces[i] = 0;
        for (Py_ssize_t j = ls; j < z; j++) spaces[i] += AT(j) == ' ';
        cols[i] = le; /* the line's end, for the columns below */
        ls = le + 1;
    }
    int rc = 0;
    *top_c = near_one_width(lens, lens, spaces, k);
    if (!*top_c && !ascii) {
        /* WIDE.sub("ww") then rstrip: a wide space (U+3000) stays as two columns */
        for (i = 0; i < k && rc == 0; i++) {
            Py_ssize_t ls = starts[i], z = cols[i];
            while (z > ls && Py_UNICODE_ISSPACE(AT(z - 1))) {
                int w = wide_of(AT(z - 1));
                if (w) {
                    if (w < 0) rc = -1;
                    break;
                }
                z--;
            }
            Py_ssize_t c = rc ? -1 : columns_of(st, ls, z);
            if (c < 0) rc = -1;
            cols[i] = c;
        }
        if (rc == 0) *top_w = near_one_width(cols, lens, spaces, k);
    }
    PyMem_Free(buf);
    return rc;
}

/* soft_full(text, p, start, end, top_c, top_w, fenced=False): softwrap._Paragraph.soft for
   the newline before p, in a paragraph whose lines end near top_c characters or top_w
   columns (0: not), with a fence mark when fenced: 1 soft, 0 hard, -1 ask Python. */
static int soft_full_at(State *st, Py_ssize_t p, Py_ssize_t start, Py_ssize_t end, Py_ssize_t top_c, Py_ssize_t top_w,
                        int fenced) {
    TwoLines lines, *l = &lines;
    int read = lines_around(st, p, start, end, fenced, l);
    if (read < 1) return read;
    if (colon_near(st, l->a, l->z, 48) && colon_near(st, l->xa, l->xz, 48)) return -1; /* labels */
    if (test_start(st, l)) return -1; /* a lab value may end the line */
    Py_ssize_t len = l->z - l->cs, spaces = 0;
    for (Py_ssize_t j = l->cs; j < l->z; j++) spaces += AT(j) == ' ';
    double share = spaces * 12 >= len ? 0.8 : 0.95;
    /* full: the width's doing, unless a sentence ends or a block begins (a fence here) */
    int full = top_c > 0 && (double)len >= share * (double)top_c;
    if (!full && top_w > 0) {
        Py_ssize_t cols = columns_of(st, l->cs, l->z);
        if (cols < 0) return -1;
        full = (double)cols >= share * (double)top_w;
    }
    if (full) return next_opens_fence(st, l) ? 0 : 1;
    /* not full: hard where a tab, indented code, a table row or a colon says so */
    return surely_hard_lines(st, l) ? 0 : -1;
}

static int check_newline(State *st, Py_ssize_t p, Py_ssize_t start, Py_ssize_t end) {
    if (start < 0 || p <= start || end > st->n || p > end || AT(p - 1) != '\n') {
        PyErr_SetString(PyExc_ValueError, "p must follow a newline inside [start, end]");
        return -1;
    }
    return 0;
}

static PyObject *soft_full(PyObject *self, PyObject *args) {
    PyObject *text;
    Py_ssize_t p, start, end, top_c, top_w;
    int fenced = 0;
    if (!PyArg_ParseTuple(args, "Unnnnn|p", &text, &p, &start, &end, &top_c, &top_w, &fenced)) return NULL;
    State state, *st = &state;
    start_state(st, text, 0, 0);
    if (check_newline(st, p, start, end) < 0) return NULL;
    return PyLong_FromLong(soft_full_at(st, p, start, end, top_c, top_w, fenced));
}

/* line_width(text, start, end) -> (top_c, top_w), the widths of width_of, or None where
   Python must measure the paragraph */
static PyObject *line_width(PyObject *self, PyObject *args) {
    PyObject *text;
    Py_ssize_t start, end, top_c, top_w;
    if (!PyArg_ParseTuple(args, "Unn", &text, &start, &end)) return NULL;
    State state, *st = &state;
    start_state(st, text, 0, 0);
    if (start < 0 || end > st->n || start > end) {
        PyErr_SetString(PyExc_ValueError, "start and end must lie inside the text");
        return NULL;
    }
    int rc = width_of(st, start, end, &top_c, &top_w);
    if (rc == -2) return NULL;
    if (rc < 0) Py_RETURN_NONE;
    return Py_BuildValue("(nn)", top_c, top_w);
}

/* soft_hint(text, p, start, end, fenced=False): soft_hint_at for Python (fenced: the
   paragraph has a fence mark, softwrap.SoftWraps._fenced) */
static PyObject *soft_hint(PyObject *self, PyObject *args) {
    PyObject *text;
    Py_ssize_t p, start, end;
    int fenced = 0;
    if (!PyArg_ParseTuple(args, "Unnn|p", &text, &p, &start, &end, &fenced)) return NULL;
    State state, *st = &state;
    start_state(st, text, 0, 0);
    if (check_newline(st, p, start, end) < 0) return NULL;
    return PyLong_FromLong(soft_hint_at(st, p, start, end, fenced));
}

/* a fence mark ("``" or "~~") in [start, end): SoftWraps leaves such a paragraph to its profile */
static int has_fence_mark(PyObject *text, State *st, Py_ssize_t start, Py_ssize_t end) {
    const Py_UCS4 marks[2] = {'`', '~'};
    for (int m = 0; m < 2; m++) {
        for (Py_ssize_t i = start; (i = PyUnicode_FindChar(text, marks[m], i, end, 1)) >= 0; i++) {
            if (i + 1 < end && AT(i + 1) == marks[m]) return 1;
        }
    }
    return 0;
}

static Py_ssize_t item_at(PyObject *list, Py_ssize_t k) { return PyLong_AsSsize_t(PyList_GET_ITEM(list, k)); }

/* the index of the first item beyond x of a sorted list of positions */
static Py_ssize_t index_after(PyObject *list, Py_ssize_t x) {
    Py_ssize_t a = 0, b = PyList_GET_SIZE(list);
    while (a < b) {
        Py_ssize_t mid = (a + b) / 2;
        if (item_at(list, mid) <= x) a = mid + 1;
        else b = mid;
    }
    return a;
}

/* Atoms kept whole (Packer._blocked): c lies inside the last one that starts before it. */
typedef struct {
    PyObject *starts, *ends; /* NULL: none */
} Atoms;

static int blocked_at(const Atoms *at, Py_ssize_t c) {
    if (!at->starts) return 0;
    Py_ssize_t i = index_after(at->starts, c - 1) - 1;
    return i >= 0 && c < item_at(at->ends, i);
}

/* the least item beyond x of a list of positions in any order that no atom holds, or -1 */
static Py_ssize_t least_free(PyObject *list, Py_ssize_t x, const Atoms *at) {
    Py_ssize_t best = -1;
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(list); k++) {
        Py_ssize_t v = item_at(list, k);
        if (v > x && (best < 0 || v < best) && !blocked_at(at, v)) best = v;
    }
    return best;
}

/* the first item beyond x of a sorted list of positions that no atom holds, or -1 */
static Py_ssize_t first_free(PyObject *list, Py_ssize_t x, const Atoms *at) {
    for (Py_ssize_t k = index_after(list, x); k < PyList_GET_SIZE(list); k++) {
        Py_ssize_t v = item_at(list, k);
        if (!blocked_at(at, v)) return v;
    }
    return -1;
}

/* width_of for the paragraph [start, end), remembered in widths by its start as
   (answer, top_c, top_w): an overlap search asks about one paragraph for several chunks */
static int paragraph_width(State *st, PyObject *widths, Py_ssize_t start, Py_ssize_t end, Py_ssize_t *top_c,
                           Py_ssize_t *top_w) {
    PyObject *key = PyLong_FromSsize_t(start);
    if (!key) return -2;
    PyObject *got = PyDict_GetItemWithError(widths, key); /* borrowed */
    int rc;
    if (got) {
        if (!PyArg_ParseTuple(got, "inn", &rc, top_c, top_w)) rc = -2;
    } else if (PyErr_Occurred()) {
        rc = -2;
    } else {
        rc = width_of(st, start, end, top_c, top_w);
        PyObject *v = rc == -2 ? NULL : Py_BuildValue("(inn)", rc, *top_c, *top_w);
        if (!v || PyDict_SetItem(widths, key, v) < 0) rc = -2;
        Py_XDECREF(v);
    }
    Py_DECREF(key);
    return rc;
}

/* The soft-wrap decision for the newline before p (overlap_start's and hard_lf_cut's): the
   two lines, the paragraph's width (widths: a dict by paragraph start, kept between calls),
   else is_soft(p). 1 soft, 0 hard, -1 with an error set. pstart, pend: the paragraph
   holding p; *fenced: whether it has a fence mark (-1: not looked for yet). */
static int soft_at(PyObject *text, State *st, Py_ssize_t p, Py_ssize_t pstart, Py_ssize_t pend, int *fenced,
                   PyObject *widths, PyObject *is_soft) {
    if (*fenced < 0) *fenced = has_fence_mark(text, st, pstart, pend);
    int h = soft_hint_at(st, p, pstart, pend, *fenced);
    if (h == -2) { /* the paragraph's width settles it, or Python */
        Py_ssize_t top_c = 0, top_w = 0;
        int measured = paragraph_width(st, widths, pstart, pend, &top_c, &top_w);
        if (measured == -2) return -1;
        h = measured == 0 ? soft_full_at(st, p, pstart, pend, top_c, top_w, *fenced) : -1;
    }
    if (h >= 0) return h;
    PyObject *got = PyObject_CallFunction(is_soft, "n", p);
    if (!got) return -1;
    h = PyObject_IsTrue(got);
    Py_DECREF(got);
    return h;
}

/* overlap_start(text, lo, hi, paras, lower_text, soft_wraps, decide, is_soft, memo, glued,
   emotes, atoms, widths): the first start in (lo, hi] of the next chunk at the sentence level,
   as the first one OverlapSearch._sentence_starts yields for a text whose only breaks are
   "\n" (or "\r\n" and "\n"; a "\r" in the two lines of a newline: ask is_soft): a paragraph,
   sentence or glued-row cut, or a newline that is no soft wrap before them. 0 when there is
   none; -1 when Python must look (a combining mark, a lower-case end in a text not classified
   yet); -3 when the line holding lo is long (a paragraph without newlines): scan its
   paragraph whole (into memo) and ask again. paras: the paragraph cuts; lower_text: 1, 0, or
   -1 unknown; decide: sentences' rules for the candidates the scan does not decide;
   is_soft(p): the soft-wrap decision where the lines and the paragraph's width do not settle
   it here; memo: the paragraphs scanned whole, (cuts, lower_cuts) by their start; glued(text,
   lo, hi): the glued-row cuts of the window, asked only where a glued row may be (the same
   quick look as glued_hint); emotes(text, a, b): the emote sentence ends of the lines
   [a, b), asked only where an emote may be; atoms: None or the (starts, ends) of the spans
   kept whole, where no start may be; widths: a dict of the paragraphs' widths (width_of) by
   their start, kept between calls. */
/* regex's \d where this file can tell: 1 a digit, 0 not, -1 not known here (the regex
   module's Unicode tables may be newer than Python's: such a text asks Python) */
static int rx_digit(Py_UCS4 c) {
    if (c < 0x80) return c >= '0' && c <= '9';
    if (c >= 0xFF10 && c <= 0xFF19) return 1;
    if (c < 0x660 || (c >= 0x2000 && c < 0xA620) || (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0xFF00 && c < 0xFFF0) ||
        (c >= 0x1F000 && c < 0x1FBF0))
        return 0;
    return -1;
}

/* regex's \s: str.isspace but \x1c-\x1f */
static inline int rx_space(Py_UCS4 c) { return Py_UNICODE_ISSPACE(c) && !(c >= 0x1C && c <= 0x1F); }

/* \d{count} at i before b: 1, 0, or -1 (not known) */
static int digits_at(State *st, Py_ssize_t i, Py_ssize_t count, Py_ssize_t b) {
    if (i + count > b) return 0;
    for (Py_ssize_t k = 0; k < count; k++) {
        int d = rx_digit(AT(i + k));
        if (d <= 0) return d;
    }
    return 1;
}

/* \d{1,2} then the character end_ch, from j before b: the position after it, -1 (no match)
   or -2 (not known) */
static Py_ssize_t short_number(State *st, Py_ssize_t j, Py_UCS4 end_ch, Py_ssize_t b) {
    if (j >= b) return -1;
    int d = rx_digit(AT(j));
    if (d <= 0) return d < 0 ? -2 : -1;
    if (j + 1 >= b) return -1;
    d = rx_digit(AT(j + 1));
    if (d < 0) return -2;
    Py_ssize_t k = d ? j + 2 : j + 1; /* greedy: a second digit must be followed by end_ch */
    return k < b && AT(k) == end_ch ? k + 1 : -1;
}

/* \d{4}/\d{1,2}/\d{1,2}\t at i before b: its end, -1 or -2 (not known) */
static Py_ssize_t date_cell_at(State *st, Py_ssize_t i, Py_ssize_t b) {
    if (i + 4 >= b || AT(i + 4) != '/') return -1;
    int d = digits_at(st, i, 4, b);
    if (d <= 0) return d < 0 ? -2 : -1;
    Py_ssize_t k = short_number(st, i + 5, '/', b);
    return k < 0 ? k : short_number(st, k, '\t', b);
}

/* glued._GLUED_UNIT's look ahead at e (before b): [A-Z][A-Za-z0-9-]{1,7} ?[\d<>≦≧].
   1, 0 or -1 (not known) */
static int unit_then_test(State *st, Py_ssize_t e, Py_ssize_t b) {
    if (e >= b || AT(e) < 'A' || AT(e) > 'Z') return 0;
    Py_ssize_t run = 0;
    while (run < 7 && e + 1 + run < b) {
        Py_UCS4 c = AT(e + 1 + run);
        if (!(is_ascii_alnum(c) || c == '-')) break;
        run++;
    }
    int unknown = 0;
    for (Py_ssize_t k = run; k >= 1; k--) {
        for (Py_ssize_t p = e + 1 + k, sp = 0; sp < 2 && p < b; sp++, p++) {
            Py_UCS4 c = AT(p);
            int d = rx_digit(c);
            if (d > 0 || c == '<' || c == '>' || c == 0x2266 || c == 0x2267) return 1;
            if (d < 0) unknown = 1;
            if (c != ' ') break;
        }
    }
    return unknown ? -1 : 0;
}

/* glued._GLUED_UNIT at i before b: the match's end, -1 or -2 (not known) */
static Py_ssize_t glued_unit_at(State *st, Py_ssize_t i, Py_ssize_t b) {
    Py_UCS4 c = AT(i);
    Py_ssize_t e = -1;
    if (c == 'm') {
        if (i + 3 < b && AT(i + 1) == 'm' && AT(i + 2) == 'H' && AT(i + 3) == 'g') e = i + 4;
    } else if (c == '/' && i + 1 < b) {
        Py_UCS4 c1 = AT(i + 1);
        if (c1 == 'L' || c1 == 'l' || c1 == 0x5206) e = i + 2; /* /L, /分 */
        else if ((c1 == 'd' || c1 == 'm' || c1 == 0x3BC || c1 == 'u') && i + 2 < b && (AT(i + 2) == 'L' || AT(i + 2) == 'l'))
            e = i + 3;
    }
    if (e < 0) return -1;
    int r = unit_then_test(st, e, b);
    return r > 0 ? e : r < 0 ? -2 : -1;
}

/* glued._ROW_CELL.search(text, s - 6, s): [A-Za-z]{1,3}\d{0,3}$ (also before a "\n" that
   ends the window): its start, -1 or -2 (not known) */
static Py_ssize_t row_cell_before(State *st, Py_ssize_t s) {
    Py_ssize_t w0 = s - 6 > 0 ? s - 6 : 0;
    int nl = s > w0 && AT(s - 1) == '\n';
    for (Py_ssize_t p = w0; p < s; p++) {
        for (Py_ssize_t l = 1; l <= 3 && p + l <= s && is_ascii_letter(AT(p + l - 1)); l++) {
            for (Py_ssize_t d = 0; d <= 3; d++) {
                Py_ssize_t q = p + l + d;
                if (q == s || (nl && q == s - 1)) return p;
                if (d == 3 || q >= s) break;
                int dg = rx_digit(AT(q));
                if (dg < 0) return -2;
                if (!dg) break;
            }
        }
    }
    return -1;
}

/* A dated row of glued._GLUED_DATE_ROW (\t<date>\t | <date>\t) found at p: appends its cut (a
   row glued to the one before) and returns the match's end; -1 no match at p; -2 not known */
static Py_ssize_t date_row_at(State *st, Py_ssize_t p, Py_ssize_t b, PyObject *out, Py_ssize_t lo, Py_ssize_t hi) {
    int tabbed = AT(p) == '\t';
    Py_ssize_t e = date_cell_at(st, tabbed ? p + 1 : p, b), cut = -1;
    if (e < 0) return e;
    if (tabbed) { /* the row's first cell (C5) glued to the previous row's last cell (75%) */
        Py_ssize_t cell = row_cell_before(st, p);
        if (cell == -2) return -2;
        Py_UCS4 before = cell > 0 ? AT(cell - 1) : ' ';
        if (cell >= 0 && !(before < 0x80 && is_ascii_alnum(before)) && !Py_UNICODE_ISSPACE(before)) cut = cell;
    } else if (p > 0 && (Py_UNICODE_ISDIGIT(AT(p - 1)) || AT(p - 1) == '%')) {
        cut = p;
    }
    if (cut > lo && cut <= hi && cut < st->n && append_cut(out, cut) < 0) return -3;
    return e;
}

/* glued.glued_line_cuts(text, lo, hi) for a State over the text: a new list, Py_None (a
   new reference) where a character's class is not known here (Python then looks), or NULL.
   Each pattern is a pass of its own (their cuts come in the patterns' order, each pattern's
   matches apart, as finditer gives them), and each pass reads only where its matches can
   begin: a date's slash is four digits in, a unit begins at its slash or the "mm" of mmHg.
   The characters the passes begin at ("|", 【■◆●, "/", "H", tab) are found in one read of
   the window first; each pass then goes through those alone. */
#define GLUED_MARK(c) ((c) == '/' || (c) == '|' || (c) == 'H' || (c) == '\t' || ((c) >= 0x25A0 && ((c) == 0x3010 || (c) == 0x25A0 || (c) == 0x25C6 || (c) == 0x25CF)))
static PyObject *glued_rows(State *st, Py_ssize_t lo, Py_ssize_t hi) {
    Py_ssize_t n = st->n, a = lo - 16 > 0 ? lo - 16 : 0, b = hi + 16 < n ? hi + 16 : n;
    PyObject *out = PyList_New(0);
    if (!out || !glued_mark_in(st, a, b)) return out;
    Py_ssize_t local[256], *marks = local, cap = 256, nm = 0;
    for (Py_ssize_t i = a;; i++) {
        FIND_FIRST(st, i, b, GLUED_MARK(c));
        if (i >= b) break;
        if (nm == cap) {
            Py_ssize_t *more = PyMem_Malloc(2 * cap * sizeof(Py_ssize_t));
            if (!more) {
                PyErr_NoMemory();
                goto fail;
            }
            memcpy(more, marks, nm * sizeof(Py_ssize_t));
            if (marks != local) PyMem_Free(marks);
            marks = more;
            cap *= 2;
        }
        marks[nm++] = i;
    }
    Py_ssize_t i, j, k, e, pos, last;
    int tab = 0;
#define KEEP(p)                                                                                                      \
    do {                                                                                                             \
        if ((p) > lo && (p) <= hi && (p) < n && append_cut(out, (p)) < 0) goto fail;                                \
    } while (0)
    for (k = 0, pos = a; k < nm; k++) { /* || */
        i = marks[k];
        Py_UCS4 c = AT(i);
        tab |= c == '\t';
        if (c != '|' || i < pos) continue;
        if (i + 1 >= b) break;
        if (AT(i + 1) == '|') {
            KEEP(i + 1);
            pos = i + 2;
        }
    }
    for (k = 0; k < nm; k++) { /* (?<=\S)[【■◆●] */
        i = marks[k];
        Py_UCS4 c = AT(i);
        if (c >= 0x25A0 && i > 0 && !rx_space(AT(i - 1))) KEEP(i);
    }
    /* \t<date>\t | <date>\t: a match begins five (a tab) or four characters before a slash */
    for (k = 0, pos = a, last = -1; k < nm; k++) {
        j = marks[k];
        if (AT(j) != '/') continue;
        for (Py_ssize_t p = j - 5; p <= j - 4; p++) {
            if (p < pos || p <= last) continue;
            last = p;
            e = date_row_at(st, p, b, out, lo, hi);
            if (e == -3) goto fail;
            if (e == -2) goto unknown;
            if (e >= 0) pos = e;
        }
    }
    for (k = 0, pos = a; k < nm; k++) { /* a lab unit glued to the next test's name: at a slash or mmHg */
        i = marks[k];
        Py_UCS4 c = AT(i);
        if (c != '/' && c != 'H') continue;
        Py_ssize_t q = c == '/' ? i : i - 2;
        if (q < pos) continue;
        e = glued_unit_at(st, q, b);
        if (e == -2) goto unknown;
        if (e >= 0) {
            KEEP(e);
            pos = e;
        }
    }
    /* (?<=[^\s\d/.,\-])<date>\t inside a tab-separated row: four characters before a slash */
    for (k = 0, pos = a; tab && k < nm; k++) {
        j = marks[k];
        if (AT(j) != '/') continue;
        Py_ssize_t p = j - 4;
        if (p < pos || p <= 0) continue;
        e = date_cell_at(st, p, b);
        if (e == -2) goto unknown;
        if (e < 0) continue;
        Py_UCS4 c = AT(p - 1);
        int d = rx_digit(c);
        if (d < 0) goto unknown;
        if (rx_space(c) || d || c == '/' || c == '.' || c == ',' || c == '-') continue;
        Py_ssize_t t = p - 1, t0 = p - 40 > 0 ? p - 40 : 0;
        while (t >= t0 && AT(t) != '\t') t--;
        if (t >= t0) KEEP(p);
        pos = e;
    }
#undef KEEP
    if (marks != local) PyMem_Free(marks);
    return out;
unknown:
    if (marks != local) PyMem_Free(marks);
    Py_DECREF(out);
    Py_RETURN_NONE;
fail:
    if (marks != local) PyMem_Free(marks);
    Py_DECREF(out);
    return NULL;
}
#undef GLUED_MARK

/* glued_cuts(text, lo, hi) -> glued.glued_line_cuts(text, lo, hi), or None where a
   character's class is not known here */
static PyObject *glued_cuts(PyObject *self, PyObject *args) {
    PyObject *text;
    Py_ssize_t lo, hi;
    if (!PyArg_ParseTuple(args, "Unn", &text, &lo, &hi)) return NULL;
    State state, *st = &state;
    start_state(st, text, 0, 0);
    if (lo < 0) lo = 0;
    if (hi > st->n) hi = st->n;
    if (hi <= lo) return PyList_New(0);
    return glued_rows(st, lo, hi);
}

/* overlap_start(context, lo, hi, lower_text, atoms): context is the text's part, made once
   per text: (text, paragraph cuts, soft_wraps, decide, is_soft, memo, glued, emotes, widths) */
static PyObject *overlap_start(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5 || !PyTuple_Check(args[0]) || PyTuple_GET_SIZE(args[0]) != 9) {
        PyErr_SetString(PyExc_TypeError, "overlap_start(context, lo, hi, lower_text, atoms): context a 9-tuple");
        return NULL;
    }
    PyObject *ctx = args[0], *text = PyTuple_GET_ITEM(ctx, 0), *paras = PyTuple_GET_ITEM(ctx, 1);
    PyObject *decide = PyTuple_GET_ITEM(ctx, 3), *is_soft = PyTuple_GET_ITEM(ctx, 4), *memo = PyTuple_GET_ITEM(ctx, 5);
    PyObject *glued = PyTuple_GET_ITEM(ctx, 6), *emotes = PyTuple_GET_ITEM(ctx, 7), *widths = PyTuple_GET_ITEM(ctx, 8);
    PyObject *atoms = args[4];
    if (!PyUnicode_Check(text) || !PyList_Check(paras) || !PyDict_Check(widths)) {
        PyErr_SetString(PyExc_TypeError, "context: (str, list, ..., dict)");
        return NULL;
    }
    int soft_wraps = PyObject_IsTrue(PyTuple_GET_ITEM(ctx, 2));
    Py_ssize_t lo = PyLong_AsSsize_t(args[1]), hi = PyLong_AsSsize_t(args[2]);
    long lower_text = PyLong_AsLong(args[3]);
    if (soft_wraps < 0 || PyErr_Occurred()) return NULL;
    Atoms at = {NULL, NULL};
    if (atoms != Py_None) {
        if (!PyTuple_Check(atoms) || PyTuple_GET_SIZE(atoms) != 2 || !PyList_Check(PyTuple_GET_ITEM(atoms, 0)) ||
            !PyList_Check(PyTuple_GET_ITEM(atoms, 1)) ||
            PyList_GET_SIZE(PyTuple_GET_ITEM(atoms, 0)) != PyList_GET_SIZE(PyTuple_GET_ITEM(atoms, 1))) {
            PyErr_SetString(PyExc_TypeError, "atoms: None or (starts, ends), two lists of one length");
            return NULL;
        }
        if (PyList_GET_SIZE(PyTuple_GET_ITEM(atoms, 0))) {
            at.starts = PyTuple_GET_ITEM(atoms, 0);
            at.ends = PyTuple_GET_ITEM(atoms, 1);
        }
    }
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "_sentscan.configure() was not called");
        return NULL;
    }
    State state, *st = &state;
    start_state(st, text, 0, 0);
    Py_ssize_t n = st->n;
    if (hi > n) hi = n;
    if (lo < 0 || hi <= lo) return PyLong_FromLong(0);
    /* the paragraph holding lo, and the first paragraph cut after it */
    Py_ssize_t np = PyList_GET_SIZE(paras), a = 0, b = np;
    while (a < b) {
        Py_ssize_t mid = (a + b) / 2, v = item_at(paras, mid);
        if (v == -1 && PyErr_Occurred()) return NULL;
        if (v <= lo) a = mid + 1;
        else b = mid;
    }
    Py_ssize_t pstart = a ? item_at(paras, a - 1) : 0, pend = a < np ? item_at(paras, a) : n;
    if (PyErr_Occurred()) return NULL;
    Py_ssize_t x = pend <= hi && pend < n ? pend : -1;
    if (x >= 0 && blocked_at(&at, x)) return PyLong_FromLong(-1); /* the next paragraph's cuts may come first */
    if (PyErr_Occurred()) return NULL;
    /* the first sentence cut: from the paragraph's cuts when it was scanned whole, else
       from the lines holding the window, scanned alone */
    Py_ssize_t first = -1, first_lower = -1, first_emote = -1;
    if (!PyDict_Check(memo)) {
        PyErr_SetString(PyExc_TypeError, "memo: a dict of paragraph scans");
        return NULL;
    }
    PyObject *key = PyLong_FromSsize_t(pstart);
    if (!key) return NULL;
    memo = PyDict_GetItemWithError(memo, key); /* borrowed */
    Py_DECREF(key);
    if (!memo) {
        if (PyErr_Occurred()) return NULL;
        memo = Py_None;
    }
    if (memo != Py_None) {
        if (!PyTuple_Check(memo) || PyTuple_GET_SIZE(memo) != 2 || !PyList_Check(PyTuple_GET_ITEM(memo, 0)) ||
            !PyList_Check(PyTuple_GET_ITEM(memo, 1))) {
            PyErr_SetString(PyExc_TypeError, "memo: None or (cuts, lower_cuts), two lists");
            return NULL;
        }
        first = first_free(PyTuple_GET_ITEM(memo, 0), lo, &at);
        first_lower = first_free(PyTuple_GET_ITEM(memo, 1), lo, &at);
        if (PyErr_Occurred()) return NULL; /* not positions */
    } else {
        Py_ssize_t a0 = lo - 4097 > pstart ? lo - 4097 : pstart, L = PyUnicode_FindChar(text, '\n', a0, lo, -1);
        if (L == -2) return NULL;
        L = L >= 0 ? L + 1 : a0;
        if (L > pstart && AT(L - 1) != '\n') return PyLong_FromLong(-3); /* a long line: scan the paragraph */
        Py_ssize_t r0 = hi < pend ? hi : pend, r1 = L + 16385 < pend ? L + 16385 : pend;
        Py_ssize_t R = r0 < r1 ? PyUnicode_FindChar(text, '\n', r0, r1, 1) : -1;
        if (R == -2) return NULL;
        if (R < 0) {
            if (r1 < pend) return PyLong_FromLong(-3);
            R = r0 > pend ? r0 : pend;
        }
        Py_ssize_t hint = L > 0 ? L - 1 : 0;
        hint = next_emote_hint(st, hint, R);
        if (hint < R) { /* an emote may end a sentence there: sentences._emote_cuts says where */
            PyObject *got = PyObject_CallFunction(emotes, "Onn", text, L, R);
            if (!got) return NULL;
            first_emote = PyList_Check(got) ? least_free(got, lo, &at) : -1;
            Py_DECREF(got);
            if (PyErr_Occurred()) return NULL;
        }
        PyObject *out = PyList_New(0), *lower = PyList_New(0);
        if (!out || !lower) {
            Py_XDECREF(out);
            Py_XDECREF(lower);
            return NULL;
        }
        st->lo = st->scan = st->done = L;
        st->hi = R;
        /* stop at the first cut after lo (with atoms the whole lines: it may lie in one) */
        int bad = scan_loop(text, st, decide, out, lower, at.starts ? -1 : lo);
        PyMem_Free(st->stack.items);
        if (!bad) {
            first = first_free(out, lo, &at);
            first_lower = first_free(lower, lo, &at);
        }
        Py_DECREF(out);
        Py_DECREF(lower);
        if (bad || PyErr_Occurred()) return NULL;
        if (first_emote >= 0 && (first < 0 || first_emote < first)) first = first_emote;
    }
    if (first > hi) first = -1;
    if (first_lower > hi) first_lower = -1;
    if (first_lower >= 0 && (first < 0 || first_lower < first)) {
        if (lower_text < 0) return PyLong_FromLong(-1);
        if (lower_text) first = first_lower;
    }
    if (first >= 0 && (x < 0 || first < x)) x = first;
    /* a glued row's start (glued.glued_line_cuts, which is asked where a class is not known here) */
    {
        PyObject *rows = glued_rows(st, lo, hi);
        if (rows == Py_None) {
            Py_DECREF(rows);
            rows = PyObject_CallFunction(glued, "Onn", text, lo, hi);
        }
        if (!rows) return NULL;
        Py_ssize_t row = PyList_Check(rows) ? least_free(rows, lo, &at) : -1; /* in the patterns' order */
        Py_DECREF(rows);
        if (PyErr_Occurred()) return NULL;
        if (row >= 0 && row <= hi && (x < 0 || row < x)) x = row;
    }
    /* the newlines before it (boundaries._regex_cuts of the line pattern, from search_start) */
    Py_ssize_t from = lo - 1 > 0 ? lo - 1 : 0;
    while (from > 0 && lo - from < 256) {
        Py_UCS4 c = AT(from - 1);
        if (!Py_UNICODE_ISSPACE(c)) {
            if (c >= 0x300 && !surely_no_extend(c)) return PyLong_FromLong(-1);
            break;
        }
        from--;
    }
    from = from > 0 ? from - 1 : 0;
    Py_ssize_t stop = hi;
    while (stop < n && Py_UNICODE_ISSPACE(AT(stop)) && stop - hi < 256) stop++;
    stop = stop + 1 < n ? stop + 1 : n;
    int fenced = -1;
    /* the text has a "\r": its line pattern is then boundaries._LINE, whose white space (the
       regex module's) has no \x1f; found when a \x1f in a blank line asks */
    int has_cr = -1;
    for (Py_ssize_t i = from; (i = PyUnicode_FindChar(text, '\n', i, stop, 1)) >= 0;) {
        Py_ssize_t q = i + 1;
        while (1) { /* \n(?:[white space but \n]*\n)*, as far as the search reaches */
            Py_ssize_t k = q;
            while (k < stop && AT(k) != '\n' && Py_UNICODE_ISSPACE(AT(k))) {
                if (AT(k) == 0x1F) {
                    if (has_cr < 0) {
                        Py_ssize_t r = PyUnicode_FindChar(text, '\r', 0, n, 1);
                        if (r == -2) return NULL;
                        has_cr = r >= 0;
                    }
                    if (has_cr) break;
                }
                k++;
            }
            if (k < stop && AT(k) == '\n') q = k + 1;
            else break;
        }
        i = q;
        if (q < n && AT(q) >= 0x300 && !surely_no_extend(AT(q))) return PyLong_FromLong(-1);
        if (q <= lo || q >= n) continue;
        if (q > hi || (x >= 0 && q >= x)) break;
        if (blocked_at(&at, q)) continue;
        if (!soft_wraps) return PyLong_FromSsize_t(q);
        int h = soft_at(text, st, q, pstart, pend, &fenced, widths, is_soft);
        if (h < 0) return NULL;
        if (!h) return PyLong_FromSsize_t(q);
    }
    if (PyErr_Occurred()) return NULL;
    return PyLong_FromSsize_t(x >= 0 ? x : 0);
}

/* hard_lf_cut's search, for a caller in C: the cut, 0, -1 (Python must look) or -2 with an
   error set */
static Py_ssize_t hard_lf_at(PyObject *text, Py_ssize_t lo, Py_ssize_t hi, Py_ssize_t floor, PyObject *paras,
                             int soft_wraps, PyObject *is_soft, PyObject *widths) {
    State state, *st = &state;
    start_state(st, text, 0, 0);
    Py_ssize_t n = st->n, end = hi < n ? hi : n, np = PyList_GET_SIZE(paras);
    Py_ssize_t pstart = -1, pend = -1; /* the paragraph of the last newline decided */
    int fenced = -1;
    if (lo < 0) lo = 0;
    while (end > lo) {
        Py_ssize_t j = PyUnicode_FindChar(text, '\n', lo, end, -1);
        if (j == -2) return -2;
        if (j < 0) break;
        Py_ssize_t p = j + 1, k = p;
        while (k < n && (AT(k) == ' ' || AT(k) == '\t' || AT(k) == 0x3000)) k++;
        if (k < n && AT(k) == '\n') { /* a run of blank lines that goes on past the window: its cut is beyond */
            Py_ssize_t e = j;
            while (e > lo && (AT(e - 1) == '\n' || AT(e - 1) == ' ' || AT(e - 1) == '\t' || AT(e - 1) == 0x3000)) e--;
            end = e;
            continue;
        }
        if (p >= n || p < floor) break;
        if (!surely_no_extend(AT(p))) return -1;
        if (!soft_wraps) return p;
        if (p > pend || p <= pstart) { /* the paragraph holding the newline: bisect_right(paras, p - 1) */
            Py_ssize_t a = 0, b = np;
            while (a < b) {
                Py_ssize_t mid = (a + b) / 2, v = item_at(paras, mid);
                if (v == -1 && PyErr_Occurred()) return -2;
                if (v <= p - 1) a = mid + 1;
                else b = mid;
            }
            pstart = a ? item_at(paras, a - 1) : 0, pend = a < np ? item_at(paras, a) : n;
            if (PyErr_Occurred()) return -2;
            if (pstart < 0 || pend > n || pstart > p - 1 || pend < p) {
                PyErr_SetString(PyExc_ValueError, "paras: the text's paragraph cuts, in order");
                return -2;
            }
            fenced = -1;
        }
        int h = soft_at(text, st, p, pstart, pend, &fenced, widths, is_soft);
        if (h < 0) return -2;
        if (!h) return p;
        end = j; /* a soft wrap: the newline before it */
    }
    return 0;
}

/* hard_lf_cut(text, lo, hi, floor, paras, soft_wraps, is_soft, widths) -> the cut of
   boundaries.Boundaries._last_hard_lf_cut(lo, hi) for a text whose only break is "\n" (the
   farthest cut in (lo, hi] after a run of newlines, as newlines.last_lf_cut finds them
   backwards, that is no soft wrap) when it lies at floor or beyond; 0 when there is none
   there; -1 where Python must look (a character after a cut that may extend a grapheme,
   which moves the cut). paras: the paragraph cuts; soft_wraps: whether newlines inside a
   paragraph may be soft wraps; is_soft, widths: as for overlap_start. The search of a
   packer's window end: most newlines of a hard-wrapped paragraph are soft, and each is
   decided here instead of through the Python layers of the soft-wrap decision. */
static PyObject *hard_lf_cut(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 8 || !PyUnicode_Check(args[0]) || !PyList_Check(args[4]) || !PyCallable_Check(args[6]) ||
        !PyDict_Check(args[7])) {
        PyErr_SetString(PyExc_TypeError, "hard_lf_cut(text: str, lo: int, hi: int, floor: int, paras: list, "
                                         "soft_wraps: bool, is_soft: callable, widths: dict)");
        return NULL;
    }
    Py_ssize_t lo = PyLong_AsSsize_t(args[1]), hi = PyLong_AsSsize_t(args[2]), floor = PyLong_AsSsize_t(args[3]);
    int soft_wraps = PyObject_IsTrue(args[5]);
    if (soft_wraps < 0 || PyErr_Occurred()) return NULL;
    Py_ssize_t got = hard_lf_at(args[0], lo, hi, floor, args[4], soft_wraps, args[6], args[7]);
    return got == -2 ? NULL : PyLong_FromSsize_t(got);
}

/* The even share of the rest of a text that the last chunks split (plain._share_end,
   Packer._balanced): rest / k rounded up, k the fewest chunks that hold it; 0 where they
   need not share it (more than BALANCED_TAIL, four, budgets, or one). */
static Py_ssize_t even_share(Py_ssize_t rest, Py_ssize_t size) {
    Py_ssize_t k = (rest + size - 1) / size;
    return k >= 2 && k <= 4 ? (rest + k - 1) / k : 0;
}

/* out.append((s, e, size)); -1 with an error set */
static int append_span(PyObject *out, Py_ssize_t s, Py_ssize_t e, Py_ssize_t size) {
    PyObject *span = Py_BuildValue("(nnn)", s, e, size);
    int rc = span ? PyList_Append(out, span) : -1;
    Py_XDECREF(span);
    return rc;
}

/* plain_paragraph_end(text, paras, size, balance_from, s, lo): plain.paragraph_end where it
   needs no look past white space: the text's end within reach, else the farthest paragraph
   cut within reach past lo, moved back to an even share of the rest when s >= balance_from;
   -1 where plain.paragraph_end must answer (no such cut, a chunk starting with white space),
   -2 with an error set */
static Py_ssize_t plain_paragraph_end(PyObject *text, PyObject *paras, Py_ssize_t size, Py_ssize_t balance_from,
                                      Py_ssize_t s, Py_ssize_t lo) {
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), hi = s + size, e;
    if (Py_UNICODE_ISSPACE(PyUnicode_READ_CHAR(text, s))) return -1; /* perhaps white space alone */
    if (hi >= n) return n > lo ? n : -1;
    Py_ssize_t j = index_after(paras, hi) - 1;
    if (j < 0) return -1;
    e = item_at(paras, j);
    if (e == -1 && PyErr_Occurred()) return -2;
    if (e <= lo) return -1;
    Py_ssize_t share = s >= balance_from ? even_share(n - s, size) : 0;
    if (share) { /* plain._share_end, and the first paragraph cut from it on (e is one) */
        Py_ssize_t t = s + share < n ? s + share : n;
        if (t < lo + 1) t = lo + 1;
        if (t < e) e = item_at(paras, index_after(paras, t - 1));
        if (e == -1 && PyErr_Occurred()) return -2;
    }
    return e;
}

/* items[a:b] of a sorted list of positions, as the range of indices holding (lo, hi] */
static void window_range(PyObject *list, Py_ssize_t lo, Py_ssize_t hi, Py_ssize_t *a, Py_ssize_t *b) {
    *a = index_after(list, lo);
    *b = index_after(list, hi);
    if (*b < *a) *b = *a;
}

/* The scripts the patterns ask of a character (\p{Hiragana}, \p{Han}, \p{Katakana} in
   boundaries._WORD and line_starts.LINE_START): a mask of them, 0 for none, -1 where this
   code does not know it (the pattern decides). None below the CJK radicals; kana, the
   unified ideographs, 々 〇 and the halfwidth katakana known; CJK punctuation, ー ・ and the
   fullwidth forms are none. */
enum { W_HIRA = 1, W_HAN = 2, W_KATA = 4 };
static int word_script(Py_UCS4 c) {
    if (c < 0x2E80) return 0;
    if (is_hira(c)) return W_HIRA;
    if (is_kata(c) || (c >= 0xFF66 && c <= 0xFF6F) || (c >= 0xFF71 && c <= 0xFF9D)) return W_KATA;
    if (is_han(c) || c == 0x3005 || c == 0x3007) return W_HAN;
    if ((c >= 0x3000 && c <= 0x3004) || c == 0x3006 || (c >= 0x3008 && c <= 0x3020) || (c >= 0x3030 && c <= 0x3037) ||
        (c >= 0x303C && c <= 0x303F) || c == 0x309B || c == 0x309C || c == 0x30A0 || c == 0x30FB || c == 0x30FC ||
        (c >= 0xFF01 && c <= 0xFF65) || c == 0xFF70 || c == 0xFF9E || c == 0xFF9F)
        return 0;
    return -1;
}

/* line_starts.LINE_START read here: whether it matches at p, 1 or 0, or -1 where a character
   it reads is one whose class this code does not know for sure (beyond the BMP, or a
   script word_script does not know): then the pattern decides. Its label's name is [\p{Han}\p{Katakana}\p{Hiragana}A-Za-z0-9ー・/\- ]
   of 1 to 16 characters, and none of those is ( （ : ： or a closing bracket, so the match
   needs no backtracking: the longest run, then its bracket and colon. */
static int ls_decimal(const State *st, Py_ssize_t i) { /* \d at i: 1, 0, -1 unknown; 0 past the end */
    if (i >= st->n) return 0;
    Py_UCS4 c = AT(i);
    if (c < 128) return c >= '0' && c <= '9';
    return c > 0xFFFF ? -1 : Py_UNICODE_ISDECIMAL(c) != 0;
}

static int ls_name_char(Py_UCS4 c) { /* the label name's class: 1, 0, -1 unknown */
    if (c < 128) return is_ascii_alnum(c) || c == '/' || c == '-' || c == ' ';
    if (c == 0x30FC || c == 0x30FB) return 1;
    int script = word_script(c);
    return script < 0 ? -1 : script != 0;
}

static int line_start_label(const State *st, Py_ssize_t p) {
    Py_ssize_t n = st->n, k = p;
    for (; k < n && k - p <= 16; k++) {
        int r = ls_name_char(AT(k));
        if (r < 0) return -1;
        if (!r) break;
    }
    if (k == p || k - p > 16 || k >= n) return 0;
    Py_ssize_t colon = k;
    Py_UCS4 c = AT(k);
    if (c == '(' || c == 0xFF08) { /* [（(][^）)\n]{1,20}[）)] before the colon */
        Py_ssize_t j = k + 1;
        while (j < n && j - k <= 21 && AT(j) != ')' && AT(j) != 0xFF09 && AT(j) != '\n') j++;
        if (j >= n || j - k - 1 < 1 || j - k - 1 > 20 || AT(j) == '\n') return 0;
        colon = j + 1;
    }
    if (colon >= n || (AT(colon) != ':' && AT(colon) != 0xFF1A)) return 0;
    if (colon + 1 < n && AT(colon + 1) == '/') return 0; /* (?![/\d]) */
    int d = ls_decimal(st, colon + 1);
    return d < 0 ? -1 : !d;
}

static int line_start_match(const State *st, Py_ssize_t p) {
    Py_ssize_t n = st->n;
    if (p < 0 || p >= n) return 0;
    int unknown = 0, r = line_start_label(st, p);
    if (r > 0) return 1;
    unknown |= r < 0;
    Py_UCS4 c = AT(p), c1 = p + 1 < n ? AT(p + 1) : 0;
    if ((c == 'S' || c == 'O' || c == 'A' || c == 'P') && (c1 == ')' || c1 == 0xFF09)) return 1;
    switch (c) { /* ・●○■□◆◇▶►•※ ① to ⑳ 【 */
    case 0x30FB: case 0x25CF: case 0x25CB: case 0x25A0: case 0x25A1: case 0x25C6: case 0x25C7: case 0x25B6:
    case 0x25BA: case 0x2022: case 0x203B: case 0x3010:
        return 1;
    }
    if (c >= 0x2460 && c <= 0x2473) return 1;
    if ((c == '-' || c == '*') && c1 == ' ') return 1;
    if (c == '#') {
        int d = ls_decimal(st, p + 1);
        if (d > 0) return 1;
        unknown |= d < 0;
    }
    if (c == '(' || c == 0xFF08) { /* [（(]\d{1,2}[）)] */
        int d1 = ls_decimal(st, p + 1), d2 = d1 > 0 ? ls_decimal(st, p + 2) : 0;
        if (d1 < 0 || d2 < 0) unknown = 1;
        else if (d1) {
            Py_ssize_t q = p + 2 + d2;
            if (q < n && (AT(q) == ')' || AT(q) == 0xFF09)) return 1;
        }
    }
    int d0 = ls_decimal(st, p);
    if (d0 < 0) return -1; /* every alternative left starts with \d */
    if (d0) {
        /* \d{1,2}[.．)）]\s?(?=\D): one or two digits, the mark, and a character after it
           that is no digit (white space or not) */
        int d1 = ls_decimal(st, p + 1);
        if (d1 < 0) return -1;
        Py_ssize_t q = p + 1 + d1;
        Py_UCS4 m = q < n ? AT(q) : 0;
        if (q < n && (m == '.' || m == 0xFF0E || m == ')' || m == 0xFF09)) {
            if (q + 1 < n) {
                int after = ls_decimal(st, q + 1);
                if (after < 0) unknown = 1;
                else if (!after) return 1;
            }
        }
        /* \d{4}[/年.-]\d{1,2} */
        int d2 = d1 ? ls_decimal(st, p + 2) : 0, d3 = d2 > 0 ? ls_decimal(st, p + 3) : 0;
        if (d2 < 0 || d3 < 0) return -1;
        if (d1 && d2 && d3 && p + 4 < n) {
            Py_UCS4 sep = AT(p + 4);
            if (sep == '/' || sep == 0x5E74 || sep == '.' || sep == '-') {
                int d5 = ls_decimal(st, p + 5);
                if (d5 < 0) return -1;
                if (d5) return 1;
            }
        }
    }
    return unknown ? -1 : 0;
}

/* line_start_match(text, p) -> LINE_START.match(text, p) is not None as 1 or 0, or -1 where
   the pattern must decide (for tests, and line_starts.line_start_at) */
static PyObject *py_line_start_match(PyObject *self, PyObject *args) {
    PyObject *text;
    Py_ssize_t p;
    if (!PyArg_ParseTuple(args, "Un", &text, &p)) return NULL;
    State state, *st = &state;
    start_state(st, text, 0, 0);
    return PyLong_FromLong(line_start_match(st, p));
}

/* A line evidently begins at the sentence cut item: 1, 0, -1 with an error set. Only where
   line_starts.may_start_line holds is line_start(item) asked (Boundaries.line_start, which
   keeps its decisions). */
static int line_start_cut(const State *st, const CharSet *first, PyObject *line_start, PyObject *item) {
    Py_ssize_t c = PyLong_AsSsize_t(item);
    if (c == -1 && PyErr_Occurred()) return -1;
    if (c < 0 || c >= st->n || !may_start_line_at(st, first, c)) return 0;
    int known = line_start_match(st, c);
    if (known >= 0) return known;
    PyObject *said = PyObject_CallOneArg(line_start, item);
    if (!said) return -1;
    int yes = PyObject_IsTrue(said);
    Py_DECREF(said);
    return yes;
}

/* What plain.sentence_end reads of one text: the text, its paragraph cuts, the paragraphs
   scanned whole (SentenceWindows.memo: (cuts, lower_cuts) by their start), whether it starts
   its sentences in lower case (1, 0, -1 not known yet), line_start(p) (Boundaries.line_start)
   and line_starts.FIRSTS as a set; the budget and where the balanced tail begins. */
typedef struct {
    PyObject *text, *paras, *memo, *line_start;
    const CharSet *first;
    long lower_text;
    Py_ssize_t size, balance_from;
} SentenceEnds;

/* The sentence cuts in (lo, hi] of the paragraph that holds lo, as SentenceWindows.window
   gives them, read from its memo: cuts[*a:*b] (borrowed, or *merged, a new list to release:
   in a lower-case text both kinds of cut merged). 1; 0 where Python must look (the paragraph
   not scanned whole, or lower-case cuts in a text whose case is not known); -1 with an error
   set. For a window with no paragraph cut in it (no newline). */
static int memo_window(const SentenceEnds *se, Py_ssize_t lo, Py_ssize_t hi, PyObject **cuts_out, Py_ssize_t *a_out,
                       Py_ssize_t *b_out, PyObject **merged_out) {
    Py_ssize_t j = index_after(se->paras, lo), pstart = j ? item_at(se->paras, j - 1) : 0; /* lo's paragraph */
    if (pstart == -1 && PyErr_Occurred()) return -1;
    PyObject *key = PyLong_FromSsize_t(pstart);
    if (!key) return -1;
    PyObject *got = PyDict_GetItemWithError(se->memo, key); /* borrowed */
    Py_DECREF(key);
    if (!got) return PyErr_Occurred() ? -1 : 0; /* not scanned whole: Python scans it */
    if (!PyTuple_Check(got) || PyTuple_GET_SIZE(got) != 2 || !PyList_Check(PyTuple_GET_ITEM(got, 0)) ||
        !PyList_Check(PyTuple_GET_ITEM(got, 1))) {
        PyErr_SetString(PyExc_TypeError, "memo: (cuts, lower_cuts), two lists");
        return -1;
    }
    PyObject *cuts = PyTuple_GET_ITEM(got, 0), *lower = PyTuple_GET_ITEM(got, 1), *merged = NULL;
    Py_ssize_t a, b, la, lb;
    window_range(cuts, lo, hi, &a, &b);
    window_range(lower, lo, hi, &la, &lb);
    if (PyErr_Occurred()) return -1;
    if (lb > la) { /* SentenceWindows.window: both kinds are sentence cuts in a lower-case text */
        if (se->lower_text < 0) return 0;
        if (se->lower_text) {
            if (!(merged = PyList_New(0))) return -1;
            while (a < b || la < lb) {
                Py_ssize_t x = a < b ? item_at(cuts, a) : -1, y = la < lb ? item_at(lower, la) : -1;
                if (PyErr_Occurred()) goto fail;
                PyObject *item;
                if (y < 0 || (x >= 0 && x <= y)) {
                    item = PyList_GET_ITEM(cuts, a++);
                    if (x == y) la++;
                } else {
                    item = PyList_GET_ITEM(lower, la++);
                }
                if (PyList_Append(merged, item) < 0) goto fail;
            }
            cuts = merged, a = 0, b = PyList_GET_SIZE(merged);
        }
    }
    *cuts_out = cuts, *a_out = a, *b_out = b, *merged_out = merged;
    return 1;
fail:
    Py_DECREF(merged);
    return -1;
}

/* plain.sentence_end(bnd, size, balance_from, s, lo) where it gives an end: the farthest
   sentence cut in (lo, s + size] where a line evidently begins, else the farthest sentence
   cut (from s >= balance_from on, where the last chunks share the rest evenly, moved back
   to the first cut of its level from the even share on). -1 where Python must decide: the
   text's end within reach, a chunk starting on white space, a newline in the window or a
   character at lo that may be a combining mark (no_newline_cut; a paragraph cut in the
   window, paragraph_end's, follows a newline too), a glued row's mark near it (glued_near),
   a paragraph not scanned whole yet, lower-case sentence ends in a text whose case is not
   known, or no sentence cut. -2 with an error set. */
static Py_ssize_t sentence_end_at(State *st, const SentenceEnds *se, Py_ssize_t s, Py_ssize_t lo) {
    Py_ssize_t n = st->n, hi = s + se->size;
    if (hi >= n || hi <= lo || lo < s || Py_UNICODE_ISSPACE(AT(s))) return -1;
    Py_ssize_t nl = PyUnicode_FindChar(se->text, '\n', lo, hi, 1);
    if (nl == -2) return -2;
    if (nl >= 0 || !surely_no_extend(AT(lo))) return -1;
    if (glued_mark_in(st, lo > 16 ? lo - 16 : 0, hi + 16 < n ? hi + 16 : n)) return -1;
    PyObject *cuts, *merged = NULL;
    Py_ssize_t a, b, end = -2;
    int got = memo_window(se, lo, hi, &cuts, &a, &b, &merged);
    if (got <= 0) return got < 0 ? -2 : -1;
    if (b == a) { /* no sentence cut: the packer's search, or finer_end */
        end = -1;
        goto done;
    }
    Py_ssize_t k = b - 1;
    for (; k >= a; k--) { /* the line level: farthest first */
        int yes = line_start_cut(st, se->first, se->line_start, PyList_GET_ITEM(cuts, k));
        if (yes < 0) goto done;
        if (yes) break;
    }
    int line = k >= a;
    Py_ssize_t e = item_at(cuts, line ? k : b - 1); /* else the sentence level */
    if (e == -1 && PyErr_Occurred()) goto done;
    Py_ssize_t share = s >= se->balance_from ? even_share(n - s, se->size) : 0;
    Py_ssize_t t = s + share < n ? s + share : n; /* (_share_end's floor lo + 1: every cut here is past lo) */
    if (share && t < e) { /* plain._share_end: the first cut of the level from t on */
        for (Py_ssize_t i = a; i < b; i++) {
            Py_ssize_t c = item_at(cuts, i);
            if (c == -1 && PyErr_Occurred()) goto done;
            if (c < t) continue;
            if (c >= e) break;
            int yes = line ? line_start_cut(st, se->first, se->line_start, PyList_GET_ITEM(cuts, i)) : 1;
            if (yes < 0) goto done;
            if (yes) {
                e = c;
                break;
            }
        }
    }
    end = e;
done:
    Py_XDECREF(merged);
    return end;
}

/* overlap_run(context, lower_text, size, balance_from, back, s, e, out[, line_start, firsts])
   -> (s, e, first)

   plain.plain_spans' loop with overlap while every chunk needs no packer: from the chunk
   s..e (already in out; 0, 0: from the text's start, the first chunk ending where
   plain_paragraph_end says, else none and (0, 0, 0)), the next starts at overlap_start's
   answer for (max(s, e - back), e - 1) and ends at plain_paragraph_end's (or, given
   line_start and firsts, sentence_end_at's where no paragraph cut serves); each chunk found
   is appended to out as (s, e, e - s). Returns the last chunk and overlap_start's answer
   after it (0 or less: the Python loop must decide; a start: only its end needs the Python
   loop), or first 1 with e the text's end. */
static PyObject *overlap_run(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if ((nargs != 8 && nargs != 10) || !PyTuple_Check(args[0]) || PyTuple_GET_SIZE(args[0]) != 9 ||
        !PyList_Check(args[7]) || (nargs == 10 && args[9] != Py_None && !PyUnicode_Check(args[9]))) {
        PyErr_SetString(PyExc_TypeError,
                        "overlap_run(context, lower_text, size, balance_from, back, s, e, out[, line_start, firsts])");
        return NULL;
    }
    PyObject *ctx = args[0], *text = PyTuple_GET_ITEM(ctx, 0), *paras = PyTuple_GET_ITEM(ctx, 1), *out = args[7];
    if (!PyUnicode_Check(text) || !PyList_Check(paras) || !PyDict_Check(PyTuple_GET_ITEM(ctx, 5))) {
        PyErr_SetString(PyExc_TypeError, "context: (str, list, ..., dict, ...)");
        return NULL;
    }
    Py_ssize_t size = PyLong_AsSsize_t(args[2]), balance_from = PyLong_AsSsize_t(args[3]);
    Py_ssize_t back = PyLong_AsSsize_t(args[4]), s = PyLong_AsSsize_t(args[5]), e = PyLong_AsSsize_t(args[6]);
    if (PyErr_Occurred()) return NULL;
    /* with line_start and firsts, an end that no paragraph cut gives may be sentence_end's */
    int sentences = nargs == 10 && args[9] != Py_None;
    SentenceEnds se = {text, paras, PyTuple_GET_ITEM(ctx, 5), sentences ? args[8] : Py_None,
                       sentences ? line_firsts(args[9]) : NULL, PyLong_AsLong(args[1]), size, balance_from};
    if ((sentences && !se.first) || PyErr_Occurred()) return NULL;
    State state, *st = &state;
    start_state(st, text, 0, 0);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), first = 1;
    if (size <= 0 || s < 0 || e < s || (e == s && e > 0) || e > n || n == 0) {
        PyErr_SetString(PyExc_ValueError, "overlap_run: a positive size and a chunk 0 <= s < e <= len(text), or 0, 0");
        return NULL;
    }
    if (e == 0) { /* the first chunk too */
        Py_ssize_t end = plain_paragraph_end(text, paras, size, balance_from, 0, 0);
        if (end == -2) return NULL;
        if (end < 0) return Py_BuildValue("(nnn)", (Py_ssize_t)0, (Py_ssize_t)0, (Py_ssize_t)0);
        e = end;
        if (append_span(out, s, e, e - s) < 0) return NULL;
    }
    while (e < n) {
        Py_ssize_t lo = e - back > s ? e - back : s;
        if (e - 1 <= lo) {
            first = 0;
            break;
        }
        PyObject *call[5] = {ctx, NULL, NULL, args[1], Py_None};
        call[1] = PyLong_FromSsize_t(lo);
        call[2] = PyLong_FromSsize_t(e - 1);
        PyObject *got = call[1] && call[2] ? overlap_start(self, call, 5) : NULL;
        Py_XDECREF(call[1]);
        Py_XDECREF(call[2]);
        if (!got) return NULL;
        first = PyLong_AsSsize_t(got);
        Py_DECREF(got);
        if (first == -1 && PyErr_Occurred()) return NULL;
        if (first <= 0) break;
        Py_ssize_t end = plain_paragraph_end(text, paras, size, balance_from, first, e);
        if (end == -1 && sentences) end = sentence_end_at(st, &se, first, e);
        if (end == -2) return NULL;
        if (end < 0) break;
        s = first, e = end, first = 1;
        if (append_span(out, s, e, e - s) < 0) return NULL;
    }
    return Py_BuildValue("(nnn)", s, e, first);
}

/* sentence_run(text, paras, memo, lower_text, line_start, firsts, size, balance_from, s, e, out)
   -> (s, e)

   plain.plain_spans' loop without overlap where plain.sentence_end gives every end: one-line
   prose (or a paragraph of it), whose every chunk ends at the line level's or the sentence
   level's farthest cut. From the chunk s..e (already in out), each next chunk starts at the
   last one's end p and ends where sentence_end_at(p, p) says; each is appended to out as
   (p, end, end - p). It stops where Python must decide, returning the last chunk. */
static PyObject *sentence_run(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 11 || !PyUnicode_Check(args[0]) || !PyList_Check(args[1]) || !PyDict_Check(args[2]) ||
        !PyUnicode_Check(args[5]) || !PyList_Check(args[10])) {
        PyErr_SetString(PyExc_TypeError,
                        "sentence_run(text, paras, memo, lower_text, line_start, firsts, size, balance_from, s, e, out)");
        return NULL;
    }
    PyObject *text = args[0], *out = args[10];
    SentenceEnds se = {text, args[1], args[2], args[4], line_firsts(args[5]), PyLong_AsLong(args[3]),
                       PyLong_AsSsize_t(args[6]), PyLong_AsSsize_t(args[7])};
    Py_ssize_t s = PyLong_AsSsize_t(args[8]), e = PyLong_AsSsize_t(args[9]);
    if (!se.first || PyErr_Occurred()) return NULL;
    State state, *st = &state;
    start_state(st, text, 0, 0);
    Py_ssize_t n = st->n;
    if (se.size <= 0 || s < 0 || e < s || e > n) {
        PyErr_SetString(PyExc_ValueError, "sentence_run: a positive size and a chunk 0 <= s <= e <= len(text)");
        return NULL;
    }
    while (e < n) {
        Py_ssize_t end = sentence_end_at(st, &se, e, e);
        if (end == -2) return NULL;
        if (end < 0) break;
        s = e, e = end;
        if (append_span(out, s, e, e - s) < 0) return NULL;
    }
    return Py_BuildValue("(nn)", s, e);
}

/* what may close a sentence before the next one's first letter (sentences._STARTS_AFTER_END) */
static inline int is_start_closer(Py_UCS4 c) {
    return c == '"' || c == '\'' || c == 0x2019 || c == 0x201D || c == ')' || c == ']';
}

/* The first position in [i, end) that holds one of the four characters a b c d (below 128),
   or end: sixteen, eight or four code units at a time where SSE2 is there (x86-64 always
   has it), one at a time elsewhere and for the tail. */
static Py_ssize_t find_any4(const State *st, Py_ssize_t i, Py_ssize_t end, int a, int b, int c, int d) {
#if defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
    switch (st->kind) {
    case PyUnicode_1BYTE_KIND: {
        const Py_UCS1 *p = (const Py_UCS1 *)st->data;
        const __m128i va = _mm_set1_epi8((char)a), vb = _mm_set1_epi8((char)b), vc = _mm_set1_epi8((char)c),
                      vd = _mm_set1_epi8((char)d);
        for (; i + 16 <= end; i += 16) {
            __m128i x = _mm_loadu_si128((const __m128i *)(p + i));
            __m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, va), _mm_cmpeq_epi8(x, vb)),
                                     _mm_or_si128(_mm_cmpeq_epi8(x, vc), _mm_cmpeq_epi8(x, vd)));
            int mask = _mm_movemask_epi8(m);
            if (mask) return i + __builtin_ctz(mask);
        }
        break;
    }
    case PyUnicode_2BYTE_KIND: {
        const Py_UCS2 *p = (const Py_UCS2 *)st->data;
        const __m128i va = _mm_set1_epi16((short)a), vb = _mm_set1_epi16((short)b), vc = _mm_set1_epi16((short)c),
                      vd = _mm_set1_epi16((short)d);
        for (; i + 8 <= end; i += 8) {
            __m128i x = _mm_loadu_si128((const __m128i *)(p + i));
            __m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi16(x, va), _mm_cmpeq_epi16(x, vb)),
                                     _mm_or_si128(_mm_cmpeq_epi16(x, vc), _mm_cmpeq_epi16(x, vd)));
            int mask = _mm_movemask_epi8(m);
            if (mask) return i + __builtin_ctz(mask) / 2;
        }
        break;
    }
    default: {
        const Py_UCS4 *p = (const Py_UCS4 *)st->data;
        const __m128i va = _mm_set1_epi32(a), vb = _mm_set1_epi32(b), vc = _mm_set1_epi32(c), vd = _mm_set1_epi32(d);
        for (; i + 4 <= end; i += 4) {
            __m128i x = _mm_loadu_si128((const __m128i *)(p + i));
            __m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi32(x, va), _mm_cmpeq_epi32(x, vb)),
                                     _mm_or_si128(_mm_cmpeq_epi32(x, vc), _mm_cmpeq_epi32(x, vd)));
            int mask = _mm_movemask_epi8(m);
            if (mask) return i + __builtin_ctz(mask) / 4;
        }
        break;
    }
    }
#endif
    for (; i < end; i++) {
        Py_UCS4 ch = AT(i);
        if (ch == (Py_UCS4)a || ch == (Py_UCS4)b || ch == (Py_UCS4)c || ch == (Py_UCS4)d) return i;
    }
    return end;
}

/* The first ch (a character below 128) in [i, end), or end: memchr for a text of one byte a
   character (the C library's, the widest vectors the machine has), else sixteen code units
   at a time with SSE2. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline)) /* in the line scan's loop: a call a line costs more than it finds */
#endif
static inline Py_ssize_t find_char(const State *st, Py_ssize_t i, Py_ssize_t end, int ch) {
    if (i >= end) return end;
    if (st->kind == PyUnicode_1BYTE_KIND) {
        const Py_UCS1 *p = (const Py_UCS1 *)st->data;
        const Py_UCS1 *q = memchr(p + i, ch, (size_t)(end - i));
        return q ? q - p : end;
    }
#if defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
    if (st->kind == PyUnicode_2BYTE_KIND) {
        const Py_UCS2 *p = (const Py_UCS2 *)st->data;
        const __m128i nl = _mm_set1_epi16((short)ch);
        for (; i + 16 <= end; i += 16) { /* sixteen at a time: one mask of both halves */
            __m128i lo = _mm_cmpeq_epi16(_mm_loadu_si128((const __m128i *)(p + i)), nl);
            __m128i hi = _mm_cmpeq_epi16(_mm_loadu_si128((const __m128i *)(p + i + 8)), nl);
            int mask = _mm_movemask_epi8(_mm_packs_epi16(lo, hi));
            if (mask) return i + __builtin_ctz(mask);
        }
        for (; i + 8 <= end; i += 8) {
            int mask = _mm_movemask_epi8(_mm_cmpeq_epi16(_mm_loadu_si128((const __m128i *)(p + i)), nl));
            if (mask) return i + __builtin_ctz(mask) / 2;
        }
    }
#endif
    return find_any4(st, i, end, ch, ch, ch, ch);
}

/* The first "\n" in [i, end), or end. */
static inline Py_ssize_t find_newline(const State *st, Py_ssize_t i, Py_ssize_t end) {
    return find_char(st, i, end, '\n');
}

/* line_breaks(text) -> 1 when a "\r" is there, | 4 when one is not before a "\n", | 2 when a
   line break other than "\n" and "\r" is (\v \f \x1c \x1d \x1e \x85 \u2028 \u2029, what
   str.splitlines breaks at): newlines.lf_only and crlf_only in one pass, thirty-two or sixteen
   code units at a time with SSE2. */
#define OTHER_BREAK(c) \
    ((c) == 0x0B || (c) == 0x0C || ((c) >= 0x1C && (c) <= 0x1E) || (c) == 0x85 || (c) == 0x2028 || (c) == 0x2029)

static long breaks_in(const State *st, Py_ssize_t a, Py_ssize_t b) {
    long found = 0;
    for (Py_ssize_t i = a; i < b; i++) {
        Py_UCS4 c = AT(i);
        if (c == '\r') found |= i + 1 < st->n && AT(i + 1) == '\n' ? 1 : 5;
        else if (OTHER_BREAK(c)) found |= 2;
    }
    return found;
}

static PyObject *line_breaks(PyObject *self, PyObject *text) {
    if (!PyUnicode_Check(text)) {
        PyErr_SetString(PyExc_TypeError, "line_breaks(text): text must be a str");
        return NULL;
    }
    State state, *st = &state;
    start_state(st, text, 0, 0);
    Py_ssize_t n = st->n, i = 0;
    long found = 0;
#if defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
    /* one range test, 0x0B-0x1E (\v \f \r, the separators 0x1C-0x1E, and the rare controls
       between them, which breaks_in then reads exactly), two blocks a round */
    if (st->kind == PyUnicode_1BYTE_KIND) {
        const Py_UCS1 *p = (const Py_UCS1 *)st->data;
        const __m128i base = _mm_set1_epi8(0x0B), span = _mm_set1_epi8(0x1E - 0x0B),
                      nel = _mm_set1_epi8((char)0x85), zero = _mm_setzero_si128();
#define BREAK_BYTES(x) \
    _mm_or_si128(_mm_cmpeq_epi8(_mm_subs_epu8(_mm_sub_epi8(x, base), span), zero), _mm_cmpeq_epi8(x, nel))
        for (; i + 32 <= n; i += 32) {
            __m128i x = _mm_loadu_si128((const __m128i *)(p + i)), y = _mm_loadu_si128((const __m128i *)(p + i + 16));
            if (_mm_movemask_epi8(_mm_or_si128(BREAK_BYTES(x), BREAK_BYTES(y))) &&
                (found |= breaks_in(st, i, i + 32)) == 7)
                break;
        }
#undef BREAK_BYTES
    } else if (st->kind == PyUnicode_2BYTE_KIND) {
        const Py_UCS2 *p = (const Py_UCS2 *)st->data;
        const __m128i base = _mm_set1_epi16(0x0B), span = _mm_set1_epi16(0x1E - 0x0B), seps = _mm_set1_epi16(0x2028),
                      one = _mm_set1_epi16(1), nel = _mm_set1_epi16(0x85), zero = _mm_setzero_si128();
#define BREAK_UNITS(x)                                                                                  \
    _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi16(_mm_subs_epu16(_mm_sub_epi16(x, base), span), zero),      \
                              _mm_cmpeq_epi16(_mm_subs_epu16(_mm_sub_epi16(x, seps), one), zero)), \
                 _mm_cmpeq_epi16(x, nel))
        for (; i + 16 <= n; i += 16) {
            __m128i x = _mm_loadu_si128((const __m128i *)(p + i)), y = _mm_loadu_si128((const __m128i *)(p + i + 8));
            if (_mm_movemask_epi8(_mm_or_si128(BREAK_UNITS(x), BREAK_UNITS(y))) &&
                (found |= breaks_in(st, i, i + 16)) == 7)
                break;
        }
#undef BREAK_UNITS
    }
#endif
    if (found != 7) found |= breaks_in(st, i, n);
    return PyLong_FromLong(found);
}
#undef OTHER_BREAK

/* sentence_start_cases(text, limit) -> (lower, upper): how many of the letters that begin
   sentences in text[:limit] are lower and upper case, as sentences.lower_case_text counts
   them: after . ! ? (closing quotes and brackets, then spaces or tabs), after a blank line
   (spaces or tabs around), and at the start. */
static PyObject *sentence_start_cases(PyObject *self, PyObject *args) {
    PyObject *text;
    Py_ssize_t limit;
    if (!PyArg_ParseTuple(args, "Un", &text, &limit)) return NULL;
    State state, *st = &state;
    start_state(st, text, 0, 0);
    Py_ssize_t n = st->n < limit ? st->n : limit, low = 0, up = 0;
#define COUNT_LETTER_AT(k)                                                                                            \
    do {                                                                                                              \
        if ((k) < n) {                                                                                                \
            Py_UCS4 l_ = AT(k);                                                                                       \
            if (Py_UNICODE_ISALPHA(l_)) {                                                                             \
                low += Py_UNICODE_ISLOWER(l_) != 0;                                                                   \
                up += Py_UNICODE_ISUPPER(l_) != 0;                                                                    \
            }                                                                                                         \
        }                                                                                                             \
    } while (0)
    Py_ssize_t k = 0;
    while (k < n && (AT(k) == ' ' || AT(k) == '\t')) k++;
    COUNT_LETTER_AT(k);
    for (Py_ssize_t i = 0; i < n; i++) {
        i = find_any4(st, i, n, '.', '!', '?', '\n');
        if (i >= n) break;
        Py_ssize_t j = i + 1;
        if (AT(i) == '\n') {
            while (j < n && (AT(j) == ' ' || AT(j) == '\t')) j++;
            if (j >= n || AT(j) != '\n') continue;
            j++;
        } else {
            while (j < n && is_start_closer(AT(j))) j++;
            if (j >= n || (AT(j) != ' ' && AT(j) != '\t')) continue;
        }
        while (j < n && (AT(j) == ' ' || AT(j) == '\t')) j++;
        COUNT_LETTER_AT(j);
    }
#undef COUNT_LETTER_AT
    return Py_BuildValue("(nn)", low, up);
}

/* The labels of a structure_lines call, found by their first character: a chain of labels
   for each key (an ASCII first character in lower case, another uncased one's low seven
   bits), and one chain of those a line must always be tried with (those starting with a
   cased character beyond ASCII, which case-insensitive matching may pair with others). An
   empty label is left out, as the line filter of the patterns leaves it. */
typedef struct {
    PyObject *words; /* the tuple of labels (borrowed for the call) */
    int head[128], always;
    int *next;
    /* a label of the chain of ASCII key a may be at a line whose second character is the
       ASCII b only if bit b of second[a] is set (both in lower case); any_second[a]: a
       label of that chain is one character long or goes on beyond ASCII (try them all) */
    unsigned char second[128][16], any_second[128];
} Labels;

/* The line tests of structure_lines (for structure.find_sections and find_atoms): a test
   of the line after a "\n", given its first position. */
typedef struct {
    const CharSet *set;   /* fence lines: the first characters */
    const Labels *labels; /* heading lines: the labels */
} LineTest;

/* U+3000 to U+9FFF (CJK marks, kana, kanji: most Japanese lines begin with one) hold no
   character with a case, a case mapping or a decimal value (a test holds Python's tables
   to it): the library's lookups, which are calls, are spared there */
static inline int is_cjk_plain(Py_UCS4 c) { return c >= 0x3000 && c < 0xA000; }

/* What the line tests ask of a character: whether it has a case, a case mapping (U+0345 has
   no case but an upper case) or a decimal value. The library's lookups are calls, and a
   line's first character repeats (a no-break space, a bullet): for the BMP they are made
   once per block of 256 characters, when a scan first meets one, and kept. */
enum { P_CASED = 1, P_CASEMAP = 2, P_DECIMAL = 4 };
static unsigned char bmp_props[0x10000], bmp_ready[0x100];

static unsigned char props_looked_up(Py_UCS4 c) {
    return (Py_UNICODE_ISUPPER(c) || Py_UNICODE_ISLOWER(c) || Py_UNICODE_ISTITLE(c) ? P_CASED : 0) |
           (Py_UNICODE_TOLOWER(c) != c || Py_UNICODE_TOUPPER(c) != c ? P_CASEMAP : 0) |
           (Py_UNICODE_ISDECIMAL(c) ? P_DECIMAL : 0);
}

static inline unsigned char props_of(Py_UCS4 c) {
    if (c > 0xFFFF) return props_looked_up(c);
    if (!bmp_ready[c >> 8]) {
        for (Py_UCS4 k = c & ~(Py_UCS4)0xFF; k <= (c | 0xFF); k++) bmp_props[k] = props_looked_up(k);
        bmp_ready[c >> 8] = 1;
    }
    return bmp_props[c];
}

static int is_cased_beyond_ascii(Py_UCS4 c) { return c > 127 && !is_cjk_plain(c) && (props_of(c) & P_CASED); }

/* Py_UNICODE_TOLOWER and _ISDECIMAL, with ASCII and CJK answered here */
static inline Py_UCS4 lower_of(Py_UCS4 c) {
    return c < 128 ? (c >= 'A' && c <= 'Z' ? c + 32 : c) : is_cjk_plain(c) ? c : Py_UNICODE_TOLOWER(c);
}
static inline int is_decimal(Py_UCS4 c) {
    return c < 128 ? c >= '0' && c <= '9' : !is_cjk_plain(c) && (props_of(c) & P_DECIMAL);
}

/* A character beyond ASCII that case-insensitive matching may pair with another: one with
   a case, or a case mapping */
static inline int has_case_beyond_ascii(Py_UCS4 c) {
    return c > 127 && !is_cjk_plain(c) && (props_of(c) & (P_CASED | P_CASEMAP));
}

static int labels_init(Labels *ls, PyObject *words) {
    Py_ssize_t m = PyTuple_GET_SIZE(words);
    ls->words = words;
    ls->always = -1;
    for (int k = 0; k < 128; k++) ls->head[k] = -1;
    memset(ls->second, 0, sizeof ls->second);
    memset(ls->any_second, 0, sizeof ls->any_second);
    ls->next = PyMem_Malloc((m ? m : 1) * sizeof(int));
    if (!ls->next) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = m - 1; i >= 0; i--) { /* chained from the end: tried in the tuple's order */
        PyObject *w = PyTuple_GET_ITEM(words, i);
        if (!PyUnicode_Check(w)) {
            PyErr_SetString(PyExc_TypeError, "labels must be str");
            return -1;
        }
        if (!PyUnicode_GET_LENGTH(w)) continue; /* no initial: the patterns' line filter takes none */
        Py_UCS4 f = PyUnicode_READ_CHAR(w, 0);
        int *chain = has_case_beyond_ascii(f) ? &ls->always : &ls->head[lower_of(f) & 127];
        ls->next[i] = *chain;
        *chain = (int)i;
        if (chain == &ls->always || f >= 128) continue; /* keyed by low bits: not filtered */
        Py_UCS4 g = PyUnicode_GET_LENGTH(w) > 1 ? PyUnicode_READ_CHAR(w, 1) : 128;
        Py_UCS4 a = lower_of(f);
        if (g >= 128) ls->any_second[a] = 1;
        else ls->second[a][lower_of(g) >> 3] |= 1 << (lower_of(g) & 7);
    }
    return 0;
}

/* The labels of a tuple of them, made for the last tuple asked and kept with a reference to
   it (the same tuple serves every text of a run; a tuple does not change): NULL on an error. */
static const Labels *labels_of(PyObject *words) {
    static Labels kept;
    static PyObject *kept_words;
    if (words == kept_words) return &kept;
    PyMem_Free(kept.next);
    kept.next = NULL;
    Py_CLEAR(kept_words);
    if (labels_init(&kept, words) < 0) {
        PyMem_Free(kept.next);
        kept.next = NULL;
        return NULL;
    }
    Py_INCREF(words);
    kept_words = words;
    return &kept;
}

/* Whether the label w is at j, as the patterns' case-insensitive match reads it: 1, 0, or -1
   where a character beyond ASCII with a case meets another (the patterns decide there). */
static int label_is_at(State *st, Py_ssize_t j, PyObject *w) {
    Py_ssize_t m = PyUnicode_GET_LENGTH(w);
    int kind = PyUnicode_KIND(w);
    const void *data = PyUnicode_DATA(w);
    if (j + m > st->n) return 0;
    for (Py_ssize_t i = 0; i < m; i++) {
        Py_UCS4 t = AT(j + i), l = PyUnicode_READ(kind, data, i);
        if (t == l || (t < 128 && l < 128 && lower_of(t) == lower_of(l))) continue;
        if (has_case_beyond_ascii(t) || has_case_beyond_ascii(l)) return -1;
        return 0;
    }
    return 1;
}

/* A label's word may be at j: a label (case-insensitive), then white space up to a colon or
   the line's end, as find_sections' label pattern reads a field label (a superset: where
   characters beyond ASCII with a case meet, the line is let through). */
static int label_word_at(State *st, Py_ssize_t j, const LineTest *t) {
    Py_ssize_t n = st->n;
    if (j >= n) return 0;
    Py_UCS4 c = AT(j);
    if (has_case_beyond_ascii(c)) return 1;
    Py_UCS4 key = c < 128 ? lower_of(c) : c; /* beyond ASCII now, c has no case mapping */
    const Labels *ls = t->labels;
    int keyed = 1; /* whether the chain of c's key may hold a label at j */
    if (c < 128 && !ls->any_second[key]) {
        /* an ASCII initial: the second character must match one of its labels' (one
           beyond ASCII may pair with one by case: the chain is tried) */
        Py_UCS4 d = j + 1 < n ? AT(j + 1) : '\n';
        if (d < 128) keyed = (ls->second[key][lower_of(d) >> 3] >> (lower_of(d) & 7)) & 1;
    }
    for (int pass = !keyed; pass < 2; pass++) {
        for (int i = pass ? ls->always : ls->head[key & 127]; i >= 0; i = ls->next[i]) {
            PyObject *w = PyTuple_GET_ITEM(ls->words, i);
            int at = label_is_at(st, j, w);
            if (at < 0) return 1;
            if (!at) continue;
            Py_ssize_t k = skip_space_in_line(st, j + PyUnicode_GET_LENGTH(w));
            if (k >= n || AT(k) == '\n' || AT(k) == ':' || AT(k) == 0xFF1A) return 1;
        }
    }
    return 0;
}

/* A line that may be a heading: a superset of the lines find_sections' full test takes
   (that test decides). After spaces and tabs it starts with # ＃ 【 [ ［ ■ □ ◆ ◇ ● ◎ ▼ ▶,
   with ``` or ~~~, with a run of = or - that ends the line, with three of * ^ " + _, with
   a SOAP letter, white space and : ： ) ）, or with a label's word, after one or two digits
   and . ． ) ） or not. A label's word starts with one of the initials (lower case; a
   cased letter beyond ASCII is let through, for the rarer case foldings); with longest > 0
   (every label is word characters) it is at most that long and followed by white space up
   to a colon or the line's end. A # heading (or adornment) is at most three spaces in, a
   bracketed or marked label that or one tab: deeper, # or ＃ only lead a field label. */
static int heading_line_at(State *st, Py_ssize_t q, Py_ssize_t j, int spaces, const LineTest *t) {
    /* q: the line's start; j: its first character after spaces and tabs (spaces: only
       spaces before it), found once for the line's tests */
    Py_ssize_t n = st->n;
    if (j >= n) return 0;
    int shallow = spaces && j - q <= 3;
    Py_UCS4 c = AT(j);
    switch (c) {
    case '#':
        if (shallow) return 1;
        /* fall through */
    case 0xFF03:
        if (label_word_at(st, skip_space_in_line(st, j + 1), t)) return 1;
        break;
    case 0x3010: case '[': case 0xFF3B: case 0x25A0: case 0x25A1: case 0x25C6: case 0x25C7: case 0x25CF:
    case 0x25CE: case 0x25BC: case 0x25B6:
        if (shallow || (j - q == 1 && !spaces)) return 1;
        break;
    case '`': case '~':
        return j + 2 < n && AT(j + 1) == c && AT(j + 2) == c;
    case '*': case '^': case '"': case '+': case '_':
        if (j + 2 < n && AT(j + 1) == c && AT(j + 2) == c) return 1;
        break;
    case '=': case '-': {
        Py_ssize_t k = j;
        while (k < n && AT(k) == c) k++;
        while (k < n && (AT(k) == ' ' || AT(k) == '\t')) k++;
        if (k < n && AT(k) == '\r') k++;
        if (k >= n || AT(k) == '\n') return 1;
        break;
    }
    }
    if (is_decimal(c)) { /* a numbered label: 1. 主訴 */
        Py_ssize_t k = j + 1;
        if (k < n && is_decimal(AT(k))) k++;
        if (k < n) {
            Py_UCS4 d = AT(k);
            if (d == '.' || d == 0xFF0E || d == ')' || d == 0xFF09) {
                if (label_word_at(st, skip_space_in_line(st, k + 1), t)) return 1;
            }
        }
        /* a label may start with a digit too: go on */
    }
    /* beyond ASCII, a character whose lower case is one of those has a case */
    Py_UCS4 low = c < 128 ? lower_of(c) : 0;
    if (low == 's' || low == 'o' || low == 'a' || low == 'p' || is_cased_beyond_ascii(c)) { /* S： O） */
        Py_ssize_t k = j + 1;
        while (k < n && Py_UNICODE_ISSPACE(AT(k))) k++;
        if (k < n) {
            Py_UCS4 d = AT(k);
            if (d == ':' || d == 0xFF1A || d == ')' || d == 0xFF09) return 1;
        }
    }
    return label_word_at(st, j, t);
}

/* A line that starts (after spaces and tabs, at j) with one of the set's characters: where a
   code fence may start. */
static int starting_line_at(State *st, Py_ssize_t j, const LineTest *t) { return j < st->n && in_set(t->set, AT(j)); }

/* A list item's first character, as structure._LEAD_HINTS reads it: ・ • ● ○ - * + a
   decimal digit ( （ or ① to ⑳. */
static int is_list_mark(Py_UCS4 c) {
    return c == 0x30FB || c == 0x2022 || c == 0x25CF || c == 0x25CB || c == '-' || c == '*' || c == '+' ||
           c == '(' || c == 0xFF08 || (c >= 0x2460 && c <= 0x2473) || Py_UNICODE_ISDECIMAL(c);
}

/* The colon that ends the line before the "\n" at i (spaces, tabs and a "\r" after it),
   when the next line starts (after spaces and tabs) like a list item; else -1. */
static Py_ssize_t lead_colon(State *st, Py_ssize_t i) {
    Py_ssize_t k = i - 1, n = st->n;
    if (k >= 0 && AT(k) == '\r') k--;
    while (k >= 0 && (AT(k) == ' ' || AT(k) == '\t')) k--;
    if (k < 0 || (AT(k) != ':' && AT(k) != 0xFF1A)) return -1;
    Py_ssize_t j = skip_indent(st, i + 1, NULL);
    return j < n && is_list_mark(AT(j)) ? k : -1;
}

static int is_hspace_at(State *st, Py_ssize_t j) { return AT(j) == ' ' || AT(j) == '\t'; }

/* Whether the line whose first character after spaces and tabs is at j, and whose "\n" is at
   nl (-1: it ends the text), is a Markdown table's row: a "|" there, and another at its end
   (before spaces, tabs, and a "\r" before its "\n"), not the same one. */
static int row_shaped(State *st, Py_ssize_t j, Py_ssize_t nl) {
    Py_ssize_t n = st->n;
    if (j >= n || AT(j) != '|') return 0;
    Py_ssize_t k = nl < 0 ? n : nl;
    if (nl >= 0 && AT(k - 1) == '\r') k--;
    while (k > j + 1 && is_hspace_at(st, k - 1)) k--;
    return k > j + 1 && AT(k - 1) == '|';
}

static Py_ssize_t delimiter_row_end(PyObject *text, State *st, Py_ssize_t d);

/* structure_lines(text, initials, labels) -> (headings, fences, tables, lead_hints,
   paragraphs, tsv): in one pass over the lines, the starts of the lines that may be a
   heading (for the labels, a tuple of str, and their initials in lower case) or may open a
   code fence ` ~; the Markdown tables md_tables finds at every line, as [start, body start,
   end, start, ...] in the text's positions (table_atoms_from makes their atoms); and where
   structure._LEAD_HINTS match (the colon of a line that ends with one, before a list item),
   one past it. Those are positions in nl_text ("\n" + text, which the patterns
   search): a line's start in the text is where the "\n" before it is there. find_sections
   and find_atoms try their patterns there only. And, from the same lines, paragraph_ends'
   (ends, suspects) for the text as if its only line break were "\n" (the line starts after
   a run of blank lines, one that is the text's first line not counted): a region of an
   "\n"-only text takes its paragraph cuts from them without another pass. And the lines
   with two tabs or more (atoms._tsv_lines: each line's start and end, its "\n" included),
   as one list [start, end, start, end, ...], the tabs found a block at a time. */
enum { L_HEADS, L_FENCES, L_TABLES, L_LEADS, L_ENDS, L_SUSPECTS, L_TSV, L_LISTS };

/* structure_lines' pass, its lists into v[L_HEADS..L_TSV] (which the caller frees); 0 or -1 */
static int line_scan(PyObject *text, PyObject *initials, PyObject *words, Vec *v) {
    static CharSet fence;
    if (!fence.bmp['`' >> 3]) {
        fence.bmp['`' >> 3] |= 1 << ('`' & 7);
        fence.bmp['~' >> 3] |= 1 << ('~' & 7);
    }
    const Labels *ls = labels_of(words);
    if (!ls) return -1;
    LineTest th = {NULL, ls}, tf = {&fence, NULL};
    State state = {0}, *st = &state;
    st->kind = PyUnicode_KIND(text);
    st->data = PyUnicode_DATA(text);
    st->n = PyUnicode_GET_LENGTH(text);
    /* the tests a line starting with an ASCII character may pass (no test: most lines of
       prose); a heading's marks, digits, SOAP letters and the labels' initials; | may start
       a heading only when a label may be there (one of its own, or one beyond ASCII with a
       case, which lets any line it is tried at through) */
    enum { T_HEAD = 1, T_FENCE = 2, T_TABLE = 4 };
    unsigned char tests[128] = {0};
    for (const char *m = "#[`~*^\"+_=-0123456789sSoOaApP"; *m; m++) tests[(unsigned char)*m] = T_HEAD;
    for (Py_ssize_t k = 0; k < PyUnicode_GET_LENGTH(initials); k++) { /* in lower case: both cases */
        Py_UCS4 a = PyUnicode_READ_CHAR(initials, k);
        if (a < 128) tests[a] = T_HEAD;
        if (a >= 'a' && a <= 'z') tests[a - 32] = T_HEAD;
    }
    if (ls->always >= 0 || ls->head['|'] >= 0) tests['|'] = T_HEAD;
    tests['`'] |= T_FENCE;
    tests['~'] |= T_FENCE;
    tests['|'] |= T_TABLE;
    Py_ssize_t i = 0, c, blanks = 0; /* a line's start; blank lines before it (not the first line) */
    Py_ssize_t tab = find_char(st, 0, st->n, '\t'); /* the next tab */
    /* the Markdown table the lines are in: where it starts, its body, its end so far; in: 0
       none, 1 its delimiter row next, 2 its body rows */
    Py_ssize_t t_start = 0, t_body = 0, t_end = 0;
    int in_table = 0;
    for (;;) {
        /* the "\n" that ends this line (the next line's start is past it), or -1 */
        Py_ssize_t eol = i < st->n ? find_newline(st, i, st->n) : -1;
        if (eol == st->n) eol = -1;
        Py_ssize_t end = eol < 0 ? st->n : eol;
        if (tab < end) { /* a tab in this line: a second one makes it a tab-separated line */
            Py_ssize_t second = find_char(st, tab + 1, end, '\t');
            if (second < end && (vec_put(&v[L_TSV], i) < 0 || vec_put(&v[L_TSV], eol < 0 ? end : eol + 1) < 0))
                return -1;
            tab = end < st->n ? find_char(st, end, st->n, '\t') : st->n;
        }
        int spaces;
        Py_ssize_t j = skip_indent(st, i, &spaces); /* the line's first character after spaces and tabs */
        Py_UCS4 f = j < st->n ? AT(j) : 0;
        /* white space up to its "\n": a blank line, which paragraph_ends' run goes over (a
           line indented with other white space, no-break spaces, is looked at from its end) */
        if (eol >= 0 && (j == eol || (Py_UNICODE_ISSPACE(f) && Py_UNICODE_ISSPACE(AT(eol - 1)) &&
                                      skip_space_in_line(st, j) == eol))) {
            blanks += i > 0;
        } else if (blanks) {
            blanks = 0;
            if (vec_put(&v[L_ENDS], i) < 0 || (i < st->n && !surely_no_extend(AT(i)) && vec_put(&v[L_SUSPECTS], i) < 0))
                return -1;
        }
        int to = j >= st->n ? 0 : f >= 128 ? T_HEAD : tests[f]; /* fences and tables start with ASCII */
        if (in_table == 1) /* the delimiter row, read with the header */
            in_table = 2;
        else if (in_table && row_shaped(st, j, eol))
            t_end = eol < 0 ? st->n : eol + 1;
        else if (in_table) { /* the first line that is no row ends the table */
            in_table = 0;
            if (vec_put(&v[L_TABLES], t_start) < 0 || vec_put(&v[L_TABLES], t_body) < 0 || vec_put(&v[L_TABLES], t_end) < 0)
                return -1;
        }
        /* a header row (with its "\n") and a delimiter row after it start a table (none starts
           inside one, nor on the line after it, which is no row) */
        if (!in_table && (to & T_TABLE) && eol >= 0 && row_shaped(st, j, eol)) {
            Py_ssize_t r = delimiter_row_end(text, st, eol + 1);
            if (r == -2) return -1;
            if (r >= 0) {
                in_table = 1;
                t_start = i, t_body = t_end = r;
            }
        }
        if (((to & T_HEAD) && heading_line_at(st, i, j, spaces, &th) && vec_put(&v[L_HEADS], i) < 0) ||
            ((to & T_FENCE) && starting_line_at(st, j, &tf) && vec_put(&v[L_FENCES], i) < 0) ||
            (i > 0 && (c = lead_colon(st, i - 1)) >= 0 && vec_put(&v[L_LEADS], c + 1) < 0))
            return -1;
        if (eol < 0) break;
        i = eol + 1;
    }
    if (in_table && (vec_put(&v[L_TABLES], t_start) < 0 || vec_put(&v[L_TABLES], t_body) < 0 || vec_put(&v[L_TABLES], t_end) < 0))
        return -1;
    return 0;
}

/* structure_lines' answer of line_scan's lists (paragraphs: the (ends, suspects) made of them
   already, or NULL), a new reference */
static PyObject *lines_answer(const Vec *v, PyObject *paragraphs) {
    PyObject *l[L_LISTS] = {NULL}, *out = NULL;
    int ok = 1;
    for (int k = 0; k < L_LISTS && ok; k++)
        ok = (paragraphs && (k == L_ENDS || k == L_SUSPECTS)) || (l[k] = vec_list(&v[k])) != NULL;
    PyObject *p = !ok ? NULL : paragraphs ? Py_NewRef(paragraphs) : PyTuple_Pack(2, l[L_ENDS], l[L_SUSPECTS]);
    if (p) out = PyTuple_Pack(6, l[L_HEADS], l[L_FENCES], l[L_TABLES], l[L_LEADS], p, l[L_TSV]);
    Py_XDECREF(p);
    for (int k = 0; k < L_LISTS; k++) Py_XDECREF(l[k]);
    return out;
}

static void vecs_free(Vec *v, int n) {
    for (int k = 0; k < n; k++) PyMem_Free(v[k].v);
}

static PyObject *structure_lines(PyObject *self, PyObject *args) {
    PyObject *text, *initials, *words;
    if (!PyArg_ParseTuple(args, "UUO!", &text, &initials, &PyTuple_Type, &words)) return NULL;
    Vec v[L_LISTS] = {{0}};
    PyObject *out = line_scan(text, initials, words, v) < 0 ? NULL : lines_answer(v, NULL);
    vecs_free(v, L_LISTS);
    return out;
}

/* line_ends(text, start, stop) -> the ends of boundaries._LINE's matches in text[start:stop]
   (a line break, and more after white space, as one run), for a text whose only breaks are
   "\r\n" and "\n" (newlines.crlf_only): "\r\n" or "\n", then white space that is no break
   (the regex module's: not \x1f) and another, as long as they go on. */
static int run_space(Py_UCS4 c) {
    return Py_UNICODE_ISSPACE(c) && c != '\n' && c != '\r' && c != 0x0B && c != 0x0C && !(c >= 0x1C && c <= 0x1F) &&
           c != 0x85 && c != 0x2028 && c != 0x2029;
}

/* the end of the line break at i: "\n", "\r\n", or a "\r" that stop cuts from its "\n"
   (the search sees it alone, as the pattern would); -1: none */
static Py_ssize_t line_break_at(State *st, Py_ssize_t i, Py_ssize_t stop) {
    if (i >= stop) return -1;
    if (AT(i) == '\n') return i + 1;
    if (AT(i) != '\r') return -1;
    return i + 1 < stop && AT(i + 1) == '\n' ? i + 2 : i + 1;
}

/* The arguments (text, start, stop[, flag]) of a search of text[start:stop] read into st,
   start and stop clamped to the text, flag 0 when not given; the list the search fills, or
   NULL with an error set. */
static PyObject *window_search(PyObject *args, State *st, Py_ssize_t *start, Py_ssize_t *stop, int *flag) {
    PyObject *text;
    *flag = 0;
    if (!PyArg_ParseTuple(args, "Unn|p", &text, start, stop, flag)) return NULL;
    start_state(st, text, 0, 0);
    if (*stop > st->n) *stop = st->n;
    if (*start < 0) *start = 0;
    return PyList_New(0);
}

/* clause_ends(text, start, stop[, full]) -> [m.end() for m in P.finditer(text, start, stop)]
   for P boundaries._CLAUSE_ASCII: after a "," or ";" the run of spaces and tabs that follows
   it, up to stop (at least one), the commas found four or eight at a time (find_any4); with
   full, for boundaries._CLAUSE: also after 、，；､ and the white space that is no line break
   (is_hspace) after it, if any, and after a "," or ";" such white space, or nothing where a
   character beyond ASCII follows. */
#define IS_WIDE_CLAUSE(c) ((c) == 0x3001 || (c) == 0xFF0C || (c) == 0xFF1B || (c) == 0xFF64)
static PyObject *clause_ends(PyObject *self, PyObject *args) {
    State state, *st = &state;
    Py_ssize_t start, stop;
    int full;
    PyObject *out = window_search(args, st, &start, &stop, &full);
    if (!out) return NULL;
    for (Py_ssize_t i = start; i < stop;) {
        if (full) FIND_FIRST(st, i, stop, c == ',' || c == ';' || IS_WIDE_CLAUSE(c));
        else i = find_any4(st, i, stop, ',', ';', ',', ';');
        if (i >= stop) break;
        int wide = full && IS_WIDE_CLAUSE(AT(i));
        Py_ssize_t e = i + 1;
        if (full)
            while (e < stop && is_hspace(AT(e))) e++;
        else
            while (e < stop && (AT(e) == ' ' || AT(e) == '\t')) e++;
        if (!wide && e == i + 1 && !(full && e < stop && AT(e) >= 0x80)) { /* a comma with nothing after it */
            i++;
            continue;
        }
        if (append_cut(out, e) < 0) {
            Py_DECREF(out);
            return NULL;
        }
        i = e;
    }
    return out;
}

static inline int is_fullwidth_alnum(Py_UCS4 c) {
    return (c >= 0xFF10 && c <= 0xFF19) || (c >= 0xFF21 && c <= 0xFF3A) || (c >= 0xFF41 && c <= 0xFF5A);
}
/* the word patterns' white space: the regex module's \s, or its ASCII part (_WORD_ASCII) */
static inline int word_space(Py_UCS4 c, int full) { return (full || c < 128) && rx_space(c); }

/* word_ends(text, start, stop, full) -> [m.end() for m in P.finditer(text, start, stop)] for P
   boundaries._WORD (full) or _WORD_ASCII, or None where a script is not known here. Every
   alternative but the first is empty and asks the character before (which may lie before
   start) and the one at p, which is no white space, while the first takes white space
   before one that is none: at most one match a position, in order. */
static PyObject *word_ends(PyObject *self, PyObject *args) {
    State state, *st = &state;
    Py_ssize_t start, stop;
    int full;
    PyObject *out = window_search(args, st, &start, &stop, &full);
    if (!out) return NULL;
    for (Py_ssize_t p = start; p < stop; p++) {
        Py_UCS4 c = AT(p);
        if (word_space(c, full)) { /* \s(?=\S) */
            if (p + 1 < stop && !word_space(AT(p + 1), full) && append_cut(out, p + 1) < 0) goto fail;
            continue;
        }
        if (p == 0) continue;
        Py_UCS4 prev = AT(p - 1);
        int hit = prev == '/' || (full && (prev == 0x30FB || prev == 0xFF0F)); /* (?<=[・／/])(?=\S) */
        if (!hit && full) {
            int after3 = is_ascii_alnum(c) || c == '(' || c == 0xFF08 || c == 0x300C || c == 0x3010;
            int cs = -2; /* the script of c, asked only where it decides */
            if (!after3 && !is_fullwidth_alnum(c) && (cs = word_script(c)) == 0) continue; /* no alternative takes c */
            int ps = word_script(prev);
            if (ps < 0) goto unknown;
            if (ps & W_HIRA) { /* (?<=\p{Hiragana})(?=[\p{Han}\p{Katakana}A-Za-z0-9Ａ-Ｚａ-ｚ０-９]) */
                if (is_ascii_alnum(c) || is_fullwidth_alnum(c)) hit = 1;
                else {
                    if (cs == -2) cs = word_script(c);
                    if (cs < 0) goto unknown;
                    hit = (cs & (W_HAN | W_KATA)) != 0;
                }
            } else if ((ps & (W_HAN | W_KATA)) || prev == 0x30FC) /* (?<=[\p{Han}\p{Katakana}ー])(?=[A-Za-z0-9(（「【]) */
                hit = after3;
        }
        if (hit && append_cut(out, p) < 0) goto fail;
    }
    return out;
unknown:
    Py_DECREF(out);
    Py_RETURN_NONE;
fail:
    Py_DECREF(out);
    return NULL;
}

/* word_script(codepoint) -> word_script's mask (for tests) */
static PyObject *py_word_script(PyObject *self, PyObject *arg) {
    long v = PyLong_AsLong(arg);
    if (v == -1 && PyErr_Occurred()) return NULL;
    return PyLong_FromLong(word_script((Py_UCS4)v));
}

static PyObject *line_ends(PyObject *self, PyObject *args) {
    PyObject *text;
    Py_ssize_t start, stop;
    if (!PyArg_ParseTuple(args, "Unn", &text, &start, &stop)) return NULL;
    State state, *st = &state;
    start_state(st, text, 0, 0);
    if (stop > st->n) stop = st->n;
    if (start < 0) start = 0;
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    Py_ssize_t i = start;
    while (i < stop) {
        Py_ssize_t j = PyUnicode_FindChar(text, '\n', i, stop, 1);
        if (j == -2) goto fail;
        if (j < 0) {
            if (stop - 1 < i || AT(stop - 1) != '\r') break;
            j = stop - 1; /* a "\r" that stop cuts from its "\n" */
        }
        Py_ssize_t e = j + 1; /* "\r\n" or "\n": either way it ends here */
        while (1) {
            Py_ssize_t k = e;
            while (k < stop && run_space(AT(k))) k++;
            Py_ssize_t next = line_break_at(st, k, stop);
            if (next < 0) break;
            e = next;
        }
        if (append_cut(out, e) < 0) goto fail;
        i = e;
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* q starts a line of the text: its start, or just past a "\n" (the end when that is one) */
static int line_start_at(State *st, Py_ssize_t q) { return q == 0 || (q > 0 && q <= st->n && AT(q - 1) == '\n'); }

/* A code fence's mark at the line that starts at q: at most three spaces, then three or
   more ` or ~ (structure._FENCE_AT). */
static int fence_mark_at(State *st, Py_ssize_t q) {
    Py_ssize_t n = st->n, j = q;
    while (j < n && j - q < 3 && AT(j) == ' ') j++;
    if (j + 2 >= n) return 0;
    Py_UCS4 c = AT(j);
    return (c == '`' || c == '~') && AT(j + 1) == c && AT(j + 2) == c;
}

/* unfenced(text, lines) -> the lines (their starts, in order) that are neither a code fence's
   mark nor inside a fence, as find_sections reads fences: a mark opens one, and the next
   mark of either kind closes it. unfenced_into: those of lines[0..m-1] put into out; 0 or -1. */
static int unfenced_into(State *st, const Py_ssize_t *lines, Py_ssize_t m, Vec *out) {
    int in_fence = 0;
    for (Py_ssize_t k = 0; k < m; k++) {
        Py_ssize_t q = lines[k];
        if (!line_start_at(st, q)) {
            PyErr_SetString(PyExc_ValueError, "lines: the starts of lines in the text");
            return -1;
        }
        if (fence_mark_at(st, q)) in_fence = !in_fence;
        else if (!in_fence && vec_put(out, q) < 0) return -1;
    }
    return 0;
}

static Py_ssize_t *int_array(PyObject *list, Py_ssize_t *len);

static PyObject *unfenced(PyObject *self, PyObject *args) {
    PyObject *text, *lines;
    if (!PyArg_ParseTuple(args, "UO!", &text, &PyList_Type, &lines)) return NULL;
    State state, *st = &state;
    start_state(st, text, 0, 0);
    Py_ssize_t m = 0, *at = int_array(lines, &m);
    Vec out = {0};
    PyObject *got = at && unfenced_into(st, at, m, &out) == 0 ? vec_list(&out) : NULL;
    PyMem_Free(at);
    PyMem_Free(out.v);
    return got;
}

/* The heading lines that find_sections reads the same way wherever they are (a Markdown #
   heading, a bracketed or marked label), read as its patterns read them: _atx, _BRACKET with
   _CHECKBOX, _MARK, and _BLANK_LINES after a heading alone on its line. White space is
   Py_UNICODE_ISSPACE: str.strip's and the patterns' \s. */

/* text[a:b] stripped of white space (str.strip), a new reference */
static PyObject *stripped(PyObject *text, State *st, Py_ssize_t a, Py_ssize_t b) {
    while (a < b && Py_UNICODE_ISSPACE(AT(a))) a++;
    while (b > a && Py_UNICODE_ISSPACE(AT(b - 1))) b--;
    return PyUnicode_Substring(text, a, b);
}

/* where _BLANK_LINES, matched at p, ends: one line break, then every line of spaces, tabs
   and U+3000 with its break */
static Py_ssize_t blank_lines_end(State *st, Py_ssize_t p) {
    Py_ssize_t n = st->n;
    if (p < n && AT(p) == '\r' && p + 1 < n && AT(p + 1) == '\n') p += 2;
    else if (p < n && AT(p) == '\n') p++;
    for (;;) {
        Py_ssize_t k = p;
        while (k < n && (AT(k) == ' ' || AT(k) == '\t' || AT(k) == 0x3000)) k++;
        if (k < n && AT(k) == '\r') k++;
        if (k >= n || AT(k) != '\n') return p;
        p = k + 1;
    }
}

static int is_closing_bracket(Py_UCS4 c) { return c == 0x3011 || c == ']' || c == 0xFF3D; }

/* _BRACKET's look-ahead: a run of digits, white space and date or time marks closed at once */
static int is_date_mark(Py_UCS4 c) {
    return is_decimal(c) || Py_UNICODE_ISSPACE(c) || c == ':' || c == 0xFF1A || c == '.' || c == '/' || c == '-' ||
           c == 0x5E74 || c == 0x6708 || c == 0x65E5 || c == 0x6642 || c == 0x5206 || c == 0x79D2;
}

/* The line a..stop (its "\r"s left out) read as find_sections would: 1 (Markdown level,
   title) or 2 (bracketed or marked label, title; *alone: nothing follows the label), 0 for
   a line it must read itself, -1 on an error. */
static int heading_kind(PyObject *text, State *st, Py_ssize_t a, Py_ssize_t stop, int *level, PyObject **title,
                        int *alone) {
    Py_ssize_t j = a, spaces = 0;
    while (j < stop && AT(j) == ' ') j++, spaces++;
    if (j < stop && AT(j) == '#') { /* _atx: at most three spaces in, one to six #s, a space or tab */
        if (spaces > 3) return 0;
        Py_ssize_t r = j;
        while (r < stop && AT(r) == '#') r++;
        if (r - j > 6 || r >= stop || !is_hspace_at(st, r)) return 0;
        Py_ssize_t t0 = r;
        while (t0 < stop && is_hspace_at(st, t0)) t0++;
        if (t0 >= stop) {
            if (stop - r <= 1) return 0;
            *title = PyUnicode_New(0, 0);
        } else {
            Py_ssize_t t1 = stop;
            while (t1 > t0 && (is_hspace_at(st, t1 - 1) || AT(t1 - 1) == '#')) t1--;
            *title = stripped(text, st, t0, t1 > t0 ? t1 : t0 + 1);
        }
        *level = (int)(r - j), *alone = 1;
        return *title ? 1 : -1;
    }
    if (j < stop && AT(j) == '\t' && j == a) j++; /* one tab in, or up to three spaces */
    else if (spaces > 3) return 0;
    if (j >= stop) return 0;
    Py_UCS4 c = AT(j);
    Py_ssize_t o = j + 1;
    if (c == 0x3010 || c == '[' || c == 0xFF3B) {
        Py_ssize_t k = o;
        while (k < stop && is_date_mark(AT(k))) k++;
        if (k > o && k < stop && is_closing_bracket(AT(k))) return 0; /* [09:02], [1], [2024-01-05] */
        k = o;
        while (k < stop && !is_closing_bracket(AT(k))) k++; /* the line holds no "\n" */
        if (k == o || k - o > 24 || k >= stop) return 0;
        /* _CHECKBOX: white space, then [ ], [x] or [X] */
        Py_ssize_t b = a;
        while (b < stop && Py_UNICODE_ISSPACE(AT(b))) b++;
        Py_UCS4 box = b + 2 < stop && AT(b) == '[' && AT(b + 2) == ']' ? AT(b + 1) : 0;
        if (box == ' ' || box == 'x' || box == 'X') return 0;
        Py_ssize_t e = k + 1;
        while (e < stop && Py_UNICODE_ISSPACE(AT(e))) e++;
        *alone = e >= stop;
        *title = stripped(text, st, o, k);
        return *title ? 2 : -1;
    }
    if (c == 0x25A0 || c == 0x25A1 || c == 0x25C6 || c == 0x25C7 || c == 0x25CF || c == 0x25CE || c == 0x25BC ||
        c == 0x25B6) {
        /* _MARK: the shortest title of 1 to 30 characters that leaves only white space */
        Py_ssize_t w = o, last = stop;
        while (w < stop && Py_UNICODE_ISSPACE(AT(w))) w++;
        while (last > w && Py_UNICODE_ISSPACE(AT(last - 1))) last--;
        if (last > w) {
            if (last - w > 30) return 0;
            *title = PyUnicode_Substring(text, w, last);
        } else {
            if (stop == o) return 0;
            *title = PyUnicode_New(0, 0); /* white space only: the title is its last character */
        }
        *alone = 1;
        return *title ? 2 : -1;
    }
    return 0;
}

/* heading_kinds(text, lines) -> for each line start, (kind, level, title, line_end, body) of a
   Markdown heading (kind "md") or a bracketed or marked label ("block") as find_sections reads
   it, or None where find_sections must read the line itself. line_end: the "\n" that ends
   the line (or the text's end); body: where its text begins (after blank lines when the
   heading is alone on its line, else the line's start). */
static PyObject *heading_kinds(PyObject *self, PyObject *args) {
    PyObject *text, *lines;
    if (!PyArg_ParseTuple(args, "UO!", &text, &PyList_Type, &lines)) return NULL;
    static PyObject *md, *block; /* the kinds' names, as find_sections writes them */
    if (!md && !(md = PyUnicode_InternFromString("md"))) return NULL;
    if (!block && !(block = PyUnicode_InternFromString("block"))) return NULL;
    State state, *st = &state;
    start_state(st, text, 0, 0);
    Py_ssize_t m = PyList_GET_SIZE(lines);
    PyObject *out = PyList_New(m);
    if (!out) return NULL;
    for (Py_ssize_t k = 0; k < m; k++) {
        Py_ssize_t a = item_at(lines, k);
        if (a == -1 && PyErr_Occurred()) goto fail;
        if (!line_start_at(st, a)) {
            PyErr_SetString(PyExc_ValueError, "lines: the starts of lines of the text");
            goto fail;
        }
        Py_ssize_t nl = PyUnicode_FindChar(text, '\n', a, st->n, 1);
        if (nl == -2) goto fail;
        Py_ssize_t line_end = nl < 0 ? st->n : nl, stop = line_end;
        while (stop > a && AT(stop - 1) == '\r') stop--;
        int level = 0, alone = 0;
        PyObject *title = NULL, *item;
        int kind = heading_kind(text, st, a, stop, &level, &title, &alone);
        if (kind < 0) goto fail;
        if (kind == 0) {
            item = Py_None;
            Py_INCREF(item);
        } else {
            item = Py_BuildValue("(OiNnn)", kind == 1 ? md : block, level, title, line_end,
                                 alone ? blank_lines_end(st, line_end) : a);
            if (!item) goto fail;
        }
        PyList_SET_ITEM(out, k, item);
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* The end (past its "\n", or the text's end when newline is 0) of the table row starting at
   q: after spaces and tabs a "|", and another "|" that ends the line but for spaces and tabs
   and, before its "\n", one "\r"; -1 when q starts no row. */
static Py_ssize_t table_row_end(State *st, Py_ssize_t q, int newline) {
    Py_ssize_t n = st->n, j = skip_indent(st, q, NULL);
    if (j >= n || AT(j) != '|') return -1;
    Py_ssize_t nl = find_newline(st, j, n);
    if (nl == n) nl = -1;
    if ((nl < 0 && newline) || !row_shaped(st, j, nl)) return -1;
    return nl < 0 ? n : nl + 1;
}

/* The end past its "\n" of the delimiter row starting at d (spaces and tabs, "|" or not,
   spaces and tabs, ":" or not, then "--"); -1 when d starts none, -2 on an error. */
static Py_ssize_t delimiter_row_end(PyObject *text, State *st, Py_ssize_t d) {
    Py_ssize_t n = st->n, j = d;
    while (j < n && is_hspace_at(st, j)) j++;
    if (j < n && AT(j) == '|') j++;
    while (j < n && is_hspace_at(st, j)) j++;
    if (j < n && AT(j) == ':') j++;
    if (j + 1 >= n || AT(j) != '-' || AT(j + 1) != '-') return -1;
    Py_ssize_t nl = PyUnicode_FindChar(text, '\n', j + 2, n, 1);
    return nl < 0 ? nl : nl + 1;
}

/* the table at the line q: its end, with *body where its body rows begin; -1 none, -2 error */
static Py_ssize_t table_at(PyObject *text, State *st, Py_ssize_t q, Py_ssize_t *body) {
    Py_ssize_t n = st->n, head = table_row_end(st, q, 1);
    if (head < 0) return head;
    Py_ssize_t r = *body = delimiter_row_end(text, st, head), next = 0;
    if (r < 0) return r;
    while (r < n && (next = table_row_end(st, r, 0)) >= 0) r = next;
    return r;
}

typedef Py_ssize_t (*LineMatch)(PyObject *text, State *st, Py_ssize_t q, Py_ssize_t *mid);

/* The start of the grid table's top border drawn on the line above the table at a (a line's
   start), as atoms._BORDER reads it: spaces and tabs, "+", two or more of - = +, spaces and
   tabs, "\r" or not, and the "\n" before a; a itself when that line is no border. */
static Py_ssize_t border_above(State *st, Py_ssize_t a) {
    if (a < 1) return a;
    Py_ssize_t above = a - 1;
    while (above > 0 && AT(above - 1) != '\n') above--;
    Py_ssize_t j = above, run = 0;
    while (j < a && is_hspace_at(st, j)) j++;
    if (j >= a || AT(j) != '+') return a;
    for (j++; j < a && (AT(j) == '-' || AT(j) == '=' || AT(j) == '+'); j++) run++;
    while (j < a && is_hspace_at(st, j)) j++;
    if (j < a && AT(j) == '\r') j++;
    return run >= 2 && j == a - 1 ? above : a;
}

/* atoms.Atom, made here as its own constructor would make it (a Markdown page holds hundreds
   of tables and code blocks; a call of the class costs four times more): its slots, set
   through their member definitions, as the slots' descriptors set them. */
static PyTypeObject *atom_type;
static PyMemberDef *atom_fields[5]; /* start, end, kind, body_start, header */
static PyObject *s_table, *s_code, *s_empty;

/* The member definitions of the slots names[0..n-1] of the class cls (each a slot that holds
   an object) into fields, or -1 with a TypeError that names the caller (who). */
static int slot_fields(PyObject *cls, const char *const *names, int n, PyMemberDef **fields, const char *who) {
    if (!PyType_Check(cls)) {
        PyErr_Format(PyExc_TypeError, "%s: a class is needed", who);
        return -1;
    }
    for (int k = 0; k < n; k++) {
        PyObject *d = PyObject_GetAttrString(cls, names[k]);
        int ok = d && Py_IS_TYPE(d, &PyMemberDescr_Type) && ((PyMemberDescrObject *)d)->d_member->type == T_OBJECT_EX;
        if (ok) fields[k] = ((PyMemberDescrObject *)d)->d_member;
        Py_XDECREF(d); /* the class keeps the descriptor and its definition */
        if (!ok) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%s: %s is no slot of the class", who, names[k]);
            return -1;
        }
    }
    return 0;
}

/* An instance of type made as a constructor that sets these slots would make it: values[k]
   into fields[k] (borrowed: the slots take their own references). */
static PyObject *new_with_slots(PyTypeObject *type, PyMemberDef *const *fields, PyObject *const *values, int n) {
    PyObject *obj = type->tp_alloc(type, 0);
    /* a new object's slots are empty (tp_alloc zeroes them) and each holds an object: the
       reference is put in place, as PyMember_SetOne would after its checks */
    for (int k = 0; k < n && obj; k++) {
        if (!values[k]) {
            PyErr_SetString(PyExc_SystemError, "new_with_slots: a value is missing");
            Py_CLEAR(obj);
        } else *(PyObject **)((char *)obj + fields[k]->offset) = Py_NewRef(values[k]);
    }
    return obj;
}

static PyObject *configure_atom(PyObject *self, PyObject *cls) {
    static const char *const names[5] = {"start", "end", "kind", "body_start", "header"};
    PyMemberDef *fields[5]; /* kept only when every one is a slot */
    if (slot_fields(cls, names, 5, fields, "configure_atom") < 0) return NULL;
    if (!s_table && !((s_table = PyUnicode_InternFromString("table")) && (s_code = PyUnicode_InternFromString("code")) &&
                      (s_empty || (s_empty = PyUnicode_InternFromString("")))))
        return NULL;
    memcpy(atom_fields, fields, sizeof fields);
    Py_INCREF(cls);
    Py_XSETREF(atom_type, (PyTypeObject *)cls);
    Py_RETURN_NONE;
}

/* Atom(start, end, kind, body_start, header); header is stolen */
static PyObject *new_atom(Py_ssize_t start, Py_ssize_t end, PyObject *kind, Py_ssize_t body_start, PyObject *header) {
    PyObject *atom = NULL, *v[5] = {PyLong_FromSsize_t(start), PyLong_FromSsize_t(end), kind, PyLong_FromSsize_t(body_start),
                                    header};
    Py_INCREF(kind);
    if (!atom_type) PyErr_SetString(PyExc_RuntimeError, "configure_atom(Atom) first");
    else if (v[0] && v[1] && v[3] && v[4]) atom = new_with_slots(atom_type, atom_fields, v, 5);
    for (int k = 0; k < 5; k++) Py_XDECREF(v[k]);
    return atom;
}

/* An atom's start or end (field k: 0 or 1), read from its slot when it is an Atom, else as
   an attribute; -1 with an error set. */
static Py_ssize_t atom_position(PyObject *atom, int k) {
    PyObject *v = atom_type && PyObject_TypeCheck(atom, atom_type) ? PyMember_GetOne((char *)atom, atom_fields[k])
                                                                     : PyObject_GetAttrString(atom, k ? "end" : "start");
    if (!v) return -1;
    Py_ssize_t x = PyLong_AsSsize_t(v);
    Py_DECREF(v);
    return x;
}

/* atom_lists(atoms, half) -> regions.atom_lists' (starts, ends, tables, table body starts, table
   ends, header sizes): the lists a document's regions read, in one pass over its atoms; a
   table's header size is its length where that is half a budget (half) or less, else 0. */
static PyObject *atom_lists(PyObject *self, PyObject *args) {
    PyObject *atoms;
    Py_ssize_t half;
    if (!PyArg_ParseTuple(args, "O!n", &PyList_Type, &atoms, &half)) {
        PyErr_SetString(PyExc_TypeError, "atom_lists(atoms: list, half: int)");
        return NULL;
    }
    static const char *const names[5] = {"start", "end", "kind", "body_start", "header"};
    PyObject *lists[6] = {PyList_New(0), PyList_New(0), PyList_New(0), PyList_New(0), PyList_New(0), PyList_New(0)};
    PyObject *out = NULL;
    for (int k = 0; k < 6; k++)
        if (!lists[k]) goto done;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(atoms); i++) {
        PyObject *atom = PyList_GET_ITEM(atoms, i), *v[5] = {NULL};
        int slots = atom_type && Py_IS_TYPE(atom, atom_type), ok = 1;
        for (int k = 0; k < 5 && ok; k++) {
            if (slots) /* an Atom's slot read in place (all are set: its __init__ sets them) */
                v[k] = Py_XNewRef(*(PyObject **)((char *)atom + atom_fields[k]->offset));
            else
                v[k] = PyObject_GetAttrString(atom, names[k]);
            ok = v[k] != NULL;
        }
        if (!ok && slots) PyErr_SetString(PyExc_AttributeError, "atom_lists: an Atom with a slot not set");
        int table = 0;
        if (ok) {
            int is = v[2] == s_table                ? 1
                     : PyUnicode_Check(v[2]) ? PyUnicode_Compare(v[2], s_table) == 0
                                             : PyObject_RichCompareBool(v[2], s_table, Py_EQ);
            int has = is > 0 ? PyObject_IsTrue(v[4]) : 0;
            ok = !PyErr_Occurred() && is >= 0 && has >= 0;
            table = is > 0 && has > 0;
        }
        Py_ssize_t size = table ? PyObject_Length(v[4]) : 0;
        ok = ok && size >= 0 && PyList_Append(lists[0], v[0]) == 0 && PyList_Append(lists[1], v[1]) == 0 &&
             (!table || (PyList_Append(lists[2], atom) == 0 && PyList_Append(lists[3], v[3]) == 0 &&
                         PyList_Append(lists[4], v[1]) == 0 && append_cut(lists[5], size <= half ? size : 0) == 0));
        for (int k = 0; k < 5; k++) Py_XDECREF(v[k]);
        if (!ok) goto done;
    }
    out = PyTuple_Pack(6, lists[0], lists[1], lists[2], lists[3], lists[4], lists[5]);
done:
    for (int k = 0; k < 6; k++) Py_XDECREF(lists[k]);
    return out;
}

typedef struct {
    Py_ssize_t start, end, at; /* at: its place in the list, which breaks ties (a stable order) */
} AtomSpan;

static int by_start(const void *x, const void *y) {
    const AtomSpan *a = x, *b = y;
    if (a->start != b->start) return a->start < b->start ? -1 : 1;
    return a->at < b->at ? -1 : a->at > b->at;
}

/* disjoint_atoms(found) -> atoms.disjoint's list: the first of overlapping spans by start, the
   longest (the first of equal ones) at a shared start; found itself is left as it is. */
static PyObject *disjoint_atoms(PyObject *self, PyObject *found) {
    if (!PyList_Check(found)) {
        PyErr_SetString(PyExc_TypeError, "disjoint_atoms(found: list)");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(found);
    AtomSpan *spans = PyMem_Malloc((n ? n : 1) * sizeof *spans);
    if (!spans) return PyErr_NoMemory();
    PyObject *out = NULL;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *atom = PyList_GET_ITEM(found, k);
        spans[k].start = atom_position(atom, 0);
        spans[k].end = spans[k].start == -1 && PyErr_Occurred() ? -1 : atom_position(atom, 1);
        spans[k].at = k;
        if (PyErr_Occurred()) goto done;
    }
    qsort(spans, n, sizeof *spans, by_start);
    out = PyList_New(0);
    Py_ssize_t last = -1; /* the index into spans of the last atom kept */
    for (Py_ssize_t k = 0; out && k < n; k++) {
        const AtomSpan *a = &spans[k];
        PyObject *atom = PyList_GET_ITEM(found, a->at);
        if (last >= 0 && a->start == spans[last].start) {
            if (a->end > spans[last].end) {
                Py_INCREF(atom);
                PyList_SET_ITEM(out, PyList_GET_SIZE(out) - 1, atom);
                Py_DECREF(PyList_GET_ITEM(found, spans[last].at));
                last = k;
            }
        } else if (last < 0 || a->start >= spans[last].end) {
            if (PyList_Append(out, atom) < 0) Py_CLEAR(out);
            last = k;
        }
    }
done:
    PyMem_Free(spans);
    return out;
}

/* chunk.Chunk, which section_chunks makes (its slots in the order chunk.new_chunk sets them),
   and structure.Section, which it reads and sections_of makes (start, end, headings, body). */
static PyTypeObject *chunk_type, *section_type;
enum { CHUNK_SLOTS = 16 };
static PyMemberDef *chunk_fields[CHUNK_SLOTS], *section_fields[4];

static PyObject *configure_chunk(PyObject *self, PyObject *cls) {
    static const char *const names[CHUNK_SLOTS] = {
        "text",     "start",   "end",      "index",      "size",       "_doc_id",  "_doc",              "_id",
        "headings", "section", "metadata", "embed_text", "page_start", "page_end", "section_canonical", "replaced"};
    PyMemberDef *fields[CHUNK_SLOTS];
    if (slot_fields(cls, names, CHUNK_SLOTS, fields, "configure_chunk(Chunk)") < 0) return NULL;
    if (!s_empty && !(s_empty = PyUnicode_InternFromString(""))) return NULL;
    memcpy(chunk_fields, fields, sizeof fields);
    Py_INCREF(cls);
    Py_XSETREF(chunk_type, (PyTypeObject *)cls);
    Py_RETURN_NONE;
}

static PyObject *configure_section(PyObject *self, PyObject *cls) {
    static const char *const names[4] = {"start", "end", "headings", "body"};
    PyMemberDef *fields[4];
    if (slot_fields(cls, names, 4, fields, "configure_section(Section)") < 0) return NULL;
    memcpy(section_fields, fields, sizeof fields);
    Py_INCREF(cls);
    Py_XSETREF(section_type, (PyTypeObject *)cls);
    Py_RETURN_NONE;
}

/* A section's field k (start, end, headings): read from its slot when it is a Section (or
   made from one), else as an attribute (a structure provider may give other objects). */
static PyObject *section_field(PyObject *sec, int k) {
    static const char *const names[3] = {"start", "end", "headings"};
    if (section_type && PyObject_TypeCheck(sec, section_type)) return PyMember_GetOne((char *)sec, section_fields[k]);
    return PyObject_GetAttrString(sec, names[k]);
}

/* A chunk as chunk.new_chunk makes it, its slots set here: text, start, end, index, size,
   doc, a copy of metadata (a dict; {} when it is None or empty), a copy of the headings
   (a list; [] when NULL), section, canonical and embed_text (all borrowed); or NULL. */
static PyObject *make_chunk(PyObject *piece, PyObject *start, PyObject *end, Py_ssize_t index, Py_ssize_t size,
                            PyObject *doc, PyObject *metadata, PyObject *heads, PyObject *section, PyObject *canonical,
                            PyObject *embed) {
    PyObject *v[CHUNK_SLOTS] = {NULL}, *out = NULL;
    int has_meta = metadata != Py_None ? PyObject_IsTrue(metadata) : 0;
    if (has_meta < 0) return NULL;
    v[3] = PyLong_FromSsize_t(index);
    v[4] = PyLong_FromSsize_t(size);
    v[8] = heads ? PyList_GetSlice(heads, 0, PyList_GET_SIZE(heads)) : PyList_New(0);
    v[10] = !has_meta                         ? PyDict_New()
            : PyDict_CheckExact(metadata) ? PyDict_Copy(metadata)
                                          : PyObject_CallOneArg((PyObject *)&PyDict_Type, metadata);
    if (v[3] && v[4] && v[8] && v[10]) {
        v[0] = piece, v[1] = start, v[2] = end, v[9] = section, v[11] = embed, v[14] = canonical;
        v[5] = v[7] = s_empty;
        v[6] = doc;
        v[12] = v[13] = v[15] = Py_None;
        out = new_with_slots(chunk_type, chunk_fields, v, CHUNK_SLOTS);
    }
    Py_XDECREF(v[3]);
    Py_XDECREF(v[4]);
    Py_XDECREF(v[8]);
    Py_XDECREF(v[10]);
    return out;
}

/* The chunk of one section that is one chunk of its text alone (chunk.section_chunks' loop
   body), or NULL. */
static PyObject *section_chunk(PyObject *text, PyObject *sec, Py_ssize_t index, PyObject *doc, PyObject *metadata,
                               PyObject *canonical, PyObject *memo) {
    PyObject *a = section_field(sec, 0), *b = a ? section_field(sec, 1) : NULL;
    PyObject *heads = b ? section_field(sec, 2) : NULL, *out = NULL, *piece = NULL, *name = NULL;
    if (!a || !b || !heads) goto done;
    if (!PyList_Check(heads)) {
        PyErr_SetString(PyExc_TypeError, "section_chunks: a section's headings must be a list");
        goto done;
    }
    Py_ssize_t start = PyLong_AsSsize_t(a), end = PyLong_AsSsize_t(b), m = PyList_GET_SIZE(heads);
    if ((start == -1 || end == -1) && PyErr_Occurred()) goto done;
    piece = PyUnicode_Substring(text, start, end); /* text, and embed_text: the same string */
    if (memo) { /* the name remembered for this path: no call */
        PyObject *key = PyList_AsTuple(heads);
        name = key ? PyDict_GetItemWithError(memo, key) : NULL;
        Py_XDECREF(key);
        if (name) Py_INCREF(name);
        else if (PyErr_Occurred()) goto done;
    }
    if (!name) name = PyObject_CallOneArg(canonical, heads);
    if (piece && name)
        out = make_chunk(piece, a, b, index, end - start, doc, metadata, heads, m ? PyList_GET_ITEM(heads, m - 1) : Py_None,
                         name, piece);
done:
    Py_XDECREF(piece);
    Py_XDECREF(name);
    Py_XDECREF(a);
    Py_XDECREF(b);
    Py_XDECREF(heads);
    return out;
}

/* section_chunks(text, sections, start, stop, index, doc, metadata, canonical, memo=None) ->
   chunk.section_chunks' list: a chunk made here (its slots set as new_chunk sets them) costs a
   fraction of a call of it. memo: a dict of canonical's answers by the path as a tuple, read
   before canonical is called (canonical fills it). */
static PyObject *section_chunks(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs < 8 || nargs > 9 || !PyUnicode_Check(args[0]) || !PyList_Check(args[1]) || !PyLong_Check(args[2]) ||
        !PyLong_Check(args[3]) || !PyLong_Check(args[4]) || (nargs == 9 && args[8] != Py_None && !PyDict_Check(args[8]))) {
        PyErr_SetString(PyExc_TypeError, "section_chunks(text: str, sections: list, start: int, stop: int, index: int, "
                                         "doc, metadata, canonical, memo: dict | None = None)");
        return NULL;
    }
    PyObject *memo = nargs == 9 && args[8] != Py_None ? args[8] : NULL;
    if (!chunk_type) {
        PyErr_SetString(PyExc_RuntimeError, "configure_chunk(Chunk) first");
        return NULL;
    }
    Py_ssize_t start = PyLong_AsSsize_t(args[2]), stop = PyLong_AsSsize_t(args[3]), index = PyLong_AsSsize_t(args[4]);
    if (PyErr_Occurred()) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(args[1]);
    if (start < 0) start = 0;
    if (stop > n) stop = n;
    PyObject *out = PyList_New(stop > start ? stop - start : 0);
    for (Py_ssize_t k = start; out && k < stop; k++) {
        PyObject *c = section_chunk(args[0], PyList_GET_ITEM(args[1], k), index + k - start, args[5], args[6], args[7], memo);
        if (!c) Py_CLEAR(out);
        else PyList_SET_ITEM(out, k - start, c);
    }
    return out;
}

static Py_ssize_t after_all(const Py_ssize_t *a, Py_ssize_t len, Py_ssize_t x);

/* The embed text of a chunk of piece starting at s (chunk.span_chunks' rule): piece itself
   without a prefix; prefix(s) + piece, or with vary spans base + piece outside them. */
static PyObject *embed_of(PyObject *piece, Py_ssize_t s, PyObject *prefix, PyObject *base, const Py_ssize_t *vs,
                          const Py_ssize_t *ve, Py_ssize_t nv) {
    if (prefix == Py_None) {
        Py_INCREF(piece);
        return piece;
    }
    PyObject *head;
    if (base != Py_None) {
        Py_ssize_t k = after_all(ve, nv, s); /* the first vary span that ends past s */
        if (k >= nv || vs[k] > s) return PyUnicode_Concat(base, piece);
    }
    PyObject *at = PyLong_FromSsize_t(s);
    head = at ? PyObject_CallOneArg(prefix, at) : NULL;
    Py_XDECREF(at);
    if (!head) return NULL;
    PyObject *out = PyUnicode_Concat(head, piece);
    Py_DECREF(head);
    return out;
}

/* span_chunks(text, spans, offset, index, doc, metadata, headings, section, canonical, prefix,
   base, vary_starts, vary_ends) -> chunk.span_chunks' list: the chunks of a region's spans,
   made here as section_chunks makes them. */
static PyObject *span_chunks(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 13 || !PyUnicode_Check(args[0]) || !PyList_Check(args[1]) || !PyLong_Check(args[2]) ||
        !PyLong_Check(args[3]) || (args[6] != Py_None && !PyList_Check(args[6])) ||
        (args[10] != Py_None && !PyUnicode_Check(args[10]))) {
        PyErr_SetString(PyExc_TypeError, "span_chunks(text: str, spans: list, offset: int, index: int, doc, metadata, "
                                         "headings: list | None, section, canonical, prefix, base: str | None, "
                                         "vary_starts: list, vary_ends: list)");
        return NULL;
    }
    if (!chunk_type) {
        PyErr_SetString(PyExc_RuntimeError, "configure_chunk(Chunk) first");
        return NULL;
    }
    PyObject *text = args[0], *spans = args[1], *heads = args[6] == Py_None ? NULL : args[6];
    Py_ssize_t offset = PyLong_AsSsize_t(args[2]), index = PyLong_AsSsize_t(args[3]), nv = 0, nv2 = 0;
    if (PyErr_Occurred()) return NULL;
    Py_ssize_t *vs = NULL, *ve = NULL;
    int vary = args[9] != Py_None && args[10] != Py_None;
    if (vary && (!(vs = int_array(args[11], &nv)) || !(ve = int_array(args[12], &nv2)))) goto fail;
    if (nv != nv2) {
        PyErr_SetString(PyExc_ValueError, "span_chunks: vary_starts and vary_ends of unequal length");
        goto fail;
    }
    Py_ssize_t m = PyList_GET_SIZE(spans), len = PyUnicode_GET_LENGTH(text);
    PyObject *out = PyList_New(m);
    for (Py_ssize_t k = 0; out && k < m; k++) {
        PyObject *span = PyList_GET_ITEM(spans, k), *c = NULL;
        Py_ssize_t s = -1, e = -1, n = -1;
        if (PyTuple_Check(span) && PyTuple_GET_SIZE(span) == 3) {
            s = PyLong_AsSsize_t(PyTuple_GET_ITEM(span, 0));
            e = s == -1 && PyErr_Occurred() ? -1 : PyLong_AsSsize_t(PyTuple_GET_ITEM(span, 1));
            n = e == -1 && PyErr_Occurred() ? -1 : PyLong_AsSsize_t(PyTuple_GET_ITEM(span, 2));
        }
        if (n == -1 && (PyErr_Occurred() || !PyTuple_Check(span) || PyTuple_GET_SIZE(span) != 3)) {
            if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_TypeError)) {
                PyErr_Clear();
                PyErr_Format(PyExc_TypeError, "span_chunks: span %zd is no (start, end, size) tuple of ints", k);
            }
            Py_CLEAR(out);
            break;
        }
        if (s < 0 || e < s || offset + e > len) {
            PyErr_Format(PyExc_ValueError, "span_chunks: span (%zd, %zd) at offset %zd outside a text of %zd", s, e,
                         offset, len);
            Py_CLEAR(out);
            break;
        }
        PyObject *piece = PyUnicode_Substring(text, offset + s, offset + e);
        PyObject *embed = piece ? embed_of(piece, s, args[9], vary ? args[10] : Py_None, vs, ve, nv) : NULL;
        PyObject *a = embed ? PyLong_FromSsize_t(offset + s) : NULL, *b = a ? PyLong_FromSsize_t(offset + e) : NULL;
        if (b) c = make_chunk(piece, a, b, index + k, n, args[4], args[5], heads, args[7], args[8], embed);
        Py_XDECREF(piece);
        Py_XDECREF(embed);
        Py_XDECREF(a);
        Py_XDECREF(b);
        if (!c) Py_CLEAR(out);
        else PyList_SET_ITEM(out, k, c);
    }
    PyMem_Free(vs);
    PyMem_Free(ve);
    return out;
fail:
    PyMem_Free(vs);
    PyMem_Free(ve);
    return NULL;
}

/* The sections structure._heading_starts begins: at[k], path[k] (owned), body[k]. */
typedef struct {
    Py_ssize_t n, cap, *at, *body;
    PyObject **path;
} Starts;

static int starts_put(Starts *s, Py_ssize_t at, PyObject *path, Py_ssize_t body) {
    if (s->n && s->at[s->n - 1] == at) { /* a heading that starts where the last one did replaces it */
        Py_SETREF(s->path[s->n - 1], path);
        s->body[s->n - 1] = body;
        return 0;
    }
    if (s->n == s->cap) {
        Py_ssize_t cap = s->cap ? 2 * s->cap : 16;
        Py_ssize_t *a = PyMem_Realloc(s->at, cap * sizeof *a), *b = a ? PyMem_Realloc(s->body, cap * sizeof *b) : NULL;
        if (a) s->at = a;
        if (b) s->body = b;
        PyObject **p = b ? PyMem_Realloc(s->path, cap * sizeof *p) : NULL;
        if (!p) {
            Py_DECREF(path);
            PyErr_NoMemory();
            return -1;
        }
        s->path = p, s->cap = cap;
    }
    s->at[s->n] = at, s->path[s->n] = path, s->body[s->n] = body;
    s->n++;
    return 0;
}

/* Section(start, end, headings, body) made as its constructor makes it (a body before the
   start is the start) */
static PyObject *new_section(Py_ssize_t start, Py_ssize_t end, PyObject *headings, Py_ssize_t body) {
    PyObject *v[4] = {PyLong_FromSsize_t(start), PyLong_FromSsize_t(end), headings,
                      PyLong_FromSsize_t(body < start ? start : body)};
    PyObject *out = v[0] && v[1] && v[3] ? new_with_slots(section_type, section_fields, v, 4) : NULL;
    Py_XDECREF(v[0]);
    Py_XDECREF(v[1]);
    Py_XDECREF(v[3]);
    return out;
}

/* The field label the line q..stop (its "\r"s left out) starts with, as HeadingReader.read
   reads a line that is no # heading and no bracketed or marked label (heading_kind said so)
   and whose first character leads no other reading: 1 (the label at *t0..*t1; *alone: white space alone after its colon),
   0 (no heading), 2 (read decides: a line another of its readings may take, or letters
   with a case beyond ASCII, which its case-insensitive pattern folds by its own tables).
   labels: the label pattern's alternatives in its order (longest first), none empty, none
   starting with white space, a digit, # or ＃, none holding a line break. */
static int field_label_at(State *st, Py_ssize_t q, Py_ssize_t stop, PyObject *labels, Py_ssize_t *t0,
                          Py_ssize_t *t1, int *alone) {
    Py_ssize_t j = q;
    while (j < stop && (AT(j) == ' ' || AT(j) == '\t')) j++;
    if (j >= stop) return 2;
    Py_UCS4 c = AT(j);
    /* white space beyond spaces and tabs, a fence, an adornment or setext underline: read's
       other readings come first (a bracketed or marked label is heading_kind's) */
    if (Py_UNICODE_ISSPACE(c) || (c && c < 128 && strchr("`~=-*^\"+_", (int)c))) return 2;
    if (c == 'S' || c == 'O' || c == 'A' || c == 'P') { /* a SOAP line: S： O) */
        Py_ssize_t e = j + 1;
        while (e < stop && Py_UNICODE_ISSPACE(AT(e))) e++;
        if (e < stop && (AT(e) == ':' || AT(e) == 0xFF1A || AT(e) == ')' || AT(e) == 0xFF09)) return 2;
    }
    Py_ssize_t k = j;
    if (c == '#') { /* a line of three #s or more alone may be a reStructuredText title's adornment */
        Py_ssize_t r = q;
        while (r < stop && AT(r) == '#') r++;
        Py_ssize_t e = r;
        while (e < stop && (AT(e) == ' ' || AT(e) == '\t')) e++;
        if (r - q >= 3 && e >= stop) return 2;
    }
    if (c == '#' || c == 0xFF03) { /* the pattern's [#＃]\s* before a label */
        k = j + 1;
        while (k < stop && Py_UNICODE_ISSPACE(AT(k))) k++;
    } else if (is_decimal(c)) { /* its \d{1,2}[.．)）]\s*: 1. 主訴 */
        Py_ssize_t d = j + 1;
        if (d < stop && is_decimal(AT(d))) d++;
        if (d >= stop) return 0;
        Py_UCS4 m = AT(d);
        if (m != '.' && m != 0xFF0E && m != ')' && m != 0xFF09) return 0; /* no label starts with a digit */
        k = d + 1;
        while (k < stop && Py_UNICODE_ISSPACE(AT(k))) k++;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(labels); i++) { /* the first alternative that matches wins */
        PyObject *w = PyTuple_GET_ITEM(labels, i);
        Py_ssize_t len = PyUnicode_GET_LENGTH(w);
        if (k + len > stop) continue;
        int got = label_is_at(st, k, w);
        if (got < 0) return 2;
        if (!got) continue;
        Py_ssize_t e = k + len, end;
        while (e < stop && Py_UNICODE_ISSPACE(AT(e))) e++;
        if (e >= stop) end = stop; /* \s*$ */
        else if (AT(e) == ':' || AT(e) == 0xFF1A) end = e + 1;
        else continue;
        while (end < stop && Py_UNICODE_ISSPACE(AT(end))) end++;
        *t0 = k, *t1 = k + len, *alone = end >= stop;
        return 1;
    }
    return 0;
}

/* The reader of sections_of: a callable, or (make, *args) whose make(*args) gives it, made
   only when a line needs it (most texts have none: their lines are read here). With lines
   (scan_labelled's line scan), make is called with structure_lines' answer of them after
   args, made then (answer: that answer, a new reference, once made). */
typedef struct {
    PyObject *given, *made; /* made: a new reference once made */
    const Vec *lines;
    PyObject *paragraphs, *answer;
} Reader;

static PyObject *reader_of(Reader *r) {
    if (r->made) return r->made;
    if (!PyTuple_Check(r->given)) return r->made = Py_NewRef(r->given);
    if (r->lines && !r->answer && !(r->answer = lines_answer(r->lines, r->paragraphs))) return NULL;
    PyObject *rest = PyTuple_GetSlice(r->given, 1, PyTuple_GET_SIZE(r->given));
    if (rest && r->lines) {
        PyObject *with = PyTuple_Pack(1, r->answer);
        Py_SETREF(rest, with ? PySequence_Concat(rest, with) : NULL);
        Py_XDECREF(with);
    }
    r->made = rest ? PyObject_Call(PyTuple_GET_ITEM(r->given, 0), rest, NULL) : NULL;
    Py_XDECREF(rest);
    if (r->made && !PyCallable_Check(r->made)) {
        PyErr_SetString(PyExc_TypeError, "sections_of: make(*args) must give a callable reader");
        Py_CLEAR(r->made);
    }
    return r->made;
}

/* One heading of _heading_starts' loop, read here (known: a # heading, a bracketed or
   marked label, with labels a field label) or by read(q, last_heading_end) -> (kind, level, title, line_end, body, at)
   or None: *kind 1 md, 2 block, 3 field, 0 none; -1 on an error. title: a new reference. */
static int heading_at(PyObject *text, State *st, Py_ssize_t q, int known, PyObject *labels, Reader *reader,
                      Py_ssize_t last_end, int *kind, Py_ssize_t *level, PyObject **title, Py_ssize_t *line_end,
                      Py_ssize_t *body, Py_ssize_t *at) {
    *kind = 0;
    if (known) {
        Py_ssize_t nl = PyUnicode_FindChar(text, '\n', q, st->n, 1);
        if (nl == -2) return -1;
        Py_ssize_t stop = *line_end = nl < 0 ? st->n : nl;
        while (stop > q && AT(stop - 1) == '\r') stop--;
        int lv = 0, alone = 0, k = heading_kind(text, st, q, stop, &lv, title, &alone);
        if (k < 0) return -1;
        if (k > 0) {
            *kind = k, *level = lv, *at = q;
            *body = alone ? blank_lines_end(st, *line_end) : q;
            return 0;
        }
        Py_ssize_t t0 = 0, t1 = 0;
        int f = labels ? field_label_at(st, q, stop, labels, &t0, &t1, &alone) : 2;
        if (f == 0) return 0;
        if (f == 1) {
            *title = PyUnicode_Substring(text, t0, t1);
            if (!*title) return -1;
            *kind = 3, *level = 0, *at = q;
            *body = alone ? blank_lines_end(st, *line_end) : q;
            return 0;
        }
    }
    PyObject *read = reader_of(reader);
    if (!read) return -1;
    PyObject *args[2] = {PyLong_FromSsize_t(q), PyLong_FromSsize_t(last_end)};
    PyObject *got = args[0] && args[1] ? PyObject_Vectorcall(read, args, 2, NULL) : NULL;
    Py_XDECREF(args[0]);
    Py_XDECREF(args[1]);
    if (!got) return -1;
    int r = 0;
    PyObject *name;
    if (got == Py_None) goto done;
    if (!PyArg_ParseTuple(got, "UnUnnn", &name, level, title, line_end, body, at)) {
        r = -1;
        goto done;
    }
    *kind = !PyUnicode_CompareWithASCIIString(name, "md")      ? 1
            : !PyUnicode_CompareWithASCIIString(name, "block") ? 2
                                                               : 3;
    Py_INCREF(*title);
done:
    Py_DECREF(got);
    return r;
}

/* Whether sections_from may be called with these field labels (a tuple of non-empty str, or
   NULL) and the Section class configured: 0, or -1 with an error set. */
static int sections_ready(PyObject *labels) {
    static PyObject *checked; /* the last labels found good, kept: a run passes the same tuple */
    for (Py_ssize_t i = 0; labels && labels != checked && i < PyTuple_GET_SIZE(labels); i++) {
        PyObject *w = PyTuple_GET_ITEM(labels, i);
        if (!PyUnicode_Check(w) || !PyUnicode_GET_LENGTH(w)) {
            PyErr_SetString(PyExc_TypeError, "labels: a tuple of non-empty str");
            return -1;
        }
    }
    if (labels && labels != checked) {
        Py_INCREF(labels);
        Py_XSETREF(checked, labels);
    }
    if (!section_type) {
        PyErr_SetString(PyExc_RuntimeError, "configure_section(Section) first");
        return -1;
    }
    return 0;
}

/* sections_of(text, heads, known, read, labels=None, attach=False) -> structure._sections(len(text),
   _heading_starts(heads, read)) where a known line (a # heading or a bracketed or marked
   label) is read here as heading_kinds reads it, and another by read (its own reading:
   fences, reStructuredText titles, field labels); read may be (make, *args), the reader
   made by make(*args) when a line first needs it. With known and labels (a tuple, see
   field_label_at), a field label's line too, and a line that field_label_at finds no
   heading in is not read. With attach, those sections as structure.attach_bare_headings
   leaves them (a section that is its heading alone joins the next). sections_from: those of
   the heading lines heads[0..nh-1], a new list (NULL on an error). */
static PyObject *sections_from(PyObject *text, const Py_ssize_t *heads, Py_ssize_t nh, int known, PyObject *labels,
                               Reader *reader, int attach) {
    PyObject *titles = PyList_New(0), *block = NULL, *fieldl = NULL, *out = NULL;
    State state, *st = &state;
    start_state(st, text, 0, 0);
    Starts s = {0};
    Py_ssize_t *levels = NULL, depth = 0, room = 0, last_end = -1; /* the Markdown path's levels */
    if (!titles) goto done;
    for (Py_ssize_t i = 0; i < nh; i++) {
        Py_ssize_t q = heads[i], level = 0, line_end = 0, body = 0, at = 0;
        if (q < 0 || q > st->n) {
            PyErr_SetString(PyExc_ValueError, "heads: line starts of the text");
            goto done;
        }
        int kind;
        PyObject *title = NULL, *path;
        if (heading_at(text, st, q, known, labels, reader, last_end, &kind, &level, &title, &line_end, &body, &at) < 0)
            goto done;
        if (!kind) continue;
        if (kind == 1) { /* a Markdown heading closes those of its level and below */
            while (depth && levels[depth - 1] >= level) {
                depth--;
                if (PyList_SetSlice(titles, depth, depth + 1, NULL) < 0) goto title_fail;
            }
            if (depth == room) {
                Py_ssize_t *grown = PyMem_Realloc(levels, (room + 8) * sizeof *levels);
                if (!grown) {
                    PyErr_NoMemory();
                    goto title_fail;
                }
                levels = grown, room += 8;
            }
            levels[depth++] = level;
            if (PyList_Append(titles, title) < 0) goto title_fail;
            Py_CLEAR(block);
            Py_CLEAR(fieldl);
            path = PyList_GetSlice(titles, 0, depth);
        } else {
            if (kind == 2) {
                Py_XSETREF(block, title);
                Py_INCREF(title);
                Py_CLEAR(fieldl);
            } else {
                Py_XSETREF(fieldl, title);
                Py_INCREF(title);
            }
            path = PyList_GetSlice(titles, 0, depth);
            /* the labels below the Markdown path, where they are not empty */
            if (path && block && PyUnicode_GET_LENGTH(block) && PyList_Append(path, block) < 0) Py_CLEAR(path);
            if (path && fieldl && PyUnicode_GET_LENGTH(fieldl) && PyList_Append(path, fieldl) < 0) Py_CLEAR(path);
        }
        Py_DECREF(title);
        if (!path || starts_put(&s, at, path, body) < 0) goto done;
        last_end = line_end;
        continue;
    title_fail:
        Py_DECREF(title);
        goto done;
    }
    Py_ssize_t n = st->n, first = s.n && s.at[0] == 0 ? 0 : -1; /* -1: a section from 0 with no heading first */
    out = PyList_New(0);
    Py_ssize_t carry = -1; /* with attach: the start of the sections before that are their heading alone */
    for (Py_ssize_t k = first; out && k < s.n; k++) {
        Py_ssize_t a = k < 0 ? 0 : s.at[k], e = k + 1 < s.n ? s.at[k + 1] : n;
        if (e <= a) continue;
        Py_ssize_t body = k < 0 ? 0 : (s.body[k] < e ? s.body[k] : e);
        if (carry >= 0) a = carry, carry = -1;
        if (attach && k >= 0 && e < n && PyList_GET_SIZE(s.path[k]) && body >= e) { /* not the last */
            carry = a;
            continue;
        }
        PyObject *path = k < 0 ? PyList_New(0) : s.path[k];
        if (k >= 0) Py_INCREF(path);
        PyObject *sec = path ? new_section(a, e, path, body) : NULL;
        Py_XDECREF(path);
        if (!sec || PyList_Append(out, sec) < 0) Py_CLEAR(out);
        Py_XDECREF(sec);
    }
    if (out && !PyList_GET_SIZE(out)) { /* an empty text: one empty section */
        PyObject *path = PyList_New(0), *sec = path ? new_section(0, n, path, 0) : NULL;
        Py_XDECREF(path);
        if (!sec || PyList_Append(out, sec) < 0) Py_CLEAR(out);
        Py_XDECREF(sec);
    }
done:
    for (Py_ssize_t k = 0; k < s.n; k++) Py_DECREF(s.path[k]);
    PyMem_Free(s.at);
    PyMem_Free(s.body);
    PyMem_Free(s.path);
    PyMem_Free(levels);
    Py_XDECREF(titles);
    Py_XDECREF(block);
    Py_XDECREF(fieldl);
    return out;
}

static PyObject *sections_of(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs < 4 || nargs > 6 || !PyUnicode_Check(args[0]) || !PyList_Check(args[1]) ||
        !(PyCallable_Check(args[3]) || (PyTuple_Check(args[3]) && PyTuple_GET_SIZE(args[3]) &&
                                         PyCallable_Check(PyTuple_GET_ITEM(args[3], 0)))) ||
        (nargs >= 5 && args[4] != Py_None && !PyTuple_Check(args[4]))) {
        PyErr_SetString(PyExc_TypeError, "sections_of(text: str, heads: list, known: bool, read: callable | tuple, "
                                         "labels: tuple | None = None, attach: bool = False)");
        return NULL;
    }
    int attach = nargs == 6 ? PyObject_IsTrue(args[5]) : 0;
    if (attach < 0) return NULL;
    PyObject *labels = nargs >= 5 && args[4] != Py_None ? args[4] : NULL;
    if (sections_ready(labels) < 0) return NULL;
    int known = PyObject_IsTrue(args[2]);
    Py_ssize_t nh = 0, *heads = known < 0 ? NULL : int_array(args[1], &nh);
    Reader reader = {args[3], NULL, NULL, NULL, NULL};
    PyObject *out = heads ? sections_from(args[0], heads, nh, known, labels, &reader, attach) : NULL;
    PyMem_Free(heads);
    Py_XDECREF(reader.made);
    return out;
}

/* Whether the section a..b is one chunk of its text alone: not empty, at most size, not
   starting in a table's body (t_starts / t_ends: the bodies' spans); -1 with an error set. */
static int one_chunk_at(Py_ssize_t a, Py_ssize_t b, Py_ssize_t size, PyObject *t_starts, PyObject *t_ends) {
    if (!(a < b && b - a <= size)) return 0;
    if (!PyList_GET_SIZE(t_starts)) return 1;
    Py_ssize_t t = index_after(t_starts, a) - 1;
    int inside = t >= 0 && a < item_at(t_ends, t);
    return PyErr_Occurred() ? -1 : !inside;
}

/* one_chunk_run(starts, ends, k, size, t_starts, t_ends) -> section_runs.one_chunk_run's index:
   the first section from k on that is empty, longer than size, or starts in a table's body. */
static PyObject *one_chunk_run(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6 || !PyList_Check(args[0]) || !PyList_Check(args[1]) || !PyLong_Check(args[2]) ||
        !PyLong_Check(args[3]) || !PyList_Check(args[4]) || !PyList_Check(args[5]) ||
        PyList_GET_SIZE(args[1]) < PyList_GET_SIZE(args[0]) || PyList_GET_SIZE(args[5]) < PyList_GET_SIZE(args[4])) {
        PyErr_SetString(PyExc_TypeError,
                        "one_chunk_run(starts: list, ends: list, k: int, size: int, t_starts: list, t_ends: list), "
                        "ends as long as starts, t_ends as t_starts");
        return NULL;
    }
    PyObject *starts = args[0], *ends = args[1], *t_starts = args[4], *t_ends = args[5];
    Py_ssize_t k = PyLong_AsSsize_t(args[2]), size = PyLong_AsSsize_t(args[3]), n = PyList_GET_SIZE(starts);
    if (PyErr_Occurred()) return NULL;
    for (k = k < 0 ? 0 : k; k < n; k++) {
        Py_ssize_t a = item_at(starts, k), b = item_at(ends, k);
        if (PyErr_Occurred()) return NULL;
        if (one_chunk_at(a, b, size, t_starts, t_ends) != 1) break;
    }
    if (PyErr_Occurred()) return NULL;
    return PyLong_FromSsize_t(k);
}

/* A section's start or end (field k: 0 or 1) as a number; -1 with an error set. */
static Py_ssize_t section_position(PyObject *sec, int k) {
    PyObject *v = section_field(sec, k);
    if (!v) return -1;
    Py_ssize_t x = PyLong_AsSsize_t(v);
    Py_DECREF(v);
    return x;
}

/* what matches_at_lines makes of a match from the line start p to e (mid: where a table's
   body begins): (start, end) or (start, mid, end) in nl_text's positions (the text's, plus
   one) as the patterns give them, or an atom in the text's positions: a table's
   (table_atoms_from), a code block's (code_atoms) */
enum { ROW_SPAN, ROW_MID, ROW_ATOM, ROW_CODE };

static PyObject *match_row(PyObject *text, State *st, int form, Py_ssize_t p, Py_ssize_t mid, Py_ssize_t e) {
    if (form == ROW_SPAN) return Py_BuildValue("(nn)", p + 1, e + 1);
    if (form == ROW_MID) return Py_BuildValue("(nnn)", p + 1, mid + 1, e + 1);
    if (form == ROW_CODE) {
        Py_INCREF(s_empty);
        return new_atom(p, e, s_code, 0, s_empty);
    }
    PyObject *header = PyUnicode_Substring(text, p, mid);
    return header ? new_atom(border_above(st, p), e, s_table, mid, header) : NULL;
}

/* the matches of match at the lines that start at lines, as structure.line_matches takes
   them: in order, none starting inside the one before; each as match_row makes it */
static PyObject *matches_at_lines(PyObject *args, LineMatch match, int form) {
    PyObject *text, *lines;
    if (!PyArg_ParseTuple(args, "UO!", &text, &PyList_Type, &lines)) return NULL;
    State state, *st = &state;
    start_state(st, text, 0, 0);
    Py_ssize_t end = 0, mid = 0;
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(lines); k++) {
        Py_ssize_t p = item_at(lines, k);
        if (p == -1 && PyErr_Occurred()) goto fail;
        if (p < end || !line_start_at(st, p)) continue;
        Py_ssize_t e = match(text, st, p, &mid);
        if (e == -2) goto fail;
        if (e < 0) continue;
        PyObject *row = match_row(text, st, form, p, mid, e);
        if (!row || PyList_Append(out, row) < 0) {
            Py_XDECREF(row);
            goto fail;
        }
        Py_DECREF(row);
        end = e + 1; /* in nl_text, as p */
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* md_tables(text, lines) -> [(start, body_start, end)]: the Markdown tables (a header row, a
   delimiter row, then body rows) at the lines that start at lines, in nl_text's positions */
static PyObject *md_tables(PyObject *self, PyObject *args) { return matches_at_lines(args, table_at, ROW_MID); }

/* table_atoms_from(text, tables) -> [Atom]: the atoms of the tables structure_lines found
   ([start, body start, end, ...]; md_tables' tables) as atoms._bordered makes them, in the
   text's positions (not nl_text's): the start moved up to a grid table's top border, and the
   header rows' text. */
static PyObject *table_atoms_from(PyObject *self, PyObject *args) {
    PyObject *text, *tables;
    if (!PyArg_ParseTuple(args, "UO!", &text, &PyList_Type, &tables)) return NULL;
    State state, *st = &state;
    start_state(st, text, 0, 0);
    Py_ssize_t m = PyList_GET_SIZE(tables);
    if (m % 3) {
        PyErr_SetString(PyExc_ValueError, "table_atoms_from: tables must be (start, body start, end) triples");
        return NULL;
    }
    PyObject *out = PyList_New(m / 3);
    for (Py_ssize_t k = 0; out && k < m / 3; k++) {
        Py_ssize_t p = item_at(tables, 3 * k), mid = item_at(tables, 3 * k + 1), e = item_at(tables, 3 * k + 2);
        PyObject *atom = NULL;
        if (!PyErr_Occurred() && !(0 <= p && p <= mid && mid <= e && e <= st->n))
            PyErr_Format(PyExc_ValueError, "table_atoms_from: table %zd (%zd, %zd, %zd) is not in the text", k, p, mid, e);
        if (!PyErr_Occurred()) atom = match_row(text, st, ROW_ATOM, p, mid, e);
        if (!atom) Py_CLEAR(out);
        else PyList_SET_ITEM(out, k, atom);
    }
    return out;
}

/* The end of the line at q when it closes a fence of f characters c: at most three spaces,
   exactly f of c, spaces and tabs, then "\n", "\r\n" or the text's end; else -1. */
static Py_ssize_t fence_close_end(State *st, Py_ssize_t q, Py_UCS4 c, Py_ssize_t f) {
    Py_ssize_t n = st->n, j = q;
    while (j < n && j - q < 3 && AT(j) == ' ') j++;
    for (Py_ssize_t i = 0; i < f; i++, j++)
        if (j >= n || AT(j) != c) return -1;
    while (j < n && is_hspace_at(st, j)) j++;
    if (j >= n) return n;
    if (AT(j) == '\n') return j + 1;
    return AT(j) == '\r' && j + 1 < n && AT(j + 1) == '\n' ? j + 2 : -1;
}

/* The end of the fenced block opened at the line q: the fence is at most three spaces in,
   three or more ` or ~; the first later line that closes the same number of them ends it,
   and when none does, the regex's backtracking takes one fewer (down to three) as the
   fence; -1 when the block is not closed. With lines, only the lines lines->v[from..] are
   tried (line_scan's fence lines after q: every line that may close a fence is one). */
static Py_ssize_t fenced_end(PyObject *text, State *st, Py_ssize_t q, const Vec *lines, Py_ssize_t from) {
    Py_ssize_t n = st->n, j = q;
    while (j < n && j - q < 3 && AT(j) == ' ') j++;
    if (j >= n || (AT(j) != '`' && AT(j) != '~')) return -1;
    Py_UCS4 c = AT(j);
    Py_ssize_t run = 0;
    while (j + run < n && AT(j + run) == c) run++;
    if (run < 3) return -1;
    Py_ssize_t nl = PyUnicode_FindChar(text, '\n', j + run, n, 1);
    if (nl < 0) return nl;
    for (Py_ssize_t f = run; f >= 3; f--) {
        if (lines) { /* the lines that may close it: those that may open one */
            for (Py_ssize_t k = from; k < lines->n; k++) {
                Py_ssize_t e = lines->v[k] > nl ? fence_close_end(st, lines->v[k], c, f) : -1;
                if (e >= 0) return e;
            }
            continue;
        }
        for (Py_ssize_t line = nl + 1; line < n;) {
            Py_ssize_t e = fence_close_end(st, line, c, f);
            if (e >= 0) return e;
            Py_ssize_t next = PyUnicode_FindChar(text, '\n', line, n, 1);
            if (next == -2) return -2;
            if (next < 0) break;
            line = next + 1;
        }
    }
    return -1;
}

/* fenced_blocks(text, lines) -> [(start, end)]: the closed code fences at the lines that start
   at lines, in nl_text's positions */
static Py_ssize_t fence_at(PyObject *text, State *st, Py_ssize_t q, Py_ssize_t *mid) {
    return fenced_end(text, st, q, NULL, 0);
}

static PyObject *fenced_blocks(PyObject *self, PyObject *args) { return matches_at_lines(args, fence_at, ROW_SPAN); }

/* code_atoms(text, lines) -> [Atom]: fenced_blocks' blocks as atoms, in the text's positions */
static PyObject *code_atoms(PyObject *self, PyObject *args) { return matches_at_lines(args, fence_at, ROW_CODE); }

/* for tests: the fixed character tests against the Python module's own classes (the
   terminator, emote, bracket and glued tests as the searches read them, from the table) */
static PyObject *classes(PyObject *self, PyObject *arg) {
    long v = PyLong_AsLong(arg);
    if (v == -1 && PyErr_Occurred()) return NULL;
    Py_UCS4 c = (Py_UCS4)v;
    return Py_BuildValue("(iiiiiiiiiii)", IS_TERM(c) != 0, is_break(c), is_hspace(c), surely_no_extend(c),
                         is_kanji_kana(c), IS_EMOTE_HINT(c) != 0, IS_BRACKET(c) != 0, IS_GLUED_FIRST(c) != 0,
                         IS_EMOTE_START(c) != 0, rx_digit(c), rx_space(c));
}

/* for tests: the soft-wrap tests' character classes (wide as -1 where not known here) */
static PyObject *soft_classes(PyObject *self, PyObject *arg) {
    long v = PyLong_AsLong(arg);
    if (v == -1 && PyErr_Occurred()) return NULL;
    Py_UCS4 c = (Py_UCS4)v;
    return Py_BuildValue("(iiiiiiiiii)", wide_of(c), is_hira(c), is_kata(c), is_han(c), maybe_han(c), is_wrap_term(c),
                         is_wrap_closer(c), is_strong_bullet(c), is_ja_particle_end(c), is_any_digit(c));
}

/* token_ends(tokens, starts) -> the running sum of starts[token] over tokens, as bytes of
   native 64-bit integers (array('q') takes them with one copy): the character offset where
   each token ends (starts: one byte per token id, how many characters start inside its
   bytes). The tokenizer's list of ids read once; no Python int is made per token. */
static PyObject *token_ends(PyObject *self, PyObject *args) {
    PyObject *tokens;
    Py_buffer table;
    if (!PyArg_ParseTuple(args, "O!y*", &PyList_Type, &tokens, &table))
        return NULL;
    const unsigned char *starts = (const unsigned char *)table.buf;
    Py_ssize_t n = PyList_GET_SIZE(tokens), size = table.len;
    PyObject *out = PyBytes_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(long long));
    if (out == NULL) {
        PyBuffer_Release(&table);
        return NULL;
    }
    long long *ends = (long long *)PyBytes_AS_STRING(out), sum = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        long long id = PyLong_AsLongLong(PyList_GET_ITEM(tokens, i));
        if (id < 0 || id >= size) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "token_ends: token %lld at %zd is not in the table", id, i);
            Py_DECREF(out);
            PyBuffer_Release(&table);
            return NULL;
        }
        sum += starts[id];
        ends[i] = sum;
    }
    PyBuffer_Release(&table);
    return out;
}

/* the first index whose value is greater than x (bisect_right) */
static Py_ssize_t after_all(const Py_ssize_t *a, Py_ssize_t len, Py_ssize_t x) {
    Py_ssize_t lo = 0, hi = len;
    while (lo < hi) {
        Py_ssize_t mid = (lo + hi) / 2;
        if (x < a[mid]) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

/* the first index whose value is x or greater (bisect_left) */
static Py_ssize_t first_at(const Py_ssize_t *a, Py_ssize_t len, Py_ssize_t x) {
    Py_ssize_t lo = 0, hi = len;
    while (lo < hi) {
        Py_ssize_t mid = (lo + hi) / 2;
        if (a[mid] < x) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* A token index (TokenIndexMeasure.ends, an array('q') of where each token ends) read in
   place, and the length of its text. */
typedef struct {
    const long long *a;
    Py_ssize_t len, n;
} Ends;

/* the token index ends (an array('q')) as t, its buffer held in view (release it); -1 with
   an error set naming who asked */
static int ends_view(PyObject *obj, Py_buffer *view, Ends *t, Py_ssize_t n, const char *who) {
    if (PyObject_GetBuffer(obj, view, PyBUF_FORMAT) < 0) return -1;
    if (view->itemsize != (Py_ssize_t)sizeof(long long) || !view->format || strcmp(view->format, "q") != 0) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_TypeError, "%s: ends must be an array('q')", who);
        return -1;
    }
    t->a = (const long long *)view->buf;
    t->len = view->len / (Py_ssize_t)sizeof(long long);
    t->n = n;
    return 0;
}

static Py_ssize_t ends_after(const Ends *t, long long x) { /* bisect_right */
    Py_ssize_t lo = 0, hi = t->len;
    while (lo < hi) {
        Py_ssize_t mid = lo + (hi - lo) / 2;
        if (x < t->a[mid]) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

static Py_ssize_t ends_reach(const Ends *t, Py_ssize_t start, Py_ssize_t budget) { /* TokenIndexMeasure.reach */
    Py_ssize_t i = ends_after(t, start) + budget - 1;
    return i >= t->len ? t->n : (Py_ssize_t)t->a[i];
}

static Py_ssize_t ends_before(const Ends *t, long long x) { /* bisect_left */
    Py_ssize_t lo = 0, hi = t->len;
    while (lo < hi) {
        Py_ssize_t mid = lo + (hi - lo) / 2;
        if (t->a[mid] < x) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static Py_ssize_t ends_estimate(const Ends *t, Py_ssize_t start, Py_ssize_t end) { /* TokenIndexMeasure.estimate */
    if (end <= start) return 0;
    Py_ssize_t i = ends_before(t, end) + 1;
    return (i < t->len ? i : t->len) - ends_after(t, start);
}

/* ends_right(ends, x) and ends_left(ends, x): bisect_right and bisect_left over a token
   index kept as 64-bit integers (array('q')), read in place; bisect itself makes a Python
   int of every element it looks at. */
static PyObject *ends_bisect(PyObject *const *args, Py_ssize_t nargs, int right) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "ends_right/ends_left take (ends, x)");
        return NULL;
    }
    long long x = PyLong_AsLongLong(args[1]);
    if (x == -1 && PyErr_Occurred()) return NULL;
    Py_buffer view;
    Ends t;
    if (ends_view(args[0], &view, &t, 0, right ? "ends_right" : "ends_left") < 0) return NULL;
    Py_ssize_t at = right ? ends_after(&t, x) : ends_before(&t, x);
    PyBuffer_Release(&view);
    return PyLong_FromSsize_t(at);
}
static PyObject *ends_right(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    return ends_bisect(args, nargs, 1);
}
static PyObject *ends_left(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    return ends_bisect(args, nargs, 0);
}

/* count(s, e) <= budget: 1, 0, or -1 with an error set */
static int token_fits(PyObject *count, Py_ssize_t s, Py_ssize_t e, Py_ssize_t budget) {
    PyObject *got = PyObject_CallFunction(count, "nn", s, e);
    if (!got) return -1;
    Py_ssize_t v = PyLong_AsSsize_t(got);
    Py_DECREF(got);
    if (v == -1 && PyErr_Occurred()) return -1;
    return v <= budget;
}

/* PackerSizes._largest_fitting over cands[0:m] with the index's last_within: the index of the
   largest that fits, -1 for none, -2 on an error */
static Py_ssize_t token_largest(const Ends *t, PyObject *count, Py_ssize_t s, const Py_ssize_t *cands, Py_ssize_t m,
                                Py_ssize_t budget) {
    if (m <= 0) return -1;
    Py_ssize_t j, k = budget + ends_after(t, s) - 1; /* TokenIndexMeasure.last_within */
    if (k >= t->len - 1) j = m - 1;
    else if (k < 0) j = -1;
    else j = after_all(cands, m, (Py_ssize_t)t->a[k]) - 1;
    if (j < 0) j = 0;
    int ok = token_fits(count, s, cands[j], budget);
    if (ok < 0) return -2;
    if (ok) {
        while (j + 1 < m && ends_estimate(t, s, cands[j + 1]) <= budget + 3) {
            ok = token_fits(count, s, cands[j + 1], budget);
            if (ok < 0) return -2;
            if (!ok) break;
            j++;
        }
        return j;
    }
    while (j > 0) {
        j--;
        ok = token_fits(count, s, cands[j], budget);
        if (ok < 0) return -2;
        if (ok) return j;
    }
    return -1;
}

/* token_lines._windows: the window's generous end (PackerSizes._reach: BPE counts at the
   edges differ from the index) and near, where the index predicts the budget runs out */
static void token_window(const Ends *t, Py_ssize_t s, Py_ssize_t lo, Py_ssize_t size, Py_ssize_t *hi,
                         Py_ssize_t *near) {
    *hi = size <= 0 ? s : ends_reach(t, s, size + 8) + 16;
    if (*hi > t->n) *hi = t->n;
    *near = s + (ends_reach(t, s, size) - s) * 3 / 4;
    if (*near < lo) *near = lo;
}

/* token_lines._farthest: the index of the farthest of cands[0:m] that fits, looked for past
   near first (near > lo), then among all; -1 for none, -2 on an error */
static Py_ssize_t token_farthest(const Ends *t, PyObject *count, Py_ssize_t s, Py_ssize_t lo, Py_ssize_t near,
                                 const Py_ssize_t *cands, Py_ssize_t m, Py_ssize_t size) {
    if (near > lo) {
        Py_ssize_t first = after_all(cands, m, near);
        Py_ssize_t j = token_largest(t, count, s, cands + first, m - first, size);
        if (j != -1) return j < 0 ? j : first + j;
    }
    return token_largest(t, count, s, cands, m, size);
}

/* Packer._balanced for an end e at the paragraph level, in tokens with no prefix: where what
   is left from s needs 2 to tail budgets, the first paragraph cut from the even share on
   (past lo) that fits, else e. 0, or -1 with an error set. */
static int token_balanced(const Ends *t, PyObject *paras, PyObject *count, Py_ssize_t s, Py_ssize_t lo,
                          Py_ssize_t size, Py_ssize_t tail, Py_ssize_t *e) {
    Py_ssize_t rest = ends_estimate(t, s, t->n), k = (rest + size - 1) / size;
    if (k < 2 || k > tail) return 0;
    Py_ssize_t share = (rest + k - 1) / k, at = ends_reach(t, s, share + 8) + 16; /* Packer._reach */
    if (at > t->n) at = t->n;
    if (at < lo + 1) at = lo + 1;
    if (at >= *e) return 0;
    Py_ssize_t j = index_after(paras, at - 1); /* bisect_left(paras, at) */
    if (PyErr_Occurred()) return -1;
    if (j >= PyList_GET_SIZE(paras)) return 0;
    Py_ssize_t c = PyLong_AsSsize_t(PyList_GET_ITEM(paras, j));
    if (c == -1 && PyErr_Occurred()) return -1;
    if (c > *e) return 0;
    int ok = token_fits(count, s, c, size);
    if (ok < 0) return -1;
    if (ok) *e = c;
    return 0;
}

/* token_para_end(ends, paras, n, s, lo, size, count, balance_from, tail) -> token_lines._end's
   paragraph level for a packer in tokens with no prefix: the farthest paragraph cut in the
   window from lo (the text's end counted as one) whose count(s, cut) is within size, looked
   for where the index predicts the budget runs out first (the near window), then in the
   whole window, and from balance_from on balanced as Packer._balanced does (tail: its
   BALANCED_TAIL); -1 where none fits, -2 where the window has no paragraph cut (the finer
   levels are Python's). ends: the token index (array('q')), paras: the paragraph cuts (a
   sorted list of ints), count(s, e): the packer's exact count. The estimates read the index
   in place. */
static PyObject *token_para_end(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError,
                        "token_para_end takes (ends, paras, n, s, lo, size, count, balance_from, tail)");
        return NULL;
    }
    PyObject *paras = args[1], *count = args[6];
    if (!PyList_Check(paras)) {
        PyErr_SetString(PyExc_TypeError, "token_para_end: paras must be a list");
        return NULL;
    }
    Py_ssize_t n = PyLong_AsSsize_t(args[2]), s = PyLong_AsSsize_t(args[3]), lo = PyLong_AsSsize_t(args[4]),
               size = PyLong_AsSsize_t(args[5]), balance_from = PyLong_AsSsize_t(args[7]),
               tail = PyLong_AsSsize_t(args[8]);
    if (PyErr_Occurred()) return NULL;
    Py_buffer view;
    Ends t;
    if (ends_view(args[0], &view, &t, n, "token_para_end") < 0) return NULL;
    Py_ssize_t result = -1, *cuts = NULL, hi, near, a, b;
    token_window(&t, s, lo, size, &hi, &near);
    if (hi <= lo) goto done;
    window_range(paras, lo, hi, &a, &b); /* the paragraph cuts in (lo, hi] */
    if (PyErr_Occurred()) goto fail;
    Py_ssize_t m = b - a;
    cuts = PyMem_Malloc((m + 1) * sizeof(Py_ssize_t));
    if (!cuts) {
        PyErr_NoMemory();
        goto fail;
    }
    for (Py_ssize_t k = 0; k < m; k++) cuts[k] = item_at(paras, a + k);
    if (PyErr_Occurred()) goto fail;
    if (hi >= n && (m == 0 || cuts[m - 1] != n)) cuts[m++] = n; /* the text's end: the coarsest cut */
    if (m == 0) {
        result = -2;
        goto done;
    }
    Py_ssize_t j = token_farthest(&t, count, s, lo, near, cuts, m, size);
    if (j == -2) goto fail;
    result = j >= 0 ? cuts[j] : -1;
done:
    if (result >= 0 && result < n && s >= balance_from &&
        token_balanced(&t, paras, count, s, lo, size, tail, &result) < 0)
        goto fail;
    PyMem_Free(cuts);
    PyBuffer_Release(&view);
    return PyLong_FromSsize_t(result);
fail:
    PyMem_Free(cuts);
    PyBuffer_Release(&view);
    return NULL;
}

/* span_count(text, ends, start, end, head, count, short) -> token_index.TiktokenMeasure.count:
   count(head + text[start:end]) from the index between the first cut-safe position from
   start and the last one before end (its _CUT_SAFE), the stretches outside them counted
   by count (the tokenizer's), a span up to short long counted whole. The positions are
   tested here as the pattern tests them (a test compares every character with it). */
static int cut_letter(Py_UCS4 c) { /* _CUT_SAFE's letters and digits, by stable ranges */
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c >= 0x3041 && c <= 0x3096) ||
           (c >= 0x309D && c <= 0x309F) || (c >= 0x30A1 && c <= 0x30FA) || (c >= 0x30FC && c <= 0x30FF) ||
           (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xFF10 && c <= 0xFF19) || (c >= 0xFF21 && c <= 0xFF3A) ||
           (c >= 0xFF41 && c <= 0xFF5A);
}

static int cut_punct(Py_UCS4 c) { /* CJK and ASCII punctuation, no apostrophe */
    switch (c) {
    case 0x3001: case 0x3002: case 0xFF0C: case 0xFF0E: case 0xFF01: case 0xFF1F: case 0x300C: case 0x300D:
    case 0x300E: case 0x300F: case 0xFF08: case 0xFF09: case 0x3010: case 0x3011: case 0x3008: case 0x3009:
    case 0x300A: case 0x300B: case 0x3014: case 0x3015: case 0x30FB: case 0xFF1A: case 0xFF1B: case 0x2026:
    case ',': case '.': case '!': case '?': case ';': case ':': case '(': case ')': case '[': case ']': case '"':
        return 1;
    default:
        return 0;
    }
}

/* _CUT_SAFE matches at p with the text ending at stop (its lookahead reads no further) */
static int cut_safe_at(const State *st, Py_ssize_t p, Py_ssize_t stop) {
    if (p < 1 || p >= stop) return 0;
    Py_UCS4 a = AT(p - 1), b = AT(p);
    if (b == ' ' && !Py_UNICODE_ISSPACE(a)) return 1;
    if (a == '\n' && b != '/' && !Py_UNICODE_ISSPACE(b)) return 1;
    return cut_letter(a) && cut_punct(b);
}

/* count(head + text[a:b]) as an int (head NULL: none); -1 with an error set */
static Py_ssize_t count_piece(PyObject *count, PyObject *head, PyObject *text, Py_ssize_t a, Py_ssize_t b) {
    PyObject *piece = PyUnicode_Substring(text, a, b);
    if (!piece) return -1;
    if (head && PyUnicode_GET_LENGTH(head)) {
        PyObject *joined = PyUnicode_Concat(head, piece);
        Py_DECREF(piece);
        if (!joined) return -1;
        piece = joined;
    }
    PyObject *got = PyObject_CallOneArg(count, piece);
    Py_DECREF(piece);
    if (!got) return -1;
    Py_ssize_t v = PyLong_AsSsize_t(got);
    Py_DECREF(got);
    return v;
}

/* for tests: cut_safe_at */
static PyObject *cut_safe(PyObject *self, PyObject *args) {
    PyObject *text;
    Py_ssize_t p, stop;
    if (!PyArg_ParseTuple(args, "Unn", &text, &p, &stop)) return NULL;
    State state, *st = &state;
    start_state(st, text, 0, 0);
    if (stop > st->n) stop = st->n;
    return PyBool_FromLong(cut_safe_at(st, p, stop));
}

static PyObject *span_count(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 7 || !PyUnicode_Check(args[0]) || !PyUnicode_Check(args[4])) {
        PyErr_SetString(PyExc_TypeError, "span_count(text, ends, start, end, head, count, short)");
        return NULL;
    }
    PyObject *text = args[0], *head = args[4], *count = args[5];
    Py_ssize_t start = PyLong_AsSsize_t(args[2]), end = PyLong_AsSsize_t(args[3]), short_ = PyLong_AsSsize_t(args[6]);
    if (PyErr_Occurred()) return NULL;
    State state, *st = &state;
    start_state(st, text, 0, 0);
    Py_ssize_t n = st->n;
    if (start < 0 || end < start || end > n) {
        PyErr_SetString(PyExc_ValueError, "span_count: 0 <= start <= end <= len(text)");
        return NULL;
    }
    Py_buffer view;
    Ends t;
    if (ends_view(args[1], &view, &t, n, "span_count") < 0) return NULL;
    int with_head = PyUnicode_GET_LENGTH(head) > 0, from_start = start == 0 && !with_head, to_end = end == n;
    Py_ssize_t total = -1;
    if (from_start && to_end) {
        total = t.len;
        goto done;
    }
    if (end - start <= short_) { /* a short span: counted */
        total = count_piece(count, head, text, start, end);
        goto done;
    }
    Py_ssize_t p1 = 0;
    if (!from_start) { /* the first cut-safe position from start (past it with a head) */
        p1 = -1;
        for (Py_ssize_t p = with_head ? start + 1 : start; p < end; p++)
            if (cut_safe_at(st, p, end)) {
                p1 = p;
                break;
            }
        if (p1 < 0) {
            total = count_piece(count, head, text, start, end);
            goto done;
        }
    }
    Py_ssize_t p2 = to_end || cut_safe_at(st, end, n) ? end : p1, window = 16;
    while (p2 == p1 && end - window > p1) { /* the last one before end, looked for ever wider */
        for (Py_ssize_t p = end - window; p < end; p++)
            if (cut_safe_at(st, p, end)) p2 = p;
        window *= 8;
    }
    Py_ssize_t first = 0, last = 0;
    if (p1 > start || with_head) first = count_piece(count, head, text, start, p1);
    if (first < 0) goto done;
    if (p2 < end && (last = count_piece(count, NULL, text, p2, end)) < 0) goto done;
    total = first + (ends_after(&t, p2) - ends_after(&t, p1)) + last;
done:
    PyBuffer_Release(&view);
    if (total < 0 && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "span_count: count gave a negative number");
    return total < 0 ? NULL : PyLong_FromSsize_t(total);
}

/* token_sentence_end(text, paras, memo, lower_text, line_start, firsts, ends, s, lo, size, count)
   -> (end, level) or -1 / -3

   token_lines._end's line and sentence levels, for a window from lo with no paragraph cut
   that lost its lines (no newline near it, no glued row): the farthest sentence
   cut where a line evidently begins that count(s, cut) says fits, else the farthest sentence
   cut that fits, each looked for in the near window first as token_para_end does; level 1 for
   the line, 2 for the sentence. The cuts come from the paragraph's memo as sentence_end_at
   reads them, line_start(p) is asked where line_starts.may_start_line holds. -1 where Python
   must look (the text's end within reach, a newline's cut in the window, a glued row in
   either window, the window empty); -4 where the memo lacks the paragraph or the text's case
   is not known (Python learns it and asks again); -3 where no cut of either level fits (the
   finer levels are Python's). A newline just before the window (a long paragraph's first
   chunk) or a glued row's mark with no glued row found changes nothing: the line level's
   cuts are then the sentence ends where a line evidently begins, as without them. */
static PyObject *token_sentence_end(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 11 || !PyUnicode_Check(args[0]) || !PyList_Check(args[1]) || !PyDict_Check(args[2]) ||
        !PyUnicode_Check(args[5])) {
        PyErr_SetString(PyExc_TypeError,
                        "token_sentence_end(text, paras, memo, lower_text, line_start, firsts, ends, s, lo, size, count)");
        return NULL;
    }
    PyObject *text = args[0], *count = args[10];
    Py_ssize_t size = PyLong_AsSsize_t(args[9]);
    SentenceEnds se = {text, args[1], args[2], args[4], line_firsts(args[5]), PyLong_AsLong(args[3]), size, 0};
    Py_ssize_t s = PyLong_AsSsize_t(args[7]), lo = PyLong_AsSsize_t(args[8]);
    if (!se.first || PyErr_Occurred()) return NULL;
    State state, *st = &state;
    start_state(st, text, 0, 0);
    Py_ssize_t n = st->n;
    Py_buffer view;
    Ends t;
    if (ends_view(args[6], &view, &t, n, "token_sentence_end") < 0) return NULL;
    PyObject *cuts = NULL, *merged = NULL, *out = NULL;
    Py_ssize_t *sent = NULL, *lines = NULL, a = 0, b = 0, result = -1, level = 0;
    Py_ssize_t hi, near;
    token_window(&t, s, lo, size, &hi, &near);
    if (hi <= lo || hi >= n) goto done; /* the text's end: the paragraph level's */
    /* no newline's cut in the window (newlines.no_newline_cut: no "\n" in [lo, hi), and at lo
       no character onto whose end the cut of a run ending there would move) */
    Py_ssize_t newline = PyUnicode_FindChar(text, '\n', lo, hi, 1);
    if (newline == -2) goto fail;
    if (newline >= 0 || !surely_no_extend(AT(lo))) goto done;
    /* no glued row in the windows the search looks in, the near one and the whole
       (glued.glued_line_cuts of each; where no mark is near, glued_near says none) */
    if (glued_mark_in(st, lo > 16 ? lo - 16 : 0, hi + 16 < n ? hi + 16 : n)) {
        for (int k = near > lo ? 0 : 1; k < 2; k++) {
            PyObject *rows = glued_rows(st, k ? lo : near, hi);
            if (!rows) goto fail;
            int none = rows != Py_None && PyList_GET_SIZE(rows) == 0;
            Py_DECREF(rows);
            if (!none) goto done;
        }
    }
    int got = memo_window(&se, lo, hi, &cuts, &a, &b, &merged);
    if (got < 0) goto fail;
    if (got == 0) {
        result = -4;
        goto done;
    }
    Py_ssize_t m = b - a, nl = 0;
    if (m == 0) {
        result = -3;
        goto done;
    }
    sent = PyMem_Malloc(m * sizeof(Py_ssize_t));
    lines = PyMem_Malloc(m * sizeof(Py_ssize_t));
    if (!sent || !lines) {
        PyErr_NoMemory();
        goto fail;
    }
    for (Py_ssize_t k = 0; k < m; k++) {
        PyObject *item = PyList_GET_ITEM(cuts, a + k);
        sent[k] = PyLong_AsSsize_t(item);
        if (sent[k] == -1 && PyErr_Occurred()) goto fail;
        int yes = line_start_cut(st, se.first, se.line_start, item); /* Boundaries.line_starts_among */
        if (yes < 0) goto fail;
        if (yes) lines[nl++] = sent[k];
    }
    result = -3; /* the line level, then the sentence level */
    for (int lv = 1; lv <= 2 && result == -3; lv++) {
        const Py_ssize_t *c = lv == 1 ? lines : sent;
        Py_ssize_t j = token_farthest(&t, count, s, lo, near, c, lv == 1 ? nl : m, size);
        if (j == -2) goto fail;
        if (j >= 0) result = c[j], level = lv;
    }
done:
    out = result >= 0 ? Py_BuildValue("(nn)", result, level) : PyLong_FromSsize_t(result);
fail:
    PyMem_Free(sent);
    PyMem_Free(lines);
    Py_XDECREF(merged);
    PyBuffer_Release(&view);
    return out;
}

/* para_spans(text, paras, size, prefixed, atom_starts, atom_ends, head_starts, head_bodies,
   base_len, vary_starts, vary_ends, plen, balance_from, step, line_next, lines=None) -> spans

   Packer.spans in characters with the paragraph level first and no overlap, for a region
   with atoms, headings or a table prefix (the packer's lists, given as they are): a chunk's
   end is found here where find_end's paragraph search finds it (the region's end, or the
   farthest usable paragraph cut within reach, balanced over the last four budgets) or its
   line level's first look does (the start of the atom the window ends in, on a line of its
   own; line_next: the line is the second end level) or, with lines (a text whose only break
   is "\n"), its farthest hard newline where compiled_packing._line_end finds it, or in the
   last four budgets where that newline (or the atom's start) is balanced over the line cuts
   (pack_line_balanced), and step(start) -> end, the packer's own search, gives it where
   another level must look, no end can be found, or the chunk would be white space alone. */

typedef struct {
    Py_ssize_t n, size, base_len, balance_from;
    int prefixed, line_next, failed; /* line_next: the line is the second end level */
    Py_ssize_t *para, np, *as, *ae, na, *hs, *hb, nh, *vs, *ve, nv;
    PyObject *plen; /* the packer's plen, asked where the prefix holds a table's header */
    const Py_ssize_t *vl; /* or, given, the prefix's size in each vary span (plen not asked) */
    Py_ssize_t asked, answer; /* its last answer (a chunk's start is asked four times) */
    /* with lines (a "\n"-only text): its soft-wrap reading, read once, and the paragraph
       cuts as given (hard_lf_at reads the list) */
    int lines, soft_wraps;
    PyObject *is_soft, *widths, *paras;
    /* or, lazily (section_spans): make(piece, paras) -> (lines, step), called where the line
       level or the packer's search is first needed; made holds its answer */
    PyObject *make, *piece, *made, *step;
} Pack;

static int pack_lines(Pack *p, PyObject *lines, PyObject *paras);

/* p's lines and step from make, the first time they are needed; -1 with an error set */
static int pack_ready(Pack *p) {
    if (!p->make || p->made) return 0;
    PyObject *make = p->make;
    if (PyTuple_Check(make)) { /* (factory, *args): the section's make, made now */
        PyObject *rest = PyTuple_GetSlice(make, 1, PyTuple_GET_SIZE(make));
        make = rest ? PyObject_Call(PyTuple_GET_ITEM(p->make, 0), rest, NULL) : NULL;
        Py_XDECREF(rest);
        if (!make) return -1;
    } else Py_INCREF(make);
    p->made = PyObject_CallFunctionObjArgs(make, p->piece, p->paras, NULL);
    Py_DECREF(make);
    if (!p->made) return -1;
    if (!PyTuple_Check(p->made) || PyTuple_GET_SIZE(p->made) != 2) {
        PyErr_SetString(PyExc_TypeError, "section_spans: make must give (lines, step)");
        return -1;
    }
    p->step = PyTuple_GET_ITEM(p->made, 1);
    return pack_lines(p, PyTuple_GET_ITEM(p->made, 0), p->paras);
}

static Py_ssize_t pack_plen(Pack *p, Py_ssize_t s) { /* Packer.plen; an error sets failed */
    if (!p->prefixed) return 0;
    Py_ssize_t i = after_all(p->vs, p->nv, s) - 1;
    if (i < 0 || s >= p->ve[i]) return p->base_len;
    if (p->vl) return p->vl[i];
    if (s == p->asked) return p->answer;
    PyObject *got = PyObject_CallFunction(p->plen, "n", s);
    Py_ssize_t v = got ? PyLong_AsSsize_t(got) : -1;
    Py_XDECREF(got);
    if (v < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "para_spans: a negative prefix size");
        p->failed = 1;
        return 0;
    }
    p->asked = s;
    return p->answer = v;
}

static Py_ssize_t pack_reach(Pack *p, Py_ssize_t s, Py_ssize_t budget) { /* Packer._reach */
    budget -= pack_plen(p, s);
    if (budget <= 0) return s;
    return s + budget < p->n ? s + budget : p->n;
}

static int pack_blocked(const Pack *p, Py_ssize_t c) { /* Packer._blocked */
    Py_ssize_t i = after_all(p->as, p->na, c - 1) - 1;
    return i >= 0 && c < p->ae[i];
}

static int pack_usable(const Pack *p, Py_ssize_t c, int avoid) { /* Packer._usable */
    if (p->na && pack_blocked(p, c)) return 0;
    if (avoid) {
        Py_ssize_t i = after_all(p->hs, p->nh, c - 1) - 1;
        if (i >= 0 && c <= p->hb[i]) return 0;
    }
    return 1;
}

/* Packer._find_end's paragraph search, and the line level's first look where the window
   ends inside an atom (the atom's start, on a line of its own): the end, or -1 where it
   finds none (None, or the levels below must look); *level: 0 paragraph, 1 line. Without
   overlap a chunk's search must reach past its own start only (find_end's lo is s). */
static Py_ssize_t pack_para_end(Pack *p, PyObject *text, Py_ssize_t s, int avoid, int *level) {
    Py_ssize_t hi = pack_reach(p, s, p->size), edge = -1;
    *level = 0;
    if (p->na && hi < p->n && pack_blocked(p, hi)) hi = edge = p->as[after_all(p->as, p->na, hi - 1) - 1];
    if (hi <= s) return -1;
    if (hi >= p->n) return p->n;
    int free_ = !avoid;
    if (free_ && p->na) { /* Packer._atom_free(lo, hi) */
        Py_ssize_t i = after_all(p->as, p->na, hi - 1) - 1;
        free_ = i < 0 || p->ae[i] <= s + 1;
    }
    for (Py_ssize_t j = after_all(p->para, p->np, hi) - 1; j >= 0 && p->para[j] > s; j--)
        if (free_ || pack_usable(p, p->para[j], avoid)) return p->para[j];
    /* Packer._line_before_atom, asked first at the line level */
    if (edge >= 1 && p->line_next && PyUnicode_READ_CHAR(text, edge - 1) == '\n' && pack_usable(p, edge, avoid)) {
        *level = 1;
        return edge;
    }
    return -1;
}

/* Packer._balanced for an end at the paragraph level */
static Py_ssize_t pack_balanced(Pack *p, Py_ssize_t s, Py_ssize_t e, int avoid) {
    if (e >= p->n) return e;
    Py_ssize_t share = even_share(pack_plen(p, s) + p->n - s, p->size);
    if (!share) return e;
    Py_ssize_t t = s + share < p->n ? s + share : p->n; /* past s: share >= 1 */
    if (t >= e) return e;
    Py_ssize_t stop = after_all(p->para, p->np, e);
    for (Py_ssize_t j = first_at(p->para, p->np, t); j < stop; j++)
        if (pack_usable(p, p->para[j], avoid)) return p->para[j];
    return e;
}

/* text[s:e] is white space alone (find_ink finds nothing there): a chunk the packer looks
   past */
static int white_alone(PyObject *text, Py_ssize_t s, Py_ssize_t e) {
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    while (s < e && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, s))) s++;
    return s >= e;
}

/* compiled_packing._line_end: where the line level decides the end plainly (the line is the
   second end level, no balancing, no paragraph cut, atom or heading near the window), the
   farthest newline of the window that is no soft wrap, when it lies in the window's second
   half and leaves the chunk more than white space; -1 where the packer must look, -2 with an
   error set. For a text whose only line break is "\n" (p->lines). */
static Py_ssize_t pack_line_end(Pack *p, PyObject *text, Py_ssize_t s) {
    if (!p->line_next || s >= p->balance_from) return -1;
    Py_ssize_t hi = pack_reach(p, s, p->size);
    if (p->failed) return -2;
    if (hi >= p->n || hi <= s) return -1;
    if (p->na) { /* not Packer._atom_free(s, hi), or hi inside an atom */
        Py_ssize_t i = after_all(p->as, p->na, hi - 1) - 1;
        if ((i >= 0 && p->ae[i] > s + 1) || pack_blocked(p, hi)) return -1;
    }
    Py_ssize_t i = after_all(p->hb, p->nh, s);
    if (i < p->nh && p->hs[i] < hi) return -1; /* a heading the search would avoid */
    Py_ssize_t j = after_all(p->para, p->np, hi);
    if (j && p->para[j - 1] > s) return -1; /* a paragraph cut the paragraph level left */
    Py_ssize_t got = hard_lf_at(text, s, hi, s + (hi - s) / 2, p->paras, p->soft_wraps, p->is_soft, p->widths);
    if (got <= 0) return got == -2 ? -2 : -1;
    return white_alone(text, s, got) ? -1 : got; /* white space alone: the packer looks past it */
}

/* The end of the run of newlines whose first "\n" is at j, as boundaries' _LINE_LF reads a
   run in a text whose only break is "\n": the "\n", then white space and a "\n", as often
   as they come. */
static Py_ssize_t lf_run_end(const State *st, Py_ssize_t j) {
    Py_ssize_t k = j + 1, n = st->n;
    for (;;) {
        Py_ssize_t m = k;
        while (m < n && AT(m) != '\n' && Py_UNICODE_ISSPACE(AT(m))) m++;
        if (m >= n || AT(m) != '\n') return k;
        k = m + 1;
    }
}

/* The soft-wrap decision (soft_at) for the newline before q, the paragraph holding it
   looked up in the packer's paragraph cuts when it is not the last one's: 1 soft, 0 hard,
   -1 with an error set */
static int pack_soft(Pack *p, PyObject *text, State *st, Py_ssize_t q, Py_ssize_t *pstart, Py_ssize_t *pend,
                     int *fenced) {
    if (q > *pend || q <= *pstart) {
        Py_ssize_t a = after_all(p->para, p->np, q - 1);
        *pstart = a ? p->para[a - 1] : 0, *pend = a < p->np ? p->para[a] : p->n;
        *fenced = -1;
        if (*pstart < 0 || *pend > p->n || *pstart > q - 1 || *pend < q) {
            PyErr_SetString(PyExc_ValueError, "para_spans: paras must be the text's paragraph cuts, in order");
            return -1;
        }
    }
    return soft_at(text, st, q, *pstart, *pend, fenced, p->widths, p->is_soft);
}

/* Packer._balanced for an end e at the line level of a "\n"-only text: the first cut of
   (t - 1, e] that _line_window(t - 1, e, packing) lists (the end of a run of newlines, no
   soft wrap) and that is usable, t the even share's end. With e itself such a cut (checked
   here) the list is the newlines' alone. -1 where the packer must look (e is not one, a cut
   that may move onto a grapheme's end), -2 with an error set. */
static Py_ssize_t pack_line_share(Pack *p, PyObject *text, Py_ssize_t s, Py_ssize_t e) {
    Py_ssize_t share = even_share(pack_plen(p, s) + p->n - s, p->size);
    if (p->failed) return -2;
    Py_ssize_t t = s + share < p->n ? s + share : p->n;
    if (!share || t >= e || e >= p->n) return e;
    State state, *st = &state;
    start_state(st, text, 0, 0);
    /* a run before t whose cut is moved past t - 1 passes over the character at t - 1 */
    if (AT(e - 1) != '\n' || lf_run_end(st, e - 1) != e || !surely_no_extend(AT(t - 1))) return -1;
    Py_ssize_t pstart = -1, pend = -1;
    int fenced = -1, soft = p->soft_wraps ? pack_soft(p, text, st, e, &pstart, &pend, &fenced) : 0;
    if (soft) return soft < 0 ? -2 : -1; /* e is a soft wrap: the window's line cuts are found otherwise */
    if (!pack_usable(p, e, 0)) return -1;
    for (Py_ssize_t j = t - 1;;) {
        j = PyUnicode_FindChar(text, '\n', j, e, 1);
        if (j < 0) return j == -2 ? -2 : -1;
        Py_ssize_t q = lf_run_end(st, j); /* e's run at the latest: q <= e */
        if (q >= e) return e;
        if (!surely_no_extend(AT(q))) return -1;
        soft = p->soft_wraps ? pack_soft(p, text, st, q, &pstart, &pend, &fenced) : 0;
        if (soft < 0) return -2;
        if (!soft && pack_usable(p, q, 0)) return q;
        j = q;
    }
}

/* Packer.find_end(s, s) in the last four budgets where the paragraph level has no end (or
   the line level's first look ends it at an atom's start, e): the line level's farthest
   newline that is no soft wrap, in the window's second half, when it is usable, balanced by
   pack_line_share. -1 where the packer must look, -2 with an error set. For a text whose
   only line break is "\n" (p->lines). */
static Py_ssize_t pack_line_balanced(Pack *p, PyObject *text, Py_ssize_t s, Py_ssize_t e) {
    if (!p->line_next) return -1;
    if (e < 0) {
        Py_ssize_t hi = pack_reach(p, s, p->size);
        if (p->failed) return -2;
        if (hi >= p->n) return -1;
        if (p->na && pack_blocked(p, hi)) hi = p->as[after_all(p->as, p->na, hi - 1) - 1];
        if (hi <= s) return -1;
        e = hard_lf_at(text, s, hi, s + (hi - s) / 2, p->paras, p->soft_wraps, p->is_soft, p->widths);
        if (e <= 0 || !pack_usable(p, e, 0)) return e == -2 ? -2 : -1; /* inside an atom: the packer looks on */
    }
    Py_ssize_t got = pack_line_share(p, text, s, e);
    if (got < 0) return got;
    return white_alone(text, s, got) ? -1 : got; /* white space alone: the packer looks past it */
}

/* Packer.find_end(s, s) where its paragraph search decides, or with p->lines (a "\n"-only
   text) its line level as pack_line_end and pack_line_balanced read it; -1 where the packer
   must look, -2 with an error set */
static Py_ssize_t pack_find_end(Pack *p, PyObject *text, Py_ssize_t s) {
    Py_ssize_t i = after_all(p->hb, p->nh, s);
    int avoid = i < p->nh && p->hs[i] < pack_reach(p, s, p->size);
    int level;
    Py_ssize_t e = pack_para_end(p, text, s, avoid, &level);
    int balanced = s >= p->balance_from;
    if (e < 0 || (level && balanced)) { /* the line level's (balanced over line cuts) */
        if (pack_ready(p) < 0) return -2;
        if (!p->lines || avoid) return -1;
        return balanced ? pack_line_balanced(p, text, s, e) : pack_line_end(p, text, s);
    }
    if (balanced) e = pack_balanced(p, s, e, avoid);
    return white_alone(text, s, e) ? -1 : e; /* white space alone: the packer looks past it */
}

/* The packer's spans of p's text: each end where pack_find_end finds it, else step(start)
   (the packer's own search). NULL with an error set. Searched as Python's bisect searches:
   the same answers, sorted or not. */
static PyObject *pack_run(Pack *p, PyObject *text, PyObject *step) {
    PyObject *spans = PyList_New(0);
    if (!spans) return NULL;
    Py_ssize_t s = 0, e = 0;
    while (e < p->n) {
        Py_ssize_t next = pack_find_end(p, text, e);
        if (p->failed || next == -2) goto fail;
        if (next < 0) { /* the packer's search */
            if (pack_ready(p) < 0) goto fail;
            PyObject *got = PyObject_CallFunction(p->step ? p->step : step, "n", e);
            if (!got) goto fail;
            next = PyLong_AsSsize_t(got);
            Py_DECREF(got);
            if (next == -1 && PyErr_Occurred()) goto fail;
        }
        if (next <= e) {
            PyErr_Format(PyExc_ValueError, "para_spans: no progress at %zd", e);
            goto fail;
        }
        s = e, e = next;
        Py_ssize_t size = pack_plen(p, s) + e - s;
        if (p->failed || append_span(spans, s, e, size) < 0) goto fail;
    }
    return spans;
fail:
    Py_DECREF(spans);
    return NULL;
}

/* p's lines from (soft_wraps, is_soft, widths: dict) or None; -1 with an error set */
static int pack_lines(Pack *p, PyObject *lines, PyObject *paras) {
    if (lines == Py_None) return 0;
    if (!(PyTuple_Check(lines) && PyTuple_GET_SIZE(lines) == 3 && PyCallable_Check(PyTuple_GET_ITEM(lines, 1)) &&
          PyDict_Check(PyTuple_GET_ITEM(lines, 2)))) {
        PyErr_SetString(PyExc_TypeError, "para_spans: lines must be None or (soft_wraps, is_soft, widths: dict)");
        return -1;
    }
    p->lines = 1, p->paras = paras; /* read once: every line-level end asks it */
    p->is_soft = PyTuple_GET_ITEM(lines, 1), p->widths = PyTuple_GET_ITEM(lines, 2);
    p->soft_wraps = PyObject_IsTrue(PyTuple_GET_ITEM(lines, 0));
    return p->soft_wraps < 0 ? -1 : 0;
}

/* a list of ints as an array (PyMem_Free it); NULL with an error set */
static Py_ssize_t *int_array(PyObject *list, Py_ssize_t *len) {
    if (!PyList_Check(list)) {
        PyErr_SetString(PyExc_TypeError, "a list of ints expected");
        return NULL;
    }
    Py_ssize_t m = PyList_GET_SIZE(list);
    Py_ssize_t *a = PyMem_Malloc((m ? m : 1) * sizeof(Py_ssize_t));
    if (!a) {
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t k = 0; k < m; k++) {
        a[k] = PyLong_AsSsize_t(PyList_GET_ITEM(list, k));
        if (a[k] == -1 && PyErr_Occurred()) {
            PyMem_Free(a);
            return NULL;
        }
    }
    *len = m;
    return a;
}

static PyObject *para_spans(PyObject *self, PyObject *args) {
    PyObject *text, *step, *lists[7], *lines = Py_None;
    Pack p;
    memset(&p, 0, sizeof p);
    p.asked = -1;
    if (!PyArg_ParseTuple(args, "UOniOOOOnOOOnOi|O", &text, &lists[0], &p.size, &p.prefixed, &lists[1], &lists[2],
                          &lists[3], &lists[4], &p.base_len, &lists[5], &lists[6], &p.plen, &p.balance_from, &step,
                          &p.line_next, &lines))
        return NULL;
    if (pack_lines(&p, lines, lists[0]) < 0) return NULL;
    Py_ssize_t **arrays[7] = {&p.para, &p.as, &p.ae, &p.hs, &p.hb, &p.vs, &p.ve};
    Py_ssize_t got_len[7] = {0};
    PyObject *spans = NULL;
    int made = 0;
    for (; made < 7; made++) {
        *arrays[made] = int_array(lists[made], &got_len[made]);
        if (!*arrays[made]) goto fail;
    }
    if (got_len[1] != got_len[2] || got_len[3] != got_len[4] || got_len[5] != got_len[6]) {
        PyErr_SetString(PyExc_ValueError, "para_spans: paired lists of unequal length");
        goto fail;
    }
    p.np = got_len[0], p.na = got_len[1], p.nh = got_len[3], p.nv = got_len[5];
    p.n = PyUnicode_GET_LENGTH(text);
    if (p.size <= 0) {
        PyErr_SetString(PyExc_ValueError, "para_spans: size must be positive");
        goto fail;
    }
    spans = pack_run(&p, text, step);
fail:
    for (int k = 0; k < made; k++) PyMem_Free(*arrays[k]);
    return spans;
}

/* section_spans(text, a, b, size, paras, suspects, atom_starts, atom_ends, t_starts, t_ends,
   t_lens, body, tail, line_next, make) -> (spans, in_body) | None

   para_spans for the section text[a:b] of a document in characters, read from the
   document's lists as the regions keep them, without the region's own lists made in Python:
   its paragraph cuts are the document's (paras, with suspects: where a cut may be moved,
   sorted) when the regions would take them (its first character no white space, its end
   the text's or after a "\n", no suspect in it); its atoms those of atom_starts / atom_ends
   (sorted, disjoint) that lie in it and fit with their prefix; its heading (a, body) when
   body > a; its prefix, where a table (t_starts: where each table's body starts, t_ends,
   t_lens: the size of its repeated header, 0 where it does not repeat) overlaps it, the
   header in that table's body and nothing elsewhere. tail: the last chunks share the rest
   evenly over this many budgets (0: not balanced). make(piece, paragraph_cuts) -> (lines,
   step) gives para_spans' lines and the packer's search, asked the first time either is
   needed (most long sections end every chunk at a paragraph cut); make may be (factory,
   *args), make being factory(*args), made then. None where para_spans
   does not serve (the regions then make the region): the paragraph cuts not taken (a line
   break other than "\n" in the section, where its boundaries find their own), or no atom
   that fits, no heading and no table. in_body: a chunk starts in a table's body (its prefix
   is then asked). A section that is one chunk is said as one without make. */
static PyObject *section_spans(PyObject *self, PyObject *args) {
    PyObject *text, *paras, *suspects, *as_, *ae_, *ts, *te, *tl, *make;
    Py_ssize_t a, b, size, body, tail;
    int line_next;
    if (!PyArg_ParseTuple(args, "UnnnO!O!O!O!O!O!O!nniO", &text, &a, &b, &size, &PyList_Type, &paras, &PyList_Type,
                          &suspects, &PyList_Type, &as_, &PyList_Type, &ae_, &PyList_Type, &ts, &PyList_Type, &te,
                          &PyList_Type, &tl, &body, &tail, &line_next, &make))
        return NULL;
    Py_ssize_t len = PyUnicode_GET_LENGTH(text);
    if (PyList_GET_SIZE(as_) != PyList_GET_SIZE(ae_) || PyList_GET_SIZE(ts) != PyList_GET_SIZE(te) ||
        PyList_GET_SIZE(ts) != PyList_GET_SIZE(tl)) {
        PyErr_SetString(PyExc_ValueError, "section_spans: paired lists of unequal length");
        return NULL;
    }
    if (size <= 0 || a < 0 || b > len) {
        PyErr_SetString(PyExc_ValueError, "section_spans: size must be positive, 0 <= a and b <= len(text)");
        return NULL;
    }
    /* Regions._paragraph_cuts: the document's cuts where they are the section's */
    if (a >= b || Py_UNICODE_ISSPACE(PyUnicode_READ_CHAR(text, a))) Py_RETURN_NONE;
    if (b < len && PyUnicode_READ_CHAR(text, b - 1) != '\n') Py_RETURN_NONE;
    if (PyList_GET_SIZE(suspects) && index_after(suspects, a) != index_after(suspects, b - 1)) Py_RETURN_NONE;
    Pack p;
    memset(&p, 0, sizeof p);
    p.asked = -1, p.size = size, p.line_next = line_next, p.n = b - a;
    p.balance_from = tail > 0 ? (p.n - tail * size > 0 ? p.n - tail * size : 0) : p.n + 1; /* CharMeasure.back */
    PyObject *piece = NULL, *cuts = NULL, *made = NULL, *spans = NULL, *out = NULL;
    Py_ssize_t *buf = NULL;
    /* the tables overlapping the section (Regions._prefix), their bodies' spans from lo on */
    Py_ssize_t k = index_after(ts, b) - 1, lo = index_after(ts, a) - 1, hi = k + 1;
    p.prefixed = k >= 0 && item_at(te, k) > a;
    if (lo < 0) lo = 0;
    Py_ssize_t i0 = index_after(as_, a - 1), i1 = index_after(as_, b - 1); /* bisect_left */
    Py_ssize_t nv = p.prefixed ? hi - lo : 0, na = i1 - i0;
    buf = PyMem_Malloc(((nv + na) * 3 + 2) * sizeof(Py_ssize_t));
    if (!buf) return PyErr_NoMemory();
    Py_ssize_t *vs = buf, *ve = vs + nv, *vl = ve + nv, *fs = vl + nv, *fe = fs + na, *hd = fe + na;
    for (Py_ssize_t j = 0; j < nv; j++) {
        vs[j] = item_at(ts, lo + j) - a, ve[j] = item_at(te, lo + j) - a, vl[j] = item_at(tl, lo + j);
        if (vl[j] < 0 && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "section_spans: a negative header size");
    }
    p.vs = vs, p.ve = ve, p.vl = vl, p.nv = nv;
    /* Packer._fitting: the atoms inside the section that fit with their prefix, in order */
    Py_ssize_t nf = 0;
    int unsorted = 0; /* atoms out of order (another structure's): the regions sort them */
    for (Py_ssize_t j = i0; j < i1 && !PyErr_Occurred() && !unsorted; j++) {
        Py_ssize_t s = item_at(as_, j), e = item_at(ae_, j);
        if (e > b || e <= s) continue;
        if (pack_plen(&p, s - a) + e - s > size) continue;
        unsorted = nf && (s - a < fs[nf - 1] || (s - a == fs[nf - 1] && e - a < fe[nf - 1]));
        fs[nf] = s - a, fe[nf] = e - a, nf++;
    }
    if (PyErr_Occurred()) goto done;
    p.as = fs, p.ae = fe, p.na = nf;
    if (body > a) hd[0] = 0, hd[1] = body - a, p.hs = hd, p.hb = hd + 1, p.nh = 1;
    if (unsorted || !(nf || p.nh || p.prefixed)) {
        out = Py_NewRef(Py_None);
        goto done;
    }
    piece = PyUnicode_Substring(text, a, b);
    Py_ssize_t c0 = index_after(paras, a), c1 = index_after(paras, b - 1);
    cuts = piece ? PyList_New(c1 - c0) : NULL;
    if (!cuts) goto done;
    for (Py_ssize_t j = c0; j < c1; j++) {
        PyObject *v = PyLong_FromSsize_t(item_at(paras, j) - a);
        if (!v) goto done;
        PyList_SET_ITEM(cuts, j - c0, v);
    }
    Py_ssize_t first = pack_plen(&p, 0);
    if (first + p.n <= size) { /* one chunk (PackingChunker.one_chunk) */
        spans = PyList_New(0);
        if (!spans || append_span(spans, 0, p.n, first + p.n) < 0) goto done;
    } else {
        PyObject *breaks = line_breaks(NULL, piece);
        if (!breaks) goto done;
        int other = PyObject_IsTrue(breaks);
        Py_DECREF(breaks);
        if (other) { /* another line break than "\n": the piece's boundaries find their own cuts */
            if (other > 0) out = Py_NewRef(Py_None);
            goto done;
        }
        p.make = make, p.piece = piece, p.paras = cuts;
        p.np = c1 - c0;
        p.para = PyMem_Malloc((p.np ? p.np : 1) * sizeof(Py_ssize_t));
        if (!p.para) {
            PyErr_NoMemory();
            goto done;
        }
        for (Py_ssize_t j = 0; j < p.np; j++) p.para[j] = item_at(paras, c0 + j) - a;
        spans = pack_run(&p, piece, Py_None);
        made = p.made;
        if (!spans) goto done;
    }
    int in_body = 0;
    for (Py_ssize_t j = 0; j < PyList_GET_SIZE(spans) && nv && !in_body; j++) {
        Py_ssize_t s = PyLong_AsSsize_t(PyTuple_GET_ITEM(PyList_GET_ITEM(spans, j), 0));
        Py_ssize_t t = after_all(vs, nv, s) - 1;
        in_body = t >= 0 && s < ve[t];
    }
    out = Py_BuildValue("(OO)", spans, in_body ? Py_True : Py_False);
done:
    PyMem_Free(p.para);
    PyMem_Free(buf);
    Py_XDECREF(piece);
    Py_XDECREF(cuts);
    Py_XDECREF(made);
    Py_XDECREF(spans);
    return out;
}

/* walk_sections(text, sections, k, size, t_starts, t_ends, index, doc, metadata, canonical,
   memo, lists, tail, line_next, maker, atoms, tables) -> (chunks, j, pending): region_chunks.run_chunks'
   loop over the sections from k, as far as it goes here. A run of sections that are one chunk
   each (section_runs.short_sections' pair, read from the sections themselves); with lists
   (the document's seven lists of section_spans, or None) a longer section whose spans
   section_spans reads (a heading line of its own, or atoms in the text), its chunks made as
   span_chunks makes a region's (make: (maker, a, b, j)): no prefix, but in a table's body,
   where with tables (the document's tables whose bodies lists[4] and lists[5] are, their
   header's size lists[6], 0 where it is not repeated; each an Atom, or where its header rows
   start in the text, which they run from to its body) the header rows come first in the
   embed text, as Regions' table prefix puts them. It stops at section j that it leaves to
   the caller: pending is (spans, in_body) where section_spans gave spans it does not make
   chunks of (in a table's body without tables, or more than 256), False where section_spans
   said None, None where it was not asked. */

/* the embed text of a chunk of piece at p in a walk: the header rows of the table whose body
   holds p first, when they are repeated (tables, starts, ends, lens: walk_sections') */
static PyObject *walk_embed(PyObject *text, PyObject *piece, Py_ssize_t p, PyObject *tables, const Py_ssize_t *starts,
                            const Py_ssize_t *ends, const Py_ssize_t *lens, Py_ssize_t nt) {
    Py_ssize_t k = after_all(starts, nt, p) - 1;
    if (k < 0 || p >= ends[k] || lens[k] <= 0) return Py_NewRef(piece);
    PyObject *table = PyList_GET_ITEM(tables, k), *head;
    if (PyLong_Check(table)) { /* where its header rows start: they run to its body */
        Py_ssize_t h = PyLong_AsSsize_t(table);
        if (h == -1 && PyErr_Occurred()) return NULL;
        if (h < 0 || h > starts[k] || starts[k] > PyUnicode_GET_LENGTH(text)) {
            PyErr_SetString(PyExc_ValueError, "walk_sections: a table's header start is not before its body");
            return NULL;
        }
        head = PyUnicode_Substring(text, h, starts[k]);
    } else
        head = atom_type && PyObject_TypeCheck(table, atom_type) ? PyMember_GetOne((char *)table, atom_fields[4])
                                                                 : PyObject_GetAttrString(table, "header");
    if (!head) return NULL;
    PyObject *out = PyUnicode_Check(head) ? PyUnicode_Concat(head, piece) : NULL;
    if (!out && !PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "walk_sections: a table's header must be a str");
    Py_DECREF(head);
    return out;
}
static PyObject *walk_sections(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 17 || !PyUnicode_Check(args[0]) || !PyList_Check(args[1]) || !PyLong_Check(args[2]) ||
        !PyLong_Check(args[3]) || !PyList_Check(args[4]) || !PyList_Check(args[5]) || !PyLong_Check(args[6]) ||
        PyList_GET_SIZE(args[5]) < PyList_GET_SIZE(args[4]) || (args[10] != Py_None && !PyDict_Check(args[10])) ||
        (args[11] != Py_None && !(PyTuple_Check(args[11]) && PyTuple_GET_SIZE(args[11]) == 7)) ||
        (args[16] != Py_None && !PyList_Check(args[16]))) {
        PyErr_SetString(PyExc_TypeError, "walk_sections(text: str, sections: list, k: int, size: int, t_starts: list, "
                                         "t_ends: list, index: int, doc, metadata, canonical, memo: dict | None, "
                                         "lists: tuple of 7 lists | None, tail: int, line_next: bool, maker, atoms: bool, "
                                         "tables: list | None)");
        return NULL;
    }
    if (!chunk_type) {
        PyErr_SetString(PyExc_RuntimeError, "configure_chunk(Chunk) first");
        return NULL;
    }
    PyObject *text = args[0], *secs = args[1], *t_starts = args[4], *t_ends = args[5], *doc = args[7],
             *meta = args[8], *canonical = args[9], *memo = args[10] == Py_None ? NULL : args[10], *lists = args[11];
    Py_ssize_t k = PyLong_AsSsize_t(args[2]), size = PyLong_AsSsize_t(args[3]), index = PyLong_AsSsize_t(args[6]);
    Py_ssize_t tail = PyLong_AsSsize_t(args[12]);
    int line_next = PyObject_IsTrue(args[13]), atoms = PyObject_IsTrue(args[15]);
    if (PyErr_Occurred() || line_next < 0 || atoms < 0) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(secs), j = k < 0 ? 0 : k;
    PyObject *chunks = PyList_New(0), *pending = Py_None, *tables = args[16];
    Py_ssize_t *tv[3] = {NULL, NULL, NULL}, nt = -1; /* the tables' body starts, ends, header sizes: read when asked */
    Py_INCREF(pending);
    while (chunks && j < n) {
        PyObject *sec = PyList_GET_ITEM(secs, j);
        Py_ssize_t a = section_position(sec, 0), b = a == -1 && PyErr_Occurred() ? -1 : section_position(sec, 1);
        if (PyErr_Occurred()) goto fail;
        int one = one_chunk_at(a, b, size, t_starts, t_ends);
        if (one < 0) goto fail;
        if (one) {
            PyObject *c = section_chunk(text, sec, index + PyList_GET_SIZE(chunks), doc, meta, canonical, memo);
            if (!c || PyList_Append(chunks, c) < 0) {
                Py_XDECREF(c);
                goto fail;
            }
            Py_DECREF(c);
            j++;
            continue;
        }
        if (lists == Py_None || b - a <= size) break; /* empty, or short in a table's body */
        PyObject *bv = PyObject_GetAttrString(sec, "body");
        Py_ssize_t body = bv ? PyLong_AsSsize_t(bv) : -1;
        Py_XDECREF(bv);
        if (PyErr_Occurred()) goto fail;
        if (!(body > a || atoms)) break; /* plain text's region: the caller's */
        PyObject *call = Py_BuildValue("(OnnnOOOOOOOnniO)", text, a, b, size, PyTuple_GET_ITEM(lists, 0),
                                       PyTuple_GET_ITEM(lists, 1), PyTuple_GET_ITEM(lists, 2), PyTuple_GET_ITEM(lists, 3),
                                       PyTuple_GET_ITEM(lists, 4), PyTuple_GET_ITEM(lists, 5), PyTuple_GET_ITEM(lists, 6),
                                       body, tail, line_next, Py_None);
        PyObject *make = call ? Py_BuildValue("(Onnn)", args[14], a, b, j) : NULL;
        PyObject *got = NULL;
        if (make) {
            PyTuple_SET_ITEM(call, 14, make); /* in Py_None's place */
            Py_DECREF(Py_None);
            got = section_spans(NULL, call);
        }
        Py_XDECREF(call);
        if (!got) goto fail;
        if (got == Py_None) {
            Py_DECREF(got);
            Py_SETREF(pending, Py_NewRef(Py_False));
            break;
        }
        PyObject *spans = PyTuple_GET_ITEM(got, 0);
        int in_body = PyTuple_GET_ITEM(got, 1) == Py_True;
        if ((in_body && tables == Py_None) || PyList_GET_SIZE(spans) > 256) {
            Py_SETREF(pending, got);
            break;
        }
        if (in_body && nt < 0) {
            Py_ssize_t len[3] = {0, 0, 0};
            for (int q = 0; q < 3; q++)
                if (!(tv[q] = int_array(PyTuple_GET_ITEM(lists, 4 + q), &len[q]))) break;
            if (!PyErr_Occurred() && (len[0] != len[1] || len[0] != len[2] || len[0] > PyList_GET_SIZE(tables)))
                PyErr_SetString(PyExc_ValueError, "walk_sections: the tables and their three lists differ in length");
            if (PyErr_Occurred()) {
                Py_DECREF(got);
                goto fail;
            }
            nt = len[0];
        }
        /* the chunks of its spans: text, offsets, size, the section's headings and names */
        PyObject *heads = section_field(sec, 2), *name = NULL;
        if (heads && !PyList_Check(heads)) PyErr_SetString(PyExc_TypeError, "walk_sections: headings must be a list");
        if (heads && PyList_Check(heads) && memo) {
            PyObject *key = PyList_AsTuple(heads);
            name = key ? PyDict_GetItemWithError(memo, key) : NULL;
            Py_XDECREF(key);
            Py_XINCREF(name);
        }
        if (!name && !PyErr_Occurred() && heads) name = PyObject_CallOneArg(canonical, heads);
        Py_ssize_t m = heads && PyList_Check(heads) ? PyList_GET_SIZE(heads) : 0;
        PyObject *section = m ? PyList_GET_ITEM(heads, m - 1) : Py_None;
        for (Py_ssize_t q = 0; name && q < PyList_GET_SIZE(spans); q++) {
            PyObject *span = PyList_GET_ITEM(spans, q), *c = NULL;
            Py_ssize_t s0 = PyLong_AsSsize_t(PyTuple_GET_ITEM(span, 0)), e0 = PyLong_AsSsize_t(PyTuple_GET_ITEM(span, 1));
            Py_ssize_t sz = PyLong_AsSsize_t(PyTuple_GET_ITEM(span, 2));
            PyObject *piece = PyErr_Occurred() ? NULL : PyUnicode_Substring(text, a + s0, a + e0);
            PyObject *embed = !piece ? NULL : in_body ? walk_embed(text, piece, a + s0, tables, tv[0], tv[1], tv[2], nt)
                                                      : Py_NewRef(piece);
            PyObject *at = embed ? PyLong_FromSsize_t(a + s0) : NULL, *to = at ? PyLong_FromSsize_t(a + e0) : NULL;
            if (to) c = make_chunk(piece, at, to, index + PyList_GET_SIZE(chunks), sz, doc, meta, heads, section, name, embed);
            Py_XDECREF(piece);
            Py_XDECREF(embed);
            Py_XDECREF(at);
            Py_XDECREF(to);
            if (!c || PyList_Append(chunks, c) < 0) Py_CLEAR(name);
            Py_XDECREF(c);
        }
        Py_XDECREF(name);
        Py_XDECREF(heads);
        Py_DECREF(got);
        if (PyErr_Occurred()) goto fail;
        j++;
    }
    if (!chunks) goto fail;
    for (int q = 0; q < 3; q++) PyMem_Free(tv[q]);
    return Py_BuildValue("(NnN)", chunks, j, pending);
fail:
    for (int q = 0; q < 3; q++) PyMem_Free(tv[q]);
    Py_XDECREF(chunks);
    Py_DECREF(pending);
    return NULL;
}

/* The end of the lead-in list whose lead-in line starts at q (atoms._LEAD_LIST read there: a
   line that ends with a colon, spaces and tabs and a "\r" or not, then list items: spaces and
   tabs, a mark ・ • ● ○ - * +, one or two digits and . ． ) ）, one or two digits in ( ) or
   （ ）, or ① to ⑳, spaces and tabs, then a character that is no white space), past the last
   item's "\n"; -1 when none is there. */
static Py_ssize_t lead_list_end(State *st, Py_ssize_t q) {
    Py_ssize_t n = st->n, nl = find_newline(st, q, n), k = nl - 1, p;
    if (nl >= n) return -1;
    if (k >= q && AT(k) == '\r') k--;
    while (k >= q && is_hspace_at(st, k)) k--;
    if (k < q || (AT(k) != ':' && AT(k) != 0xFF1A)) return -1;
    for (p = nl + 1; p < n;) {
        Py_ssize_t j = p;
        while (j < n && is_hspace_at(st, j)) j++;
        if (j >= n) break;
        Py_UCS4 c = AT(j);
        int open = c == '(' || c == 0xFF08;
        if (c == 0x30FB || c == 0x2022 || c == 0x25CF || c == 0x25CB || c == '-' || c == '*' || c == '+' ||
            (c >= 0x2460 && c <= 0x2473))
            j++;
        else if (open || is_decimal(c)) { /* (1) （12） 1. 12) */
            Py_ssize_t d = j + open;
            if (d >= n || !is_decimal(AT(d))) break;
            d += d + 1 < n && is_decimal(AT(d + 1)) ? 2 : 1;
            if (d >= n) break;
            Py_UCS4 m = AT(d);
            if (open ? m != ')' && m != 0xFF09 : m != '.' && m != 0xFF0E && m != ')' && m != 0xFF09) break;
            j = d + 1;
        } else
            break;
        while (j < n && is_hspace_at(st, j)) j++;
        if (j >= n || Py_UNICODE_ISSPACE(AT(j))) break;
        Py_ssize_t e = find_newline(st, j, n);
        p = e < n ? e + 1 : n;
    }
    return p > nl + 1 ? p : -1;
}

/* An atom scan_atoms may keep: where it starts and ends, its kind (K_CODE, K_TABLE, K_TSV,
   K_LIST: find_atoms' order, which decides at a shared start), and a table's body start and
   header rows' span. */
enum { K_CODE, K_TABLE, K_TSV, K_LIST, K_KINDS };
typedef struct {
    Py_ssize_t start, end, body, h0, h1;
} Span;

static int span_put(Span **a, Py_ssize_t *n, Py_ssize_t *cap, Span x) {
    if (*n == *cap) {
        Py_ssize_t c = *cap ? 2 * *cap : 32;
        Span *v = PyMem_Realloc(*a, c * sizeof *v);
        if (!v) {
            PyErr_NoMemory();
            return -1;
        }
        *a = v, *cap = c;
    }
    (*a)[(*n)++] = x;
    return 0;
}

/* find_atoms' atoms of a text from its line scan's lists v (line_scan's): the code blocks at
   the fence lines (code_atoms), the tables (table_atoms_from), runs of three or more
   tab-separated lines, and the lead-in lists at the lead-in hints; where two kinds or more are
   there, disjoint_atoms' list of them. As lists, no Atom made (atoms.ScannedAtoms makes them
   when asked): (starts, ends, kinds, table body starts, table ends, table header starts,
   table header sizes); None when there is none. */
static PyObject *scan_atoms(PyObject *text, State *st, const Vec *v) {
    static PyObject *s_list;
    if (!s_table) {
        PyErr_SetString(PyExc_RuntimeError, "configure_atom(Atom) first");
        return NULL;
    }
    if (!s_list && !(s_list = PyUnicode_InternFromString("list"))) return NULL;
    Span *at[K_KINDS] = {NULL};
    Py_ssize_t count[K_KINDS] = {0}, cap[K_KINDS] = {0}, end = 0, n = st->n;
    PyObject *out = NULL;
    const Vec *fences = &v[L_FENCES], *tables = &v[L_TABLES], *tsv = &v[L_TSV], *hints = &v[L_LEADS];
    for (Py_ssize_t k = 0; k < fences->n; k++) { /* matches_at_lines' order: none inside the one before */
        Py_ssize_t q = fences->v[k];
        if (q < end || !line_start_at(st, q)) continue;
        Py_ssize_t e = fenced_end(text, st, q, fences, k + 1);
        if (e == -2) goto done;
        if (e >= 0 && span_put(&at[K_CODE], &count[K_CODE], &cap[K_CODE], (Span){q, e, 0, 0, 0}) < 0) goto done;
        if (e >= 0) end = e + 1;
    }
    for (Py_ssize_t k = 0; k + 2 < tables->n; k += 3) {
        const Py_ssize_t *t = tables->v + k;
        Span x = {border_above(st, t[0]), t[2], t[1], t[0], t[1]};
        if (span_put(&at[K_TABLE], &count[K_TABLE], &cap[K_TABLE], x) < 0) goto done;
    }
    for (Py_ssize_t k = 0, r = 0; k + 1 < tsv->n; k += 2) { /* runs of lines, each ending where the next starts */
        if (k + 3 < tsv->n && tsv->v[k + 1] == tsv->v[k + 2]) continue;
        Py_ssize_t a = tsv->v[r], h = tsv->v[r + 1];
        if (k - r >= 4 && span_put(&at[K_TSV], &count[K_TSV], &cap[K_TSV], (Span){a, tsv->v[k + 1], h, a, h}) < 0)
            goto done;
        r = k + 2;
    }
    for (Py_ssize_t k = 0, done_to = -1; k < hints->n; k++) { /* a hint is one past its colon */
        Py_ssize_t c = hints->v[k] - 1, q = c;
        while (q > 0 && AT(q - 1) != '\n') q--;
        if (q <= done_to || c < 0 || c >= n) continue;
        Py_ssize_t e = lead_list_end(st, q);
        if (e >= 0 && span_put(&at[K_LIST], &count[K_LIST], &cap[K_LIST], (Span){q, e, 0, 0, 0}) < 0) goto done;
        if (e >= 0) done_to = e;
    }
    int kinds = 0;
    Py_ssize_t total = 0, m = 0, next[K_KINDS] = {0};
    for (int g = 0; g < K_KINDS; g++) kinds += count[g] > 0, total += count[g];
    int *kind = PyMem_Malloc((total + 1) * sizeof *kind);
    Span *kept = PyMem_Malloc((total + 1) * sizeof *kept);
    if (!kind || !kept) {
        PyErr_NoMemory();
        goto free_kept;
    }
    /* the kinds' spans, each sorted, merged by start (the earlier kind first at a shared one);
       with two kinds or more, the first of overlapping spans, the longest at a shared start */
    for (;;) {
        int g = -1;
        for (int h = 0; h < K_KINDS; h++)
            if (next[h] < count[h] && (g < 0 || at[h][next[h]].start < at[g][next[g]].start)) g = h;
        if (g < 0) break;
        Span x = at[g][next[g]++];
        if (kinds < 2 || !m || x.start >= kept[m - 1].end) kind[m] = g, kept[m++] = x;
        else if (x.start == kept[m - 1].start && x.end > kept[m - 1].end) kind[m - 1] = g, kept[m - 1] = x;
    }
    if (!m) { /* most texts but Markdown */
        out = Py_NewRef(Py_None);
        goto free_kept;
    }
    /* the atoms' lists: starts, ends, kinds; the tables' body starts, ends, header starts and
       header sizes (whole) */
    PyObject *l[7] = {PyList_New(m), PyList_New(m), PyList_New(m)};
    Py_ssize_t nt = 0;
    for (Py_ssize_t k = 0; k < m; k++) nt += kind[k] == K_TABLE || kind[k] == K_TSV;
    for (int q = 3; q < 7; q++) l[q] = PyList_New(nt);
    int ok = 1;
    for (int q = 0; q < 7; q++) ok = ok && l[q];
    for (Py_ssize_t k = 0, t = 0; ok && k < m; k++) {
        Span x = kept[k];
        int g = kind[k];
        PyObject *v[5] = {PyLong_FromSsize_t(x.start), PyLong_FromSsize_t(x.end)};
        ok = v[0] && v[1];
        if (ok) {
            PyList_SET_ITEM(l[0], k, v[0]);
            PyList_SET_ITEM(l[1], k, v[1]);
            PyList_SET_ITEM(l[2], k, Py_NewRef(g == K_CODE ? s_code : g == K_LIST ? s_list : s_table));
        }
        if (ok && (g == K_TABLE || g == K_TSV)) { /* a table's header rows are never empty */
            v[2] = PyLong_FromSsize_t(x.body), v[3] = PyLong_FromSsize_t(x.h0), v[4] = PyLong_FromSsize_t(x.h1 - x.h0);
            ok = v[2] && v[3] && v[4];
            PyObject *items[4] = {v[2], Py_NewRef(v[1]), v[3], v[4]};
            for (int q = 0; q < 4; q++)
                if (ok) PyList_SET_ITEM(l[3 + q], t, items[q]);
                else Py_XDECREF(items[q]);
            t++;
        } else if (!ok) {
            Py_XDECREF(v[0]);
            Py_XDECREF(v[1]);
        }
    }
    out = ok ? PyTuple_Pack(7, l[0], l[1], l[2], l[3], l[4], l[5], l[6]) : NULL;
    for (int q = 0; q < 7; q++) Py_XDECREF(l[q]);
free_kept:
    PyMem_Free(kind);
    PyMem_Free(kept);
done:
    for (int g = 0; g < K_KINDS; g++) PyMem_Free(at[g]);
    return out;
}

/* scan_labelled(text, initials, labels, known, reader, field_labels) -> (sections, atoms,
   paragraphs): structure.LabelledText.scan's compiled way in one call, over one line scan
   (structure_lines'): the sections sections_of makes of its heading lines outside code fences
   (known, field_labels, and the sections that are only their heading attached; reader(text,
   lines) is made when a line needs it, lines: structure_lines' answer); the atoms find_atoms
   makes of the line scan's lists, as scan_atoms' lists; paragraphs: its paragraph ends. The
   line scan's lists stay arrays here (a list is made only for the reader). */
static PyObject *scan_labelled(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6 || !PyUnicode_Check(args[0]) || !PyUnicode_Check(args[1]) || !PyTuple_Check(args[2]) ||
        !PyCallable_Check(args[4]) || (args[5] != Py_None && !PyTuple_Check(args[5]))) {
        PyErr_SetString(PyExc_TypeError, "scan_labelled(text: str, initials: str, labels: tuple, known: bool, "
                                         "reader: callable, field_labels: tuple | None)");
        return NULL;
    }
    PyObject *text = args[0], *labels = args[5] == Py_None ? NULL : args[5];
    PyObject *given = NULL, *sections = NULL, *atoms = NULL, *out = NULL;
    Vec v[L_LISTS] = {{0}}, heads = {0};
    Reader reader = {NULL, NULL, v, NULL, NULL};
    int known = PyObject_IsTrue(args[3]);
    State state, *st = &state;
    start_state(st, text, 0, 0);
    if (known < 0 || sections_ready(labels) < 0 || line_scan(text, args[1], args[2], v) < 0) goto done;
    PyObject *ends = vec_list(&v[L_ENDS]), *suspects = ends ? vec_list(&v[L_SUSPECTS]) : NULL;
    reader.paragraphs = suspects ? PyTuple_Pack(2, ends, suspects) : NULL;
    Py_XDECREF(ends);
    Py_XDECREF(suspects);
    if (!reader.paragraphs || unfenced_into(st, v[L_HEADS].v, v[L_HEADS].n, &heads) < 0) goto done;
    reader.given = given = PyTuple_Pack(2, args[4], text);
    sections = given ? sections_from(text, heads.v, heads.n, known, labels, &reader, 1) : NULL;
    if (!sections) goto done;
    if ((atoms = scan_atoms(text, st, v))) out = PyTuple_Pack(3, sections, atoms, reader.paragraphs);
done:
    vecs_free(v, L_LISTS);
    PyMem_Free(heads.v);
    Py_XDECREF(given);
    Py_XDECREF(reader.made);
    Py_XDECREF(reader.paragraphs);
    Py_XDECREF(reader.answer);
    Py_XDECREF(sections);
    Py_XDECREF(atoms);
    return out;
}

static PyMethodDef methods[] = {
    {"scan", scan, METH_VARARGS, "scan(text, lo, hi, decide) -> (cuts, lower_cuts)"},
    {"configure", configure, METH_VARARGS,
     "configure(openers, closers, quote_closers, abbreviations, number_abbreviations, max_quote)"},
    {"glued_cuts", glued_cuts, METH_VARARGS,
     "glued_cuts(text, lo, hi) -> glued.glued_line_cuts(text, lo, hi), or None where a class is not known here"},
    {"emote_hints", emote_hints, METH_VARARGS, "emote_hints(text, lo, hi) -> positions of emote hint characters where an emote may be"},
    {"glued_hint", glued_hint, METH_VARARGS, "glued_hint(text, a, b) -> 1 where a glued row may be, else 0"},
    {"clause_ends", clause_ends, METH_VARARGS,
     "clause_ends(text, start, stop[, full]) -> the ends of boundaries._CLAUSE_ASCII's (_CLAUSE's) matches"},
    {"word_ends", word_ends, METH_VARARGS,
     "word_ends(text, start, stop, full) -> the ends of boundaries._WORD's (_WORD_ASCII's) matches, or None"},
    {"word_script", py_word_script, METH_O, "word_script(codepoint) -> 1 Hiragana, 2 Han, 4 Katakana, 0 none, -1 not known"},
    {"line_start_match", py_line_start_match, METH_VARARGS,
     "line_start_match(text, p) -> 1 or 0: line_starts.LINE_START matches at p; -1: the pattern must say"},
    {"line_start_hints", line_start_hints, METH_VARARGS,
     "line_start_hints(text, positions, firsts) -> the positions where a lost line may begin"},
    {"paragraph_ends", paragraph_ends, METH_VARARGS,
     "paragraph_ends(text, crlf=False) -> (ends of the blank-line runs, the ends a grapheme may extend past)"},
    {"structure_lines", structure_lines, METH_VARARGS,
     "structure_lines(text, initials, labels) -> (headings, fences, tables, lead_hints, (paragraph ends, suspects), "
     "tsv) in one pass"},
    {"soft_hint", soft_hint, METH_VARARGS,
     "soft_hint(text, p, start, end, fenced=False) -> 1 soft wrap, 0 hard, -2 not settled by the lines, -1 ask Python"},
    {"soft_full", soft_full, METH_VARARGS,
     "soft_full(text, p, start, end, top_c, top_w, fenced=False) -> 1 soft, 0 hard, -1 ask Python, given the widths"},
    {"line_width", line_width, METH_VARARGS, "line_width(text, start, end) -> (top_c, top_w), or None: ask Python"},
    {"configure_wide", configure_wide, METH_O,
     "configure_wide(runs) -> None: chars.WIDE over the BMP, as runs of code points"},
    {"hard_lf_cut", (PyCFunction)(void (*)(void))hard_lf_cut, METH_FASTCALL,
     "hard_lf_cut(text, lo, hi, floor, paras, soft_wraps, is_soft, widths) -> the farthest hard newline cut, 0 or -1"},
    {"overlap_start", (PyCFunction)(void (*)(void))overlap_start, METH_FASTCALL,
     "overlap_start((text, paras, soft_wraps, decide, is_soft, memo, glued, emotes, widths), lo, hi, lower_text, atoms) "
     "-> first, 0, <0"},
    {"sentence_run", (PyCFunction)(void (*)(void))sentence_run, METH_FASTCALL,
     "sentence_run(text, paras, memo, lower_text, line_start, firsts, size, balance_from, s, e, out) "
     "-> (s, e): plain_spans' loop where sentence_end gives every end"},
    {"overlap_run", (PyCFunction)(void (*)(void))overlap_run, METH_FASTCALL,
     "overlap_run(context, lower_text, size, balance_from, back, s, e, out) -> (s, e, first): plain_spans' loop "
     "with overlap while no chunk needs the packer"},
    {"line_breaks", line_breaks, METH_O,
     "line_breaks(text) -> 1: a \"\\r\" is there, | 4: one not before \"\\n\", | 2: another break than those"},
    {"unfenced", unfenced, METH_VARARGS, "unfenced(text, lines) -> the lines outside code fences, marks left out"},
    {"heading_kinds", heading_kinds, METH_VARARGS,
     "heading_kinds(text, lines) -> (\"md\" or \"block\", level, title, line_end, body) or None for each line start"},
    {"line_ends", line_ends, METH_VARARGS, "line_ends(text, start, stop) -> the ends of the line-break runs (CRLF text)"},
    {"md_tables", md_tables, METH_VARARGS, "md_tables(text, lines) -> [(start, body_start, end)] of the tables at lines"},
    {"configure_atom", configure_atom, METH_O, "configure_atom(Atom) -> None: the class table_atoms_from and code_atoms make"},
    {"configure_chunk", configure_chunk, METH_O, "configure_chunk(Chunk) -> None: the class section_chunks makes"},
    {"configure_section", configure_section, METH_O,
     "configure_section(Section) -> None: the class sections_of makes and section_chunks reads"},
    {"scan_labelled", (PyCFunction)(void (*)(void))scan_labelled, METH_FASTCALL,
     "scan_labelled(text, initials, labels, known, reader, field_labels) -> (sections, atoms | None, paragraphs, "
     "lines): LabelledText.scan's compiled way in one call"},
    {"sections_of", (PyCFunction)(void (*)(void))sections_of, METH_FASTCALL,
     "sections_of(text, heads, known, read, labels=None, attach=False) -> list of Section"},
    {"section_chunks", (PyCFunction)(void (*)(void))section_chunks, METH_FASTCALL,
     "section_chunks(text, sections, start, stop, index, doc, metadata, canonical, memo=None) -> list of chunks"},
    {"span_chunks", (PyCFunction)(void (*)(void))span_chunks, METH_FASTCALL,
     "span_chunks(text, spans, offset, index, doc, metadata, headings, section, canonical, prefix, base, vary_starts, "
     "vary_ends) -> list of chunks"},
    {"one_chunk_run", (PyCFunction)(void (*)(void))one_chunk_run, METH_FASTCALL,
     "one_chunk_run(starts, ends, k, size, t_starts, t_ends) -> index"},
    {"atom_lists", atom_lists, METH_VARARGS,
     "atom_lists(atoms, half) -> (starts, ends, tables, table body starts, table ends, header sizes or 0)"},
    {"disjoint_atoms", disjoint_atoms, METH_O, "disjoint_atoms(found) -> atoms.disjoint's list, found left as it is"},
    {"walk_sections", (PyCFunction)(void (*)(void))walk_sections, METH_FASTCALL,
     "walk_sections(text, sections, k, size, t_starts, t_ends, index, doc, metadata, canonical, memo, lists, tail, "
     "line_next, maker, atoms, tables) -> (chunks, j, pending)"},
    {"table_atoms_from", table_atoms_from, METH_VARARGS,
     "table_atoms_from(text, tables) -> the atoms of the tables structure_lines found ([start, body, end, ...])"},
    {"fenced_blocks", fenced_blocks, METH_VARARGS, "fenced_blocks(text, lines) -> [(start, end)] of the code fences at lines"},
    {"code_atoms", code_atoms, METH_VARARGS, "code_atoms(text, lines) -> [Atom]: fenced_blocks' blocks, in the text's positions"},
    {"sentence_start_cases", sentence_start_cases, METH_VARARGS,
     "sentence_start_cases(text, limit) -> (lower, upper) letters that begin sentences in text[:limit]"},
    {"soft_classes", soft_classes, METH_O,
     "soft_classes(codepoint) -> (wide, hiragana, katakana, han, maybe_han, terminator, closer, bullet, particle, digit)"},
    {"classes", classes, METH_O,
     "classes(codepoint) -> (terminator, break, hspace, surely_no_extend, kanji_kana, emote_hint, bracket, glued_first, "
     "emote_start, digit (-1: not known), space)"},
    {"ends_right", (PyCFunction)(void (*)(void))ends_right, METH_FASTCALL,
     "ends_right(ends, x) -> bisect_right(ends, x) for an array('q'), read in place"},
    {"ends_left", (PyCFunction)(void (*)(void))ends_left, METH_FASTCALL,
     "ends_left(ends, x) -> bisect_left(ends, x) for an array('q'), read in place"},
    {"token_sentence_end", (PyCFunction)(void (*)(void))token_sentence_end, METH_FASTCALL,
     "token_sentence_end(text, paras, memo, lower_text, line_start, firsts, ends, s, lo, size, count) -> (end, level 1 line "
     "or 2 sentence), -1: Python looks, -3: none fits"},
    {"span_count", (PyCFunction)(void (*)(void))span_count, METH_FASTCALL,
     "span_count(text, ends, start, end, head, count, short) -> TiktokenMeasure.count(start, end, head) from the index"},
    {"cut_safe", cut_safe, METH_VARARGS, "cut_safe(text, p, stop) -> whether _CUT_SAFE matches at p with the text ending at stop"},
    {"token_para_end", (PyCFunction)(void (*)(void))token_para_end, METH_FASTCALL,
     "token_para_end(ends, paras, n, s, lo, size, count, balance_from, tail) -> the farthest paragraph cut that "
     "fits, balanced from balance_from on; -1: none, -2: no cut"},
    {"token_ends", token_ends, METH_VARARGS,
     "token_ends(tokens, starts) -> the running sum of starts[token] (bytes, one per token id), as bytes of int64"},
    {"section_spans", section_spans, METH_VARARGS,
     "section_spans(text, a, b, size, paras, suspects, atom_starts, atom_ends, t_starts, t_ends, t_lens, body, tail, "
     "line_next, make) -> (spans, in_body) | None"},
    {"para_spans", para_spans, METH_VARARGS,
     "para_spans(text, paras, size, prefixed, atom_starts, atom_ends, head_starts, head_bodies, base_len, vary_starts, "
     "vary_ends, plen, balance_from, step, line_next, lines=None) -> the spans, the paragraph level's ends (and with lines "
     "the plain line ends) found here, others by step"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_sentscan", NULL, -1, methods};

PyMODINIT_FUNC PyInit__sentscan(void) {
    fill_flags(); /* the brackets come with configure */
    return PyModule_Create(&module);
}
