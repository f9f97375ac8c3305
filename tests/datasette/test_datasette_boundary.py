"""The network boundary seen from a browser and from Datasette: foreign hosts and origins refused,
a token when one is set (``warehouse datasette`` beyond loopback always sets one).

A page of another site is stood in for by a page served from ``127.0.0.2``: a loopback address,
so the test needs no DNS, but not one of the names the servers answer to (localhost,
127.0.0.1, ::1), exactly as ``evil.example`` is not.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.server
import shutil
import subprocess
import threading
import urllib.error
import urllib.request
from urllib.parse import urlsplit

import pytest

from datasette_plugins import launch
from server_process import served
from tests.datasette.conftest import BROWSER_LIMIT_S, CHROMIUM_FLAGS, datasette_server
from warehouse import db

TOKEN = "t0ken-for-the-test"
#: the attacker's page: open the Insight port, ask for a folder's listing, and report what happened to
#: its own server (/outcome/...). The script /hold answers once the outcome is in, so the page's load,
#: which Chromium waits for before it prints the page, waits for the outcome. (Virtual time, as the
#: page tests use, is not used here: while it waits for a fetch, the page's WebSocket stalls.)
PAGE = """<!doctype html><body><script>
const report = (outcome) => fetch("/outcome/" + outcome);
const socket = new WebSocket("ws://127.0.0.1:%(port)d/");
socket.onopen = () => socket.send(JSON.stringify({id: 1, moduleName: "global", type: "request",
  command: "files/get", params: {path: %(root)s}}));
socket.onmessage = (event) => report(JSON.parse(event.data).body.exist ? "listed" : "answered");
socket.onerror = () => report("refused");
</script><script src="/hold"></script></body>"""
#: seconds the page's /hold waits for its outcome (a hang guard)
HOLD_LIMIT_S = 60


@contextlib.contextmanager
def page_server(host: str, html: str):
    """``html`` served at ``http://HOST:PORT/`` until the block ends; yields its URL and the outcomes it reported."""
    outcomes: list[str] = []
    reported = threading.Event()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            if self.path.startswith("/outcome/"):
                outcomes.append(self.path.removeprefix("/outcome/"))
                reported.set()
            elif self.path == "/hold":
                reported.wait(HOLD_LIMIT_S)
            body = html.encode() if self.path == "/" else b""
            self.send_response(200)
            self.send_header("Content-Type", "text/html" if self.path == "/" else "text/javascript")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    with http.server.ThreadingHTTPServer((host, 0), Handler) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://{host}:{server.server_address[1]}/", outcomes
        finally:
            server.shutdown()
            thread.join(timeout=30)


def _load(chromium_dir, url: str) -> None:
    """Open ``url`` in headless Chromium until the page has loaded."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    flags = [flag for flag in CHROMIUM_FLAGS if not flag.startswith("--virtual-time-budget")]
    subprocess.run([chromium, *flags, f"--user-data-dir={chromium_dir}", "--dump-dom", url],
                   capture_output=True, timeout=BROWSER_LIMIT_S, check=True)


@pytest.mark.slow
def test_a_foreign_page_in_chromium_cannot_drive_the_insight_port(tmp_path):
    empty = tmp_path / "warehouse.db"
    db.connect(empty).close()
    root = tmp_path / "root"  # not tmp_path itself, which holds Chromium's profile and its socket
    root.mkdir()
    with served(empty, "--insight-port", "0", "--import-root", str(root)) as server:
        port = int(server.websocket.rsplit(":", 1)[1].strip("/"))
        page = PAGE % {"port": port, "root": '"%s"' % root}
        with page_server("127.0.0.1", page) as (own, own_outcomes):  # the control: an origin served
            _load(tmp_path / "chromium", own)
        with page_server("127.0.0.2", page) as (foreign, foreign_outcomes):
            _load(tmp_path / "chromium", foreign)
        said = server.stop()
    assert own_outcomes == ["listed"]
    assert foreign_outcomes == ["refused"]
    assert "Traceback" not in said


def _get(url: str, headers: dict | None = None):
    """(status, headers) of a GET that follows no redirect."""

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(urllib.request.Request(url, headers=headers or {}), timeout=30) as answer:
            return answer.status, dict(answer.headers)
    except urllib.error.HTTPError as refused:
        with refused:
            return refused.code, dict(refused.headers)


def test_datasette_refuses_a_foreign_host_and_origin(ds):
    async def fetch(headers):
        return await ds.client.get("/-/versions.json", headers=headers)

    for headers in ({"host": "evil.example"}, {"origin": "http://evil.example"}, {"host": "127.0.0.1.evil.example"}):
        answer = asyncio.run(fetch(headers))
        assert answer.status_code == 403, headers
        assert "is not a host this server answers to" in answer.text
    assert asyncio.run(fetch({"origin": "http://127.0.0.1:8080"})).status_code == 200


@pytest.mark.slow
def test_warehouse_datasette_with_a_token(profile_path):
    with datasette_server(profile_path, env={"WAREHOUSE_TOKEN": TOKEN}) as url:
        assert _get(url)[0] == 401
        assert _get(url, {"Authorization": f"Bearer {TOKEN}"})[0] == 200
        status, headers = _get(url + f"?_token={TOKEN}&x=1")
        assert status == 302 and headers["location"] == urlsplit(url).path + "?x=1"
        cookie = headers["set-cookie"].split(";")[0]
        assert cookie == f"warehouse_token={TOKEN}" and "HttpOnly" in headers["set-cookie"]
        assert _get(url, {"Cookie": cookie})[0] == 200
        assert _get(url + "?_token=wrong")[0] == 401
        assert _get(url, {"Cookie": cookie, "Host": "evil.example"})[0] == 403


def test_beyond_loopback_datasette_serves_the_bound_address_and_needs_the_token():
    assert launch.boundary_env(host="0.0.0.0", allow_hosts=("lab.example",), token=TOKEN) == {
        "WAREHOUSE_ALLOWED_HOSTS": "lab.example", "WAREHOUSE_TOKEN": TOKEN}
    assert launch.boundary_env(host="10.1.2.3") == {"WAREHOUSE_ALLOWED_HOSTS": "10.1.2.3"}
