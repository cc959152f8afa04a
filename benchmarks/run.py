#!/usr/bin/env python3
"""Per-document chunking throughput and boundary quality: norishiro against its peers.

    python benchmarks/build_corpus.py        # once (needs debian-reference-en/-ja)
    python benchmarks/run.py [--reps 5] [--mode chars|tokens|both]

All chunkers run in the same process, interleaved (every repetition times every chunker on
every document, in a rotating order), and each chunker's time is the median over
repetitions of its total over the corpus. Throughput is UTF-8 megabytes per second.

Quality columns use one neutral, text-based rule for everyone (peers strip white space and
give no offsets): a chunk "ends at a sentence end" when its text, trailing white space
removed, ends with a terminator (。．.!?！？ and closing brackets/quotes after it), or when
a newline follows it in the document, or it is the document's last chunk. Fill is mean
chunk size / budget. Over budget counts chunks whose own size exceeds the budget.
"""

from __future__ import annotations

import argparse
import platform
import re
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

warnings.filterwarnings("ignore")
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

import norishiro  # noqa: E402
from norishiro.core.measure import TiktokenSizer  # noqa: E402

_END = re.compile(r"[。．.!?！？][」』）)】\]\"'”’]*$")


def load_corpus(lang: str, unwrap: bool = False) -> list[str]:
    """The corpus documents; ``unwrap`` joins the lines of each paragraph (a single newline
    becomes a space), the shape of text whose lines were never wrapped."""
    d = HERE / "corpus" / lang
    paths = sorted(d.glob("*.txt"))
    if not paths:
        sys.exit(f"no corpus in {d}: run benchmarks/build_corpus.py first")
    docs = [p.read_text(encoding="utf-8") for p in paths]
    return [re.sub(r"(?<!\n)\n(?!\n)", " ", d) for d in docs] if unwrap else docs


def char_chunkers(size: int, overlap: int = 0) -> dict[str, Callable[[str], list[str]]]:
    out: dict[str, Callable[[str], list[str]]] = {
        "norishiro": lambda t: [c.text for c in norishiro.iter_chunks(t, size=size, overlap=overlap, structure=False)],
    }
    try:
        from langchain_text_splitters import RecursiveCharacterTextSplitter

        lc = RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=overlap)
        out["langchain"] = lc.split_text
    except ImportError:
        pass
    try:
        import semchunk

        sc = semchunk.chunkerify(len, size)
        out["semchunk"] = (lambda t: sc(t, overlap=overlap)) if overlap else sc
    except ImportError:
        pass
    try:
        from semantic_text_splitter import TextSplitter

        ts = TextSplitter(size, overlap=overlap)
        out["semantic-text-splitter (Rust)"] = ts.chunks
    except ImportError:
        pass
    try:
        from chonkie import RecursiveChunker

        if not overlap:  # its recursive chunker has no overlap
            ck = RecursiveChunker(tokenizer="character", chunk_size=size)
            out["chonkie"] = lambda t: [c.text for c in ck.chunk(t)]
    except ImportError:
        pass
    return out


class _FreshSemchunk:
    """semchunk memoizes token counts in a process-wide cache keyed by text, so a second
    repetition over the same documents is served from memory. A real ingestion job sees
    each document once: the cache is emptied before every repetition (not timed). The
    longest token, which ``chunkerify`` would find in a list of the 200,000 tokens' bytes
    (33 ms, and every cache of the CPU wiped before the next chunker's run), is found once."""

    def __init__(self, enc, size: int, overlap: int = 0):
        import semchunk

        self._semchunk, self._enc, self._size, self._overlap = semchunk, enc, size, overlap
        self._max_token_chars = max(len(t) for t in enc.token_byte_values())  # as chunkerify finds it
        self.reset()

    def reset(self) -> None:
        self._semchunk.semchunk._memoized_token_counters.clear()
        self._chunker = self._semchunk.chunkerify(self._enc, self._size, max_token_chars=self._max_token_chars)

    def __call__(self, text: str) -> list[str]:
        return self._chunker(text, overlap=self._overlap) if self._overlap else self._chunker(text)


