"""tiktoken encodings with nothing downloaded at run time.

tiktoken fetches its BPE rank files from the internet on first use, which fails on closed
networks (hospitals, CI sandboxes). The ``bpe-openai`` wheel ships ``o200k_base`` and
``cl100k_base`` rank files (gzip) whose contents are byte-identical to what tiktoken
downloads. We decompress them, check their sha256 against the hash tiktoken itself pins in
``tiktoken_ext.openai_public``, and hand the ranks to tiktoken's own constructor, so pattern
and special tokens are exactly tiktoken's and no cache directory is written.
"""
from __future__ import annotations

import base64
import gzip
import hashlib
import importlib.util
import os
import threading
from functools import lru_cache

SUPPORTED = ("o200k_base", "cl100k_base")
_lock = threading.Lock()


class OfflineTokenizerError(RuntimeError):
    pass


def _bundled_rank_file(name: str) -> str:
    # locate the package without importing it (its import loads a large native library)
    spec = importlib.util.find_spec("bpe_openai")
    if spec is None or not spec.submodule_search_locations:
        raise OfflineTokenizerError(
            "the bpe-openai package is needed for offline tiktoken encodings: pip install bpe-openai")
    path = os.path.join(list(spec.submodule_search_locations)[0], "data", f"{name}.tiktoken.gz")
    if not os.path.exists(path):
        raise OfflineTokenizerError(f"bpe-openai has no rank file for {name} at {path}")
    return path


def _load_ranks(blobpath: str, expected_hash: str | None = None) -> dict[bytes, int]:
    name = os.path.basename(blobpath).removesuffix(".tiktoken")
    if name not in SUPPORTED:
        raise OfflineTokenizerError(f"no bundled rank file for {blobpath}")
    with gzip.open(_bundled_rank_file(name), "rb") as f:
        data = f.read()
    if expected_hash and hashlib.sha256(data).hexdigest() != expected_hash:
        raise OfflineTokenizerError(
            f"bundled {name} ranks do not match tiktoken's pinned sha256 {expected_hash}"
        )
    ranks = {}
    for line in data.splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    return ranks


@lru_cache(maxsize=None)
def get_encoding(name: str):
    """Return a ``tiktoken.Encoding`` for ``o200k_base`` or ``cl100k_base`` built offline."""
    if name not in SUPPORTED:
        raise ValueError(f"unknown encoding {name!r}; offline encodings: {', '.join(SUPPORTED)}")
    import tiktoken
    from tiktoken_ext import openai_public

    with _lock:
        original = openai_public.load_tiktoken_bpe
        openai_public.load_tiktoken_bpe = _load_ranks
        try:
            kwargs = openai_public.ENCODING_CONSTRUCTORS[name]()
        finally:
            openai_public.load_tiktoken_bpe = original
    return tiktoken.Encoding(**kwargs)


@lru_cache(maxsize=None)
def fast_tokenizer(name: str):
    """bpe-openai's Rust tokenizer for ``name`` (same tokens as tiktoken, encodes and counts
    faster), or None when the native module cannot be loaded."""
    if name not in SUPPORTED or os.environ.get("NORISHIRO_NO_FAST_BPE"):
        return None
    try:
        from bpe_openai import _bindings
    except Exception:  # pragma: no cover - a platform without the wheel's binary
        return None
    return _bindings.tokenizer_for_encoding(name)
