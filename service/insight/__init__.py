"""``POST /insight``: the operator-view protocol of seed 000 (timeline, hot spots, operator details).

A request ``{"id", "moduleName", "type": "request", "command", "params"}`` is answered with
``{"type": "response", "id", "requestId", "result", "command", "moduleName", "body"}``. Each
command is a small function over named queries (``queries/insight/``) that shapes the body
as the seed's examples do. A malformed envelope is the caller's HTTP mistake (400, JSON
error); a command that cannot answer (unknown command or card, missing or badly typed
parameter) answers ``result: false`` with ``body.message``.
"""

from __future__ import annotations

import itertools
import threading

import msgspec
from flask import Blueprint, Response, request

from service.db import get_db
from service.errors import ApiError
from service.insight import details, importer, source, timeline
from service.insight.protocol import InsightError, Params
from warehouse.errors import WarehouseError

bp = Blueprint("insight", __name__)

#: command -> function(conn, params) -> body
COMMANDS = {
    "import/action": importer.import_action,
    "unit/threadTracesSummary": timeline.thread_traces_summary,
    "unit/threadTraces": timeline.thread_traces,
    "unit/flows": timeline.flows,
    "unit/threadDetail": timeline.thread_detail,
    "source/code/file": source.code_file,
    "source/api/line": source.api_line,
    "source/api/instructions": source.api_instructions,
    "source/details/baseInfo": details.base_info,
    "source/details/computeworkload": details.compute_workload,
    "source/details/memoryGraph": details.memory_graph,
    "source/details/memoryTable": details.memory_table,
}
ENVELOPE = ("id", "moduleName", "type", "command")

_response_ids = itertools.count(1)
_response_ids_lock = threading.Lock()


def _envelope() -> dict:
    """The request envelope, checked.

    :raise 400: if the body is not a JSON object with the envelope's fields and types.
    """
    message = request.get_json(silent=True)
    if not isinstance(message, dict):
        raise ApiError("bad_request", "the body must be a JSON object (the seed-000 request envelope)")
    missing = [key for key in ENVELOPE if key not in message]
    if missing:
        raise ApiError("bad_request", f"the request envelope has no {', '.join(missing)}")
    if message["type"] != "request":
        raise ApiError("bad_request", f"type must be 'request', not {message['type']!r}")
    if isinstance(message["id"], bool) or not isinstance(message["id"], (int, str)):
        raise ApiError("bad_request", "id must be a number or a string")
    if not isinstance(message["command"], str) or not isinstance(message["moduleName"], str):
        raise ApiError("bad_request", "command and moduleName must be strings")
    if not isinstance(message.get("params", {}), dict):
        raise ApiError("bad_request", "params must be a JSON object")
    return message


@bp.post("/insight")
def insight():
    """Run one command of the seed-000 protocol (see the module docstring)."""
    message = _envelope()
    command = message["command"]
    handler = COMMANDS.get(command)
    try:
        if handler is None:
            raise InsightError(f"unknown command {command!r} (known: {', '.join(COMMANDS)})")
        result, body = True, handler(get_db(), Params(message.get("params") or {}))
    except InsightError as exc:
        result, body = False, exc.body
    except WarehouseError as exc:
        result, body = False, {"message": str(exc)}
    with _response_ids_lock:
        response_id = next(_response_ids)
    answer = {"type": "response", "id": response_id, "requestId": message["id"], "result": result,
              "command": command, "moduleName": message["moduleName"], "body": body}
    # msgspec encodes a timeline answer of thousands of rows ~10x faster than the json module
    return Response(msgspec.json.encode(answer), mimetype="application/json")


def openapi_paths() -> dict:
    envelope = {"type": "object", "required": list(ENVELOPE), "properties": {
        "id": {"oneOf": [{"type": "integer"}, {"type": "string"}]}, "moduleName": {"type": "string"},
        "type": {"type": "string", "enum": ["request"]}, "command": {"type": "string", "enum": list(COMMANDS)},
        "params": {"type": "object"}}}
    response = {"type": "object", "properties": {
        "type": {"type": "string"}, "id": {"type": "integer"}, "requestId": {}, "result": {"type": "boolean"},
        "command": {"type": "string"}, "moduleName": {"type": "string"}, "body": {"type": "object"}}}
    return {"/insight": {"post": {
        "operationId": "insight",
        "summary": "The seed-000 operator-view protocol (timeline, hot spots, operator details)",
        "requestBody": {"required": True, "content": {"application/json": {"schema": envelope}}},
        "responses": {
            "200": {"description": "The response envelope; result false with body.message when the command "
                                   "cannot answer", "content": {"application/json": {"schema": response}}},
            "400": {"$ref": "#/components/responses/Error"},
            "401": {"$ref": "#/components/responses/Error"},
        },
    }}}
