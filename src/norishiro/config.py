"""One validated shape for the chunking options, shared by the library, CLI, web page,
evaluation, the process pool and Ray.

A :class:`ChunkConfig` is frozen, checked once when it is made, and JSON-able
(``to_dict``/``from_dict``), so it can travel to worker processes and be written next to
results. Runtime objects that cannot travel (a tokenizer callable, an embedder instance,
a cache) are passed beside it, never inside it.
"""

from __future__ import annotations

import dataclasses
import json
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import OptionError

__all__ = [
    "ChunkConfig",
    "SemanticConfig",
    "BREAKPOINT_METHODS",
    "UNITS",
    "DEFAULT_MODEL",
    "DEFAULT_OLLAMA_URL",
    "DEFAULT_KEY_ENV",
    "DEFAULT_TOKENIZER",
]

DEFAULT_MODEL = "embeddinggemma"
DEFAULT_OLLAMA_URL = "http://localhost:11434"
# the environment variable an OpenAI-compatible server's key is read from (never a flag's value)
DEFAULT_KEY_ENV = "OPENAI_API_KEY"
DEFAULT_TOKENIZER = "o200k_base"
BREAKPOINT_METHODS = ("percentile", "stdev", "interquartile", "gradient", "threshold")
# unit names accepted, and the unit each means
UNITS = {"chars": "chars", "characters": "chars", "char": "chars", "tokens": "tokens", "token": "tokens"}


