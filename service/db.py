"""One read-only warehouse connection per request, kept on ``g`` and closed on teardown."""

from __future__ import annotations

import sqlite3

from flask import Flask, current_app, g

from service.errors import ApiError
from warehouse import db as warehouse_db
from warehouse.errors import WarehouseError


def get_db() -> sqlite3.Connection:
    """The request's read-only connection.

    :raise 503: if no warehouse is configured or it cannot be opened.
    """
    if "db" not in g:
        path = current_app.config.get("DATABASE")
        if not path:
            raise ApiError("no_warehouse", "the server was started without a warehouse (DATABASE)", 503)
        try:
            g.db = warehouse_db.connect_readonly(path)
        except WarehouseError as exc:
            raise ApiError("no_warehouse", str(exc), 503) from None
    return g.db


def close_db(exc: BaseException | None = None) -> None:
    conn = g.pop("db", None)
    if conn is not None:
        conn.close()


def init_app(app: Flask) -> None:
    app.teardown_appcontext(close_db)
