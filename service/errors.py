"""Errors as JSON ``{"error": {"code", "message"}}``: 4xx for the caller's mistakes, never a traceback."""

from __future__ import annotations

import logging

from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException

from service.json_body import TooDeep
from warehouse import queries, readonly
from warehouse.errors import WarehouseError

log = logging.getLogger(__name__)


class ApiError(Exception):
    """An error the API reports to the caller with a code, a message and an HTTP status."""

    def __init__(self, code: str, message: str, status: int = 400):
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.headers: dict[str, str] = {}


def from_warehouse_error(exc: WarehouseError) -> ApiError:
    """The API error for a library error raised while serving a request."""
    if isinstance(exc, queries.UnknownQuery):
        return ApiError("not_found", str(exc), 404)
    if isinstance(exc, queries.QueryError):
        return ApiError("bad_parameter", str(exc), 400)
    if isinstance(exc, readonly.UnsafeSql):
        return ApiError("unsafe_sql", str(exc), 400)
    if isinstance(exc, readonly.QueryTimeout):
        return ApiError("time_limit", str(exc), 400)
    if isinstance(exc, readonly.TooLarge):
        return ApiError("too_large", str(exc), 413)
    return ApiError("query_failed", str(exc), 400)


def _payload(code: str, message: str, status: int):
    return jsonify({"error": {"code": code, "message": message}}), status


def init_app(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def api_error(exc: ApiError):
        body, status = _payload(exc.code, exc.message, exc.status)
        body.headers.update(exc.headers)
        return body, status

    @app.errorhandler(WarehouseError)
    def warehouse_error(exc: WarehouseError):
        return api_error(from_warehouse_error(exc))

    @app.errorhandler(TooDeep)
    def too_deep(exc: TooDeep):
        return _payload("bad_request", str(exc), 400)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        response = _payload(exc.name.lower().replace(" ", "_"), exc.description or exc.name, exc.code or 500)
        if exc.code == 405 and exc.valid_methods:
            response[0].headers["Allow"] = ", ".join(exc.valid_methods)
        return response

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):
        log.exception("unexpected error")
        return _payload("internal_error", "internal error (see the server log)", 500)
