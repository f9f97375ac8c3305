"""The optional bearer token: with ``TOKEN`` configured, every route needs ``Authorization: Bearer <TOKEN>``."""

from __future__ import annotations

import hmac

from flask import Flask, current_app, request

from service.errors import ApiError


def init_app(app: Flask) -> None:
    app.before_request(require_token)


def require_token() -> None:
    """:raise 401: if a token is configured and the request does not carry it."""
    token = current_app.config.get("TOKEN")
    if not token:
        return
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(given.strip().encode(), str(token).encode()):
        raise ApiError("unauthorized", "missing or wrong bearer token (Authorization: Bearer <token>)", 401)
