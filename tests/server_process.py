"""``warehouse serve`` in a child process, for the tests and benchmarks that talk to it over sockets.

The server says where it listens on stderr once it accepts connections (``... on
http://127.0.0.1:PORT/api/v1``, and first its WebSocket's ``ws://`` address with ``--insight-port``).
:func:`served` starts it on a free port (``--port 0``), waits for that line, then keeps reading
stderr in a thread, so a chatty server never blocks on a full pipe and a test can still read all it
said (:meth:`Served.stop`). One launcher for tests/service and bench/load_test.py.
"""

from __future__ import annotations

import contextlib
import os
import re
import selectors
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

#: the line the server prints once it listens: its REST API's base URL
LISTENING = re.compile(rb" on (http://(127\.0\.0\.1|0\.0\.0\.0):(\d+)/api/v1)")
#: the WebSocket's address, printed before that line when --insight-port is given
WEBSOCKET = re.compile(rb"ws://((?:127\.0\.0\.1|0\.0\.0\.0):\d+)/")


@dataclass
class Served:
    """A running server: its process, its REST base URL, host and port, and its WebSocket URL if any."""

    process: subprocess.Popen
    url: str
    host: str
    port: int
    websocket: str | None
    said: list[bytes] = field(default_factory=list)
    reader: threading.Thread | None = None

    def stop(self) -> str:
        """Kill the server and return everything it wrote on stderr."""
        self.process.kill()
        self.process.wait(timeout=30)
        self.reader.join(timeout=30)
        return b"".join(self.said).decode(errors="replace")


@contextlib.contextmanager
def served(db_path, *options: str, env: dict[str, str] | None = None, timeout_s: float = 30) -> Iterator[Served]:
    """``warehouse serve --db DB_PATH --port 0 OPTIONS...`` until the block ends; ``env``: extra variables.

    Raises RuntimeError with what the server said when it does not listen within ``timeout_s``.
    """
    command = [sys.executable, "-c", "from warehouse.cli import cli; cli()", "serve", "--db", str(db_path),
               "--port", "0", *options]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               env={**os.environ, **(env or {})})
    server = None
    try:
        said = _read_until_listening(process, timeout_s)
        listening = LISTENING.search(said)
        if listening is None:
            raise RuntimeError(f"warehouse serve did not listen within {timeout_s} s; it said: {said!r}")
        websocket = WEBSOCKET.search(said)
        server = Served(process, listening[1].decode(), listening[2].decode(), int(listening[3]),
                        f"ws://{websocket[1].decode()}/" if websocket else None, [said])
        server.reader = threading.Thread(target=_keep_reading, args=(process.stderr, server.said), daemon=True)
        server.reader.start()
        yield server
    finally:
        process.kill()
        process.wait(timeout=30)
        if server is not None:
            server.reader.join(timeout=30)  # it reads to the end of the pipe, which the kill closed
        process.stderr.close()


def _read_until_listening(process: subprocess.Popen, timeout_s: float) -> bytes:
    deadline, said = time.monotonic() + timeout_s, b""
    with selectors.DefaultSelector() as selector:
        selector.register(process.stderr, selectors.EVENT_READ)
        while (left := deadline - time.monotonic()) > 0 and selector.select(timeout=left):
            chunk = os.read(process.stderr.fileno(), 4096)
            if not chunk:  # the process ended
                break
            said += chunk
            if LISTENING.search(said):
                break
    return said


def _keep_reading(stream, said: list[bytes]) -> None:
    while chunk := stream.read1(65536):
        said.append(chunk)
