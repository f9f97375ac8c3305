"""Fair service: ad-hoc SQL runs in a few slots of its own, never on every server thread.

``POST /sql`` takes a slot for its whole run (parse, steps, encoding). When every slot is
taken, up to ``SQL_QUEUE`` requests wait at most ``SQL_WAIT_S`` for one; the others, and
those whose wait runs out, answer 503 with a one-line reason and ``Retry-After``. So at most
``SQL_SLOTS + SQL_QUEUE`` server threads are ever busy with ad-hoc SQL, and ``warehouse
serve`` adds that many threads to ``--threads``: named queries, ``/health`` and the rest keep
their threads however many clients loop a runaway query (and are themselves held to
``--threads`` at once, :func:`init_app`).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext

from flask import Flask, g, request

from service.errors import ApiError


class SqlGate:
    """``SQL_SLOTS`` queries at once, ``SQL_QUEUE`` more waiting at most ``SQL_WAIT_S`` each."""

    def __init__(self, slots: int, queue: int, wait_s: float):
        self.slots, self.queue, self.wait_s = max(1, int(slots)), max(0, int(queue)), float(wait_s)
        self._free = threading.Semaphore(self.slots)
        self._lock = threading.Lock()
        self._waiting = 0

    @contextmanager
    def slot(self) -> Iterator[None]:
        """Hold a slot for the block.

        :raise 503: if none is free within ``wait_s`` or too many requests wait already.
        """
        if not self._free.acquire(blocking=False):
            with self._lock:
                if self._waiting >= self.queue:
                    raise self._busy()
                self._waiting += 1
            try:
                taken = self._free.acquire(timeout=self.wait_s)
            finally:
                with self._lock:
                    self._waiting -= 1
            if not taken:
                raise self._busy()
        try:
            yield
        finally:
            self._free.release()

    def _busy(self) -> ApiError:
        error = ApiError("busy", f"all {self.slots} ad-hoc SQL slots are busy (WAREHOUSE_SQL_SLOTS): "
                                 "try again shortly", 503)
        error.headers = {"Retry-After": str(max(1, round(self.wait_s)))}
        return error


def request_slot(app: Flask):
    """The context manager holding one of the ``REQUEST_SLOTS`` for a request (REST or WebSocket) while it runs."""
    return app.extensions["request_gate"]


def init_app(app: Flask) -> None:
    """Hold every request but ad-hoc SQL to ``REQUEST_SLOTS`` at once (``warehouse serve --threads``).

    ``warehouse serve`` runs ``--threads`` + ``SQL_SLOTS`` + ``SQL_QUEUE`` threads so that ad-hoc SQL
    never takes the others' threads; this keeps the others to ``--threads`` at once all the same
    (more would only contend for the GIL: DESIGN §7). The WebSocket's requests take the same slots
    (:func:`request_slot`), so a timeline answer is held to them whichever port asks for it.
    None (in-process tests): no limit.
    """
    slots = app.config.get("REQUEST_SLOTS")
    gate = threading.Semaphore(int(slots)) if slots else None
    app.extensions["request_gate"] = gate or nullcontext()

    @app.before_request
    def take_a_request_slot():
        if gate is not None and request.endpoint != "sql.run_sql":
            gate.acquire()
            g.request_slot = True

    @app.teardown_request
    def give_back_the_request_slot(exc=None):
        if g.pop("request_slot", None):
            gate.release()
