"""The local web page: API tests (FastAPI's TestClient) and end-to-end tests in headless
Chromium (Debian's chromium driven by Playwright with executable_path; no browser is
downloaded). The browser tests skip where chromium or playwright is not installed."""

import json
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

import norishiro

fastapi = pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from norishiro.web.app import CSP, MAX_BODY, create_app  # noqa: E402
from seeds import needs_seeds, seed002_body, seed002_text  # noqa: E402

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(), base_url="http://localhost")


def test_page_has_csp_and_no_outside_references(client):
    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-security-policy"] == CSP
    static = Path(__file__).resolve().parents[1] / "src" / "norishiro" / "web" / "static"
    for f in static.iterdir():
        body = f.read_text(encoding="utf-8")
        assert "http://" not in body.replace("http://localhost:11434", "") and "https://" not in body, f.name
    assert "default-src 'self'" in CSP and "connect-src 'self'" in CSP


@needs_seeds
def test_chunk_api_seed002(client):
    r = client.post("/api/chunk", json={"text": seed002_text(), "size": 300, "overlap": 0, "truncate": False})
    d = r.json()
    assert r.status_code == 200
    assert d["summary"] == {"chunks": 3, "longest": 294, "unit": "chars", "over_budget": 0}
    assert [(c["start"], c["size"]) for c in d["chunks"]] == [(0, 294), (294, 202), (496, 169)]
    assert json.loads(d["ollama_body"]) == seed002_body()
    assert d["curl"].startswith("curl http://localhost:11434/api/embed -d '{")


def test_chunk_api_errors(client):
    r = client.post("/api/chunk", json={"text": "x", "size": 10, "overlap": 10})
    assert r.status_code == 400 and "overlap" in r.json()["error"]
    r = client.post("/api/chunk", content=b"not json", headers={"content-type": "application/json"})
    assert r.status_code == 400
    r = client.post("/api/plan", json={"tokens": 8000, "size": 512, "overlap": 64})
    assert r.json()["chunks"] == 18
    assert client.post("/api/plan", json={"tokens": 10, "size": 5, "overlap": 5}).status_code == 400


@pytest.mark.parametrize(
    "body,field",
    [
        ({"size": "12"}, "size"),
        ({"size": True}, "size"),
        ({"size": 3.9}, "size"),
        ({"text": 5}, "text"),
        ({"unit": "bytes"}, "unit"),
        ({"metadata": ["a"]}, "metadata"),
    ],
)
def test_wrong_types_are_refused_with_the_field_named(client, body, field):
    r = client.post("/api/chunk", json={"text": "abc", **body})
    assert r.status_code == 400 and r.json()["field"] == field, r.json()


def test_library_errors_name_fields_not_flags(client):
    r = client.post("/api/chunk", json={"text": "x", "size": 10, "overlap": 10})
    assert r.status_code == 400 and r.json()["field"] == "overlap" and "--" not in r.json()["error"]
    r = client.post(
        "/api/chunk",
        json={"text": "---\npatient_id: " + "P" * 400 + "\n---\n本文。", "size": 100, "header_keys": "patient_id"},
    )
    assert r.status_code == 400 and r.json()["field"] == "header_keys" and "--" not in r.json()["error"]


def test_the_page_answers_while_a_heavy_chunk_request_runs(server, monkeypatch):
    """Chunking runs in a worker thread: GET / is answered while /api/chunk is busy."""
    import urllib.request

    from norishiro.web import app as webapp

    started, release = threading.Event(), threading.Event()
    real = webapp._chunk_page

    def slow(d):
        started.set()
        release.wait(30)
        return real(d)

    monkeypatch.setattr(webapp, "_chunk_page", slow)
    req = urllib.request.Request(
        server + "/api/chunk", data=json.dumps({"text": "abc"}).encode(), headers={"Content-Type": "application/json"}
    )
    result = {}
    th = threading.Thread(target=lambda: result.setdefault("r", urllib.request.urlopen(req, timeout=60).status))
    th.start()
    try:
        assert started.wait(30)
        with urllib.request.urlopen(server + "/", timeout=10) as r:  # blocks if the loop is busy
            assert r.status == 200
    finally:
        release.set()
        th.join(60)
    assert result["r"] == 200


def test_body_over_limit_is_413(client):
    big = "a" * (MAX_BODY + 10)
    r = client.post(
        "/api/chunk", content=json.dumps({"text": big}).encode(), headers={"content-type": "application/json"}
    )
    assert r.status_code == 413 and "MB" in r.json()["error"]


