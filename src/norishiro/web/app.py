"""A local web page to chunk, inspect, plan and export.

Request bodies are validated models (wrong types are refused with the field named), and
chunking runs in a worker thread so that the page stays responsive during a heavy request.
Privacy by construction: the page loads nothing from elsewhere (no CDN, fonts or scripts
from other hosts), a Content-Security-Policy forbids outside connections, the server binds
to localhost by default, and no request body is ever logged.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from pydantic import BaseModel, ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.middleware.base import BaseHTTPMiddleware

from ..analysis.lint import lint_chunks
from ..analysis.plan import PlanError, plan
from ..api import iter_chunks
from ..chunkers import chunker_class, chunker_names
from ..config import ChunkConfig
from ..core.measure import get_sizer
from ..core.model_tokenizers import local_models
from ..document import Document
from ..errors import ContextHeaderError, NorishiroError, OptionError
from ..rows import parse_chunk_rows
from ..writers.ollama import curl_command, ollama_body_json
from .models import ChunkRequest, CountRequest, LoadRequest, PlanRequest, RowsRequest, SearchRequest

STATIC = Path(__file__).parent / "static"
MAX_BODY = 20 * 1024 * 1024
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)


LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})
MAX_CHUNKS = 20_000


def _host_name(host_header: str) -> str:
    """``Host`` without its port: ``[::1]:8765`` -> ``::1``, ``localhost:8765`` -> ``localhost``."""
    h = host_header.strip().lower()
    if h.startswith("["):
        return h[1 : h.find("]")] if "]" in h else h
    return h.rsplit(":", 1)[0] if h.count(":") == 1 else h


class _Guard(BaseHTTPMiddleware):
    """Every request: answered only for this machine's names (a page on another site that
    rebinds its DNS name to 127.0.0.1 gets 421), POSTs only as JSON (a cross-site form cannot
    send it), bodies over the limit refused before they are read; security headers on every
    answer."""

    def __init__(self, app, hosts: frozenset[str] | None = LOOPBACK_HOSTS):
        super().__init__(app)
        self.hosts = hosts  # None: bound to every interface on purpose, any name is answered

    async def dispatch(self, request: Request, call_next):
        host = _host_name(request.headers.get("host", ""))
        if self.hosts is not None and host not in self.hosts:
            return _secure(_bad(f"this server answers only for {', '.join(sorted(self.hosts))}", 421))
        if request.method == "POST":
            ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
            if ctype != "application/json":
                return _secure(_bad("send the request as JSON (Content-Type: application/json)", 415))
        length = request.headers.get("content-length")
        if length and length.isdigit() and int(length) > MAX_BODY:
            return _secure(
                _bad(
                    f"request body of {int(length):,} bytes is over the {MAX_BODY // (1024 * 1024)} MB limit; "
                    "split the text",
                    413,
                )
            )
        try:
            response = await call_next(request)
        except Exception as e:  # shown in the page, never a blank
            response = JSONResponse({"error": f"server error: {type(e).__name__}: {e}"}, status_code=500)
        return _secure(response)


def _secure(response):
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["Cache-Control"] = "no-store"
    return response


def _bad(msg: str, status: int = 400, field: str | None = None) -> JSONResponse:
    return JSONResponse({"error": msg, **({"field": field} if field else {})}, status_code=status)


class _TooBig(ValueError):
    pass


async def _body(request: Request, model: type[BaseModel]) -> Any:
    raw = bytearray()
    async for part in request.stream():  # counted as it arrives: a chunked body has no length
        raw += part
        if len(raw) > MAX_BODY:
            raise _TooBig()
    try:
        return model.model_validate_json(bytes(raw) or b"{}")
    except ValidationError as e:
        err = e.errors()[0]
        field = ".".join(str(x) for x in err.get("loc", ())) or None
        raise _FieldError(f"{field}: {err.get('msg')}" if field else str(err.get("msg")), field) from None


class _FieldError(ValueError):
    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


def _option_error(e: NorishiroError) -> _FieldError:
    """A library error as a message about the page's fields."""
    if isinstance(e, OptionError):
        label = _FIELD_LABELS.get(e.option, e.option)
        return _FieldError(e.describe(label), e.option)
    if isinstance(e, ContextHeaderError):
        return _FieldError(
            e.describe({"header_keys": "the header keys", "header_template": "the header", "size": "the size"}),
            "header_keys",
        )
    return _FieldError(str(e))


_FIELD_LABELS = {
    "size": "size",
    "overlap": "overlap",
    "strategy": "strategy",
    "unit": "unit",
    "tokenizer": "unit",
    "header_keys": "header keys",
}


