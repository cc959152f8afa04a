"""How big a piece of text is: characters, tiktoken tokens, Hugging Face tokens, or any callable.

A *sizer* is a unit (characters, a tokenizer); its *measure* of one text answers every
size question about spans of that text. A chunk's size is always the exact count of the
chunk's own text: BPE counts are not additive, so summing piece counts (as several peers
do) overflows the budget. To stay fast, a token measure *indexes* the whole text once: that
gives a cheap, nearly exact estimate of where a budget runs out, and the packer then
verifies its choice with one exact count. For the tiktoken encodings that exact count comes from the
index too: only the two ends of a span, up to a position where the encoding's pieces
provably cannot join across, are tokenized again (``TiktokenMeasure.count``).
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Protocol

from ..config import DEFAULT_TOKENIZER, UNITS
from ..errors import OptionError
from . import compiled
from .token_index import TiktokenMeasure, TokenIndexMeasure

if TYPE_CHECKING:  # numpy is imported where a token index is made: character mode never loads it
    import numpy as np

__all__ = [
    "Measure",
    "Sizer",
    "CharMeasure",
    "TokenIndexMeasure",
    "TiktokenMeasure",
    "CallableMeasure",
    "CharSizer",
    "TiktokenSizer",
    "HFTokenizerSizer",
    "CallableSizer",
    "get_sizer",
]


class Measure(Protocol):
    """The size of any span of one text, and where a budget runs out in it.

    ``count`` is exact. ``estimate``/``reach``/``back`` come from an index of the whole
    text and are cheap; they are ``None`` for a measure without an index (a plain
    callable), and *exact* when ``exact_index`` is true (characters), in which case the
    packer needs no verification count at all.
    """

    unit: str
    exact_index: bool

    def count(self, start: int, end: int, head: str = "") -> int:
        """Exactly the size of ``head + text[start:end]``."""
        ...

    def count_text(self, text: str) -> int:
        """Exactly the size of a free text (a header alone)."""
        ...

    def estimate(self, start: int, end: int) -> int | None: ...

    def reach(self, start: int, budget: int) -> int | None:
        """Estimated largest ``end`` with ``estimate(start, end) <= budget``."""
        ...

    def back(self, end: int, budget: int) -> int | None:
        """Estimated smallest ``start`` with ``estimate(start, end) <= budget``."""
        ...


class Sizer(Protocol):
    """A unit of size (characters, a tokenizer): counts texts and measures one text.
    ``context``: the model's window when the sizer knows it (a size above it is refused)."""

    name: str
    unit: str
    context: int | None

    def count(self, text: str) -> int: ...

    def measure(self, text: str) -> Measure: ...


class CharMeasure:
    """Characters: every count is exact from positions alone."""

    __slots__ = ("n",)
    unit = "chars"
    exact_index = True

    def __init__(self, text: str):
        self.n = len(text)

    def count(self, start: int, end: int, head: str = "") -> int:
        return len(head) + end - start

    def count_text(self, text: str) -> int:
        return len(text)

    def estimate(self, start: int, end: int) -> int:
        return end - start

    def reach(self, start: int, budget: int) -> int:
        return min(self.n, start + budget)

    def back(self, end: int, budget: int) -> int:
        return max(0, end - budget)


class CharSizer:
    """Size in Unicode code points (Python ``len``), the unit offsets use."""

    name = "chars"
    unit = "chars"
    context = None

    def count(self, text: str) -> int:
        return len(text)

    def measure(self, text: str) -> CharMeasure:
        return CharMeasure(text)


class TiktokenSizer:
    """Tokens of a tiktoken encoding (``o200k_base``, ``cl100k_base``), loaded offline.

    Texts are tokenized and counted by bpe-openai's Rust tokenizer, which gives tiktoken's
    tokens (a property test holds them to each other) faster and loads in about 0.1 s;
    tiktoken itself (about 0.4 s to build) is loaded only where that tokenizer cannot be
    (``NORISHIRO_NO_FAST_BPE``, a platform without its binary) or when ``encoding`` is
    asked for.
    """

    unit = "tokens"
    context = None

    def __init__(self, encoding_name: str = "o200k_base"):
        from .tokenizers_offline import fast_tokenizer

        self.name = encoding_name
        fast = fast_tokenizer(encoding_name)  # None for an unknown name: get_encoding says so
        if fast is not None:
            self._encode = fast.encode
            self.count = fast.count  # the packer counts often: no Python frame in between
        else:
            self._encode = self.encoding.encode_ordinary

    def __reduce__(self):
        # by name: a worker process loads its own tokenizer (the native one cannot be pickled)
        return (type(self), (self.name,))

    @property
    def encoding(self):
        """The ``tiktoken.Encoding`` (built offline on first use)."""
        from .tokenizers_offline import get_encoding

        return get_encoding(self.name)

    def count(self, text: str) -> int:
        return len(self._encode(text))

    def measure(self, text: str) -> TiktokenMeasure:
        if not text:
            return TiktokenMeasure(text, [], self.count)
        tokens = self._encode(text)
        # characters that start inside tokens 0..i = the character offset where token i ends
        # (a token that ends inside a multi-byte character rounds up to the character's end)
        char_ends = array("q")  # as TokenIndexMeasure keeps its index: 64-bit ends, no int per token
        if compiled.active() and type(tokens) is list:
            char_ends.frombytes(compiled.native.token_ends(tokens, _token_char_starts_bytes(self.name)))
        else:
            import numpy as np

            ids = np.asarray(tokens, dtype=np.int64)
            char_ends.frombytes(np.cumsum(_token_char_starts(self.name)[ids], dtype=np.int64).tobytes())
        return TiktokenMeasure(text, char_ends, self.count)