def test_tokens_and_header_in_api(client):
    r = client.post(
        "/api/chunk",
        json={
            "text": "---\npatient_id: P9\n---\n【評価】\n血圧は安定。\n",
            "size": 64,
            "unit": "tokens",
            "tokenizer": "o200k_base",
            "header_keys": "patient_id,section",
        },
    )
    d = r.json()
    assert d["chunks"][0]["embed_text"].startswith("(Metadata: Patient_ID=P9, Section=評価)")
    assert d["offset_base"] == len("---\npatient_id: P9\n---\n")


# ------------------------------------------------------------------ real browser
def _chromium():
    for name in ("chromium", "chromium-browser"):
        p = shutil.which(name)
        if p:
            return p
    return None


@pytest.fixture(scope="module")
def server():
    uvicorn = pytest.importorskip("uvicorn")
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    config = uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning", access_log=False)
    srv = uvicorn.Server(config)
    th = threading.Thread(target=srv.run, daemon=True)
    th.start()
    for _ in range(100):
        if srv.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    th.join(timeout=5)


@pytest.fixture(scope="module")
def page(server):
    exe = _chromium()
    if not exe:
        pytest.skip("chromium is not installed (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=exe,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        ctx = browser.new_context(locale="en-US", permissions=["clipboard-read", "clipboard-write"])
        pg = ctx.new_page()
        outside: list[str] = []
        pg.on("request", lambda req: outside.append(req.url) if not req.url.startswith(server) else None)
        pg.goto(server + "/")
        pg.outside = outside
        yield pg
        browser.close()


def _wait_count(page, selector, pred, timeout=10.0):
    # polled from Python: the page's CSP forbids the eval that wait_for_function uses
    end = time.time() + timeout
    while time.time() < end:
        n = page.locator(selector).count()
        if pred(n):
            return n
        time.sleep(0.05)
    raise AssertionError(f"{selector}: count {page.locator(selector).count()} never matched")


@needs_seeds
def test_browser_seed002_three_chunks_size_change_and_copy(page, server):
    page.fill("#text", seed002_text())
    page.fill("#size", "300")
    page.click("#run")
    page.wait_for_selector("#results:not([hidden])")
    assert page.text_content("#summary") == "3 chunks, longest 294 characters."
    assert page.locator("#chunks li").count() == 3
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "serve-seed002.png"), full_page=True)
    page.fill("#size", "120")
    page.click("#run")
    _wait_count(page, "#chunks li", lambda n: n > 3)
    page.fill("#size", "300")
    page.click("#run")
    _wait_count(page, "#chunks li", lambda n: n == 3)
    page.click("button.copy[data-target=curl]")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == page.text_content("#curl") and copied.startswith("curl http://localhost:11434/api/embed")
    assert page.outside == []


def test_browser_script_in_text_does_nothing(page):
    page.evaluate("window.__pwned = false")
    page.fill("#text", '<script>window.__pwned = true</script><img src=x onerror="window.__pwned=true">')
    page.click("#run")
    page.wait_for_selector("#chunks li")
    page.wait_for_timeout(200)
    assert page.evaluate("window.__pwned") is False
    assert "<script>" in page.text_content("#chunks")


def test_browser_errors_are_shown(page):
    page.fill("#text", "abc")
    page.fill("#size", "5")
    page.fill("#overlap", "9")
    page.click("#run")
    page.wait_for_selector("#error:not([hidden])")
    assert "overlap" in page.text_content("#error")
    page.fill("#overlap", "0")


def test_browser_planner_share_link_and_japanese(page, server):
    page.fill("#p_tokens", "8000")
    page.fill("#p_size", "512")
    page.fill("#p_overlap", "64")
    out = page.text_content("#p_out")
    assert "448" in out and "18" in out and "9,216" in out
    url = page.url
    assert "T=8000" in url and "text" not in url
    page.click("#lang")
    assert page.text_content("#run") == "分割"
    page.goto(url.replace("lang=en", "lang=ja"))
    page.reload()
    assert page.input_value("#p_size") == "512"


def test_browser_over_limit_body_shows_413_message(page):
    page.evaluate("document.getElementById('text').value = 'あ'.repeat(7 * 1024 * 1024 + 10)")  # > 20 MB as UTF-8
    page.fill("#size", "300")
    page.fill("#overlap", "0")
    page.click("#run")
    page.wait_for_selector("#error:not([hidden])", timeout=30000)
    assert "MB limit" in page.text_content("#error")
    page.evaluate("document.getElementById('text').value = ''")


def test_options_come_from_the_registry_and_this_machine(client):
    o = client.get("/api/options").json()
    assert "sentences" in o["strategies"] and o["tokenizers"][:2] == ["o200k_base", "cl100k_base"]
    r = client.post("/api/chunk", json={"text": "x", "unit": "tokens", "tokenizer": "/etc/passwd"})
    assert r.status_code == 400 and r.json()["field"] == "tokenizer"
    r = client.post("/api/chunk", json={"text": "一文目。二文目。" * 20, "size": 20, "strategy": "sentences"})
    assert r.status_code == 200 and r.json()["summary"]["chunks"] > 1


