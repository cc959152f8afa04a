"""Where norishiro's time goes on the bars of issue #15 nearest their edge, for the next
change to aim at (RESULTS §14, §15). Three reports, CPU time, characters at 2,000:

* ``overlap``: per chunk, what the 12.5% overlap adds over plain chunking on a shape; how
  the compiled pass (``_sentscan.overlap_start``) answered for the first start (found, none,
  ask Python, a long line whose paragraph is then scanned whole); the windows the Python
  search looked at, per level; the soft-wrap decisions left to Python, replayed alone on a
  fresh text, and the paragraph profiles among them; and the sentence scans asked for (of
  lines or of whole paragraphs), with their time.
* ``loop``: per document, norishiro against LangChain on one shape, each in a loop of its
  own (warm) and interleaved document by document as ``shapes.py`` times them (each
  document follows the other's run), with ``--overlap N`` both overlapping by N characters;
  and how many chunks plain and structure-aware chunking make.
* ``structure``: where structure-aware chunking's time goes on a shape: the candidate
  lines ``find_sections`` tests in Python (and of what kind), the regions (of what kind) and
  chunks, and the time of finding sections and atoms, of making the regions as
  ``iter_chunks`` makes them (a long section's spans read from the document's lists there),
  of packing the regions made whole, and of the whole ``iter_chunks``, each adding to the
  one before; and a floor: plain text's time with
  its paragraph pass and chunk objects traded for what structure on cannot do without, as
  compiled today (the line scan, the table and code atoms, a chunk object per chunk).

    python benchmarks/costs.py overlap [--shape hard-wrapped] [--lang en]
    python benchmarks/costs.py loop [--shape clinical-flat] [--lang ja] [--overlap 250]
    python benchmarks/costs.py structure [--shape markdown] [--lang en]

``--crlf`` gives every report the same texts with CRLF line ends (the fast paths take text
whose only breaks are "\\r\\n" and "\\n" too; a "\\r" of its own runs the Python rules).
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import time
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))
sys.path.insert(0, str(HERE))

import norishiro  # noqa: E402
from norishiro.core import compiled, sentence_windows, softwrap  # noqa: E402
from norishiro.core import overlap as overlap_search  # noqa: E402
from shapes import shape_docs  # noqa: E402


def _cpu(fn, reps: int) -> float:
    """Median CPU seconds of ``fn`` over ``reps`` runs (after one warm-up)."""
    fn()
    times = []
    for _ in range(reps):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return statistics.median(times)


@contextmanager
def _patched(obj, name, value):
    saved = getattr(obj, name)
    setattr(obj, name, value)
    try:
        yield
    finally:
        setattr(obj, name, saved)


def overlap(docs: list[str], reps: int) -> None:
    def run(ov: int):
        return lambda: [list(norishiro.iter_chunks(d, size=2000, overlap=ov, structure=False)) for d in docs]

    chunks = sum(len(x) for x in run(250)())
    plain, with_overlap = _cpu(run(0), reps), _cpu(run(250), reps)
    calls = {"n": 0, "t": 0.0}
    scan = sentence_windows.sentence_and_lower_cuts

    def counted(text, lo, hi):
        t = time.process_time()
        got = scan(text, lo, hi)
        calls["n"] += 1
        calls["t"] += time.process_time() - t
        return got

    with _patched(sentence_windows, "sentence_and_lower_cuts", counted):
        run(250)()
    profiles: list[tuple] = []
    asked: dict[str, list[tuple]] = {}
    make, decide = softwrap._Paragraph.__init__, softwrap.SoftWraps.is_soft

    def recorded(self, *args):
        profiles.append(args)
        make(self, *args)

    def asked_for(self, *args):
        asked.setdefault(self.text, []).append(args)
        return decide(self, *args)

    windows: Counter = Counter()
    look = overlap_search.OverlapSearch._overlap_iter

    def counted_window(self, level, *args):
        windows[level.name.lower()] += 1
        return look(self, level, *args)

    firsts: Counter = Counter()
    native = compiled.native
    first_start = native.overlap_start if native is not None else None

    def counted_first(*args):
        got = first_start(*args)
        firsts[{0: "none", -1: "ask Python", -3: "long line"}.get(got, "found") if got <= 0 else "found"] += 1
        return got

    with (
        _patched(softwrap._Paragraph, "__init__", recorded),
        _patched(softwrap.SoftWraps, "is_soft", asked_for),
        _patched(overlap_search.OverlapSearch, "_overlap_iter", counted_window),
        _patched(native, "overlap_start", counted_first) if native is not None else contextlib.nullcontext(),
    ):
        run(250)()
    profiled = _cpu(lambda: [softwrap._Paragraph(*a) for a in profiles], reps)

    def replay():
        for text, calls_of in asked.items():
            sw = softwrap.SoftWraps(text)
            for a in calls_of:
                sw.is_soft(*a)

    decided = _cpu(replay, reps)
    n_asked = sum(map(len, asked.values()))
    added = with_overlap - plain
    print(f"{chunks} chunks; plain {plain * 1e3:.1f} ms, with overlap {with_overlap * 1e3:.1f} ms")
    print(f"overlap adds {added / chunks * 1e6:.1f} µs a chunk")
    print("compiled first starts: " + (", ".join(f"{v} {k}" for k, v in firsts.items()) or "none asked"))
    print("Python overlap windows: " + (", ".join(f"{v} at {k} level" for k, v in windows.items()) or "none"))
    print(f"soft-wrap decisions made in Python: {n_asked}, {decided * 1e3:.2f} ms alone (a fresh text each)")
    print(f"  of which paragraph profiles: {len(profiles)}, {profiled * 1e3:.2f} ms alone")
    print(f"sentence scans with overlap: {calls['n']}, {calls['t'] * 1e3:.1f} ms")


def loop(docs: list[str], reps: int, overlap: int = 0) -> None:
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    lc = RecursiveCharacterTextSplitter(chunk_size=2000, chunk_overlap=overlap)
    fns = {
        "norishiro": lambda t: [c.text for c in norishiro.iter_chunks(t, size=2000, overlap=overlap, structure=False)],
        "langchain": lc.split_text,
    }
    for name, fn in fns.items():
        per = _cpu(lambda fn=fn: [fn(d) for d in docs], reps * 20) / len(docs)
        print(f"{name}: {per * 1e6:.1f} µs a document in a loop of its own")
    plain = sum(len(fns["norishiro"](d)) for d in docs)
    sectioned = sum(len(list(norishiro.iter_chunks(d, size=2000))) for d in docs)
    print(f"chunks: {plain} plain, {sectioned} with structure on (a chunk per section at least)")
    from run import bench

    times = bench(docs, fns, reps * 20)
    for name, ts in times.items():
        print(f"{name}: {statistics.median(ts) / len(docs) * 1e6:.1f} µs a document interleaved")


def structure(docs: list[str], reps: int) -> None:
    from norishiro import api
    from norishiro.chunkers import Region
    from norishiro.core import structure as st
    from norishiro.regions import Regions

    config, sizer, runtime = api.resolve(None, size=2000)
    renderer = api._renderer(config.header_keys, config.header_template)
    chunker = api.chunker_class(config.strategy)(config, **runtime)
    _, full = st._candidates(tuple(st.DEFAULT_LABELS))
    kinds: Counter = Counter()
    for d in docs:
        lines = st.TextLines(d, tuple(st.DEFAULT_LABELS))
        for q in lines.headings if lines.headings is not None else []:
            if m := full.match(lines.nl_text, q):
                first = d[m.start() : m.start() + 40].lstrip(" \t")[:1]
                kinds[first if first in "#`~[" else "other"] += 1

    def regions(d):  # as iter_chunks makes them: short sections said by length, long ones packed from lists
        doc = api._as_document(d)
        return Regions(doc, config, sizer, st.LabelledText(), renderer, False, chunker.one_chunk, True, chunker)

    def found():
        for d in docs:
            provider = st.LabelledText()
            provider.sections(d)
            provider.atoms(d)

    def made():
        for d in docs:
            for _ in regions(d):
                pass

    def packed():
        for d in docs:
            for r, _ in regions(d):
                if type(r) is Region:  # the others are chunks already, or their spans
                    for _ in chunker.spans(r):
                        pass

    kinds_made = Counter(type(r).__name__ for d in docs for r, _ in regions(d))
    n_regions = sum(kinds_made.values())
    n_chunks = sum(1 for d in docs for _ in norishiro.iter_chunks(d, size=2000))
    tested = ", ".join(f"{k} {v}" for k, v in kinds.items())
    print(f"candidate lines tested in Python: {sum(kinds.values())} ({tested})")
    by_kind = ", ".join(f"{k} {v}" for k, v in sorted(kinds_made.items()))
    print(f"{n_regions} regions ({by_kind}), {n_chunks} chunks")
    whole = lambda: [list(norishiro.iter_chunks(d, size=2000)) for d in docs]  # noqa: E731
    times = [_cpu(f, reps) for f in (found, made, packed, whole)]
    names = ("sections and atoms", "+ regions", "+ packing", "iter_chunks")
    print("; ".join(f"{n} {t * 1e3:.2f} ms" for n, t in zip(names, times)))
    plain = _cpu(lambda: [list(norishiro.iter_chunks(d, size=2000, structure=False)) for d in docs], reps)
    print(f"plain text {plain * 1e3:.2f} ms")
    _floor(docs, reps, plain)


def _floor(docs: list[str], reps: int, plain: float) -> None:
    """What structure on cannot do without, compiled as it is: the line scan, the table and
    code atoms' matching, and a chunk object for each of its chunks, against plain text's
    paragraph pass (which structure's line scan stands in for) and plain text's chunk
    objects. Plain text's time less its pass plus these is a floor for structure on, with
    no Python at all around them."""
    from norishiro.core import compiled
    from norishiro.core.boundaries import Boundaries
    from norishiro.core.labels import DEFAULT_LABELS
    from norishiro.core.line_scan import label_initials
    from norishiro.document import Document

    if not compiled.active():
        print("floor: the compiled module is not built")
        return
    nat, labels = compiled.native, tuple(DEFAULT_LABELS)
    initials = label_initials(labels)
    scans = [nat.structure_lines(d, initials, labels) for d in docs]
    made = [Document(d, id="x") for d in docs]

    def spans_of(structure: bool) -> list[list[tuple[int, int, int]]]:
        chunks = (norishiro.iter_chunks(d, size=2000, structure=structure) for d in docs)
        return [[(c.start, c.end, c.size) for c in got] for got in chunks]

    def chunk_objects(spans):
        def run():
            for d, doc, sp in zip(docs, made, spans):
                nat.span_chunks(d, sp, 0, 0, doc, None, None, None, None, None, None, (), ())

        return run

    with_structure, without = spans_of(True), spans_of(False)
    parts = {
        "line scan": lambda: [nat.structure_lines(d, initials, labels) for d in docs],
        "atoms": lambda: [(nat.code_atoms(d, s[1]), nat.table_atoms_from(d, s[2])) for d, s in zip(docs, scans)],
        "chunk objects": chunk_objects(with_structure),
    }
    took = {name: _cpu(fn, reps) for name, fn in parts.items()}
    pass_ = _cpu(lambda: [Boundaries(d).paragraph_cuts() for d in docs], reps)
    own = _cpu(chunk_objects(without), reps)
    floor = plain - pass_ - own + sum(took.values())
    said = "; ".join(f"{k} {v * 1e3:.2f} ms" for k, v in took.items())
    print(
        f"floor: {said} ({sum(map(len, with_structure))} chunks); plain text's paragraph pass "
        f"{pass_ * 1e3:.2f} ms and chunk objects {own * 1e3:.2f} ms ({sum(map(len, without))} chunks): "
        f"{floor * 1e3:.2f} ms, {floor / plain:.2f}x plain text"
    )


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("report", choices=("overlap", "loop", "structure"))
    ap.add_argument("--shape")
    ap.add_argument("--lang")
    ap.add_argument("--reps", type=int, default=9)
    ap.add_argument("--crlf", action="store_true", help="the same texts with CRLF line ends (Windows exports)")
    ap.add_argument("--overlap", type=int, default=0, help="loop: chunks overlap by this many characters")
    args = ap.parse_args(argv)
    shape = args.shape or {"overlap": "hard-wrapped", "loop": "clinical-flat", "structure": "markdown"}[args.report]
    lang = args.lang or ("ja" if args.report == "loop" else "en")
    docs = shape_docs(shape, lang)
    if args.crlf:
        docs = [d.replace("\n", "\r\n") for d in docs]
    print(f"{shape} {lang}{', CRLF' if args.crlf else ''}: {len(docs)} documents")
    if args.report == "loop":
        loop(docs, args.reps, args.overlap)
    else:
        {"overlap": overlap, "structure": structure}[args.report](docs, args.reps)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
