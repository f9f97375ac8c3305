"""Fixtures of the Datasette plugin's tests: a factory-built warehouse, Datasette's test
client on it, and a real ``warehouse datasette`` server on a free loopback port."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from datasette.app import Datasette

from factories import datasette_rows
from warehouse import db
from warehouse.analysis import findings

#: seconds before a server that never says it listens is killed (the test then fails)
SERVER_START_LIMIT_S = 60


@pytest.fixture(scope="module")
def profile_path(tmp_path_factory) -> Path:
    """A warehouse file holding the four-rank profile of factories/datasette_rows.py, analysed
    (`warehouse analyze`: the steps page names the slow rank its findings name)."""
    path = tmp_path_factory.mktemp("datasette") / "profile.db"
    conn = db.connect(path)
    datasette_rows.write_profile(conn)
    findings.analyze(conn)
    conn.close()
    return path


@pytest.fixture(scope="module")
def ds(profile_path) -> Datasette:
    """Datasette on the warehouse, immutable as ``warehouse datasette`` serves it; plugins
    come from the installed entry points, ours included."""
    return Datasette(immutables=[str(profile_path)])


@pytest.fixture
def get(ds):
    """``get(path)``: the test client's response (status, .json(), .text)."""

    def fetch(path: str):
        return asyncio.run(ds.client.get(path))

    return fetch


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class ServerUrl(str):
    """A server's URL that knows the server's process id (``.pid``), to read its memory."""

    def __new__(cls, url: str, pid: int):
        made = super().__new__(cls, url)
        made.pid = pid
        return made


@contextlib.contextmanager
def datasette_server(path: Path, env: dict | None = None):
    """``warehouse datasette --db PATH`` as a real process on a free port; yields its
    database URL (e.g. ``http://127.0.0.1:PORT/profile``, a :class:`ServerUrl`); ``env``: more
    environment variables."""
    process = subprocess.Popen(
        [str(Path(sys.executable).parent / "warehouse"), "datasette", "--db", str(path), "--port", str(free_port())],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, **(env or {})},
    )
    watchdog = threading.Timer(SERVER_START_LIMIT_S, process.kill)
    watchdog.start()
    url, lines = None, []
    try:
        for line in process.stdout:  # ends (EOF) if the server dies or the watchdog kills it
            lines.append(line)
            if line.startswith("Datasette: "):
                url = line.split()[1]
            if "Uvicorn running on" in line:
                break
    finally:
        watchdog.cancel()
    if url is None or process.poll() is not None:
        process.kill()
        raise RuntimeError("warehouse datasette did not start:\n" + "".join(lines))
    # keep draining the log so the server never blocks on a full pipe
    drain = threading.Thread(target=process.stdout.read, daemon=True)
    drain.start()
    try:
        yield ServerUrl(url, process.pid)
    finally:
        process.terminate()
        process.wait(timeout=30)
        drain.join(timeout=10)  # the pipe's end reached: the log can be closed
        process.stdout.close()


@pytest.fixture(scope="module")
def server(profile_path):
    """Datasette on the factory profile; yields its database URL."""
    with datasette_server(profile_path) as url:
        yield url


@pytest.fixture(scope="module")
def empty_server(tmp_path_factory):
    """Datasette on a migrated warehouse without a single row; yields its database URL."""
    path = tmp_path_factory.mktemp("datasette_empty") / "empty.db"
    db.connect(path).close()
    with datasette_server(path) as url:
        yield url


#: seconds a page may take in Chromium (virtual time: timers run fast, fetches are awaited)
PAGE_BUDGET_MS = 10_000
BROWSER_LIMIT_S = 120
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
                  "--window-size=1200,1000", f"--virtual-time-budget={PAGE_BUDGET_MS}")


@pytest.fixture
def browse(tmp_path):
    """``browse(url, name=None)``: the DOM Chromium renders for ``url``; with a name, a
    screenshot of it is written to ``$WAREHOUSE_SCREENSHOTS/<name>.png`` for review
    (default: the test's tmp folder)."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise RuntimeError("no chromium: run scripts/setup.sh (it installs Debian's chromium package)")
    shots = Path(os.environ.get("WAREHOUSE_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)

    def run(url: str, name: str | None = None) -> str:
        common = [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'chromium'}"]
        if name is not None:
            subprocess.run([*common, f"--screenshot={shots / (name + '.png')}", url],
                           capture_output=True, timeout=BROWSER_LIMIT_S, check=True)
        result = subprocess.run([*common, "--dump-dom", url], capture_output=True, text=True,
                                timeout=BROWSER_LIMIT_S, check=True)
        return result.stdout

    return run