def _tokenizers() -> list[str]:
    """What the page may count with: the bundled encodings and the models on this machine
    (never an arbitrary path a request names)."""
    return ["o200k_base", "cl100k_base", *local_models()]


def _check_tokenizer(name: str | None, field: str = "tokenizer") -> None:
    if name is not None and name not in _tokenizers():
        raise _FieldError(f"{field}: {name!r} is not one of {', '.join(_tokenizers())}", field)


def _chunk_page(d: ChunkRequest) -> dict[str, Any]:
    """The work of /api/chunk (CPU-bound: runs in a worker thread)."""
    tokenizer = d.tokenizer or ("o200k_base" if d.unit == "tokens" else None)
    _check_tokenizer(tokenizer)
    meta = {str(k): str(v) for k, v in d.metadata.items()}
    try:
        d.text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise _FieldError(f"text: character {e.start} is a lone surrogate, which no file can hold", "text") from None
    try:
        config = ChunkConfig(
            size=d.size,
            overlap=d.overlap,
            strategy=d.strategy,
            unit=d.unit,
            tokenizer=tokenizer,
            header_keys=d.header_keys,
            structure=True,
            deid=d.deid,
        )
        loaded = d.pages is not None or d.outline is not None
        doc = Document.from_text(d.text, id="page", metadata=meta, front_matter=d.front_matter and not loaded)
        if d.pages:
            try:
                doc.pages = Document(doc.text, pages=d.pages).pages
            except ValueError as e:
                raise _FieldError(f"pages: {e}", "pages") from None
        if d.outline is not None:
            doc.outline = d.outline
        embedder = _hash_embedder() if chunker_class(config.strategy).needs_embedder else None
        chunks = []
        for c in iter_chunks(doc, config, embedder=embedder):
            chunks.append(c)
            if len(chunks) > MAX_CHUNKS:
                raise _FieldError(
                    f"size: this text gives more than {MAX_CHUNKS:,} chunks at size {d.size}; raise the size, "
                    "or chunk large texts with the command line (norishiro chunk FILE -o chunks.jsonl)",
                    "size",
                )
    except NorishiroError as e:
        raise _option_error(e) from None
    return _page_result(d.text, doc, chunks, d.size, config.unit, d.model, d.truncate, d.ollama_url)


def _page_result(raw: str, doc: Document, chunks: list, size: int, unit: str, model: str, truncate: bool, url: str):
    """What the page shows for a set of chunks: the list, lint, and the Ollama request."""
    report = lint_chunks(doc.text, chunks, doc_id="page", size=size)
    inputs = [c.embed_text for c in chunks]
    return {
        "offset_base": len(raw) - len(doc.text),  # front matter removed before offsets
        "summary": {
            "chunks": len(chunks),
            "longest": max((c.size for c in chunks), default=0),
            "unit": unit,
            "over_budget": sum(c.size > size for c in chunks),
        },
        "chunks": [
            {
                "index": c.index,
                "start": c.start,
                "end": c.end,
                "size": c.size,
                "text": c.text,
                "embed_text": c.embed_text,
                "section": c.section,
                "section_canonical": c.section_canonical,
                "replaced": c.replaced or [],
                "page_start": c.page_start,
                "page_end": c.page_end,
            }
            for c in chunks
        ],
        "lint": {"summary": report.summary(), "findings": [f.to_dict() for f in report.findings]},
        "ollama_body": ollama_body_json(inputs, model, truncate),
        "curl": curl_command(inputs, model, truncate, url),
    }


def _load_page(d: LoadRequest) -> dict[str, Any]:
    """The work of /api/load: a file read by the same loaders as ``norishiro chunk``."""
    import base64
    import binascii
    import tempfile

    from ..loaders import LoadOptions, load_document, sniff_format

    try:
        data = base64.b64decode(d.data, validate=True)
    except (binascii.Error, ValueError):
        raise _FieldError("data: not base64", "data") from None
    name = Path(d.name.replace("\\", "/")).name.strip() or "upload.txt"
    with tempfile.TemporaryDirectory(prefix="norishiro-") as tmp:
        path = Path(tmp) / name
        path.write_bytes(data)
        try:
            options = LoadOptions(format=d.format or None, password=d.password or None)
            doc = load_document(path, options=options)
        except NorishiroError as e:
            raise _FieldError(str(e).replace(str(path), name), "file") from None
        fmt = d.format or sniff_format(path)
    return {
        "name": name,
        "format": fmt,
        "text": doc.text,
        "pages": doc.pages,
        "outline": doc.outline,
        "title": doc.metadata.get("title"),
        "warnings": [w.replace(str(path), name) for w in doc.warnings],
    }


