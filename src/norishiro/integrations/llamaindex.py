"""A LlamaIndex ``NodeParser`` that cuts with norishiro (``pip install 'norishiro[llamaindex]'``).

Nodes carry exact ``start_char_idx``/``end_char_idx`` (kept as norishiro computed them, not
found again by searching), source and prev/next relationships, and norishiro's fields in
their metadata. The context header is the node's ``context_header`` metadata and the only
metadata LlamaIndex puts into what it embeds, rendered bare, so that the embedded content is
norishiro's ``embed_text`` (header + text) and the header is not doubled by LlamaIndex's
own metadata templating.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from llama_index.core.node_parser import NodeParser
from llama_index.core.schema import BaseNode, MetadataMode, NodeRelationship, TextNode
from pydantic import Field, PrivateAttr

from ..api import iter_chunks
from ..config import ChunkConfig
from ..document import Document
from ._common import chunk_metadata

__all__ = ["NorishiroNodeParser"]

HEADER_KEY = "context_header"


class NorishiroNodeParser(NodeParser):
    """``NorishiroNodeParser.from_options(size=256, tokenizer="o200k_base")`` or
    ``NorishiroNodeParser(config=ChunkConfig(...))``."""

    config: ChunkConfig = Field(default_factory=ChunkConfig, description="norishiro's chunking options.")
    _offsets: dict[str, tuple[int, int]] = PrivateAttr(default_factory=dict)

    @classmethod
    def from_options(cls, config: ChunkConfig | None = None, **options: Any) -> NorishiroNodeParser:
        from ..api import resolve

        return cls(config=resolve(config, **options)[0])

    @classmethod
    def class_name(cls) -> str:
        return "NorishiroNodeParser"

    def _parse_nodes(self, nodes: Sequence[BaseNode], show_progress: bool = False, **kwargs: Any) -> list[BaseNode]:
        out: list[BaseNode] = []
        for node in nodes:
            text = node.get_content(metadata_mode=MetadataMode.NONE)
            doc = Document(text, id=node.node_id, metadata=dict(node.metadata))
            for c in iter_chunks(doc, self.config):
                meta = chunk_metadata(c, text, embed_text=False)
                meta[HEADER_KEY] = c.embed_text[: len(c.embed_text) - len(c.text)]
                child = TextNode(
                    id_=self.id_func(len(out), node),
                    text=c.text,
                    start_char_idx=c.start,
                    end_char_idx=c.end,
                    metadata=meta,
                    metadata_template="{value}",
                    text_template="{metadata_str}\n{content}",
                    relationships={NodeRelationship.SOURCE: node.as_related_node_info()},
                )
                self._offsets[child.node_id] = (c.start, c.end)
                out.append(child)
        return out

    def _postprocess_parsed_nodes(self, nodes: list[BaseNode], parent_doc_map: dict[str, Any]) -> list[BaseNode]:
        nodes = super()._postprocess_parsed_nodes(nodes, parent_doc_map)
        for node in nodes:
            got = self._offsets.pop(node.node_id, None)
            if got is not None and isinstance(node, TextNode):
                node.start_char_idx, node.end_char_idx = got  # exact, not found again by searching
            # only the header is embedded: the document's own metadata is already in it
            node.excluded_embed_metadata_keys = [k for k in node.metadata if k != HEADER_KEY]
        return nodes
