"""The REST API: a Flask app factory with one blueprint per route family under /api/v1.

Each route module holds a blueprint ``bp`` and an ``openapi_paths()`` function that
describes its routes; ``ROUTE_MODULES`` lists them, so a new family (the seed-000
``/insight`` protocol) is one more module in that tuple.
"""

from __future__ import annotations

from flask import Flask

from service import admission, auth, boundary, db, errors, insight, meta, queries, sql
from service.json_body import BoundedJSONProvider
from warehouse import queries as named_queries
from warehouse.limits import Limits

API_PREFIX = "/api/v1"
ROUTE_MODULES = (meta, queries, sql, insight)
DEFAULTS = {
    # the warehouse file, opened read-only once per request
    "DATABASE": None,
    # when set, every request needs 'Authorization: Bearer <TOKEN>'
    "TOKEN": None,
    # host names served besides the loopback names (--allow-host; WAREHOUSE_ALLOWED_HOSTS=a,b; "*": any)
    "ALLOWED_HOSTS": (),
    # the address the server binds (warehouse serve --host): served too when it is a concrete one
    "BOUND_HOST": None,
    # folder below which requests may name files to import (insight import/action); None: nowhere
    "IMPORT_ROOT": None,
    # requests other than ad-hoc SQL served at once (warehouse serve: --threads); None: no limit
    "REQUEST_SLOTS": None,
    # rows per page when the caller gives no _limit
    "DEFAULT_LIMIT": 1000,
    # the bounds on every query's work and on ad-hoc SQL (warehouse/limits.py documents each):
    # TIME_LIMIT_S, MAX_LIMIT, MAX_OFFSET, MAX_ANSWER_BYTES, MAX_VALUE_BYTES, MAX_SQL_BYTES, ...
    **Limits().as_config(),
    # largest request body accepted (POST /sql), in bytes: larger ones get a JSON 413
    "MAX_CONTENT_LENGTH": 1_000_000,
}


def create_app(test_config: dict | None = None) -> Flask:
    """Create the API app. Config layers: defaults, ``WAREHOUSE_*`` environment variables, ``test_config``."""
    app = Flask(__name__)
    app.json = BoundedJSONProvider(app)  # every request body's nesting bounded before it is decoded
    app.config.from_mapping(DEFAULTS)
    app.config.from_prefixed_env("WAREHOUSE")
    if test_config is not None:
        app.config.update(test_config)
    app.json.sort_keys = False
    limits = Limits.from_mapping(app.config)
    app.extensions["limits"] = limits
    app.json.max_depth = limits.MAX_JSON_DEPTH
    app.extensions["sql_gate"] = admission.SqlGate(limits.SQL_SLOTS, limits.SQL_QUEUE, limits.SQL_WAIT_S)
    # parsed and checked now (~0.4 s) rather than by the first request, which every client
    # connecting meanwhile would wait on too; a broken query file stops the server starting
    named_queries.registry()
    errors.init_app(app)
    boundary.init_app(app)
    auth.init_app(app)
    admission.init_app(app)
    db.init_app(app)
    for module in ROUTE_MODULES:
        app.register_blueprint(module.bp, url_prefix=API_PREFIX)
    return app
