"""Where chunks go: one small interface for every output format.

A writer receives chunk rows (``Chunk.to_dict()``) one at a time and finishes on
``close()``. Stream writers write to a text stream; folder writers (Parquet) to a folder.
A new format is one class plus one line in ``WRITERS``.
"""

from __future__ import annotations

import json
from typing import Any, Protocol, TextIO

from ..config import DEFAULT_MODEL, DEFAULT_OLLAMA_URL
from .ollama import curl_command, ollama_body_json

__all__ = [
    "ChunkWriter",
    "WRITERS",
    "make_writer",
    "JsonlWriter",
    "JsonWriter",
    "TextWriter",
    "OllamaBodyWriter",
    "CurlWriter",
    "ParquetWriter",
]


class ChunkWriter(Protocol):
    to_folder: bool  # the target is a folder path, not a text stream

    def write(self, row: dict[str, Any]) -> None: ...

    def close(self) -> None:
        """Finish the output (a closing bracket, a body built from every row ...)."""
        ...

    def abort(self) -> None:
        """Stop without finishing: whatever the target held before stays."""
        ...


class _Stream:
    """A writer to a text stream (the caller makes the stream atomic)."""

    to_folder = False

    def __init__(self, out: TextIO, **_options: Any):
        self.out = out

    def close(self) -> None:
        pass

    def abort(self) -> None:
        pass


class JsonlWriter(_Stream):
    """One JSON object per line: ``doc_id, id, index, start, end, size, text, ...``."""

    def write(self, row: dict[str, Any]) -> None:
        self.out.write(json.dumps(row, ensure_ascii=False) + "\n")


class JsonWriter(_Stream):
    """One JSON array of chunk objects."""

    def __init__(self, out: TextIO, **_options: Any):
        super().__init__(out)
        self.first = True
        out.write("[")

    def write(self, row: dict[str, Any]) -> None:
        self.out.write(("\n" if self.first else ",\n") + json.dumps(row, ensure_ascii=False))
        self.first = False

    def close(self) -> None:
        self.out.write("\n]\n")


class TextWriter(_Stream):
    """For people: a line naming document, index, offsets and size, then the text."""

    def __init__(self, out: TextIO, unit: str = "chars", **_options: Any):
        super().__init__(out)
        self.unit = unit

    def write(self, row: dict[str, Any]) -> None:
        pages = ""
        if row.get("page_start") is not None:
            a, b = row["page_start"], row["page_end"]
            pages = f" p.{a}" if a == b else f" pp.{a}-{b}"
        self.out.write(
            f"--- {row['doc_id']} #{row['index']} [{row['start']}:{row['end']}]{pages} {row['size']} "
            f"{self.unit}\n{row['text']}\n"
        )


class OllamaBodyWriter(_Stream):
    """The ``/api/embed`` request body for every chunk's ``embed_text``."""

    def __init__(self, out: TextIO, model: str = DEFAULT_MODEL, truncate: bool = False, **_options: Any):
        super().__init__(out)
        self.model, self.truncate = model, truncate
        self.inputs: list[str] = []

    def write(self, row: dict[str, Any]) -> None:
        self.inputs.append(row["embed_text"])

    def render(self) -> str:
        return ollama_body_json(self.inputs, self.model, self.truncate)

    def close(self) -> None:
        self.out.write(self.render() + "\n")


class CurlWriter(OllamaBodyWriter):
    """A ready ``curl`` command that sends the body."""

    def __init__(
        self,
        out: TextIO,
        model: str = DEFAULT_MODEL,
        truncate: bool = False,
        ollama_url: str = DEFAULT_OLLAMA_URL,
        **_options: Any,
    ):
        super().__init__(out, model, truncate)
        self.url = ollama_url

    def render(self) -> str:
        return curl_command(self.inputs, self.model, self.truncate, self.url)


from .parquet import ParquetWriter  # noqa: E402  (imports pyarrow only when used)

WRITERS: dict[str, type] = {
    "jsonl": JsonlWriter,
    "json": JsonWriter,
    "text": TextWriter,
    "ollama": OllamaBodyWriter,
    "curl": CurlWriter,
    "parquet": ParquetWriter,
}


def make_writer(fmt: str, target: Any, **options: Any) -> ChunkWriter:
    """The writer for ``fmt`` on ``target`` (a text stream, or a folder for Parquet)."""
    return WRITERS[fmt](target, **options)
