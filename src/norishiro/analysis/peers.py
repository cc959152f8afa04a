"""Other projects' chunkers, run the way norishiro's own are for ``eval``: LangChain's
RecursiveCharacterTextSplitter, semchunk and semantic-text-splitter, each sized by the same
sizer (characters or tokens) and giving chunks with exact offsets."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..chunk import Chunk
from ..core.measure import get_sizer
from ..document import Document
from ..errors import OptionError

__all__ = ["PeerConfig", "PEERS"]


@dataclass(frozen=True)
class PeerConfig:
    """Another project's chunker, run for comparison (see ``PEERS``)."""

    strategy: str
    size: int
    overlap: int = 0
    unit: str = "chars"
    tokenizer: str | None = None

    @property
    def label(self) -> str:
        tok = f" tokenizer={self.tokenizer}" if self.tokenizer else ""
        return f"{self.strategy} size={self.size} overlap={self.overlap} unit={self.unit}{tok}"


def _langchain_chunks(doc: Document, cfg: PeerConfig) -> list:
    """LangChain's RecursiveCharacterTextSplitter as a peer (offsets from add_start_index)."""
    try:
        from langchain_text_splitters import RecursiveCharacterTextSplitter
    except ImportError:
        raise _peer_missing(cfg, "langchain-text-splitters") from None

    sizer = get_sizer(cfg.unit, cfg.tokenizer)
    sp = RecursiveCharacterTextSplitter(
        chunk_size=cfg.size, chunk_overlap=cfg.overlap, length_function=sizer.count, add_start_index=True
    )
    out = []
    for i, d in enumerate(sp.create_documents([doc.text])):
        s = d.metadata["start_index"]
        if s < 0:  # LangChain could not locate the chunk: search from the previous one
            s = doc.text.find(d.page_content, out[-1].start if out else 0)
        out.append(Chunk(d.page_content, s, s + len(d.page_content), i, sizer.count(d.page_content), doc.id))
    return out


def _peer_missing(cfg: PeerConfig, package: str) -> OptionError:
    return OptionError("config", cfg.strategy, "an installed peer", f"pip install {package} to compare with it")


def _peer_chunks(doc: Document, cfg: PeerConfig, spans: Iterable[tuple[int, str]]) -> list:
    """Chunks from a peer's ``(start, text)`` pairs, measured with our sizer."""
    sizer = get_sizer(cfg.unit, cfg.tokenizer)
    return [Chunk(t, s, s + len(t), i, sizer.count(t), doc.id) for i, (s, t) in enumerate(spans)]


def _semchunk_chunks(doc: Document, cfg: PeerConfig) -> list:
    """semchunk (no memo carried between documents)."""
    try:
        import semchunk
    except ImportError:
        raise _peer_missing(cfg, "semchunk") from None
    sizer = get_sizer(cfg.unit, cfg.tokenizer)
    chunker = semchunk.chunkerify(sizer.count, cfg.size, memoize=False)
    texts, offsets = chunker(doc.text, offsets=True, overlap=cfg.overlap or None)
    return _peer_chunks(doc, cfg, ((a, t) for t, (a, _b) in zip(texts, offsets)))


def _text_splitter_chunks(doc: Document, cfg: PeerConfig) -> list:
    """semantic-text-splitter's TextSplitter (Rust), sized by our sizer."""
    try:
        from semantic_text_splitter import TextSplitter
    except ImportError:
        raise _peer_missing(cfg, "semantic-text-splitter") from None
    sizer = get_sizer(cfg.unit, cfg.tokenizer)
    if cfg.unit == "chars":
        splitter = TextSplitter(cfg.size, overlap=cfg.overlap)
    else:
        splitter = TextSplitter.from_callback(sizer.count, cfg.size, overlap=cfg.overlap)
    return _peer_chunks(doc, cfg, splitter.chunk_indices(doc.text))


PEERS: dict[str, Callable[[Document, PeerConfig], list]] = {
    "langchain": _langchain_chunks,
    "semchunk": _semchunk_chunks,
    "text-splitter": _text_splitter_chunks,
}
