"""The shape around the core: one config, a chunker registry, structure the same for a
string and a document, errors with fields, and the import direction."""

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import norishiro
from clinical import SAMPLES, sample_paths
from invariants import check_chunks
from norishiro import ChunkConfig, OptionError, SemanticConfig
from norishiro.chunkers import CHUNKERS, Region, register
from norishiro.cli import main
from norishiro.core.boundaries import Boundaries, Level

SRC = Path(__file__).resolve().parents[1] / "src" / "norishiro"


# ------------------------------------------------------------------ config
def test_config_round_trips_and_is_validated_once():
    c = ChunkConfig(
        size=256,
        overlap=32,
        strategy="semantic",
        tokenizer="cl100k_base",
        header_keys="patient_id, date",
        semantic={"method": "stdev", "window": 1},
    )
    assert c.unit == "tokens" and c.header_keys == ("patient_id", "date")
    assert isinstance(c.semantic, SemanticConfig) and c.semantic.method == "stdev"
    assert ChunkConfig.from_dict(c.to_dict()) == c
    assert ChunkConfig.from_json(c.to_json()) == c
    assert json.loads(c.to_json())["semantic"]["window"] == 1
    assert (
        ChunkConfig.from_spec(
            "semantic size=256 overlap=0.125 tokenizer=cl100k_base method=stdev window=1 header_keys=patient_id,date"
        )
        == c
    )


@pytest.mark.parametrize(
    "kw,option",
    [
        ({"size": 0}, "size"),
        ({"size": True}, "size"),
        ({"size": 10, "overlap": 10}, "overlap"),
        ({"strategy": "nope"}, "strategy"),
        ({"unit": "chars", "tokenizer": "o200k_base"}, "unit"),
        ({"unit": "bytes"}, "unit"),
        ({"semantic": {"method": "dips"}}, "semantic.method"),
        ({"semantic": {"window": -1}}, "semantic.window"),
        ({"header_keys": 5}, "header_keys"),
    ],
)
def test_bad_config_names_the_option_without_flags(kw, option):
    with pytest.raises(OptionError) as e:
        ChunkConfig(**kw)
    assert e.value.option == option
    assert "--" not in str(e.value)


def test_chars_with_a_tokenizer_says_what_to_write_instead():
    with pytest.raises(OptionError, match="tokens when a tokenizer is given"):
        norishiro.chunk("abc", size=10, unit="chars", tokenizer="o200k_base")
    r = CliRunner().invoke(main, ["chunk", "-", "--unit", "chars", "--tokenizer", "o200k_base"], input="abc")
    assert r.exit_code == 2 and "--unit 'chars'" in r.output


def test_a_config_and_keywords_give_the_same_chunks():
    doc = norishiro.load_document(sample_paths()[0])
    c = ChunkConfig(size=120, overlap=20, tokenizer="o200k_base", header_keys=("patient_id", "section"))
    a = norishiro.chunk(doc, c)
    b = norishiro.chunk(doc, size=120, overlap=20, tokenizer="o200k_base", header_keys=["patient_id", "section"])
    assert a == b
    assert norishiro.chunk(doc, c, size=200) == norishiro.chunk(doc, c.replace(size=200))


# ------------------------------------------------------------------ structure
def test_a_string_and_a_document_are_chunked_alike():
    for p in sample_paths()[:4]:
        doc = norishiro.load_document(p)
        for structure in (True, False):
            a = norishiro.chunk(doc.text, size=150, structure=structure)
            b = norishiro.chunk(norishiro.Document(doc.text), size=150, structure=structure)
            assert [(c.start, c.end, c.section) for c in a] == [(c.start, c.end, c.section) for c in b]


def test_semantic_resplit_keeps_fitting_atoms_whole():
    from norishiro.core.measure import get_sizer
    from norishiro.core.structure import find_atoms

    sizer = get_sizer("tokens", "o200k_base")
    cut = []
    for p in sample_paths():
        doc = norishiro.load_document(p)
        chunks = norishiro.chunk(
            doc, size=150, overlap=20, strategy="semantic", tokenizer="o200k_base", semantic={"embedder": "hash"}
        )
        fitting = [a for a in find_atoms(doc.text) if sizer.count(doc.text[a.start : a.end]) <= 150]
        cut += [(p.name, a.kind) for c in chunks for a in fitting if a.start < c.end < a.end]
    assert not cut, cut


# ------------------------------------------------------------------ chunkers
def test_sentences_strategy_packs_whole_sentences_and_is_registered():
    assert "sentences" in CHUNKERS
    text = "First one here. Second one is here.\nThird line. " * 20 + "短い文。" * 30
    chunks = norishiro.chunk(text, size=120, strategy="sentences", overlap=20)
    check_chunks(text, chunks, 120, overlap=20)
    b = Boundaries(text)
    ends = set(b.cuts(Level.SENTENCE)) | set(b.cuts(Level.LINE)) | {len(text)}
    assert all(c.end in ends for c in chunks)
    fewer = norishiro.chunk(text, size=120, strategy="sentences")
    assert len(fewer) <= len(norishiro.chunk(text, size=120, strategy="recursive"))


