"""A real HTTP server on loopback that speaks the documented OpenAI embeddings API.

POST /v1/embeddings with {"model", "input": str | [str], "encoding_format"} answers
{"object": "list", "data": [{"object": "embedding", "index", "embedding"}], "model",
"usage": {"prompt_tokens", "total_tokens"}}; rows are sent in reverse order, as the API
allows (clients must use ``index``). Errors are {"error": {"message", "type", "param",
"code"}}: 401 invalid_api_key when a key is required and not given, 404 model_not_found,
400 "This model's maximum context length is N tokens ..." for an input longer than
``context`` characters, and injected faults: ``rate_limited`` answers 429 with Retry-After
first, ``fail_5xx`` answers 500 first.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from fake_ollama import fake_vector


class FakeOpenAI:
    def __init__(
        self,
        models=("text-embedding-test",),
        key: str | None = None,
        context: int = 2048,
        dim: int = 8,
        rate_limited: int = 0,
        fail_5xx: int = 0,
    ):
        self.models = set(models)
        self.key = key
        self.context = context
        self.dim = dim
        self.rate_limited = rate_limited
        self.fail_5xx = fail_5xx
        self.embedded: list[str] = []
        self.auth_headers: list[str | None] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def _send(self, code: int, obj, headers=()) -> None:
                body = json.dumps(obj).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                for k, v in headers:
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(body)

            def _error(self, code: int, message: str, type_: str, err_code: str | None, headers=()) -> None:
                self._send(
                    code, {"error": {"message": message, "type": type_, "param": None, "code": err_code}}, headers
                )

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                auth = self.headers.get("Authorization")
                server.auth_headers.append(auth)
                if self.path != "/v1/embeddings":
                    return self._error(404, f"Unknown request URL: POST {self.path}", "invalid_request_error", None)
                if server.key and auth != f"Bearer {server.key}":
                    return self._error(401, "Incorrect API key provided", "invalid_request_error", "invalid_api_key")
                if server.rate_limited > 0:
                    server.rate_limited -= 1
                    return self._error(
                        429, "Rate limit reached", "requests", "rate_limit_exceeded", [("Retry-After", "0")]
                    )
                if server.fail_5xx > 0:
                    server.fail_5xx -= 1
                    return self._error(500, "The server had an error", "server_error", None)
                model = body.get("model")
                if model not in server.models:
                    return self._error(
                        404, f"The model `{model}` does not exist", "invalid_request_error", "model_not_found"
                    )
                inputs = body.get("input")
                inputs = [inputs] if isinstance(inputs, str) else inputs
                for text in inputs:
                    if len(text) > server.context:
                        return self._error(
                            400,
                            f"This model's maximum context length is {server.context} tokens, however you "
                            f"requested {len(text)} tokens. Please reduce your prompt.",
                            "invalid_request_error",
                            None,
                        )
                server.embedded += inputs
                data = [
                    {"object": "embedding", "index": i, "embedding": fake_vector(t, server.dim)}
                    for i, t in enumerate(inputs)
                ]
                n = sum(len(t) for t in inputs)
                self._send(
                    200,
                    {
                        "object": "list",
                        "data": data[::-1],
                        "model": model,
                        "usage": {"prompt_tokens": n, "total_tokens": n},
                    },
                )

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()
