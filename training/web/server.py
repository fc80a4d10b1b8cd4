"""Run the app with uvicorn: what ``smuggle serve`` calls.

The socket is bound before uvicorn starts, so a busy port is a clear one-line error and the URL
printed is the one that works (``--port 0`` takes a free port and prints it).
"""

from __future__ import annotations

import os
import socket
from typing import Any

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (IPv6 when the host is an IPv6 address)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
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


def make_server(app: Any, log_level: str = "warning") -> Any:
    """A uvicorn server for ``app`` that answers the open long polls before it stops, so that a
    shutdown neither waits out their timeouts nor cancels them mid-request."""
    import uvicorn

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: Any = None) -> None:
            app.state.registry.wake_all()
            await super().shutdown(sockets)

    config = uvicorn.Config(app, log_level=log_level, access_log=False, lifespan="on", timeout_graceful_shutdown=5)
    return Server(config)


def serve(host: str, port: int, db: str | os.PathLike[str], log_level: str = "warning") -> None:
    """Serve until Ctrl-C, printing the URL first."""
    from .app import create_app

    sock = bind(host, port)
    app = create_app(db)
    restored = app.state.restored
    print(f"smuggle serve: {url_of(sock, host)}  (database {db}; Ctrl-C stops)", flush=True)
    if restored:
        print(f"restored {len(restored)} unfinished table(s): {', '.join(restored)}", flush=True)
    if host not in LOCAL_HOSTS:
        print(
            "note: serving beyond this machine: anyone who can reach it can make tables, watch bot "
            "tables and open stored replays; each seat still needs its own link",
            flush=True,
        )
    make_server(app, log_level).run(sockets=[sock])
