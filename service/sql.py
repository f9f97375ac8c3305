"""``POST /sql``: ad-hoc read-only SQL with the same result shape as the named queries.

The text is linted by sqlglot (one SELECT/WITH), SQLite's authorizer refuses ATTACH,
PRAGMA writes and extension loading at run time, and the row and time limits apply.
Text too long or nested too deeply is refused before anything parses it; the query runs in
one of the few ad-hoc SQL slots (service/admission.py), never on every server thread, and
its deadline covers the parse, the steps and the encoding.
"""

from __future__ import annotations

import time

from flask import Blueprint, current_app, request

from service import results
from service.errors import ApiError
from service.db import get_db
from warehouse import readonly

bp = Blueprint("sql", __name__)


@bp.post("/sql")
def run_sql():
    """Run ``{"sql": "...", "params": {...}}``; paging and format from the query string or the body.

    :raise 400: if the body is not that object, the SQL is not one read-only query, it fails or runs too long.
    """
    body = request.get_json(silent=True)
    if not isinstance(body, dict) or not isinstance(body.get("sql"), str) or not body["sql"].strip():
        raise ApiError("bad_request", 'the body must be a JSON object {"sql": "SELECT ...", "params": {...}}')
    params = body.get("params") or {}
    if not isinstance(params, dict) or not all(_scalar(v) for v in params.values()):
        raise ApiError("bad_request", "params must be an object of numbers, strings, booleans or nulls")
    args = {**{k: body[k] for k in results.RESERVED if k in body}, **request.args.to_dict()}
    results.paging(args)  # a bad _limit or _offset answers before the query waits for a slot
    readonly.check_text(body["sql"], current_app.extensions["limits"])  # as cheap: before the slot too
    with current_app.extensions["sql_gate"].slot():
        deadline = time.monotonic() + current_app.config["TIME_LIMIT_S"]
        return results.respond(lambda **bounds: readonly.run_select(get_db(), body["sql"], params, **bounds), args,
                               deadline=deadline, take_turn=False)


def _scalar(value) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def openapi_paths() -> dict:
    return {"/sql": {"post": {
        "operationId": "sql",
        "summary": "Ad-hoc read-only SQL (one SELECT/WITH; row and time limits)",
        "parameters": results.page_parameters(),
        "requestBody": {"required": True, "content": {"application/json": {"schema": {
            "type": "object", "required": ["sql"],
            "properties": {"sql": {"type": "string"}, "params": {"type": "object"}},
        }}}},
        "responses": {**results.page_responses(), "503": {"$ref": "#/components/responses/Error"}},
    }}}
