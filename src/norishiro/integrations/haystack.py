"""A Haystack 2 component that cuts with norishiro (``pip install 'norishiro[haystack]'``).

Its output documents have what Haystack's ``DocumentSplitter`` gives (``source_id``,
``split_id``, ``split_idx_start``, ``page_number`` counted by form feeds, the source's
metadata) plus norishiro's fields (``end_index``, ``section``, ``headings``, ``chunk_id``,
``page_start``/``page_end``, ``embed_text``).
"""

from __future__ import annotations

from typing import Any

from haystack import Document as HDocument
from haystack import component

from ..api import iter_chunks, resolve
from ..config import ChunkConfig
from ..document import Document
from ._common import chunk_metadata

__all__ = ["NorishiroDocumentSplitter"]


@component
class NorishiroDocumentSplitter:
    """``NorishiroDocumentSplitter(size=300, overlap=30)``; keyword options are the fields
    of :class:`~norishiro.ChunkConfig` (or pass ``config=``)."""

    def __init__(self, config: ChunkConfig | dict | None = None, **options: Any):
        if isinstance(config, dict):
            config = ChunkConfig.from_dict(config)
        self.config = resolve(config, **options)[0]

    def to_dict(self) -> dict[str, Any]:
        """For Haystack's pipeline serialisation: the config as plain data."""
        from haystack.core.serialization import default_to_dict

        return default_to_dict(self, config=self.config.to_dict())

    @component.output_types(documents=list[HDocument])
    def run(self, documents: list[HDocument]) -> dict[str, list[HDocument]]:
        out = []
        for source in documents:
            if source.content is None:
                raise ValueError(f"document {source.id} has no text content; norishiro splits text only")
            text = source.content
            doc = Document(text, id=source.id, metadata=dict(source.meta))
            for c in iter_chunks(doc, self.config):
                meta = {**source.meta, **chunk_metadata(c, text)}
                meta.update(
                    source_id=source.id,
                    split_id=c.index,
                    split_idx_start=c.start,
                    page_number=meta.get("page_start", 1),
                )
                out.append(HDocument(content=c.text, meta=meta))
        return {"documents": out}
