"""The Insight WebSocket's per-request bounds: its requests take the REST API's request slots
(``REQUEST_SLOTS``: ``warehouse serve --threads``), so concurrent timeline requests are held to
them whichever port asks; a connection without a request for ``INSIGHT_IDLE_TIMEOUT_S`` is closed.

The server is the real one (websockets on a loopback port) in this process, so the test can
hold a slot itself.
"""

from __future__ import annotations

import contextlib
import json
import threading

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from service import create_app, insight_ws
from service.admission import request_slot

HEART_CHECK = json.dumps({"id": 1, "moduleName": "global", "type": "request", "command": "heartCheck"})


@contextlib.contextmanager
def insight_port(app):
    """``app``'s WebSocket on a free loopback port; yields its ws:// URL."""
    server = insight_ws.create_server(app, host="127.0.0.1", port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield "ws://127.0.0.1:%d/" % server.socket.getsockname()[1]
    finally:
        server.shutdown()
        thread.join(timeout=30)


def test_websocket_requests_wait_for_a_request_slot(served_warehouse):
    app = create_app({"DATABASE": str(served_warehouse["path"]), "REQUEST_SLOTS": 1})
    with insight_port(app) as url, connect(url, open_timeout=30) as page:
        with request_slot(app):  # the only slot, as a REST request running would hold it
            page.send(HEART_CHECK)
            with pytest.raises(TimeoutError):  # no answer while the slot is held
                page.recv(timeout=1)
        assert json.loads(page.recv(timeout=30))["result"] is True


def test_an_idle_connection_is_closed(served_warehouse):
    app = create_app({"DATABASE": str(served_warehouse["path"]), "INSIGHT_IDLE_TIMEOUT_S": 0.5})
    with insight_port(app) as url, connect(url, open_timeout=30) as page:
        page.send(HEART_CHECK)
        assert json.loads(page.recv(timeout=30))["result"] is True
        with pytest.raises(ConnectionClosed) as closed:
            page.recv(timeout=30)
    assert closed.value.rcvd.code == 1001
    assert closed.value.rcvd.reason == "no request for 0.5 s (WAREHOUSE_INSIGHT_IDLE_TIMEOUT_S)"
