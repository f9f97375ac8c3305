"""Headless Chromium driven over the DevTools protocol, for page tests that must act on a page
(hover a chart: open its tooltips) and read what its scripts left (``window`` variables), which
``--dump-dom`` cannot: :func:`open_page` yields a :class:`Page` whose :meth:`Page.evaluate` runs
JavaScript in it and returns the value."""

from __future__ import annotations

import contextlib
import itertools
import json
import shutil
import subprocess
import threading
from pathlib import Path

from websockets.sync.client import connect

#: seconds for Chromium to start, a page to load, one evaluation to answer (hang guards)
START_LIMIT_S = 60
ANSWER_LIMIT_S = 60
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
         "--window-size=1200,1000", "--remote-debugging-port=0")


class Page:
    """One tab, attached over the browser's DevTools WebSocket."""

    def __init__(self, socket):
        self._socket = socket
        self._ids = itertools.count(1)
        self._events: list[dict] = []
        self._session = None
        target = self._call("Target.createTarget", url="about:blank")["targetId"]
        self._session = self._call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self._call("Page.enable")

    def _call(self, method: str, **params) -> dict:
        ident = next(self._ids)
        message = {"id": ident, "method": method, "params": params}
        if self._session is not None:
            message["sessionId"] = self._session
        self._socket.send(json.dumps(message))
        while True:
            answer = json.loads(self._socket.recv(timeout=ANSWER_LIMIT_S))
            if answer.get("id") == ident:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer["result"]
            self._events.append(answer)

    def _wait_for(self, method: str) -> None:
        while not any(event.get("method") == method for event in self._events):
            self._events.append(json.loads(self._socket.recv(timeout=ANSWER_LIMIT_S)))
        self._events.clear()

    def open(self, url: str) -> None:
        """Navigate to ``url`` and wait for its load event."""
        self._events.clear()
        self._call("Page.navigate", url=url)
        self._wait_for("Page.loadEventFired")

    def evaluate(self, expression: str):
        """The value of ``expression`` in the page (a promise is awaited); a thrown error raises."""
        result = self._call("Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression[:80]}...: {result['exceptionDetails']}")
        return result["result"].get("value")


@contextlib.contextmanager
def open_page(profile_dir: Path):
    """A headless Chromium with its own profile folder; yields a :class:`Page` (call ``open``)."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise RuntimeError("no chromium: run scripts/setup.sh (it installs Debian's chromium package)")
    process = subprocess.Popen([chromium, *FLAGS, f"--user-data-dir={profile_dir}", "about:blank"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    watchdog = threading.Timer(START_LIMIT_S, process.kill)
    watchdog.start()
    address = None
    try:
        for line in process.stderr:  # ends (EOF) if Chromium dies or the watchdog kills it
            if line.startswith("DevTools listening on "):
                address = line.split()[-1]
                break
    finally:
        watchdog.cancel()
    drain = threading.Thread(target=process.stderr.read, daemon=True)
    drain.start()
    try:
        if address is None:
            raise RuntimeError("chromium did not open its DevTools port")
        with connect(address, max_size=None, open_timeout=START_LIMIT_S) as socket:
            yield Page(socket)
    finally:
        process.kill()
        process.wait(timeout=30)
        drain.join(timeout=10)
        process.stderr.close()
