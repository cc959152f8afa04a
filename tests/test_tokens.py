import hashlib
import json
import os
from pathlib import Path

import pytest

import norishiro
from clinical import sample_paths
from invariants import check_chunks, tiktoken_count
from norishiro.analysis.plan import PlanError, plan
from norishiro.core.measure import get_sizer
from norishiro.core.tokenizers_offline import _bundled_rank_file, get_encoding


def test_offline_encodings_match_tiktoken_pinned_hashes():
    import gzip

    from tiktoken_ext import openai_public  # noqa: F401

    pinned = {
        "o200k_base": "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
        "cl100k_base": "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    }
    for name, sha in pinned.items():
        data = gzip.open(_bundled_rank_file(name)).read()
        assert hashlib.sha256(data).hexdigest() == sha
        enc = get_encoding(name)
        assert enc.decode(enc.encode("血圧は130/80で安定。")) == "血圧は130/80で安定。"
    assert get_encoding("o200k_base").n_vocab > 200_000


def test_seed000_example():
    p = plan(8000, 512, 64)
    assert (p.stride, p.chunks, p.embedded_upper, p.embedded_exact) == (448, 18, 9216, 9088)
    assert abs(p.overhead_upper - 0.152) < 0.001


@pytest.mark.parametrize("args", [(100, 64, 64), (100, 64, 65), (100, 0, 0), (-1, 10, 0), (10, 10, -1)])
def test_plan_invalid(args):
    with pytest.raises(PlanError):
        plan(*args)


def test_plan_small_documents():
    assert plan(0, 512, 64).chunks == 0
    assert plan(10, 512, 64).chunks == 1
    assert plan(512, 512, 0).chunks == 1


@pytest.mark.parametrize("tok", ["o200k_base", "cl100k_base"])
@pytest.mark.parametrize("strategy,overlap", [("recursive", 0), ("recursive", 32), ("fixed", 0), ("fixed", 64)])
def test_zero_over_budget_on_clinical_samples(tok, strategy, overlap):
    for p in sample_paths():
        doc = norishiro.load_document(p)
        chunks = norishiro.chunk(doc, size=256, overlap=overlap, strategy=strategy, tokenizer=tok)
        check_chunks(doc.text, chunks, 256, tiktoken_count(tok), overlap)
        assert max(c.size for c in chunks) <= 256


def test_fixed_token_windows_never_produce_replacement_chars():
    text = "".join(norishiro.load_document(p).text for p in sample_paths()[:3])
    for c in norishiro.chunk(text, size=64, overlap=8, strategy="fixed", unit="tokens"):
        assert "\ufffd" not in c.text
        assert text[c.start : c.end] == c.text


def test_fixed_window_count_near_plan():
    doc = norishiro.load_document(sample_paths()[0])
    sizer = get_sizer("tokens", "o200k_base")
    T = sizer.count(doc.text)
    est = plan(T, 128, 16)
    got = norishiro.chunk(doc, size=128, overlap=16, strategy="fixed", unit="tokens")
    assert abs(len(got) - est.chunks) <= max(2, est.chunks // 10)


def test_hf_tokenizer_json(tmp_path):
    from tokenizers import Tokenizer, models, pre_tokenizers

    tok = Tokenizer(models.WordLevel({"[UNK]": 0, "a": 1, "b": 2}, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    path = tmp_path / "tokenizer.json"
    tok.save(str(path))
    text = "a b a b. " * 30
    chunks = norishiro.chunk(text, size=10, unit="tokens", tokenizer=str(path))
    sizer = get_sizer("tokens", str(path))
    check_chunks(text, chunks, 10, sizer.count)


def test_unknown_tokenizer_path_is_a_clear_error():
    with pytest.raises(ValueError, match="no such file"):
        norishiro.chunk("x", size=5, unit="tokens", tokenizer="/no/such/tokenizer.json")


@pytest.mark.parametrize("name", ["o200k_base", "cl100k_base"])
def test_character_starts_per_token_match_the_token_bytes(name):
    from norishiro.core.measure import _token_char_starts

    enc, table = get_encoding(name), _token_char_starts(name)
    assert len(table) == len(enc._mergeable_ranks)  # every ordinary token, ids 0..n-1
    for i in range(0, len(table), 7):
        assert table[i] == sum(1 for b in enc.decode_single_token_bytes(i) if b & 0xC0 != 0x80), i


def test_rank_table_is_cached_on_disk_and_works_without_a_writable_cache(tmp_path, monkeypatch):
    from norishiro.core import tokenizers_offline as tk

    monkeypatch.setenv("NORISHIRO_CACHE_DIR", str(tmp_path / "cache"))
    tk.rank_table.cache_clear()
    first = tk.rank_table("cl100k_base")
    files = list((tmp_path / "cache" / "tiktoken").glob("cl100k_base-*.npz"))
    assert len(files) == 1
    # a file of another install (another key) is removed when a new one is written
    stale = files[0].with_name("cl100k_base-1-2.npz")
    stale.write_bytes(b"old")
    files[0].unlink()
    tk.rank_table.cache_clear()
    tk.rank_table("cl100k_base")
    assert not stale.exists() and len(list(stale.parent.glob("cl100k_base-*.npz"))) == 1
    tk.rank_table.cache_clear()
    again = tk.rank_table("cl100k_base")  # read back from the file
    assert again[0] == first[0] and again[1] == first[1] and (again[2] == first[2]).all()
    # the token -> rank dictionary is kept beside it, and read back equal
    tk._bundled_ranks.cache_clear()
    built = tk._bundled_ranks("cl100k_base")[1]
    assert len(list((tmp_path / "cache" / "tiktoken").glob("cl100k_base-*.marshal"))) == 1
    tk._bundled_ranks.cache_clear()
    assert tk._bundled_ranks("cl100k_base")[1] == built
    for bad in (b"\x00garbage", __import__("marshal").dumps({b"a": 1})):  # broken, or another table
        next((tmp_path / "cache" / "tiktoken").glob("cl100k_base-*.marshal")).write_bytes(bad)
        tk._bundled_ranks.cache_clear()
        assert tk._bundled_ranks("cl100k_base")[1] == built
    tk._bundled_ranks.cache_clear()
    ro = tmp_path / "ro"
    ro.write_text("a file where the cache folder would be")  # mkdir fails: parsed, not cached
    monkeypatch.setenv("NORISHIRO_CACHE_DIR", str(ro))
    tk.rank_table.cache_clear()
    assert tk.rank_table("cl100k_base")[0] == first[0]
    tk.rank_table.cache_clear()


def test_the_sizer_gives_tiktokens_tokens_short_and_long():
    from norishiro.core import measure

    sizer = measure.TiktokenSizer("o200k_base")
    unit = "日本語の文です。English words, numbers 12345 and emoji 👍🏽 <|endoftext|>. "
    for text in (unit[:7], unit, (unit * 5000)[:200_010]):
        m = sizer.measure(text)  # tokenized by bpe-openai (when it loads)
        ref = sizer.encoding.encode_ordinary(text)  # tiktoken itself
        assert len(m.ends) == len(ref) and m.ends[-1] == len(text)
        assert m.count(0, len(text)) == sizer.count(text) == len(ref)


def test_a_token_sizer_pickles_by_name():
    """Worker processes get a sizer by pickle: by its name, with its own tokenizer there."""
    import pickle

    from norishiro.core.measure import TiktokenSizer

    sizer = TiktokenSizer("cl100k_base")
    data = pickle.dumps(sizer)
    back = pickle.loads(data)
    assert len(data) < 1000 and back.name == "cl100k_base"
    assert back.count("日本語の文です。 hello") == sizer.count("日本語の文です。 hello")


def test_token_mode_loads_neither_tiktoken_nor_the_bpe_openai_package():
    """Start-up: the Rust tokenizer's native module is loaded alone (the package's import
    builds every model's table through tiktoken, most of a second), and tiktoken is not
    built; a later import of the package still works, with the same module."""
    import subprocess
    import sys

    code = (
        "import sys, norishiro\n"
        "from norishiro.core.tokenizers_offline import fast_tokenizer\n"
        "if fast_tokenizer('o200k_base') is None: print('no native module'); raise SystemExit\n"
        "chunks = norishiro.chunk('短い文です。' * 3, size=4, tokenizer='o200k_base')\n"
        "print(len(chunks), 'bpe_openai' in sys.modules, 'tiktoken' in sys.modules)\n"
        "import bpe_openai\n"
        "print(bpe_openai.get_encoding('o200k_base').encode('hello world') == [24912, 2375])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    if out.startswith("no native module"):  # pragma: no cover - a platform without the binary
        return
    assert out.split() == ["6", "False", "False", "True"], out


def test_without_the_rust_tokenizer_tiktoken_gives_the_same_chunks():
    import subprocess
    import sys

    code = (
        "import json, norishiro\n"
        "text = open('tests/data/ja-clinical/s01_discharge_pneumonia.md', encoding='utf-8').read()\n"
        "print(json.dumps([(c.start, c.end) for c in norishiro.chunk(text, size=128, tokenizer='o200k_base')]))\n"
    )
    root = Path(__file__).resolve().parent.parent
    runs = [
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root, env=env
        ).stdout
        for env in (dict(os.environ), dict(os.environ, NORISHIRO_NO_FAST_BPE="1"))
    ]
    assert runs[0] == runs[1] and len(json.loads(runs[0])) > 5


def test_token_packing_of_text_that_lost_its_lines_is_the_same_without_the_wide_window_first():
    """The packer reads the line level's wide window first where a text lost its lines, and
    skips the near one when that is empty and no glued row can begin there: the same spans
    as reading the near window first (the shortcut switched off)."""
    import random
    from unittest import mock

    from norishiro.core import packer
    from norishiro.core.measure import TiktokenSizer
    from norishiro.core.packer import Packer

    sizer = TiktokenSizer("o200k_base")
    rng = random.Random(5)
    pieces = ["The scan was normal. ", "Impression: stable. ", "1. Rest. ", "【所見】", "異常なし。", "|| a || b |"]
    pieces += ["BP 120/80mmHg", "Na 140mEq/LCRP 3 ", "2026/1/10\t", "words go on and on ", "S）改善。"]
    for _ in range(40):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(10, 80)))
        m = sizer.measure(text)
        for size in (16, 40):
            got = list(Packer(text, m, size).spans())
            with mock.patch.object(packer, "no_newline", lambda text, lo, hi: False):
                want = list(Packer(text, m, size).spans())
            assert got == want, (text, size)


def test_the_last_candidate_within_an_estimate_is_the_searched_one():
    """``last_within`` (two look-ups in the index) answers what estimating every candidate
    does: the last one whose estimate is within the budget, also where the index's last end
    falls short of the text's end (a tokenizer that leaves trailing spaces out)."""
    import random

    from norishiro.core.measure import TiktokenSizer, TokenIndexMeasure

    sizer = TiktokenSizer("o200k_base")
    rng = random.Random(2)
    pieces = ["word ", "日本語。", "  ", "\n", "x", "123", "é", "😀"]
    for k in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 40)))
        m = sizer.measure(text)
        if k % 3 == 0:  # an index that stops before the text does
            m = TokenIndexMeasure(text, [e for e in m.ends if e < len(text) - 2], len)
        n = len(text)
        s = rng.randint(0, n - 1)
        cands = sorted({rng.randint(s + 1, n) for _ in range(rng.randint(1, 10))})
        budget = rng.randint(-2, 30)
        want = max([i for i, c in enumerate(cands) if m.estimate(s, c) <= budget], default=-1)
        assert m.last_within(s, cands, budget) == want, (text, s, cands, budget)


def test_one_token_sizer_serves_threads():
    """The web app and thread pools share a sizer (and its native tokenizer) across threads."""
    from concurrent.futures import ThreadPoolExecutor

    text = (Path(__file__).parent / "data" / "ja-clinical" / "s01_discharge_pneumonia.md").read_text(encoding="utf-8")
    spans = lambda _=None: [(c.start, c.end) for c in norishiro.chunk(text, size=64, tokenizer="o200k_base")]  # noqa: E731
    ref = spans()
    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(spans, range(12))) == [ref] * 12