def token_chunkers(size: int, sizer: TiktokenSizer, overlap: int = 0) -> dict[str, Callable[[str], list[str]]]:
    enc = sizer.encoding
    out: dict[str, Callable[[str], list[str]]] = {
        "norishiro": lambda t: [
            c.text for c in norishiro.iter_chunks(t, size=size, overlap=overlap, tokenizer=sizer, structure=False)
        ],
    }
    try:
        out["semchunk"] = _FreshSemchunk(enc, size, overlap)
    except ImportError:
        pass
    try:
        from langchain_text_splitters import RecursiveCharacterTextSplitter

        # what from_tiktoken_encoder builds, with the offline encoding
        lc = RecursiveCharacterTextSplitter(
            chunk_size=size, chunk_overlap=overlap, length_function=lambda t: len(enc.encode_ordinary(t))
        )
        out["langchain"] = lc.split_text
    except ImportError:
        pass
    try:
        from semantic_text_splitter import TextSplitter

        ts = TextSplitter.from_tiktoken_model("gpt-4o", size, overlap=overlap)  # o200k_base, bundled in the wheel
        out["semantic-text-splitter (Rust)"] = ts.chunks
    except ImportError:
        pass
    try:
        from chonkie import RecursiveChunker

        if not overlap:  # its recursive chunker has no overlap
            ck = RecursiveChunker(tokenizer=enc, chunk_size=size)
            out["chonkie"] = lambda t: [c.text for c in ck.chunk(t)]
    except ImportError:
        pass
    out["floor: one tiktoken pass"] = lambda t: enc.encode_ordinary(t) and []
    return out


def sentence_end_share(doc: str, chunks: list[str]) -> tuple[int, int]:
    ok = total = 0
    pos = 0
    for i, c in enumerate(chunks):
        stripped = c.rstrip()
        if not stripped:
            continue
        at = doc.find(stripped, pos)
        end = (at + len(stripped)) if at >= 0 else None
        if at >= 0:
            pos = at + 1
        total += 1
        rest = doc[end:] if end is not None else ""
        follows_newline = end is not None and "\n" in rest[: len(rest) - len(rest.lstrip())]
        last = i == len(chunks) - 1
        if _END.search(stripped) or follows_newline or last:
            ok += 1
    return ok, total


def bench(docs: list[str], chunkers: dict[str, Callable], reps: int, blocks: bool = False) -> dict[str, list[float]]:
    """Seconds per repetition of the corpus, per chunker. Each document is chunked by every
    chunker in turn (rotating who goes first), so that all meet the same moments of a noisy
    machine; ``blocks``: each chunker chunks the whole corpus in turn instead, as a corpus is
    chunked in use, so that what one chunker leaves in the CPU's caches (a tokenizer's
    tables, shared by the peers that use tiktoken) does not decide another's time."""
    names = list(chunkers)
    times: dict[str, list[float]] = {n: [] for n in names}
    for r in range(reps):
        for fn in chunkers.values():
            if hasattr(fn, "reset"):
                fn.reset()
        if blocks:
            k = r % len(names)
            for n in names[k:] + names[:k]:
                t0 = time.perf_counter()
                for doc in docs:
                    chunkers[n](doc)
                times[n].append(time.perf_counter() - t0)
            continue
        totals = {n: 0.0 for n in names}
        for di, doc in enumerate(docs):
            k = (r + di) % len(names)
            for n in names[k:] + names[:k]:
                t0 = time.perf_counter()
                chunkers[n](doc)
                totals[n] += time.perf_counter() - t0
        for n in names:
            times[n].append(totals[n])
    return times