def _whole(option: str, value: Any, minimum: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise OptionError(option, value, f"a whole number >= {minimum}")


def _pairs(value: Any) -> tuple[tuple[str, str], ...]:
    """(variant, canonical) pairs from pairs or a mapping canonical -> [variants]."""
    from .core.canonical import section_map_pairs

    if isinstance(value, Mapping):
        return section_map_pairs(value)
    try:
        pairs = tuple((str(a), str(b)) for a, b in value)
    except (TypeError, ValueError):
        raise OptionError("section_map", value, "(variant, canonical name) pairs") from None
    return pairs


def _names(option: str, value: Any) -> tuple[str, ...]:
    """A list of names from a list or a comma-separated string."""
    if value is None:
        return ()
    if isinstance(value, str):
        value = value.split(",")
    if not isinstance(value, (list, tuple)) or not all(isinstance(x, str) for x in value):
        raise OptionError(option, value, "a list of names or a comma-separated string")
    return tuple(x.strip() for x in value if x.strip())


@dataclass(frozen=True)
class SemanticConfig:
    """Options of the semantic chunker.

    ``embedder``: ``local`` (offline e5-small), ``hash`` / ``hash:DIM`` (lexical, no model)
    or ``ollama:MODEL`` (at ``ollama_url``); ``method`` and ``param``: how similarity dips
    become cuts; ``window``: neighbours embedded with each sentence; ``min_size``: groups
    smaller than this merge into their more similar neighbour (default size // 8).
    """

    embedder: str = "local"
    method: str = "percentile"
    param: float | None = None
    window: int = 0
    min_size: int | None = None
    ollama_url: str = DEFAULT_OLLAMA_URL

    def __post_init__(self) -> None:
        if not isinstance(self.embedder, str) or not self.embedder:
            raise OptionError("semantic.embedder", self.embedder, "local, hash or ollama:MODEL")
        if self.method not in BREAKPOINT_METHODS:
            raise OptionError("semantic.method", self.method, "one of " + ", ".join(BREAKPOINT_METHODS))
        if self.param is not None:
            if isinstance(self.param, bool) or not isinstance(self.param, (int, float)) or self.param != self.param:
                raise OptionError("semantic.param", self.param, "a number")
            object.__setattr__(self, "param", float(self.param))
        _whole("semantic.window", self.window, 0)
        if self.min_size is not None:
            _whole("semantic.min_size", self.min_size, 1)


@dataclass(frozen=True)
class ChunkConfig:
    """How to chunk: budget, strategy, unit, structure and context header.

    ``unit`` defaults to ``tokens`` when a ``tokenizer`` is named and ``chars`` otherwise;
    ``unit="chars"`` together with a tokenizer is refused (say ``unit="tokens"``).
    ``structure`` (the default for strings and documents alike): sections are not crossed
    unless ``cross_sections``, code, tables and lists stay whole; ``structure=False`` treats
    the text as plain. ``balance`` (recursive): when what is left of a section needs at most
    four chunks, they share it evenly instead of ending in a short chunk; ``False`` fills
    every chunk as far as the budget allows. ``sections_include`` / ``sections_exclude``:
    canonical section names (``history_of_present_illness``) or headings as written, to
    chunk only some sections; ``section_map``: more (variant, canonical name) pairs for the
    table of section names. ``deid``: identifiers in ``embed_text`` become surrogates
    (``norishiro.deid``); ``deid_rules`` adds (class, pattern) rules and ``deid_allow`` words
    that are no names; ``deid_dates``: other dates kept, shifted per patient, or coarsened
    to the month.
    """

    size: int = 512
    overlap: int = 0
    strategy: str = "recursive"
    unit: str | None = None
    tokenizer: str | None = None
    header_keys: tuple[str, ...] = ()
    header_template: str | None = None
    structure: bool = True
    cross_sections: bool = False
    balance: bool = True
    section_labels: tuple[str, ...] = ()
    sections_include: tuple[str, ...] = ()
    sections_exclude: tuple[str, ...] = ()
    section_map: tuple[tuple[str, str], ...] = ()
    deid: bool = False
    deid_rules: tuple[tuple[str, str], ...] = ()
    deid_allow: tuple[str, ...] = ()
    deid_dates: str = "keep"
    semantic: SemanticConfig = field(default_factory=SemanticConfig)

    def __post_init__(self) -> None:
        _whole("size", self.size, 1)
        _whole("overlap", self.overlap, 0)
        if self.overlap >= self.size:
            raise OptionError(
                "overlap", self.overlap, f"less than size ({self.size})", "a typical overlap is 10-20% of the size"
            )
        from .chunkers import chunker_names

        if self.strategy not in chunker_names():
            raise OptionError("strategy", self.strategy, "one of " + ", ".join(chunker_names()))
        if self.tokenizer is not None and not isinstance(self.tokenizer, str):
            raise OptionError(
                "tokenizer",
                self.tokenizer,
                "a tokenizer name or a tokenizer.json path",
                "pass a callable or sizer object to chunk() as tokenizer= instead",
            )
        tokenizer = self.tokenizer or None
        unit = self.unit
        if unit is None:
            unit = "tokens" if tokenizer else "chars"
        if unit not in UNITS:
            raise OptionError("unit", unit, "chars or tokens")
        unit = UNITS[unit]
        if unit == "chars" and tokenizer:
            raise OptionError(
                "unit",
                unit,
                "tokens when a tokenizer is given",
                f"drop the tokenizer to count characters, or count tokens of {tokenizer}",
            )
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "tokenizer", tokenizer)
        object.__setattr__(self, "header_keys", _names("header_keys", self.header_keys))
        object.__setattr__(self, "section_labels", _names("section_labels", self.section_labels))
        for name in ("sections_include", "sections_exclude"):
            object.__setattr__(self, name, _names(name, getattr(self, name)))
        object.__setattr__(self, "section_map", _pairs(self.section_map))
        if (self.sections_include or self.sections_exclude) and not self.structure:
            raise OptionError(
                "sections_include" if self.sections_include else "sections_exclude",
                ",".join(self.sections_include or self.sections_exclude),
                "sections, which plain text (structure off) does not have",
                "leave structure on to choose sections",
            )
        if self.header_template is not None and not isinstance(self.header_template, str):
            raise OptionError("header_template", self.header_template, "a format string")
        object.__setattr__(self, "deid_allow", _names("deid_allow", self.deid_allow))
        try:
            object.__setattr__(self, "deid_rules", tuple((str(c), str(p)) for c, p in self.deid_rules))
        except (TypeError, ValueError):
            raise OptionError("deid_rules", self.deid_rules, "(class, pattern) pairs") from None
        if self.deid_dates not in ("keep", "shift", "coarsen"):
            raise OptionError("deid_dates", self.deid_dates, "keep, shift or coarsen")
        for name in ("structure", "cross_sections", "balance", "deid"):
            if not isinstance(getattr(self, name), bool):
                raise OptionError(name, getattr(self, name), "true or false")
        if isinstance(self.semantic, Mapping):
            object.__setattr__(self, "semantic", SemanticConfig(**self.semantic))
        if not isinstance(self.semantic, SemanticConfig):
            raise OptionError("semantic", self.semantic, "a SemanticConfig or a mapping of its fields")

    def replace(self, **changes: Any) -> ChunkConfig:
        """A copy with some fields changed (validated again)."""
        if "tokenizer" in changes and "unit" not in changes:
            changes["unit"] = None  # let the unit follow the tokenizer again
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["header_keys"] = list(self.header_keys)
        d["section_labels"] = list(self.section_labels)
        d["sections_include"] = list(self.sections_include)
        d["sections_exclude"] = list(self.sections_exclude)
        d["section_map"] = [list(p) for p in self.section_map]
        d["deid_rules"] = [list(p) for p in self.deid_rules]
        d["deid_allow"] = list(self.deid_allow)
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ChunkConfig:
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise OptionError(unknown[0], data[unknown[0]], "one of the options " + ", ".join(sorted(known)))
        return cls(**dict(data))

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> ChunkConfig:
        return cls.from_dict(json.loads(text))

    @classmethod
    def from_spec(cls, spec: str) -> ChunkConfig:
        """``"recursive size=256 overlap=0.1 unit=tokens method=stdev"``: a strategy, then
        ``key=value`` words; an overlap below 1 is a share of the size; semantic options
        (embedder, method, param, window, min_size) may stand at the top level."""
        words = shlex.split(spec)
        if not words:
            raise OptionError("config", spec, "a strategy followed by key=value words")
        kv: dict[str, Any] = {"strategy": words[0]}
        sem: dict[str, Any] = {}
        sem_fields = {f.name: f for f in dataclasses.fields(SemanticConfig)}
        for w in words[1:]:
            k, sep, v = w.partition("=")
            if not sep:
                raise OptionError("config", w, "key=value")
            if k in sem_fields:
                sem[k] = v if k in ("embedder", "method", "ollama_url") else (float(v) if k == "param" else int(v))
            else:
                kv[k] = v
        if "size" not in kv:
            raise OptionError("size", None, "a size= word in the configuration")
        try:
            size = int(kv["size"])
            ov = float(kv.get("overlap", 0))
        except ValueError as e:
            raise OptionError("size", kv["size"], "whole numbers for size and overlap") from e
        kv["size"] = size
        kv["overlap"] = int(round(ov * size)) if 0 < ov < 1 else int(ov)
        for k in ("structure", "cross_sections", "balance", "deid"):
            if k in kv:
                kv[k] = str(kv[k]).lower() in ("1", "true", "yes")
        if sem:
            kv["semantic"] = SemanticConfig(**sem)
        return cls.from_dict(kv)

    @property
    def label(self) -> str:
        """A readable one-line description (the inverse of :meth:`from_spec`)."""
        parts = [self.strategy, f"size={self.size}", f"overlap={self.overlap}", f"unit={self.unit}"]
        if self.tokenizer:
            parts.append(f"tokenizer={self.tokenizer}")
        default = ChunkConfig()
        for name in (
            "header_keys",
            "header_template",
            "structure",
            "cross_sections",
            "balance",
            "section_labels",
            "sections_include",
            "sections_exclude",
            "deid",
        ):
            v = getattr(self, name)
            if v != getattr(default, name):
                parts.append(f"{name}={','.join(v) if isinstance(v, tuple) else v}")
        plain = SemanticConfig()
        parts += [f"{k}={v}" for k, v in vars(self.semantic).items() if v != getattr(plain, k)]
        return " ".join(parts)
