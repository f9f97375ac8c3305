"""The operator-view protocol on a WebSocket: what MindStudio Insight's own web frontend speaks.

The page (``index.html?port=N``) opens ``ws://<its host>:N/<its query string>`` and sends one
bare JSON request object per text frame; each is answered with one response object per frame
(followed by the events the command left for the page, e.g. ``parse/success`` after an import;
an import parsed in the background sends its events from its own thread, one frame at a time)
by the same dispatcher as ``POST /api/v1/insight`` (:func:`service.insight.dispatch.answer`),
run inside the Flask app's context so import root, warehouse and caches are the REST API's.
waitress cannot upgrade a connection, so this is websockets' threaded server on a second port
(``warehouse serve --insight-port N``); each connection has a thread and answers its requests
in order, as the real server does per session.

With a bearer token configured, a browser cannot send the Authorization header: the token is
read from the connection's query string (``?port=N&token=T`` on the page is passed on).

The network boundary, as the REST API's (service/boundary.py): a handshake naming a foreign
``Host`` or sent by a page of a foreign ``Origin`` is refused (403), so no other site's page
can drive the port. Bounds: ``INSIGHT_CONNECTIONS`` connections open or opening at once (each
holds two threads and two descriptors; past it a new one is answered 503 and closed), a
handshake must complete within ``INSIGHT_OPEN_TIMEOUT_S`` and a connection without a request
for ``INSIGHT_IDLE_TIMEOUT_S`` is closed; the accept loop outlives running out of descriptors
(it waits and retries, warning at most every ``SHORTAGE_WARNING_EVERY_S``) as does a connection
whose reader cannot get its descriptor (it is closed); each request takes one of the REST API's request slots
(service/admission.py) while it is answered; a frame's JSON is depth-bounded (service/json_body.py).
"""

from __future__ import annotations

import errno
import hmac
import logging
import select
import socket
import threading
import time
from http import HTTPStatus
from urllib.parse import parse_qs, urlsplit

import msgspec
from flask import Flask
from websockets.exceptions import ConnectionClosed
from websockets.frames import CloseCode
from websockets.sync.server import Server, ServerConnection, serve

from service import boundary, json_body
from service.admission import request_slot
from service.insight.dispatch import BAD_REQUEST, answer, envelope_problem, refusal
from service.insight.session import Session

#: largest request frame accepted (requests are small JSON objects)
MAX_REQUEST_BYTES = 1 << 20
#: what accept() may fail with when the process or the machine is out of descriptors or memory
OUT_OF_RESOURCES = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}
#: the longest wait between two tries of accept() while out of descriptors, in seconds
MAX_BACKOFF_S = 1.0
#: while out of descriptors, at most one warning in this many seconds (a flood would write one per connection)
SHORTAGE_WARNING_EVERY_S = 10.0
#: seconds a refused connection (over the limit) is given to read its 503 before it is closed
REFUSAL_LINGER_S = 0.5
BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nConnection: close\r\n"
        b"Retry-After: 1\r\nContent-Length: %d\r\n\r\n%s")

log = logging.getLogger(__name__)


