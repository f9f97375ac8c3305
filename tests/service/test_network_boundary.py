"""The servers' network boundary: only the hosts and origins they serve, a token beyond loopback,
and JSON requests nested deeper than ``MAX_JSON_DEPTH`` refused in one line on every transport.

A page of any site can open a WebSocket to 127.0.0.1 (browsers apply no same-origin policy to
WebSockets) and, through a name it re-points at 127.0.0.1 (DNS rebinding), send HTTP requests
the browser takes for its own: both carry a Host or an Origin that is not this machine's.
"""

from __future__ import annotations

import json
import re
import socket
import urllib.error
import urllib.request

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from server_process import served
from service import create_app
from warehouse import db

#: 100,000 levels: Python's json (and msgspec) raise RecursionError long before
DEEP = "[" * 100_000 + "]" * 100_000
FOREIGN_HOSTS = ("evil.example", "attacker.test:8000", "127.0.0.1.evil.example", "evil@127.0.0.1")
FOREIGN_ORIGINS = ("http://evil.example", "http://attacker.test:8080", "null", "file://", "ftp://127.0.0.1")
#: the frontend page is served from another loopback port than the one it talks to
OWN_ORIGINS = ("http://127.0.0.1:8080", "http://localhost:5173", "https://[::1]:443")
FILES_GET = {"id": 1, "moduleName": "global", "type": "request", "command": "files/get", "params": {"path": "/"}}


@pytest.fixture
def empty(tmp_path):
    path = tmp_path / "warehouse.db"
    db.connect(path).close()
    return path


@pytest.fixture
def client(empty, tmp_path):
    return create_app({"DATABASE": str(empty), "IMPORT_ROOT": str(tmp_path)}).test_client()


@pytest.mark.parametrize("host", FOREIGN_HOSTS)
def test_rest_refuses_a_foreign_host(client, host):
    """DNS rebinding: the page's requests carry its own name in Host; files/get included."""
    for answer in (client.get("/api/v1/health", headers={"Host": host}),
                   client.post("/api/v1/insight", json=FILES_GET, headers={"Host": host})):
        assert answer.status_code == 403
        assert answer.json["error"]["code"] == "foreign_host"
        assert f"Host {host!r} is not a host this server answers to" in answer.json["error"]["message"]


@pytest.mark.parametrize("origin", FOREIGN_ORIGINS)
def test_rest_refuses_a_foreign_origin(client, origin):
    answer = client.post("/api/v1/insight", json=FILES_GET, headers={"Origin": origin})
    assert answer.status_code == 403
    assert f"Origin {origin!r}" in answer.json["error"]["message"]


def test_rest_answers_its_own_hosts_and_origins_and_the_added_ones(empty, tmp_path):
    client = create_app({"DATABASE": str(empty), "ALLOWED_HOSTS": "lab.example,Other.Example"}).test_client()
    for host in ("localhost:8000", "127.0.0.1:8000", "[::1]:8000", "lab.example", "other.example:80"):
        assert client.get("/api/v1/health", headers={"Host": host}).status_code == 200, host
    for origin in (*OWN_ORIGINS, "http://lab.example:3000"):
        assert client.get("/api/v1/health", headers={"Origin": origin}).status_code == 200, origin
    assert client.get("/api/v1/health", headers={"Host": "evil.example"}).status_code == 403
    anyone = create_app({"DATABASE": str(empty), "ALLOWED_HOSTS": "*"}).test_client()
    assert anyone.get("/api/v1/health", headers={"Host": "evil.example"}).status_code == 200


@pytest.mark.parametrize("url", ("/api/v1/sql", "/api/v1/insight"))
def test_rest_refuses_deep_json_in_one_line(client, url):
    answer = client.post(url, data=DEEP, content_type="application/json")
    assert answer.status_code == 400
    assert answer.json["error"]["message"] == (
        "the JSON request is nested deeper than 64 levels (WAREHOUSE_MAX_JSON_DEPTH)")


def test_brackets_in_strings_are_not_nesting(client):
    """The depth is counted outside strings: SQL or a path full of brackets is no deep JSON."""
    sql = "SELECT '" + "[{" * 5000 + "' AS brackets"
    answer = client.post("/api/v1/sql", json={"sql": sql})
    assert answer.status_code == 200, answer.json
    assert answer.json["rows"] == [{"brackets": "[{" * 5000}]
    value = '"]]]' + "[" * 100  # a string of brackets, inside 10 arrays
    for _ in range(10):
        value = [value]
    nested = {"id": 1, "moduleName": "global", "type": "request", "command": "heartCheck", "params": {"a": value}}
    assert client.post("/api/v1/insight", json=nested).json["result"] is True


