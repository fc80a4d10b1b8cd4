"""A scripted stand-in for a language model, NOT a language model: an OpenAI-compatible
chat-completions server on the loopback address that answers every prompt of the ``llm:`` agent
with a menu number drawn at random.

    python benchmarks/mock_llm_server.py --port 8001                 # then llm:model=scripted-mock;base_url=http://127.0.0.1:8001/v1
    python benchmarks/mock_llm_server.py --port 0 --garble 0.05      # a free port; 5% unreadable first answers

It serves ``POST /v1/chat/completions`` (and ``GET /v1/models``, which some clients ask first).
The number of legal actions is read from the last "(1 to N)" of the conversation (the prompt's
instruction, or the agent's re-prompt after an unusable answer); the answer is a number from 1
to N drawn from a generator seeded by ``--seed`` and a hash of the whole conversation, so the
same conversation always gets the same answer, in whatever order requests arrive. With
``--garble P`` a fraction P of first answers (drawn the same way) is text that names no action,
so a benchmark shows the parse-failure and retry path; a re-prompt is always answered with a
number. The token counts it reports are estimates (characters / 4), not a tokenizer's.

It prints ``serving http://127.0.0.1:PORT/v1`` once listening, then serves until interrupted
(or until ``--max-seconds`` pass). It binds 127.0.0.1 only. ``benchmarks/llm_deception.py``'s
test and ``docs/llm.md``'s table use it. Its HTTP side, ``ChatServer``, is also the base of the
``llm:`` agent's scripted test server (``tests/_llm_mock.py``).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import random
import re
import threading
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, TypeVar

MODEL = "scripted-mock"
HOST = "127.0.0.1"  # loopback only: this is a test double, never a service
MENU_SIZE = re.compile(r"\(1 to (\d+)\)")
GARBLED = "Let me think about the smugglers at this table before I decide."


def menu_size(messages: list[dict[str, Any]]) -> int | None:
    """The number of legal actions the conversation last asked to choose from (None: no menu)."""
    for message in reversed(messages):
        found = MENU_SIZE.findall(str(message.get("content", "")))
        if found:
            return int(found[-1])
    return None


def answer(messages: list[dict[str, Any]], seed: int = 0, garble: float = 0.0) -> str:
    """The scripted answer to a conversation: a menu number drawn from a generator seeded by
    ``seed`` and the conversation itself (so it never depends on request order), or, for a
    ``garble`` fraction of first attempts, text that names no action."""
    digest = hashlib.sha256(json.dumps([seed, messages], sort_keys=True).encode()).digest()
    rng = random.Random(int.from_bytes(digest[:8], "big"))
    size = menu_size(messages)
    first_attempt = not any(m.get("role") == "assistant" for m in messages)
    if size is None or (first_attempt and rng.random() < garble):
        return GARBLED
    return str(rng.randint(1, size))


def chat_completion(number: int, model: str, content: str, usage: tuple[int, int] | None) -> dict[str, Any]:
    """OpenAI's chat-completion object: one answer ``content`` from ``model``, request ``number``
    in arrival order, with ``usage`` (prompt, completion tokens) or none."""
    payload: dict[str, Any] = {
        "id": f"chatcmpl-mock-{number}",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
    }
    if usage is not None:
        p, c = usage
        payload["usage"] = {"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c}
    return payload


def error(message: str, kind: str) -> dict[str, Any]:
    """An OpenAI-style error body."""
    return {"error": {"message": message, "type": kind}}


def completion(body: dict[str, Any], seed: int, garble: float, number: int) -> dict[str, Any]:
    """The chat-completion object answering request ``body`` with the scripted ``answer``."""
    messages = body.get("messages") or []
    content = answer(messages, seed, garble)
    prompt_tokens = sum(len(str(m.get("content", ""))) for m in messages) // 4  # an estimate
    usage = (prompt_tokens, max(1, len(content) // 4))
    return chat_completion(number, body.get("model", MODEL), content, usage)


_Server = TypeVar("_Server", bound="ChatServer")


class ChatServer:
    """An OpenAI-compatible chat-completions server on the loopback address, served from a thread
    (a context manager; ``base_url`` once started). ``POST /v1/chat/completions`` is answered by
    ``respond``, which a scripted server overrides (``MockServer`` here; the ``llm:`` agent's
    tests build theirs on it, ``tests/_llm_mock.py``); ``GET /v1/models`` lists ``model``."""

    model = MODEL

    def __init__(self, port: int = 0):
        self._server = ThreadingHTTPServer((HOST, port), _handler(self))
        self._server.daemon_threads = True  # a slow answer never holds up the close
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://{HOST}:{self._server.server_address[1]}/v1"

    def respond(self, body: dict[str, Any], headers: Message) -> tuple[int, dict[str, Any]]:
        """``(HTTP status, JSON payload)`` answering one chat-completions request."""
        raise NotImplementedError

    def __enter__(self: _Server) -> _Server:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


class MockServer(ChatServer):
    """The benchmark's server: every request answered by ``completion``, numbered in arrival order."""

    def __init__(self, port: int = 0, seed: int = 0, garble: float = 0.0):
        if not 0.0 <= garble <= 1.0:
            raise ValueError(f"garble must be a fraction from 0 to 1, got {garble}")
        super().__init__(port)
        self.seed, self.garble = seed, garble
        self.requests = 0
        self._lock = threading.Lock()

    def reply(self, body: dict[str, Any]) -> dict[str, Any]:
        """The completion answering one request's JSON ``body``, numbered in arrival order."""
        with self._lock:
            self.requests += 1
            number = self.requests
        return completion(body, self.seed, self.garble, number)

    def respond(self, body: dict[str, Any], headers: Message) -> tuple[int, dict[str, Any]]:
        return 200, self.reply(body)


def _handler(server: ChatServer) -> type[BaseHTTPRequestHandler]:
    """The request handler class of ``server`` (http.server makes one handler per request)."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as the openai client expects of a server
        disable_nagle_algorithm = True  # headers and body leave at once: no 40 ms delayed-ACK stall

        def log_message(self, format: str, *args: Any) -> None:  # one line a request is noise
            pass

        def do_GET(self) -> None:
            if self.path.rstrip("/") != "/v1/models":
                return self._send(404, error(f"no route {self.path}", "not_found"))
            self._send(200, {"object": "list", "data": [{"id": server.model, "object": "model", "owned_by": "mock"}]})

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))  # read first: keep-alive
            if self.path.rstrip("/") != "/v1/chat/completions":
                return self._send(404, error(f"no route {self.path}", "not_found"))
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                return self._send(400, error("the body is not JSON", "invalid_request"))
            self._send(*server.respond(body, self.headers))

        def _send(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (its timeout): nothing to answer

    return Handler


def main(argv: list[str] | None = None) -> int:
    """Serve until interrupted or ``--max-seconds`` pass (a test's server never outlives it)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8001, help="port on 127.0.0.1 (0: a free one)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the answers")
    parser.add_argument("--garble", type=float, default=0.0, help="fraction of first answers that name no action")
    parser.add_argument("--max-seconds", type=float, default=None, help="stop after this long (default: never)")
    args = parser.parse_args(argv)
    stop = threading.Event()
    with MockServer(args.port, args.seed, args.garble) as server:
        print(f"serving {server.base_url}", flush=True)  # a caller on --port 0 reads the port here
        with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C is the normal way to stop it
            stop.wait(args.max_seconds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