def test_browser_offers_every_strategy(page):
    _wait_count(page, "#strategy option", lambda n: n >= 4)
    names = page.eval_on_selector_all("#strategy option", "els => els.map(e => e.value)")
    assert "sentences" in names and "semantic" in names


def test_rows_from_the_cli_are_shown_against_their_text(client):
    text = "【所見】\n右肺に結節影なし。心拡大なし。\n\n【評価】\n異常なし。経過観察。\n"
    chunks = norishiro.chunk(text, size=20)
    rows = "".join(json.dumps(c.to_dict(), ensure_ascii=False) + "\n" for c in chunks)
    r = client.post("/api/rows", json={"text": text, "rows": rows})
    assert r.status_code == 200, r.text
    d = r.json()
    assert [(c["start"], c["end"]) for c in d["chunks"]] == [(c.start, c.end) for c in chunks]
    page = client.post("/api/chunk", json={"text": text, "size": 20}).json()
    same = ("boundaries", "boundary_levels", "findings", "chunks_ending_at_sentence_end")
    assert {k: d["lint"]["summary"][k] for k in same} == {k: page["lint"]["summary"][k] for k in same}
    assert d["summary"]["unit"] == "chars"
    r = client.post("/api/rows", json={"text": text.replace("右肺", "左肺"), "rows": rows})
    assert r.status_code == 400 and r.json()["field"] == "rows" and "not at offsets" in r.json()["error"]
    bad = client.post("/api/rows", json={"text": text, "rows": rows + '{"text": 5}\n'})
    assert bad.status_code == 400 and f"line {len(chunks) + 1}" in bad.json()["error"]


def test_browser_opens_a_chunks_file(page, tmp_path):
    text = "一文目です。二文目です。三文目です。"
    rows = "".join(json.dumps(c.to_dict(), ensure_ascii=False) + "\n" for c in norishiro.chunk(text, size=8))
    f = tmp_path / "chunks.jsonl"
    f.write_text(rows, encoding="utf-8")
    page.fill("#text", text)
    page.set_input_files("#rows_file", str(f))
    _wait_count(page, "#chunks li", lambda n: n == 3)


def test_load_api_reads_pdf_with_pages_and_chunks_carry_them(client, tmp_path):
    pytest.importorskip("reportlab")
    pytest.importorskip("pypdf")
    import base64

    from docgen import make_pdf

    path = tmp_path / "summary.pdf"
    make_pdf(path)
    r = client.post("/api/load", json={"name": "summary.pdf", "data": base64.b64encode(path.read_bytes()).decode()})
    assert r.status_code == 200, r.text
    d = r.json()
    assert d["format"] == "pdf" and len(d["pages"]) == 3 and d["title"] == "Discharge summary"
    assert "セフトリアキソン" in d["text"] and d["warnings"] == []
    page = client.post("/api/chunk", json={"text": d["text"], "pages": d["pages"], "size": 120}).json()
    (c,) = [c for c in page["chunks"] if "セフトリアキソン" in c["text"]]
    assert (c["page_start"], c["page_end"]) == (2, 2) and c["section"] == "入院経過"
    assert c["section_canonical"] == "hospital_course"
    bad = client.post("/api/chunk", json={"text": "short", "pages": [0, 99], "size": 120})
    assert bad.status_code == 400 and bad.json()["field"] == "pages"
    broken = client.post("/api/load", json={"name": "x.pdf", "data": base64.b64encode(b"%PDF-1.4 junk").decode()})
    assert broken.status_code == 400 and broken.json()["error"].startswith("x.pdf: not a readable PDF")
    assert "/tmp" not in broken.json()["error"]
    assert client.post("/api/load", json={"name": "x.pdf", "data": "***"}).json()["field"] == "data"


