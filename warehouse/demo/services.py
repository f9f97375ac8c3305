"""The demo's launcher: the REST API and Datasette side by side on loopback (``warehouse demo``), beside
the demo inputs it serves (:mod:`warehouse.demo`)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from datasette_plugins import launch
from warehouse.errors import WarehouseError

HOST = "127.0.0.1"
#: seconds a service may take to answer its first request
START_TIMEOUT_S = 60


@dataclass
class Running:
    """The two services' addresses."""

    rest_url: str
    datasette_url: str
    #: the page a person opens first: step time per rank, the slow rank marked
    start_url: str


def free_port() -> int:
    """A TCP port nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


@contextmanager
def both_services(db_path: str | Path):
    """Start ``warehouse serve`` and Datasette on free loopback ports; stop both on exit.

    :raises WarehouseError: if either does not answer within :data:`START_TIMEOUT_S`.
    """
    rest_port, datasette_port = free_port(), free_port()
    rest = subprocess.Popen([sys.executable, "-m", "warehouse", "serve", "--db", str(db_path),
                             "--host", HOST, "--port", str(rest_port)], stderr=subprocess.DEVNULL)
    datasette = launch.start(db_path, host=HOST, port=datasette_port, stderr=subprocess.DEVNULL)
    try:
        running = Running(f"http://{HOST}:{rest_port}/api/v1",
                          launch.url(db_path, host=HOST, port=datasette_port),
                          launch.page_url(db_path, "steps", host=HOST, port=datasette_port))
        _wait_until_up(f"{running.rest_url}/health", rest, "the REST API")
        _wait_until_up(running.datasette_url, datasette, "Datasette")
        yield running
    finally:
        for process in (rest, datasette):
            process.terminate()
        for process in (rest, datasette):
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


def _wait_until_up(url: str, process: subprocess.Popen, label: str) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise WarehouseError(f"{label} exited with code {process.returncode} before answering at {url}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            time.sleep(0.2)
    raise WarehouseError(f"{label} did not answer at {url} within {START_TIMEOUT_S} s")
