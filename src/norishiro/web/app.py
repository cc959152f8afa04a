"""A local web page to chunk, inspect, plan and export (seeds 000 and 002).

Privacy by construction: the page loads nothing from elsewhere (no CDN, fonts or scripts
from other hosts), a Content-Security-Policy forbids outside connections, the server binds
to localhost by default, and no request body is ever logged.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from starlette.middleware.base import BaseHTTPMiddleware

from ..api import ChunkOptionsError, chunk
from ..context import ContextHeaderError
from ..document import Document
from ..export import curl_command, ollama_body_json
from ..lint import lint_chunks
from ..plan import PlanError, plan
from ..sizing import get_sizer

STATIC = Path(__file__).parent / "static"
MAX_BODY = 20 * 1024 * 1024
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'")


class _Guard(BaseHTTPMiddleware):
    """Security headers on every answer; bodies over the limit get 413 before being read."""

    async def dispatch(self, request: Request, call_next):
        length = request.headers.get("content-length")
        if length and length.isdigit() and int(length) > MAX_BODY:
            return _secure(JSONResponse({"error": f"request body of {int(length):,} bytes is over the "
                                                  f"{MAX_BODY // (1024 * 1024)} MB limit; split the text"},
                                        status_code=413))
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


def _bad(msg: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": msg}, status_code=status)


async def _json(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise _TooBig()
    try:
        data = json.loads(raw or b"{}")
    except (ValueError, UnicodeDecodeError) as e:
        raise _BadInput(f"request is not JSON: {e}") from None
    if not isinstance(data, dict):
        raise _BadInput("request must be a JSON object")
    return data


class _BadInput(ValueError):
    pass


class _TooBig(ValueError):
    pass


def _int(data: dict, key: str, default: int) -> int:
    v = data.get(key, default)
    try:
        return int(v)
    except (TypeError, ValueError):
        raise _BadInput(f"{key} must be a whole number, got {v!r}") from None


def create_app() -> FastAPI:
    app = FastAPI(title="norishiro", docs_url=None, redoc_url=None, openapi_url=None)
    app.add_middleware(_Guard)

    @app.exception_handler(_BadInput)
    async def _bad_input(_req, exc):
        return _bad(str(exc))

    @app.exception_handler(_TooBig)
    async def _too_big(_req, exc):
        return _bad(f"request body is over the {MAX_BODY // (1024 * 1024)} MB limit; split the text", 413)

    @app.get("/", response_class=HTMLResponse)
    async def index():
        return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")

    @app.get("/static/{name}")
    async def static(name: str):
        path = (STATIC / name).resolve()
        if path.parent != STATIC.resolve() or not path.is_file():
            return _bad("not found", 404)
        media = {"js": "text/javascript", "css": "text/css", "svg": "image/svg+xml"}.get(path.suffix[1:], "text/plain")
        return FileResponse(path, media_type=media + "; charset=utf-8")

    @app.post("/api/chunk")
    async def api_chunk(request: Request):
        d = await _json(request)
        text = d.get("text", "")
        if not isinstance(text, str):
            raise _BadInput("text must be a string")
        size, overlap = _int(d, "size", 300), _int(d, "overlap", 0)
        unit = d.get("unit", "chars")
        tokenizer = d.get("tokenizer") or None
        if unit == "tokens" and not tokenizer:
            tokenizer = "o200k_base"
        if tokenizer not in (None, "o200k_base", "cl100k_base"):
            raise _BadInput("tokenizer must be o200k_base or cl100k_base in the web page")
        strategy = d.get("strategy", "recursive")
        keys = [k.strip() for k in str(d.get("header_keys") or "").split(",") if k.strip()]
        meta = d.get("metadata") or {}
        if not isinstance(meta, dict):
            raise _BadInput("metadata must be an object of key: value")
        semantic = {"embedder": _hash_embedder()} if strategy == "semantic" else None
        doc = Document.from_text(text, id="page", metadata={str(k): str(v) for k, v in meta.items()},
                                 front_matter=bool(d.get("front_matter", True)))
        try:
            chunks = chunk(doc, size=size, overlap=overlap, strategy=strategy, unit=unit, tokenizer=tokenizer,
                           header_keys=keys or None, structure=True, semantic=semantic)
        except (ChunkOptionsError, ContextHeaderError, ValueError) as e:
            raise _BadInput(str(e)) from None
        model = str(d.get("model") or "embeddinggemma")
        url = str(d.get("ollama_url") or "http://localhost:11434")
        truncate = bool(d.get("truncate", False))
        report = lint_chunks(doc.text, chunks, doc_id="page", size=size)
        inputs = [c.embed_text for c in chunks]
        return {
            "offset_base": len(text) - len(doc.text),  # front matter removed before offsets
            "summary": {"chunks": len(chunks), "longest": max((c.size for c in chunks), default=0),
                        "unit": "tokens" if unit == "tokens" else "chars",
                        "over_budget": sum(c.size > size for c in chunks)},
            "chunks": [{"index": c.index, "start": c.start, "end": c.end, "size": c.size, "text": c.text,
                        "embed_text": c.embed_text, "section": c.section} for c in chunks],
            "lint": {"summary": report.summary(), "findings": [f.to_dict() for f in report.findings]},
            "ollama_body": ollama_body_json(inputs, model, truncate),
            "curl": curl_command(inputs, model, truncate, url),
        }

    @app.post("/api/count")
    async def api_count(request: Request):
        d = await _json(request)
        text = d.get("text", "")
        tok = d.get("tokenizer") or "o200k_base"
        if tok not in ("o200k_base", "cl100k_base", "chars"):
            raise _BadInput("tokenizer must be o200k_base, cl100k_base or chars")
        n = len(text) if tok == "chars" else get_sizer("tokens", tok).count(text)
        return {"tokens": n, "tokenizer": tok}

    @app.post("/api/plan")
    async def api_plan(request: Request):
        d = await _json(request)
        try:
            p = plan(_int(d, "tokens", 0), _int(d, "size", 512), _int(d, "overlap", 0))
        except PlanError as e:
            raise _BadInput(str(e)) from None
        return p.to_dict()

    return app


def _hash_embedder():
    from ..embed.hashing import HashEmbedder

    return HashEmbedder(512)


def serve(host: str = "127.0.0.1", port: int = 8765) -> None:  # pragma: no cover - runs a server
    import uvicorn

    uvicorn.run(create_app(), host=host, port=port, log_level="warning", access_log=False)
