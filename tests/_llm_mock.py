"""A scripted OpenAI-compatible chat-completions server on 127.0.0.1, for the ``llm:`` agent's
tests (``tests/agents/test_llm.py``, ``tests/training/test_llm_storage.py``).

``MockLLM(script)`` serves ``POST /v1/chat/completions`` from a thread on a free loopback port:
each request takes the next item of ``script`` (then ``default``, "1", forever). An item is the
answer's text, a :class:`Reply` (text, a delay, an HTTP status, token usage), or a function of
the request's JSON body returning either. Every request body is kept in ``requests``, its
``Authorization`` header in ``authorizations``.

The HTTP side (routes, keep-alive, the response and error shapes) is the benchmark's mock server's
``ChatServer`` (``benchmarks/mock_llm_server.py``): this module only scripts the answers.
"""

from __future__ import annotations

import importlib.util
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from email.message import Message
from pathlib import Path
from types import ModuleType
from typing import Any


def _server_module() -> ModuleType:
    """``benchmarks/mock_llm_server.py``, loaded from its file as the tests load every benchmark
    (``benchmarks`` is no package: another installed one may hold the name), once a process."""
    name = "_benchmarks_mock_llm_server"
    if name not in sys.modules:
        path = Path(__file__).resolve().parents[1] / "benchmarks" / "mock_llm_server.py"
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # as an import would: loaded once, whichever test asks first
        spec.loader.exec_module(module)
    return sys.modules[name]


_server = _server_module()


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


class MockLLM(_server.ChatServer):
    """The server (the benchmark's ``ChatServer``, answering from the script); a context manager
    (``with MockLLM([...]) as llm: llm.spec()``)."""

    model = "mock"

    def __init__(self, script: Iterable[Item] = (), default: Item = "1"):
        super().__init__(port=0)
        self.script = list(script)
        self.default = default
        self.requests: list[dict[str, Any]] = []
        self.authorizations: list[str | None] = []  # each request's Authorization header
        self._lock = threading.Lock()

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

    def respond(self, body: dict[str, Any], headers: Message) -> tuple[int, dict[str, Any]]:
        self.authorizations.append(headers.get("Authorization"))
        reply = self.next_reply(body)
        time.sleep(reply.delay)
        if reply.status != 200:
            return reply.status, _server.error(f"scripted {reply.status}", "mock")
        model = body.get("model", "mock")
        return 200, _server.chat_completion(len(self.requests), model, reply.content, reply.usage)
