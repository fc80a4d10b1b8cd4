"""A scripted OpenAI-compatible chat-completions server on 127.0.0.1, for the ``llm:`` agent's
tests (``tests/agents/test_llm.py``, ``tests/training/test_llm_storage.py``).

``MockLLM(script)`` serves ``POST /v1/chat/completions`` from a thread on a free loopback port:
each request takes the next item of ``script`` (then ``default``, "1", forever). An item is the
answer's text, a :class:`Reply` (text, a delay, an HTTP status, token usage), or a function of
the request's JSON body returning either. Every request body is kept in ``requests``, its
``Authorization`` header in ``authorizations``.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Reply:
    """One scripted answer: ``content`` after ``delay`` seconds, as HTTP ``status`` (an error
    status answers an OpenAI-style error body), with ``usage`` (prompt, completion tokens) or
    none."""

    content: str = "1"
    delay: float = 0.0
    status: int = 200
    usage: tuple[int, int] | None = (10, 1)


Item = str | Reply | Callable[[dict[str, Any]], "str | Reply"]


class MockLLM:
    """The server; a context manager (``with MockLLM([...]) as llm: llm.spec()``)."""

    def __init__(self, script: Iterable[Item] = (), default: Item = "1"):
        self.script = list(script)
        self.default = default
        self.requests: list[dict[str, Any]] = []
        self.authorizations: list[str | None] = []  # each request's Authorization header
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True  # a slow answer never holds the test up at close
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def spec(self, **options: object) -> str:
        """An ``llm:`` spec of model ``mock`` at this server, with ``options`` added."""
        items = {"model": "mock", "base_url": self.base_url, **options}
        return "llm:" + ";".join(f"{k}={v}" for k, v in items.items())

    def next_reply(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            self.requests.append(body)
            item = self.script.pop(0) if self.script else self.default
        if callable(item):
            item = item(body)
        return item if isinstance(item, Reply) else Reply(str(item))

    def __enter__(self) -> MockLLM:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


def _handler(mock: MockLLM) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as real servers answer the client
        disable_nagle_algorithm = True  # headers and body leave at once: no 40 ms delayed-ACK stall

        def log_message(self, format: str, *args: Any) -> None:  # quiet test output
            pass

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
            if self.path.rstrip("/") != "/v1/chat/completions":
                return self._send(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
            mock.authorizations.append(self.headers.get("Authorization"))
            reply = mock.next_reply(body)
            time.sleep(reply.delay)
            if reply.status != 200:
                return self._send(reply.status, {"error": {"message": f"scripted {reply.status}", "type": "mock"}})
            answer: dict[str, Any] = {
                "id": f"chatcmpl-mock-{len(mock.requests)}",
                "object": "chat.completion",
                "created": 0,
                "model": body.get("model", "mock"),
                "choices": [
                    {"index": 0, "message": {"role": "assistant", "content": reply.content}, "finish_reason": "stop"}
                ],
            }
            if reply.usage is not None:
                p, c = reply.usage
                answer["usage"] = {"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c}
            self._send(200, answer)

        def _send(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up on a slow answer (a timeout test)

    return Handler