def test_a_chunker_from_outside_is_one_class_and_one_registration():
    class Halves:
        sectioned = False
        needs_embedder = False

        def __init__(self, config, **_):
            pass

        def spans(self, region: Region):
            mid = len(region.text) // 2
            for a, b in ((0, mid), (mid, len(region.text))):
                if b > a:
                    yield a, b, region.measure.count(a, b)

    register("halves", Halves)
    try:
        chunks = norishiro.chunk("abcdefgh", size=100, strategy="halves")
        assert [c.text for c in chunks] == ["abcd", "efgh"]
        assert ChunkConfig(strategy="halves").strategy == "halves"
    finally:
        del CHUNKERS["halves"]


def test_workers_run_every_strategy_with_the_same_output(tmp_path):
    args = ["chunk", str(SAMPLES), "--strategy", "semantic", "--embedder", "hash", "--size", "200", "-q"]
    serial = CliRunner().invoke(main, args)
    assert serial.exit_code == 0, serial.output
    pool = subprocess.run(
        [sys.executable, "-m", "norishiro.cli", *args, "--workers", "2"], capture_output=True, text=True, timeout=300
    )
    assert pool.returncode == 0, pool.stderr
    assert pool.stdout == serial.stdout


# ------------------------------------------------------------------ import direction
CORE = ("config", "errors", "document", "chunk", "core", "chunkers")
FORBIDDEN = (
    "norishiro.cli",
    "norishiro.web",
    "norishiro.embed",
    "norishiro.analysis",
    "norishiro.scale",
    "norishiro.api",
    "norishiro.writers",
    "norishiro.loaders",
    "norishiro.rows",
    "httpx",
    "fastapi",
    "click",
    "rich",
    "uvicorn",
    "ray",
)


def _imports(path: Path) -> list[str]:
    """Every module a file imports, at the top or inside functions, as absolute names."""
    rel = path.relative_to(SRC.parent).with_suffix("")
    package = list(rel.parts[:-1]) if rel.name != "__init__" else list(rel.parts[:-1])
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            mod = ".".join(base + ([node.module] if node.module else []))
            out.append(mod)
            out += [f"{mod}.{a.name}" for a in node.names]
    return out


def test_the_core_imports_no_outer_layer():
    files = [
        p
        for name in CORE
        for p in ([SRC / f"{name}.py"] if (SRC / f"{name}.py").exists() else sorted((SRC / name).rglob("*.py")))
    ]
    assert len(files) > 10
    bad = [
        (str(p.relative_to(SRC)), m)
        for p in files
        for m in _imports(p)
        if any(m == f or m.startswith(f + ".") for f in FORBIDDEN)
    ]
    assert not bad, bad


def test_the_contract_check_sees_a_violation(tmp_path):
    fake = SRC / "core" / "_contract_probe.py"
    fake.write_text("def f():\n    from ..cli import main\n", encoding="utf-8")
    try:
        assert "norishiro.cli" in _imports(fake)
    finally:
        fake.unlink()


_LOADED = """
import sys
from norishiro.cli import main
try:
    main(sys.argv[1:], standalone_mode=False)
finally:
    print("numpy" in sys.modules, file=sys.stderr)
"""


@pytest.mark.parametrize("extra, loaded", [((), False), (("--tokenizer", "o200k_base"), True)])
def test_numpy_is_loaded_only_by_what_needs_it(tmp_path, extra, loaded):
    """Numpy's import is a third of a character-mode start-up (and it starts a BLAS thread):
    the CLI and the character path leave it alone; a token index loads it."""
    doc = tmp_path / "a.txt"
    doc.write_text("今日は晴れ。明日は雨です。\n", encoding="utf-8")
    got = subprocess.run(
        [sys.executable, "-c", _LOADED, "chunk", str(doc), "-q", *extra], capture_output=True, text=True, timeout=120
    )
    assert got.returncode == 0, got.stderr
    assert got.stderr.strip().splitlines()[-1] == str(loaded)


def test_no_module_is_much_over_400_lines():
    long = [
        (str(p.relative_to(SRC)), n)
        for p in SRC.rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > 420
    ]
    assert not long, long


def test_no_strategy_name_is_compared_outside_the_chunkers():
    names = [n for n in CHUNKERS]
    hits = []
    for p in SRC.rglob("*.py"):
        if p.parent.name == "chunkers":
            continue
        text = p.read_text(encoding="utf-8")
        for n in names:
            for quote in ('"', "'"):
                for op in ("== ", "!= ", "in ("):
                    if f"{op}{quote}{n}{quote}" in text:
                        hits.append((str(p.relative_to(SRC)), n))
    assert not hits, hits
