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
import importlib.util
import os
import threading
from functools import cache

SUPPORTED = ("o200k_base", "cl100k_base")
_lock = threading.Lock()


class OfflineTokenizerError(RuntimeError):
    pass


def _bundled_rank_file(name: str) -> str:
    # locate the package without importing it (its import loads a large native library)
    spec = importlib.util.find_spec("bpe_openai")
    if spec is None or not spec.submodule_search_locations:
        raise OfflineTokenizerError(
            "the bpe-openai package is needed for offline tiktoken encodings: pip install bpe-openai"
        )
    path = os.path.join(list(spec.submodule_search_locations)[0], "data", f"{name}.tiktoken.gz")
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
    return dict(ranks)


@cache
def _bundled_ranks(name: str) -> tuple[str, dict[bytes, int]]:
    """The sha256 of the bundled rank file and its token bytes -> rank (read once)."""
    with gzip.open(_bundled_rank_file(name), "rb") as f:
        data = f.read()
    a2b = binascii.a2b_base64
    ranks = {}
    for line in data.splitlines():
        if line:
            token, rank = line.split()
            ranks[a2b(token)] = int(rank)
    return hashlib.sha256(data).hexdigest(), ranks


def token_bytes(name: str) -> list[bytes]:
    """The bytes of every ordinary token of ``name``, indexed by token id (rank), from the
    bundled rank file checked against tiktoken's pinned sha256 (no ``Encoding`` built)."""
    ranks = _construct(name, _load_ranks)["mergeable_ranks"]
    out = [b""] * (max(ranks.values()) + 1)
    for tok, rank in ranks.items():
        out[rank] = tok
    return out


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
    faster), or None when the native module cannot be loaded."""
    if name not in SUPPORTED or os.environ.get("NORISHIRO_NO_FAST_BPE"):
        return None
    try:
        from bpe_openai import _bindings
    except Exception:  # pragma: no cover - a platform without the wheel's binary
        return None
    return _bindings.tokenizer_for_encoding(name)
