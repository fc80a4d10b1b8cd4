"""Run the app with uvicorn: what ``smuggle serve`` calls.

The socket is bound before uvicorn starts, so a busy port is a clear one-line error and the URL
printed is the one that works (``--port 0`` takes a free port and prints it).

A client's address is the connection's peer: uvicorn reads ``X-Forwarded-For`` only from the
proxies the operator names (``--proxy-from``), never by default, so a client cannot choose the
address its tables are counted under.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import socket
from typing import Any

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
WILDCARDS = ("0.0.0.0", "::", "")


def host_names(host: str, extra: list[str] | tuple[str, ...] = ()) -> tuple[str, ...]:
    """The ``Host`` names the app answers to when listening on ``host``: this machine's own
    names, ``host`` itself, on every address (``0.0.0.0``) the machine's name and addresses too,
    and the operator's ``--allow-host`` names (a lab's DNS name for the server, say). Any other
    name in a request's ``Host`` is refused: a DNS-rebinding page arrives under its own name."""
    names = {*LOCAL_HOSTS, *(n.lower() for n in extra)}
    if host in WILDCARDS:
        machine = socket.gethostname()
        names |= {machine.lower(), socket.getfqdn().lower()}
        with contextlib.suppress(OSError):
            names |= {str(info[4][0]) for info in socket.getaddrinfo(machine, None)}
    else:
        names.add(host.lower())
    return tuple(sorted(names))


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (IPv6 when the host is an IPv6 address)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP named, so that asyncio sets TCP_NODELAY on the connections it accepts: without
    # it each answer on a kept-alive connection waits ~40 ms for the client's delayed ACK.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def url_of(sock: socket.socket, host: str) -> str:
    port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def proxies(text: str) -> tuple[str, ...]:
    """``--proxy-from``: comma-separated addresses or networks (``10.0.0.5``, ``10.0.0.0/24``,
    ``::1``). Raises ValueError on one line for anything else (``*`` included: name the proxy)."""
    items = tuple(item.strip() for item in text.split(",") if item.strip())
    if not items:
        raise ValueError("--proxy-from needs the address (or network) of the proxy in front of the server")
    for item in items:
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise ValueError(f"--proxy-from: {item[:60]!r} is not an IP address or network") from None
    return items


def make_server(app: Any, log_level: str = "warning", proxy_from: tuple[str, ...] = ()) -> Any:
    """A uvicorn server for ``app`` that answers the open long polls before it stops, so that a
    shutdown neither waits out their timeouts nor cancels them mid-request. Forwarded headers
    count only from ``proxy_from`` (none by default: uvicorn's own default trusts 127.0.0.1)."""
    import uvicorn

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: Any = None) -> None:
            app.state.registry.wake_all()
            await super().shutdown(sockets)

    config = uvicorn.Config(
        app,
        log_level=log_level,
        access_log=False,
        lifespan="on",
        timeout_graceful_shutdown=5,
        proxy_headers=bool(proxy_from),
        forwarded_allow_ips=list(proxy_from) or None,
    )
    return Server(config)


def serve(
    host: str,
    port: int,
    db: str | os.PathLike[str],
    limits: Any = None,
    allow_hosts: tuple[str, ...] = (),
    log_level: str = "warning",
    proxy_from: tuple[str, ...] = (),
    operator_token: str | None = None,
    show_token: bool = False,
) -> None:
    """Serve until Ctrl-C, printing the URL first. ``limits``: a ``limits.ServeLimits``;
    ``proxy_from``: the proxies whose forwarded headers count; ``operator_token``: if given,
    making, closing and listing tables need it (printed when ``show_token``: a generated one)."""
    from .app import create_app

    sock = bind(host, port)
    names = host_names(host, allow_hosts)
    app = create_app(db, limits=limits, allowed_hosts=names, operator_token=operator_token)
    restored = app.state.restored
    print(f"smuggle serve: {url_of(sock, host)}  (database {db}; Ctrl-C stops)", flush=True)
    if show_token:
        print(f"operator token: {operator_token}  (the lobby asks for it once)", flush=True)
    if restored:
        print(f"restored {len(restored)} unfinished table(s): {', '.join(restored)}", flush=True)
    if host not in LOCAL_HOSTS:
        who = "the operator (with the token)" if operator_token else "anyone who can reach it"
        print(
            f"note: serving beyond this machine: {who} can make tables; anyone who can reach it can "
            "watch bot tables and open stored replays; each seat still needs its own link. Host names "
            f"answered: {', '.join(names)} (add more with --allow-host)",
            flush=True,
        )
    make_server(app, log_level, proxy_from).run(sockets=[sock])
