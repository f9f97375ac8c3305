"""The operator-view protocol on a WebSocket: what MindStudio Insight's own web frontend speaks.

The page (``index.html?port=N``) opens ``ws://<its host>:N/<its query string>`` and sends one
bare JSON request object per text frame; each is answered with one response object per frame
by the same dispatcher as ``POST /api/v1/insight`` (:func:`service.insight.dispatch.answer`),
run inside the Flask app's context so import root, warehouse and caches are the REST API's.
waitress cannot upgrade a connection, so this is websockets' threaded server on a second port
(``warehouse serve --insight-port N``); each connection has a thread and answers its requests
in order, as the real server does per session.

With a bearer token configured, a browser cannot send the Authorization header: the token is
read from the connection's query string (``?port=N&token=T`` on the page is passed on).
"""

from __future__ import annotations

import hmac
import json
import logging
from http import HTTPStatus
from urllib.parse import parse_qs, urlsplit

import msgspec
from flask import Flask
from websockets.exceptions import ConnectionClosed
from websockets.sync.server import Server, ServerConnection, serve

from service.insight.dispatch import BAD_REQUEST, answer, envelope_problem, refusal

#: largest request frame accepted (requests are small JSON objects)
MAX_REQUEST_BYTES = 1 << 20

log = logging.getLogger(__name__)


def _token_check(app: Flask):
    """A handshake hook refusing (401) a connection without the configured token in its query string."""

    def check(connection: ServerConnection, request):
        token = app.config.get("TOKEN")
        if not token:
            return None
        given = parse_qs(urlsplit(request.path).query).get("token", [""])[0]
        if hmac.compare_digest(given.encode(), str(token).encode()):
            return None
        return connection.respond(HTTPStatus.UNAUTHORIZED, "missing or wrong token (?token=<token>)\n")

    return check


def _reply(app: Flask, frame) -> dict:
    """The response to one text frame."""
    if isinstance(frame, bytes):
        return refusal(None, "", "", BAD_REQUEST, "binary frame: send the request as JSON text")
    try:
        message = json.loads(frame)
    except ValueError as exc:
        return refusal(None, "", "", BAD_REQUEST, f"the frame is not JSON: {exc}")
    problem = envelope_problem(message)
    if problem is not None:
        message = message if isinstance(message, dict) else {}
        return refusal(message.get("id"), str(message.get("command", "")), str(message.get("moduleName", "")),
                       BAD_REQUEST, problem)
    with app.app_context():
        return answer(message)


def create_server(app: Flask, *, host: str, port: int) -> Server:
    """A WebSocket server for ``app``'s warehouse (``serve_forever()`` it, ``shutdown()`` it).

    :raises OSError: if it cannot listen on ``host:port``.
    """

    def handler(connection: ServerConnection) -> None:
        try:
            for frame in connection:
                connection.send(msgspec.json.encode(_reply(app, frame)).decode())
        except ConnectionClosed:
            pass

    return serve(handler, host, port, process_request=_token_check(app), max_size=MAX_REQUEST_BYTES,
                 compression=None, logger=log)
