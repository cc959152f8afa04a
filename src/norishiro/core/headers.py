"""Context headers: whose, when and which section, in front of each chunk.

The header goes into ``embed_text`` (what is embedded), never into the chunk's text, and it
counts against the chunk's budget.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import OptionError

__all__ = ["HeaderRenderer"]


def _display_key(key: str) -> str:
    return "_".join("ID" if p.lower() == "id" else p[:1].upper() + p[1:] for p in key.split("_"))


class HeaderRenderer:
    """Renders the context header for a chunk from document metadata and its section path.

    Default format: ``(Metadata: Patient_ID=12345, Date=2026-02-18,
    Section=Assessment)`` and a newline. ``section`` means the section path (joined with
    " > "); keys missing from the metadata are left out. A ``template`` is a Python format
    string over the metadata keys plus ``section`` and ``headings``.
    """

    def __init__(self, keys: Sequence[str] | None, template: str | None = None):
        self.keys = [k.strip() for k in (keys or []) if k.strip()]
        self.template = template
        self.active = bool(self.keys) or bool(self.template)  # a header is rendered at all

    def render(self, metadata: dict[str, Any], headings: Sequence[str]) -> str:
        if not self.active:
            return ""
        section = " > ".join(headings)
        values = {**{str(k): v for k, v in metadata.items()}, "section": section, "headings": section}
        if self.template:
            try:
                out = self.template.format_map(_Default(values))
            except (ValueError, IndexError, AttributeError, KeyError, TypeError) as e:
                raise OptionError(
                    "header_template",
                    self.template,
                    "a format string over metadata keys such as '[{patient_id}] {section}'",
                    f"{type(e).__name__}: {e}",
                ) from None
            return out if out.endswith("\n") else out + "\n"
        parts = [f"{_display_key(k)}={values[k]}" for k in self.keys if values.get(k) not in (None, "")]
        return f"(Metadata: {', '.join(parts)})\n" if parts else ""


class _Default(dict):
    def __missing__(self, key: str) -> str:
        return ""