class _Shortage:
    """Warns that the process is out of descriptors, at most once per ``SHORTAGE_WARNING_EVERY_S``."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._warned_at: float | None = None

    def warn(self, what: str, exc: OSError) -> None:
        with self._lock:
            now = time.monotonic()
            if self._warned_at is not None and now - self._warned_at < SHORTAGE_WARNING_EVERY_S:
                return
            self._warned_at = now
        log.warning("%s (%s): waiting until some close", what, exc.strerror)


_shortage = _Shortage()


def _admission(app: Flask):
    """A handshake hook refusing a foreign Host or Origin (403), then a connection without the token (401)."""
    allowed = boundary.allowed_hosts(app)

    def check(connection: ServerConnection, request):
        reason = allowed.refusal_for(request.headers.get("Host"), request.headers.get("Origin"))
        if reason is not None:
            return connection.respond(HTTPStatus.FORBIDDEN, reason + "\n")
        token = app.config.get("TOKEN")
        if not token:
            return None
        given = parse_qs(urlsplit(request.path).query).get("token", [""])[0]
        if hmac.compare_digest(given.encode(), str(token).encode()):
            return None
        return connection.respond(HTTPStatus.UNAUTHORIZED, "missing or wrong token (?token=<token>)\n")

    return check


def _reply(app: Flask, frame, session: Session) -> dict:
    """The response to one text frame of the connection whose ``session`` it is."""
    if isinstance(frame, bytes):
        return refusal(None, "", "", BAD_REQUEST, "binary frame: send the request as JSON text")
    try:
        message = json_body.loads(frame, app.extensions["limits"].MAX_JSON_DEPTH)
    except json_body.TooDeep as exc:
        return refusal(None, "", "", BAD_REQUEST, str(exc))
    except ValueError as exc:
        return refusal(None, "", "", BAD_REQUEST, f"the frame is not JSON: {exc}")
    problem = envelope_problem(message)
    if problem is not None:
        message = message if isinstance(message, dict) else {}
        return refusal(message.get("id"), str(message.get("command", "")), str(message.get("moduleName", "")),
                       BAD_REQUEST, problem)
    with app.app_context(), request_slot(app):
        return answer(message, session)


class _Listener(socket.socket):
    """The listening socket, whose ``accept()`` waits and retries while the process is out of descriptors.

    websockets' accept loop ends for good on any OSError of ``accept()``: out of descriptors
    (EMFILE) once, the port never answered again.
    """

    def accept(self):
        backoff = 0.05
        while True:
            try:
                return super().accept()
            except OSError as exc:
                if exc.errno not in OUT_OF_RESOURCES:
                    raise
                _shortage.warn("cannot accept a WebSocket connection", exc)
            time.sleep(backoff)
            backoff = min(MAX_BACKOFF_S, backoff * 2)
            self._wait_readable()

    def _wait_readable(self) -> None:
        """Until a connection waits (or the server shut down: then accept() fails as it should)."""
        try:
            while self.fileno() != -1 and not select.select([self], [], [], MAX_BACKOFF_S)[0]:
                pass
        except (OSError, ValueError):  # closed meanwhile by shutdown()
            pass


class _Connection(ServerConnection):
    """A connection whose reading thread, out of descriptors for its poller, closes the connection.

    websockets' reader thread opens a selector (one more descriptor) after the connection was
    accepted; when that fails the thread died with a traceback in the server's log and the
    handshake waited for its timeout. Now the client sees the connection closed at once.
    """

    def recv_events(self) -> None:
        try:
            super().recv_events()
        except OSError as exc:
            if exc.errno not in OUT_OF_RESOURCES:
                raise
            _shortage.warn("cannot read a WebSocket connection", exc)
            self.close_socket()


def _refuse_busy(sock: socket.socket, limit: int) -> None:
    """Answer 503 on a connection over the limit and close it, leaving its request time to arrive (no reset)."""
    text = f"the Insight port holds {limit} connections already (WAREHOUSE_INSIGHT_CONNECTIONS): try again shortly\n"
    try:
        sock.settimeout(REFUSAL_LINGER_S)
        sock.sendall(BUSY % (len(text), text.encode()))
        sock.shutdown(socket.SHUT_WR)
        while sock.recv(65536):
            pass
    except OSError:
        pass
    finally:
        sock.close()


def _bound_connections(server: Server, limit: int) -> None:
    """At most ``limit`` connections handled (opening or open) at once; past it, 503."""
    handle = server.handler
    slots = threading.BoundedSemaphore(limit)

    def bounded(sock: socket.socket, addr) -> None:
        if not slots.acquire(blocking=False):
            try:
                _refuse_busy(sock, limit)
            finally:
                with server.lock:
                    server.handler_threads.discard(threading.current_thread())
            return
        try:
            handle(sock, addr)
        finally:
            slots.release()

    server.handler = bounded


def create_server(app: Flask, *, host: str, port: int) -> Server:
    """A WebSocket server for ``app``'s warehouse (``serve_forever()`` it, ``shutdown()`` it).

    :raises OSError: if it cannot listen on ``host:port``.
    """
    limits = app.extensions["limits"]
    idle_s = limits.INSIGHT_IDLE_TIMEOUT_S or None

    def handler(connection: ServerConnection) -> None:
        sending = threading.Lock()  # an import parsed in the background sends from its own thread

        def push(messages: list[dict]) -> None:
            with sending:
                for message in messages:
                    connection.send(msgspec.json.encode(message).decode())

        session = Session(push=push)  # what this page chose: its current profile, its baseline
        try:
            while True:
                try:
                    frame = connection.recv(timeout=idle_s)
                except TimeoutError:
                    connection.close(CloseCode.GOING_AWAY, f"no request for {idle_s:g} s "
                                                           "(WAREHOUSE_INSIGHT_IDLE_TIMEOUT_S)")
                    return
                reply = _reply(app, frame, session)
                left, session.events = session.events, []  # what the command left for the page, after its answer
                then, session.then = session.then, []
                try:
                    push([reply, *left])
                finally:  # started even when the page is gone: it holds what it needs (an import's lock)
                    for start in then:
                        start()
        except ConnectionClosed:
            pass

    bound = socket.create_server((host, port))
    listener = _Listener(fileno=bound.detach())
    server = serve(handler, sock=listener, create_connection=_Connection, process_request=_admission(app),
                   max_size=MAX_REQUEST_BYTES, compression=None, logger=log, open_timeout=limits.INSIGHT_OPEN_TIMEOUT_S or None)
    if limits.INSIGHT_CONNECTIONS:
        _bound_connections(server, limits.INSIGHT_CONNECTIONS)
    return server
