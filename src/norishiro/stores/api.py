"""Index and search in one call each, for library users and the thin CLI/web layers.

from norishiro.stores import open_store
from norishiro.stores.api import index_documents, search
store = open_store("lancedb:./index")
index_documents(store, ["notes/a.md", "notes/b.md"], embedder="local", size=300)
search(store, "血糖値の推移は?", k=5)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from ..config import ChunkConfig
from ..document import Document
from .base import Hit, IndexInfo, ModelMismatch, Store, StoreRow, row_from_chunk
from .sync import Indexer, IndexReport

__all__ = ["index_documents", "document_rows", "embedder_for", "search"]


def document_rows(
    documents: Iterable[Document | str], config: ChunkConfig | None = None, **options: Any
) -> Iterator[tuple[str, list[StoreRow]]]:
    """``(doc_id, rows)`` per document: paths are read with the loaders, then chunked."""
    from ..api import iter_chunks, resolve
    from ..loaders import load_document

    config, sizer, _ = resolve(config, **options)
    for d in documents:
        doc = d if isinstance(d, Document) else load_document(d)
        yield doc.id, [row_from_chunk(c.to_dict()) for c in iter_chunks(doc, config, tokenizer=sizer)]


def embedder_for(info: IndexInfo | None, spec: str | None = None, url: str | None = None) -> Any:
    """The embedder for a store: ``spec`` when given (checked against the store's model),
    else the one that filled it, at ``url`` or the URL it was filled from."""
    from ..embed import get_embedder

    if spec is None and info is None:
        spec = "local"
    emb = get_embedder(spec or info.embedder or info.model, url=url or (info.url if info else None))
    if info is not None and emb.name != info.model:
        raise ModelMismatch("the index", info, emb.name, None)
    return emb


def index_documents(
    store: Store,
    documents: Iterable[Document | str],
    embedder: Any = "local",
    *,
    url: str | None = None,
    prune: bool = False,
    batch_size: int = 32,
    on_progress: Callable[[int], None] | None = None,
    config: ChunkConfig | None = None,
    **options: Any,
) -> IndexReport:
    """Chunk, embed and store ``documents``; a second run with the same input writes nothing."""
    spec = embedder if isinstance(embedder, str) else getattr(embedder, "name", "")
    emb = embedder_for(store.info(), embedder, url) if isinstance(embedder, str) else embedder
    indexer = Indexer(store, emb, embedder_spec=spec, url=url, batch_size=batch_size, on_progress=on_progress)
    return indexer.run(document_rows(documents, config, **options), prune=prune)


def search(
    store: Store, query: str, k: int = 5, embedder: Any = None, doc_ids: Sequence[str] | None = None
) -> list[Hit]:
    """The ``k`` chunks nearest to ``query``, embedded as a query by the store's embedder."""
    emb = embedder if embedder is not None and not isinstance(embedder, str) else embedder_for(store.info(), embedder)
    vec = emb.embed_queries([query])[0]
    return store.search([float(x) for x in vec], k=k, doc_ids=doc_ids)
