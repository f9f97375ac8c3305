"""The REST API: a Flask app factory with one blueprint per route family under /api/v1.

Each route module holds a blueprint ``bp`` and an ``openapi_paths()`` function that
describes its routes; ``ROUTE_MODULES`` lists them, so a new family (the seed-000
``/insight`` protocol) is one more module in that tuple.
"""

from __future__ import annotations

from flask import Flask

from service import auth, db, errors, insight, meta, queries, sql
from warehouse import queries as named_queries

API_PREFIX = "/api/v1"
ROUTE_MODULES = (meta, queries, sql, insight)
DEFAULTS = {
    # the warehouse file, opened read-only once per request
    "DATABASE": None,
    # when set, every request needs 'Authorization: Bearer <TOKEN>'
    "TOKEN": None,
    # folder below which requests may name files to import (insight import/action); None: nowhere
    "IMPORT_ROOT": None,
    # rows per page when the caller gives no _limit, and the most a caller may ask for
    "DEFAULT_LIMIT": 1000,
    "MAX_LIMIT": 100_000,
    # seconds a query may run before it is stopped
    "TIME_LIMIT_S": 10.0,
    # largest request body accepted (POST /sql), in bytes: larger ones get a JSON 413
    "MAX_CONTENT_LENGTH": 1_000_000,
}


def create_app(test_config: dict | None = None) -> Flask:
    """Create the API app. Config layers: defaults, ``WAREHOUSE_*`` environment variables, ``test_config``."""
    app = Flask(__name__)
    app.config.from_mapping(DEFAULTS)
    app.config.from_prefixed_env("WAREHOUSE")
    if test_config is not None:
        app.config.update(test_config)
    app.json.sort_keys = False
    # parsed and checked now (~0.4 s) rather than by the first request, which every client
    # connecting meanwhile would wait on too; a broken query file stops the server starting
    named_queries.registry()
    errors.init_app(app)
    auth.init_app(app)
    db.init_app(app)
    for module in ROUTE_MODULES:
        app.register_blueprint(module.bp, url_prefix=API_PREFIX)
    return app
