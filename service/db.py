"""One read-only warehouse connection per request, kept on ``g`` and handed back on teardown.

Opening a connection costs 1-4 ms here (SQLite parses the whole schema on first use and
the version check reads it), more than a timeline window query itself (DESIGN §7), so
connections are pooled: a request borrows one already opened and checked, and a new one
is opened only when every pooled one is in use. A pooled connection still sees every
later commit (each statement reads the latest snapshot) and schema changes (SQLite
re-reads its schema when the schema cookie changes).
"""

from __future__ import annotations

import queue
import sqlite3

from flask import Flask, current_app, g

from service.errors import ApiError
from warehouse import db as warehouse_db
from warehouse import memory
from warehouse.errors import WarehouseError


class ConnectionPool:
    """Read-only connections to one warehouse file, reused across requests and threads."""

    def __init__(self, path: str):
        self.path = path
        self._idle: queue.SimpleQueue[sqlite3.Connection] = queue.SimpleQueue()

    def acquire(self) -> sqlite3.Connection:
        """:raises WarehouseError: if the warehouse cannot be opened."""
        try:
            return self._idle.get_nowait()
        except queue.Empty:
            return warehouse_db.connect_readonly(self.path)

    def release(self, conn: sqlite3.Connection) -> None:
        if conn.in_transaction:  # never hand on a connection holding a read snapshot
            conn.rollback()
        self._idle.put(conn)


def get_db() -> sqlite3.Connection:
    """The request's read-only connection.

    :raise 503: if no warehouse is configured or it cannot be opened.
    """
    if "db" not in g:
        path = current_app.config.get("DATABASE")
        if not path:
            raise ApiError("no_warehouse", "the server was started without a warehouse (DATABASE)", 503)
        pool = current_app.extensions.setdefault("warehouse_pool", ConnectionPool(str(path)))
        try:
            g.db = pool.acquire()
        except WarehouseError as exc:
            raise ApiError("no_warehouse", str(exc), 503) from None
    return g.db


def release_db(exc: BaseException | None = None) -> None:
    """Hand the request's connection back, and the memory its query freed to the system (:mod:`warehouse.memory`)."""
    conn = g.pop("db", None)
    if conn is not None:
        current_app.extensions["warehouse_pool"].release(conn)
        memory.release_freed()


def init_app(app: Flask) -> None:
    app.teardown_appcontext(release_db)
