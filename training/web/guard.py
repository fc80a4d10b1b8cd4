"""The app's front door: which requests reach it at all, and the headers every answer carries.

A participant's browser runs other sites' pages too. Without these checks any page they open
could post to their local ``smuggle serve`` (a form or a ``text/plain`` fetch needs no CORS
preflight), and a DNS-rebinding page could read it under its own name. So, before any route:

=====================  =======================================================================
check                  refusal
=====================  =======================================================================
``Host``               400 unless it is one ``Host`` header, ``NAME`` or ``NAME:PORT`` (no user
                       info, a port of digits from 1 to 65535), and ``NAME`` is one the server
                       answers to (``allowed_hosts``)
``Origin`` (writes)    403 unless it is this server (a request with no ``Origin``, as from
                       ``curl``, is allowed: it cannot come from another site's page)
``Sec-Fetch-Site``     403 for ``cross-site`` requests to ``/api/``
``Content-Type``       415 for a write that is not ``application/json``
``Content-Length``     413 above ``max_body`` (``app._body`` counts a body without one)
=====================  =======================================================================

Every answer carries a Content-Security-Policy that allows only this server's own scripts,
styles and connections and no framing, ``X-Frame-Options: DENY``, ``Referrer-Policy:
no-referrer`` (a seat's token rides in its page's URL fragment) and ``nosniff``.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Collection, MutableMapping
from typing import Any
from urllib.parse import urlsplit

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY = 64 * 1024  # bytes of a request body; the largest real one (a table) is under 1 KiB
LOCAL_NAMES = ("127.0.0.1", "localhost", "::1")
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
]
READS = ("GET", "HEAD", "OPTIONS")


def host_name(host: str) -> str:
    """The name part of a ``Host`` header: ``[::1]:8000`` -> ``::1``, ``Lab-PC:80`` -> ``lab-pc``;
    ``""`` for one that is not ``NAME[:PORT]`` (user info, a port that is not a number from 1 to
    65535, a bracket left open): such a Host names no server."""
    host = host.strip().lower()
    if "@" in host or "/" in host:
        return ""
    if host.startswith("["):
        name, _, rest = host[1:].partition("]")
        return name if "]" in host and _port_ok(rest) else ""
    if host.count(":") == 1:
        name, _, port = host.partition(":")
        return name if _port_ok(":" + port) else ""
    return host  # no port, or a bare IPv6 address


def _port_ok(rest: str) -> bool:
    """What follows the name: nothing, or ``:PORT`` with a port from 1 to 65535."""
    if not rest:
        return True
    port = rest[1:]
    return rest[0] == ":" and port.isascii() and port.isdigit() and len(port) <= 5 and 1 <= int(port) <= 65535


class Guard:
    """ASGI middleware: the checks and headers of the module docstring, before ``app``."""

    def __init__(self, app: ASGIApp, allowed_hosts: Collection[str] = LOCAL_NAMES, max_body: int = MAX_BODY):
        self.app = app
        self.allowed = {host_name(h) if h.startswith("[") else h.lower() for h in allowed_hosts}
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + SECURITY_HEADERS
            await send(message)

        refusal = self.refusal(scope)
        if refusal is not None:
            await _refuse(send_with_headers, *refusal)
            return
        await self.app(scope, receive, send_with_headers)

    def refusal(self, scope: Scope) -> tuple[int, str] | None:
        """``(status, message)`` for a request refused at the door, or None."""
        raw = [(k.decode("latin-1").lower(), v.decode("latin-1")) for k, v in scope.get("headers", [])]
        headers = dict(raw)
        host = headers.get("host", "")
        if sum(1 for k, _ in raw if k == "host") > 1:  # which one a proxy read is anyone's guess
            return 400, "a request has one Host header"
        if host_name(host) not in self.allowed:
            return 400, "this server does not answer to that Host name (see smuggle serve --allow-host)"
        path, method = scope.get("path", ""), scope.get("method", "GET")
        if path.startswith("/api/") and headers.get("sec-fetch-site") == "cross-site":
            return 403, "requests from other sites are refused"
        if method in READS:
            return None
        origin = headers.get("origin")
        if origin is not None and not _same_origin(origin, host):
            return 403, "requests from other sites are refused"
        if headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
            return 415, "send the request body as JSON, with Content-Type: application/json"
        length = headers.get("content-length", "0")
        if not length.isdigit() or int(length) > self.max_body:
            return 413, f"a request body has at most {self.max_body} bytes"
        return None


def _same_origin(origin: str, host: str) -> bool:
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.strip().lower()


async def _refuse(send: Send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


__all__ = ["CSP", "LOCAL_NAMES", "MAX_BODY", "Guard", "host_name"]
