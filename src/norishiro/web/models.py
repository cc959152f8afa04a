"""What the page may send: strict request models (wrong types are refused, never coerced)."""

from __future__ import annotations

from typing import Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field

from ..config import DEFAULT_MODEL, DEFAULT_OLLAMA_URL

__all__ = ["ChunkRequest", "RowsRequest", "LoadRequest", "CountRequest", "PlanRequest", "SearchRequest"]


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore")


class _PageRequest(_Strict):
    """A text to look at and how to export its chunks (wrong types are refused, never coerced)."""

    text: str = ""
    front_matter: bool = True
    model: str = DEFAULT_MODEL
    ollama_url: str = DEFAULT_OLLAMA_URL
    truncate: bool = False


class ChunkRequest(_PageRequest):
    """What the page sends to /api/chunk."""

    size: int = Field(300, ge=1, le=1_000_000)
    overlap: int = Field(0, ge=0)
    unit: Literal["chars", "tokens"] = "chars"
    tokenizer: Optional[str] = None
    strategy: str = "recursive"
    header_keys: str = ""
    metadata: dict[str, Union[str, int, float, bool, None]] = {}
    deid: bool = False
    pages: Optional[list[int]] = None  # where each page begins, as /api/load gave them
    outline: Optional[list[int]] = None  # where the loader wrote heading lines


class LoadRequest(_Strict):
    """A file picked in the page (PDF, HTML, Word, text), base64-encoded in JSON."""

    name: str = Field("upload.txt", max_length=255)
    data: str = ""  # base64
    format: Optional[str] = None
    password: Optional[str] = None


class RowsRequest(_PageRequest):
    """Chunks made elsewhere (``norishiro chunk`` JSONL) to look at against their text."""

    rows: str = ""


class CountRequest(_Strict):
    text: str = ""
    tokenizer: str = "o200k_base"


class PlanRequest(_Strict):
    tokens: int = Field(0, ge=0)
    size: int = Field(512, ge=1)
    overlap: int = Field(0, ge=0)


class SearchRequest(_Strict):
    """A question for the index that ``serve --index`` opened."""

    query: str = Field(..., min_length=1, max_length=10_000)
    k: int = Field(5, ge=1, le=100)