def _rows_page(d: RowsRequest) -> dict[str, Any]:
    """The work of /api/rows: chunks from a JSONL file, checked against the text they claim
    to come from (the same reader as ``lint --chunks`` and ``embed``)."""
    try:
        doc = Document.from_text(d.text, id="page", front_matter=d.front_matter)
        rows = parse_chunk_rows(d.rows, "chunks file")
    except NorishiroError as e:
        raise _FieldError(str(e), "rows") from None
    if len(rows) > MAX_CHUNKS:
        raise _FieldError(f"rows: more than {MAX_CHUNKS:,} chunks; look at large files with norishiro lint", "rows")
    for line, c in rows:
        if doc.text[c.start : c.end] != c.text:
            raise _FieldError(
                f"rows: line {line}: the chunk's text is not at offsets {c.start}-{c.end} of this text; "
                "open the document the chunks were made from",
                "rows",
            )
    chunks = [c for _, c in rows]
    size = max((c.size for c in chunks), default=1)
    unit = "chars" if all(c.size == len(c.embed_text) for c in chunks) else "tokens"
    return _page_result(d.text, doc, chunks, size, unit, d.model, d.truncate, d.ollama_url)


def create_app(host: str | None = None, searcher: Any = None) -> FastAPI:
    """The app; ``host``: the address it is bound to, answered besides the loopback names;
    ``searcher``: an :class:`~norishiro.web.search.IndexSearch` for the search box, or None."""
    app = FastAPI(title="norishiro", docs_url=None, redoc_url=None, openapi_url=None)
    if host in ("0.0.0.0", "::"):
        hosts = None
    else:
        hosts = LOOPBACK_HOSTS | ({_host_name(host)} if host else set())
    app.add_middleware(_Guard, hosts=hosts)

    @app.exception_handler(_FieldError)
    async def _field_error(_req, exc):
        return _bad(str(exc), field=exc.field)

    @app.exception_handler(_TooBig)
    async def _too_big(_req, exc):
        return _bad(f"request body is over the {MAX_BODY // (1024 * 1024)} MB limit; split the text", 413)

    @app.get("/", response_class=HTMLResponse)
    async def index():
        return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")

    @app.get("/static/{name}")
    async def static(name: str):
        if "\x00" in name or "/" in name or "\\" in name:
            return _bad("not found", 404)
        path = (STATIC / name).resolve()
        if path.parent != STATIC.resolve() or not path.is_file():
            return _bad("not found", 404)
        media = {"js": "text/javascript", "css": "text/css", "svg": "image/svg+xml"}.get(path.suffix[1:], "text/plain")
        return FileResponse(path, media_type=media + "; charset=utf-8")

    @app.get("/api/options")
    async def api_options():
        found = await run_in_threadpool(searcher.describe) if searcher else None
        return {"strategies": list(chunker_names()), "tokenizers": await run_in_threadpool(_tokenizers), "index": found}

    @app.post("/api/search")
    async def api_search(request: Request):
        if searcher is None:
            return _bad("no index: start the page with norishiro serve --index lancedb:FOLDER", 404)
        d = await _body(request, SearchRequest)
        try:
            return {"hits": await run_in_threadpool(searcher.search, d.query, d.k)}
        except NorishiroError as e:
            raise _FieldError(str(e), "query") from None

    @app.post("/api/chunk")
    async def api_chunk(request: Request):
        d = await _body(request, ChunkRequest)
        return await run_in_threadpool(_chunk_page, d)

    @app.post("/api/load")
    async def api_load(request: Request):
        d = await _body(request, LoadRequest)
        return await run_in_threadpool(_load_page, d)

    @app.post("/api/rows")
    async def api_rows(request: Request):
        d = await _body(request, RowsRequest)
        return await run_in_threadpool(_rows_page, d)

    @app.post("/api/count")
    async def api_count(request: Request):
        d = await _body(request, CountRequest)
        if d.tokenizer == "chars":
            return {"tokens": len(d.text), "tokenizer": d.tokenizer}
        _check_tokenizer(d.tokenizer)
        n = await run_in_threadpool(get_sizer("tokens", d.tokenizer).count, d.text)
        return {"tokens": n, "tokenizer": d.tokenizer}

    @app.post("/api/plan")
    async def api_plan(request: Request):
        d = await _body(request, PlanRequest)
        try:
            p = plan(d.tokens, d.size, d.overlap)
        except PlanError as e:
            raise _FieldError(str(e)) from None
        return p.to_dict()

    return app


def _hash_embedder():
    from ..embed.hashing import HashEmbedder

    return HashEmbedder(512)


def serve(host: str = "127.0.0.1", port: int = 8765, searcher: Any = None) -> None:  # pragma: no cover - a server
    import uvicorn

    uvicorn.run(create_app(host, searcher), host=host, port=port, log_level="warning", access_log=False)
