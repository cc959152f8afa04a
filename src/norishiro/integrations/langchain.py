"""A LangChain ``TextSplitter`` that cuts with norishiro (``pip install 'norishiro[langchain]'``).

``split_documents`` / ``create_documents`` / ``transform_documents`` give documents whose
metadata holds the exact ``start_index`` (never -1, never found by searching) and
``end_index``, the ``section`` and ``headings``, the ``chunk_id``, ``page_start`` and
``page_end`` when the text has page breaks, and ``embed_text`` (context header + text).
``embed_text_as_content=True`` puts the context header into ``page_content`` instead, so
that LangChain embeds what norishiro's budget counted.
"""

from __future__ import annotations

from typing import Any

from langchain_core.documents import Document as LCDocument
from langchain_text_splitters import TextSplitter

from ..api import iter_chunks, resolve
from ..config import ChunkConfig
from ..document import Document
from ._common import chunk_metadata

__all__ = ["NorishiroTextSplitter"]


class NorishiroTextSplitter(TextSplitter):
    """``NorishiroTextSplitter(size=400, overlap=40)`` or ``NorishiroTextSplitter(config)``;
    keyword options are the fields of :class:`~norishiro.ChunkConfig`."""

    def __init__(self, config: ChunkConfig | None = None, *, embed_text_as_content: bool = False, **options: Any):
        self.config, sizer, _ = resolve(config, **options)
        self.embed_text_as_content = embed_text_as_content
        super().__init__(
            chunk_size=self.config.size,
            chunk_overlap=self.config.overlap,
            length_function=sizer.count,
            add_start_index=True,
            strip_whitespace=False,
        )

    def split_text(self, text: str) -> list[str]:
        return [c.text for c in iter_chunks(text, self.config)]

    def create_documents(self, texts: list[str], metadatas: list[dict[Any, Any]] | None = None) -> list[LCDocument]:
        out = []
        for i, text in enumerate(texts):
            base = dict(metadatas[i]) if metadatas else {}
            doc = Document(text, id=str(base.get("id") or base.get("source") or ""), metadata=base)
            for c in iter_chunks(doc, self.config):
                meta = {**base, **chunk_metadata(c, text)}
                content = c.embed_text if self.embed_text_as_content else c.text
                out.append(LCDocument(page_content=content, metadata=meta))
        return out
