"""norishiro: chunk documents for RAG without cutting the facts inside them apart."""

from __future__ import annotations

from .api import chunk, iter_chunks, segment
from .chunk import Chunk
from .config import ChunkConfig, SemanticConfig
from .core.boundaries import Level
from .document import Document, DocumentError
from .errors import ContextHeaderError, NorishiroError, OptionError
from .loaders import load_document

__version__ = "0.1.0"

__all__ = [
    "chunk",
    "iter_chunks",
    "segment",
    "Chunk",
    "ChunkConfig",
    "SemanticConfig",
    "Document",
    "DocumentError",
    "OptionError",
    "ContextHeaderError",
    "NorishiroError",
    "Level",
    "load_document",
    "__version__",
]
