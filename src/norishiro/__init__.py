"""norishiro: chunk documents for RAG without cutting the facts inside them apart."""
from __future__ import annotations

from .api import ChunkOptionsError, chunk, iter_chunks, segment
from .boundaries import Level
from .chunk import Chunk
from .document import Document, DocumentError, load_document

__version__ = "0.1.0"

__all__ = [
    "chunk",
    "iter_chunks",
    "segment",
    "Chunk",
    "Document",
    "DocumentError",
    "ChunkOptionsError",
    "Level",
    "load_document",
    "__version__",
]
