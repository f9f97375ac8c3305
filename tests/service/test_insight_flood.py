"""A flood of silent connections on the Insight port: refused politely, and the server keeps serving.

Each WebSocket connection holds two threads and two descriptors until its handshake completes
or times out; 400 clients that connect and say nothing used to take the server, under a
1024-descriptor limit, to EMFILE: REST answered 500 and the WebSocket's accept loop ended for
good. Here the server runs with ``WAREHOUSE_INSIGHT_CONNECTIONS=16`` and its descriptor limit
lowered (``prlimit`` on the real process), and 400 silent connections are opened at once: at 256
descriptors the connection bound keeps it within them (the flood past the bound gets 503); at 64
it runs out of them and its accept loop must wait, not end.
"""

from __future__ import annotations

import json
import os
import resource
import selectors
import socket
import time
import urllib.request

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from server_process import served
from warehouse import db

pytestmark = pytest.mark.slow

CONNECTIONS = 16
FLOOD = 400
#: how long the flood's clients stay silent: past the handshake timeout (2 s) of those the server took
SILENT_S = 20
#: a hang guard: every flood connection is answered or closed well within it, once half-closed
DRAIN_LIMIT_S = 60


@pytest.fixture
def empty(tmp_path):
    path = tmp_path / "warehouse.db"
    db.connect(path).close()
    return path


def _connecting(address) -> socket.socket:
    """A socket connecting to ``address`` without waiting (a server that stops accepting never completes it)."""
    sock = socket.socket()
    sock.setblocking(False)
    sock.connect_ex(address)
    return sock


def _answers(sockets: list[socket.socket]) -> list[bytes]:
    """What the server sent each socket before closing it (b"" for a plain close).

    The clients say nothing for ``SILENT_S``. Then each connection still waiting half-closes
    (sends its FIN): under load the listening queue overflows and Linux drops the client's last
    handshake ACK, so the client holds a connection the server never saw (it answers a segment
    with a reset, or queues the connection if the queue has room again). A server whose accept
    loop ended leaves a half-closed connection waiting all the same, and fails here.
    """
    said = {sock: b"" for sock in sockets}
    with selectors.DefaultSelector() as selector:
        for sock in sockets:
            selector.register(sock, selectors.EVENT_READ)
        _drain(selector, said, SILENT_S)
        for key in list(selector.get_map().values()):
            if _connected(key.fileobj):
                key.fileobj.shutdown(socket.SHUT_WR)
        _drain(selector, said, DRAIN_LIMIT_S)
        # a connection still waiting is a failure only if it was made: under load the kernel may
        # still be retrying the SYN of a few (the listening queue is 128 long), which no server sees
        made = [key.fileobj for key in selector.get_map().values() if _connected(key.fileobj)]
        assert not made, f"{len(made)} flood connections neither answered nor closed"
    return [said[sock] for sock in sockets]


def _drain(selector: selectors.BaseSelector, said: dict[socket.socket, bytes], limit_s: float) -> None:
    """Read what the server sends until every socket is closed or ``limit_s`` has passed."""
    deadline = time.monotonic() + limit_s
    while selector.get_map() and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=1):
            try:
                chunk = key.fileobj.recv(65536)
            except BlockingIOError:  # still connecting
                continue
            except OSError:  # refused or reset: no answer
                chunk = b""
            said[key.fileobj] += chunk
            if not chunk:
                selector.unregister(key.fileobj)


def _connected(sock: socket.socket) -> bool:
    try:
        sock.getpeername()
    except OSError:
        return False
    return True


def _heart_check(url: str) -> dict:
    """heartCheck on a new connection, tried again while the server still refuses (503) the flood's last ones."""
    deadline = time.monotonic() + DRAIN_LIMIT_S
    while True:
        try:
            with connect(url, open_timeout=30) as page:
                page.send(json.dumps({"id": 1, "moduleName": "global", "type": "request", "command": "heartCheck"}))
                return json.loads(page.recv(timeout=30))
        except InvalidStatus as refused:
            if refused.response.status_code != 503 or time.monotonic() > deadline:
                raise


@pytest.mark.parametrize(("fd_limit", "least_busy"), [
    (256, FLOOD - 10 * CONNECTIONS),  # room for the connection bound: the flood past it gets 503
    (64, 0),  # none: the server runs out of descriptors, waits, and still answers every connection
], ids=["bounded", "out_of_descriptors"])
def test_a_flood_of_silent_connections_is_refused_and_the_server_keeps_serving(empty, fd_limit, least_busy):
    env = {"WAREHOUSE_INSIGHT_CONNECTIONS": str(CONNECTIONS), "WAREHOUSE_INSIGHT_OPEN_TIMEOUT_S": "2"}
    with served(empty, "--insight-port", "0", env=env) as server:
        resource.prlimit(server.process.pid, resource.RLIMIT_NOFILE, (fd_limit, fd_limit))
        host, port = server.websocket.removeprefix("ws://").strip("/").split(":")
        flood = [_connecting((host, int(port))) for _ in range(FLOOD)]
        try:
            answers = _answers(flood)
        finally:
            for sock in flood:
                sock.close()
        busy = [answer for answer in answers if answer.startswith(b"HTTP/1.1 503 ")]
        # past the limit, a polite 503 with the reason; within it, closed once the handshake timed out
        assert len(busy) >= least_busy
        assert all(b"holds 16 connections already (WAREHOUSE_INSIGHT_CONNECTIONS)" in answer for answer in busy)
        assert all(answer == b"" or answer.startswith(b"HTTP/1.1 503 ") for answer in answers)
        assert _heart_check(server.websocket)["result"] is True
        with urllib.request.urlopen(server.url + "/health", timeout=30) as health:
            assert health.status == 200
        said = server.stop()
    assert "Traceback" not in said
    # one warning per SHORTAGE_WARNING_EVERY_S while short of descriptors, not one per connection
    assert said.count("waiting until some close") <= 6


def _limit_leaving(pid: int, free: int) -> int:
    """The descriptor limit under which process ``pid`` has exactly ``free`` descriptor numbers left."""
    held = sorted(int(fd) for fd in os.listdir(f"/proc/{pid}/fd"))
    limit = free
    while limit - sum(fd < limit for fd in held) < free:
        limit += 1
    return limit


def test_a_connection_whose_reader_gets_no_descriptor_is_closed_quietly(empty):
    """Accepted (one descriptor), given its wake-up pair (two), its reader thread's poller is the fourth: none left."""
    env = {"WAREHOUSE_INSIGHT_OPEN_TIMEOUT_S": "30"}
    with served(empty, "--insight-port", "0", env=env) as server:
        pid = server.process.pid
        host, port = server.websocket.removeprefix("ws://").strip("/").split(":")
        soft, hard = resource.prlimit(pid, resource.RLIMIT_NOFILE)
        resource.prlimit(pid, resource.RLIMIT_NOFILE, (_limit_leaving(pid, 3), hard))
        started = time.monotonic()
        with socket.create_connection((host, int(port)), timeout=DRAIN_LIMIT_S) as silent:
            assert silent.recv(65536) == b""  # closed by the server, not by the 30 s handshake timeout
        assert time.monotonic() - started < 15
        resource.prlimit(pid, resource.RLIMIT_NOFILE, (soft, hard))
        assert _heart_check(server.websocket)["result"] is True
        said = server.stop()
    assert "Traceback" not in said
    assert "cannot read a WebSocket connection (Too many open files): waiting until some close" in said