def test_browser_opens_a_pdf_and_shows_page_numbers(page, tmp_path):
    pytest.importorskip("reportlab")
    pytest.importorskip("pypdf")
    from docgen import make_pdf

    path = tmp_path / "summary.pdf"
    make_pdf(path)
    if page.text_content("#lang") != "日本語":  # an earlier test left the page in Japanese
        page.click("#lang")
    page.set_input_files("#file", str(path))
    page.wait_for_selector("#note:not([hidden])")
    assert "read as pdf, 3 pages" in page.text_content("#note")
    assert "セフトリアキソン" in page.input_value("#text")
    page.fill("#size", "120")
    page.click("#run")
    _wait_count(page, "#chunks li", lambda n: n >= 5)
    metas = page.eval_on_selector_all("#chunks li .meta", "els => els.map(e => e.textContent)")
    assert any("p. 2" in m and "入院経過 [hospital_course]" in m for m in metas)
    page.fill("#text", page.input_value("#text") + "追記。")  # edited: the page numbers no longer apply
    page.click("#run")
    _wait_count(page, "#chunks li", lambda n: n >= 5)
    time.sleep(0.3)
    metas = page.eval_on_selector_all("#chunks li .meta", "els => els.map(e => e.textContent)")
    assert not any("p. " in m for m in metas)
    assert page.outside == []


def test_deid_in_the_page_api_and_the_browser(client, page):
    text = (Path(__file__).parent / "data" / "deid" / "n01_referral_ja.md").read_text(encoding="utf-8")
    r = client.post("/api/chunk", json={"text": text, "size": 150, "deid": True}).json()
    replaced = [p for c in r["chunks"] for p in c["replaced"]]
    assert {p["class"] for p in replaced} >= {"name", "phone", "email", "address"}
    assert "村瀬 千代子" not in json.dumps(r["ollama_body"], ensure_ascii=False) and "村瀬 千代子" not in r["curl"]
    assert all("村瀬 千代子" not in c["embed_text"] for c in r["chunks"])
    if page.text_content("#lang") != "日本語":
        page.click("#lang")
    page.fill("#text", text)
    page.fill("#size", "150")
    page.check("#deid")
    page.click("#run")
    _wait_count(page, "#docview .pii", lambda n: n >= 10)
    shown = page.eval_on_selector_all("#chunks li pre", "els => els.map(e => e.textContent)")
    assert any("[氏名" in s for s in shown) and not any("村瀬 千代子" in s for s in shown)
    page.uncheck("#show_embed")
    shown = page.eval_on_selector_all("#chunks li pre", "els => els.map(e => e.textContent)")
    assert any("村瀬 千代子" in s for s in shown)
    page.check("#show_embed")
    page.uncheck("#deid")


@pytest.fixture(scope="module")
def indexed(tmp_path_factory):
    """A LanceDB index of three documents, filled with the hash embedder."""
    pytest.importorskip("lancedb")
    from norishiro.document import Document
    from norishiro.stores import open_store
    from norishiro.stores.api import index_documents

    target = f"lancedb:{tmp_path_factory.mktemp('idx') / 'index'}"
    docs = [
        Document("# Apples\n\nApples grow on trees in cool places.\n", id="apples.md"),
        Document("# 血糖\n\n退院時の空腹時血糖は 112 mg/dL であった。\n", id="glucose.md"),
        Document("# Trains\n\nThe night train leaves at ten.\n", id="trains.md"),
    ]
    index_documents(open_store(target), docs, embedder="hash", size=200)
    return target


def test_search_api_only_with_an_index(client, indexed):
    from norishiro.web.search import IndexSearch

    assert client.get("/api/options").json()["index"] is None
    assert client.post("/api/search", json={"query": "x"}).status_code == 404
    with_index = TestClient(create_app(searcher=IndexSearch(indexed)), base_url="http://localhost")
    opts = with_index.get("/api/options").json()["index"]
    assert opts["rows"] == 3 and opts["model"] == "hash-512"
    hits = with_index.post("/api/search", json={"query": "退院時の空腹時血糖", "k": 2}).json()["hits"]
    assert hits[0]["doc_id"] == "glucose.md" and len(hits) == 2
    bad = with_index.post("/api/search", json={"query": "", "k": 2})
    assert bad.status_code == 400 and "query" in bad.text


def test_browser_search_box(page, indexed):
    uvicorn = pytest.importorskip("uvicorn")
    from norishiro.web.search import IndexSearch

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    app = create_app(searcher=IndexSearch(indexed))
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", access_log=False))
    th = threading.Thread(target=srv.run, daemon=True)
    th.start()
    while not srv.started:
        time.sleep(0.05)
    pg = page.context.new_page()  # the same browser, a second page on the server with an index
    try:
        pg.goto(f"http://127.0.0.1:{port}/")
        pg.wait_for_selector("#search-panel:not([hidden])")
        assert "3 chunks" in pg.text_content("#index_info")
        pg.fill("#q", "night train")
        pg.press("#q", "Enter")
        _wait_count(pg, "#hits li", lambda n: n == 3)
        assert "trains.md" in pg.text_content("#hits li:first-child .meta")
        assert page.is_hidden("#search-panel")  # the page started without an index has no box
    finally:
        pg.close()
        srv.should_exit = True
        th.join(timeout=5)