def _ws_refused(url: str, **options) -> int:
    with pytest.raises(InvalidStatus) as refused:
        with connect(url, open_timeout=30, **options):
            pass
    return refused.value.response.status_code


def _heart_check(socket_) -> dict:
    socket_.send(json.dumps({"id": 7, "moduleName": "global", "type": "request", "command": "heartCheck"}))
    return json.loads(socket_.recv(timeout=30))


@pytest.mark.slow
def test_the_websocket_refuses_foreign_origins_and_hosts(empty, tmp_path):
    with served(empty, "--insight-port", "0", "--import-root", str(tmp_path)) as server:
        port = int(server.websocket.rsplit(":", 1)[1].strip("/"))
        for origin in FOREIGN_ORIGINS:
            assert _ws_refused(server.websocket, origin=origin) == 403, origin
        for host in ("evil.example", "attacker.test"):  # the name in the URL is the Host header sent
            with socket.create_connection(("127.0.0.1", port)) as sock:
                assert _ws_refused(f"ws://{host}:{port}/", sock=sock) == 403, host
        for origin in OWN_ORIGINS:
            with connect(server.websocket, origin=origin, open_timeout=30) as page:
                assert _heart_check(page)["result"] is True
        # the REST port, a real request with a rebinding name
        request = urllib.request.Request(server.url + "/health", headers={"Host": "evil.example"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=30)
        assert refused.value.code == 403
        refused.value.close()
        said = server.stop()
    assert "Traceback" not in said


@pytest.mark.slow
def test_a_deep_frame_is_refused_and_the_connection_kept(empty, tmp_path):
    with served(empty, "--insight-port", "0", "--import-root", str(tmp_path)) as server:
        with connect(server.websocket, open_timeout=30) as page:
            page.send(DEEP)
            answer = json.loads(page.recv(timeout=30))
            assert answer["result"] is False
            assert answer["error"] == {"code": 1002, "message": "the JSON request is nested deeper than 64 levels "
                                                                "(WAREHOUSE_MAX_JSON_DEPTH)"}
            assert _heart_check(page)["result"] is True  # the same connection still answers
        said = server.stop()
    assert "Traceback" not in said


@pytest.mark.slow
def test_beyond_loopback_a_token_is_generated_and_required(empty, tmp_path):
    with served(empty, "--host", "0.0.0.0", "--insight-port", "0", env={"WAREHOUSE_TOKEN": ""}) as server:
        said = b"".join(server.said).decode()
        token = re.search(r"\n  token: (\S+)", said)[1]
        assert len(token) >= 24 and f"Authorization: Bearer {token}" in said
        rest = f"http://127.0.0.1:{server.port}/api/v1/health"
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(rest, timeout=30)
        assert refused.value.code == 401
        refused.value.close()
        with urllib.request.urlopen(urllib.request.Request(rest, headers={"Authorization": f"Bearer {token}"}),
                                    timeout=30) as answer:
            assert answer.status == 200
        ws = "ws://127.0.0.1:" + server.websocket.rsplit(":", 1)[1]
        assert _ws_refused(ws) == 401
        with connect(f"{ws}?port=1&token={token}", open_timeout=30) as page:
            assert _heart_check(page)["result"] is True


def test_on_loopback_no_token_is_made():
    """--host 127.0.0.1 (the default) needs no token: the generated-token line never shows."""
    from warehouse.cli import _token_beyond_loopback

    assert _token_beyond_loopback("127.0.0.1") is None
    assert _token_beyond_loopback("localhost") is None
    assert _token_beyond_loopback("::1") is None


def test_an_answer_is_decoded_after_its_app_is_gone():
    """The depth bound is the JSON provider's own: an answer read after its app was collected (a test
    client's response, which the app holds only weakly) still decodes, and a deep one is still refused."""
    import gc

    from service import create_app
    from service.json_body import TooDeep

    answer = create_app({"TESTING": True}).test_client().get("/api/v1/health")
    gc.collect()
    assert answer.get_json()["error"]["code"] == "no_warehouse"
    with pytest.raises(TooDeep):
        answer.json_module.loads(DEEP)