@cache
def _token_char_starts(encoding_name: str) -> np.ndarray:
    """For every token id, how many UTF-8 characters start inside its bytes."""
    from .tokenizers_offline import token_char_starts

    return token_char_starts(encoding_name)


@cache
def _token_char_starts_bytes(encoding_name: str) -> bytes:
    """``_token_char_starts``, a byte per token id, for the compiled running sum."""
    import numpy as np

    starts = _token_char_starts(encoding_name)
    if len(starts) and starts.max() > 255:  # pragma: no cover - no such encoding
        raise ValueError(f"{encoding_name}: a token holds more than 255 characters")
    return starts.astype(np.uint8).tobytes()


class HFTokenizerSizer:
    """Tokens of a Hugging Face ``tokenizer.json`` (via the ``tokenizers`` package).

    Counts content tokens only (no [CLS]/[SEP]): leave room for the model's special tokens
    in the size you choose, or name the model (or its folder) instead of the file, which
    counts them.
    """

    unit = "tokens"
    context = None

    def __init__(self, path: str):
        if not os.path.isfile(path):
            raise OptionError(
                "tokenizer", path, "o200k_base, cl100k_base or the path of a tokenizer.json file", "no such file"
            )
        from tokenizers import Tokenizer

        self.name = path
        try:
            self.tokenizer = Tokenizer.from_file(path)
        except Exception as e:  # the tokenizers package raises a bare Exception for bad files
            raise OptionError(
                "tokenizer",
                path,
                "a Hugging Face tokenizer.json file",
                f"it could not be read ({str(e).splitlines()[0][:120] if str(e) else type(e).__name__})",
            ) from None

    def count(self, text: str) -> int:
        return len(self.tokenizer.encode(text, add_special_tokens=False).ids)

    def measure(self, text: str) -> TokenIndexMeasure:
        enc = self.tokenizer.encode(text, add_special_tokens=False)
        ends = sorted({e for _, e in enc.offsets})
        return TokenIndexMeasure(text, ends, self.count)


class CallableMeasure:
    """Any ``str -> int`` function: no index, so the packer searches on exact counts."""

    __slots__ = ("text", "_count")
    unit = "tokens"
    exact_index = False

    def __init__(self, text: str, count: Callable[[str], int]):
        self.text = text
        self._count = count

    def count(self, start: int, end: int, head: str = "") -> int:
        return self._count(head + self.text[start:end])

    def count_text(self, text: str) -> int:
        return self._count(text)

    def estimate(self, start: int, end: int) -> None:
        return None

    def reach(self, start: int, budget: int) -> None:
        return None

    def back(self, end: int, budget: int) -> None:
        return None


class CallableSizer:
    """Any ``str -> int`` function as a unit of size."""

    unit = "tokens"
    context = None

    def __init__(self, fn: Callable[[str], int], name: str | None = None):
        self.fn = fn
        self.name = name or getattr(fn, "__name__", "callable")

    def count(self, text: str) -> int:
        return int(self.fn(text))

    def measure(self, text: str) -> CallableMeasure:
        return CallableMeasure(text, self.count)


def get_sizer(unit: str | None = None, tokenizer=None) -> Sizer:
    """Resolve ``unit``/``tokenizer`` (as in ``norishiro.chunk``) to a sizer.

    ``tokenizer`` may be ``o200k_base``, ``cl100k_base``, a path to ``tokenizer.json``, a
    model name in the local Hugging Face cache or a model folder (special tokens counted, the
    window known), ``local`` (the local embedder's own count), a callable ``str -> int``, or
    a ready sizer object; it implies ``unit="tokens"``, and
    ``unit="chars"`` with a tokenizer is an :class:`OptionError`.
    """
    if isinstance(tokenizer, os.PathLike):
        tokenizer = os.fspath(tokenizer)
    if tokenizer == "":
        tokenizer = None
    if unit is not None and unit not in UNITS:
        raise OptionError("unit", unit, "chars or tokens")
    unit = UNITS[unit] if unit else ("tokens" if tokenizer is not None else "chars")
    if unit == "chars":
        if tokenizer is not None:
            raise OptionError(
                "unit",
                "chars",
                "tokens when a tokenizer is given",
                "drop the tokenizer to count characters, or count in tokens",
            )
        return CharSizer()
    if tokenizer is not None and not isinstance(tokenizer, str):
        if hasattr(tokenizer, "measure") and hasattr(tokenizer, "count"):
            return tokenizer
        if callable(tokenizer):
            return CallableSizer(tokenizer)
        raise OptionError("tokenizer", tokenizer, "a name, a tokenizer.json path, a callable or a sizer")
    name = str(tokenizer or DEFAULT_TOKENIZER)
    if name in ("o200k_base", "cl100k_base"):
        return TiktokenSizer(name)
    if os.path.isfile(name):
        return HFTokenizerSizer(name)
    from .model_tokenizers import model_sizer

    return model_sizer(name)
