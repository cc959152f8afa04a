"""A real HTTP server on loopback that speaks the documented Ollama embedding API.

Covers: POST /api/embed ({"model", "input": str | [str], "truncate"} -> {"model",
"embeddings", "prompt_eval_count"}), POST /api/show ({"model"} -> {"model_info":
{"<arch>.context_length": N}}), the error shapes ({"error": "..."}: 404 for a model that is
not pulled, 400 "the input length exceeds the context length" when truncate is false), and
injected faults: 5xx answers, a crash (the listening socket closes mid-run), and answers
that are not what Ollama sends (``mode``): an HTML page, NaN, empty, string or null
vectors, a dimension that changes between batches, and an answer trickled one byte every
half second. Token counts are simulated as characters; vectors are deterministic functions
of the text.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def fake_vector(text: str, dim: int = 8) -> list[float]:
    h = hashlib.sha256(text.encode("utf-8")).digest()
    return [b / 255.0 for b in h[:dim]]


class FakeOllama:
    def __init__(
        self,
        models=("embeddinggemma",),
        context: int = 2048,
        port: int = 0,
        crash_after: int | None = None,
        fail_5xx: int = 0,
        mode: str | None = None,
    ):
        self.mode = mode
        self.models = set(models)
        self.context = context
        self.crash_after = crash_after  # successful /api/embed answers before crashing
        self.fail_5xx = fail_5xx
        self.embedded: list[str] = []  # every input answered with a vector
        self.requests = 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):  # quiet
                pass

            def _send(self, code: int, obj, ctype: str = "application/json", trickle: bool = False) -> None:
                body = obj if isinstance(obj, bytes) else json.dumps(obj).encode()
                self.send_response(code)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if not trickle:
                    self.wfile.write(body)
                    return
                for i in range(len(body)):  # one byte every half second (about 40 s for a batch)
                    try:
                        self.wfile.write(body[i : i + 1])
                        self.wfile.flush()
                    except OSError:
                        return
                    time.sleep(0.5)

            def _misbehave(self, inputs: list, model: str) -> bool:
                mode, n = server.mode, len(server._answers)
                vecs = [fake_vector(t) for t in inputs]
                if mode == "html":
                    self._send(200, b"<html><body>Welcome to nginx!</body></html>", "text/html")
                elif mode == "nan":
                    self._send(200, {"model": model, "embeddings": [[float("nan")] * 8 for _ in inputs]})
                elif mode == "empty":
                    self._send(200, {"model": model, "embeddings": [[] for _ in inputs]})
                elif mode == "strings":
                    self._send(200, {"model": model, "embeddings": [["a"] * 8 for _ in inputs]})
                elif mode == "null":
                    self._send(200, {"model": model, "embeddings": [[None] * 8 for _ in inputs]})
                elif mode == "dimchange" and n >= 1:
                    self._send(200, {"model": model, "embeddings": [v[:4] for v in vecs]})
                elif mode == "trickle":
                    self._send(200, {"model": model, "embeddings": vecs}, trickle=True)
                else:
                    return False
                server._answers.append(1)
                return True

            def do_POST(self):
                n = int(self.headers.get("Content-Length", 0))
                try:
                    req = json.loads(self.rfile.read(n) or b"{}")
                except ValueError:
                    return self._send(400, {"error": "invalid JSON"})
                model = req.get("model", "")
                if self.path == "/api/show":
                    if model not in server.models:
                        return self._send(404, {"error": f"model '{model}' not found"})
                    return self._send(200, {"model_info": {"gemma3.context_length": server.context}})
                if self.path != "/api/embed":
                    return self._send(404, {"error": "not found"})
                server.requests += 1
                if server.fail_5xx > 0:
                    server.fail_5xx -= 1
                    return self._send(500, {"error": "llama runner process has terminated"})
                if model not in server.models:
                    return self._send(404, {"error": f'model "{model}" not found, try pulling it first'})
                inputs = req.get("input")
                inputs = [inputs] if isinstance(inputs, str) else inputs
                if not isinstance(inputs, list):
                    return self._send(400, {"error": "invalid input type"})
                if req.get("truncate", True) is False and any(len(t) > server.context for t in inputs):
                    return self._send(400, {"error": "the input length exceeds the context length"})
                if server.crash_after is not None and len(server._answers) >= server.crash_after:
                    server.crash()
                    self.connection.close()
                    return
                if server.mode and self._misbehave(inputs, model):
                    return
                server._answers.append(1)
                server.embedded.extend(inputs)
                return self._send(
                    200,
                    {
                        "model": model,
                        "embeddings": [fake_vector(t) for t in inputs],
                        "prompt_eval_count": sum(len(t) for t in inputs),
                    },
                )

        self._answers: list[int] = []
        self.httpd = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self._thread.start()

    def crash(self) -> None:
        threading.Thread(target=self.stop, daemon=True).start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        try:
            self.stop()
        except Exception:
            pass
