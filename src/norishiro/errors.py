"""Library errors that carry fields, so each front end can phrase its own advice.

The library speaks of options by their names in :class:`~norishiro.config.ChunkConfig`
(``size``, ``header_keys``, ``semantic.embedder``); the CLI turns them into flags
(``--size``), the web page into form fields. No message here names a flag.
"""

from __future__ import annotations

from typing import Any

__all__ = ["NorishiroError", "OptionError", "ContextHeaderError"]


class NorishiroError(Exception):
    """Base of every error norishiro raises on purpose.

    ``stops_run``: the same error would meet every later document too (a server that is
    down), so a run over many documents should stop instead of repeating it.
    """

    stops_run = False


class OptionError(NorishiroError, ValueError):
    """An option value that cannot work.

    ``option``: the option's name (``size``, ``semantic.method``); ``value``: what was given;
    ``allowed``: what would be accepted, in words; ``hint``: what to do instead, if anything.
    """

    def __init__(self, option: str, value: Any, allowed: str, hint: str = ""):
        self.option = option
        self.value = value
        self.allowed = allowed
        self.hint = hint
        super().__init__(self.describe(option))

    def describe(self, name: str) -> str:
        """The message with the option called ``name`` (a flag, a field label ...)."""
        msg = f"{name} {self.value!r} is not allowed: expected {self.allowed}"
        return f"{msg}; {self.hint}" if self.hint else msg


class ContextHeaderError(NorishiroError, ValueError):
    """The context header of a document leaves too little room for its text.

    ``options`` are the settings that would fix it (``header_keys``, ``header_template``,
    ``size``); front ends name them in their own words.
    """

    options = ("header_keys", "header_template", "size")

    def __init__(self, doc_id: str, header: str, header_size: int, size: int, unit: str, keys: list[str]):
        self.doc_id = doc_id
        self.header = header
        self.header_size = header_size
        self.size = size
        self.unit = unit
        self.keys = keys
        super().__init__(self.describe({o: o.replace("_", " ") for o in self.options}))

    def describe(self, names: dict[str, str]) -> str:
        keys = ", ".join(self.keys) or "the template"
        return (
            f"{self.doc_id}: the context header takes {self.header_size} of {self.size} {self.unit} "
            f"({self.header.strip()!r}, keys: {keys}), leaving too little room for text; "
            f"drop keys from {names['header_keys']}, shorten {names['header_template']}, "
            f"or raise {names['size']}"
        )