def quality(docs, fn, size, count) -> dict:
    n = over = 0
    ok = tot = 0
    fill = 0.0
    for doc in docs:
        chunks = fn(doc)
        n += len(chunks)
        for c in chunks:
            s = count(c)
            fill += s / size
            over += s > size
        a, b = sentence_end_share(doc, chunks)
        ok, tot = ok + a, tot + b
    return {"chunks": n, "over": over, "sentence_end": ok / tot if tot else 0.0, "fill": fill / n if n else 0.0}


def run_mode(mode: str, reps: int, overlap_share: float = 0.0, unwrap: bool = False) -> str:
    lines = []
    sizer = TiktokenSizer("o200k_base")
    for lang in ("en", "ja"):
        docs = load_corpus(lang, unwrap)
        mb = sum(len(d.encode("utf-8")) for d in docs) / 1e6
        if mode == "chars":
            size = 2000
            overlap = round(size * overlap_share)
            chunkers, count = char_chunkers(size, overlap), len
        else:
            # over budget is judged by tiktoken itself, not by the fast counter norishiro uses
            enc = sizer.encoding
            size = 512
            overlap = round(size * overlap_share)
            chunkers, count = token_chunkers(size, sizer, overlap), lambda t, enc=enc: len(enc.encode_ordinary(t))
        for fn in chunkers.values():  # warm-up (imports, caches, tokenizer tables)
            fn(docs[0])
        times = bench(docs, chunkers, reps)
        med = {n: statistics.median(v) for n, v in times.items()}
        ref = med["norishiro"]
        lines.append(
            f"\n### {mode} mode, size {size}{' o200k_base tokens' if mode == 'tokens' else ' characters'}"
            f"{f', overlap {overlap}' if overlap else ''}, "
            f"{lang} corpus: {len(docs)} documents, {mb:.2f} MB UTF-8\n"
        )
        lines.append(
            "| chunker | MB/s | time ratio vs norishiro | chunks | over budget | ends at sentence end | mean fill |"
        )
        lines.append("|---|---:|---:|---:|---:|---:|---:|")
        for n in chunkers:
            speed = mb / med[n]
            if n.startswith("floor"):
                lines.append(f"| {n} | {speed:.2f} | {med[n] / ref:.2f} | - | - | - | - |")
                continue
            if hasattr(chunkers[n], "reset"):
                chunkers[n].reset()
            q = quality(docs, chunkers[n], size, count)
            lines.append(
                f"| {n} | {speed:.2f} | {med[n] / ref:.2f} | {q['chunks']} | {q['over']} | "
                f"{q['sentence_end']:.1%} | {q['fill']:.1%} |"
            )
        print("\n".join(lines[-(len(chunkers) + 3) :]), flush=True)
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--mode", choices=["chars", "tokens", "both"], default="both")
    ap.add_argument(
        "--overlap",
        type=float,
        default=0.0,
        help="overlap as a share of the size for every chunker that has one (Chonkie's "
        "recursive chunker has none and is left out), e.g. 0.125",
    )
    ap.add_argument(
        "--unwrap", action="store_true", help="join the lines of each paragraph first (text that was never wrapped)"
    )
    ap.add_argument("--out", default=str(HERE / "out" / "latest.md"))
    args = ap.parse_args()
    ov = f" --overlap {args.overlap:g}" if args.overlap else ""
    ov += " --unwrap" if args.unwrap else ""
    header = (
        f"Command: `python benchmarks/run.py --reps {args.reps} --mode {args.mode}{ov}`  \n"
        f"Machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}, "
        f"{__import__('os').cpu_count()} cores; time ratio > 1 means slower than norishiro.\n"
    )
    body = []
    for mode in ["chars", "tokens"] if args.mode == "both" else [args.mode]:
        body.append(run_mode(mode, args.reps, args.overlap, args.unwrap))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(header + "\n".join(body) + "\n", encoding="utf-8")
    print(f"\nwritten to {out}")


if __name__ == "__main__":
    main()
