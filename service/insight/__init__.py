"""``POST /insight``: the operator-view protocol (timeline, hot spots, operator details) over HTTP.

The body is one request envelope; the answer is the response envelope
:func:`service.insight.dispatch.answer` builds, the same the WebSocket (service/insight_ws.py)
sends. A malformed envelope is the caller's HTTP mistake (400, JSON error); a command that
cannot answer (unknown command or card, missing or badly typed parameter) answers
``result: false`` with ``error: {code, message}``.
"""

from __future__ import annotations

import msgspec
from flask import Blueprint, Response, request

from service.errors import ApiError
from service.insight.dispatch import COMMANDS, ENVELOPE, answer, envelope_problem

bp = Blueprint("insight", __name__)


@bp.post("/insight")
def insight():
    """Run one command of the protocol (see the module docstring)."""
    message = request.get_json(silent=True)
    problem = envelope_problem(message)
    if problem is not None:
        raise ApiError("bad_request", problem)
    # msgspec encodes a timeline answer of thousands of rows ~10x faster than the json module
    return Response(msgspec.json.encode(answer(message)), mimetype="application/json")


def openapi_paths() -> dict:
    envelope = {"type": "object", "required": list(ENVELOPE), "properties": {
        "id": {"oneOf": [{"type": "integer"}, {"type": "string"}]}, "moduleName": {"type": "string"},
        "type": {"type": "string", "enum": ["request"]}, "command": {"type": "string", "enum": list(COMMANDS)},
        "params": {"type": "object"}}}
    response = {"type": "object", "properties": {
        "type": {"type": "string"}, "id": {"type": "integer"}, "requestId": {}, "result": {"type": "boolean"},
        "command": {"type": "string"}, "moduleName": {"type": "string"}, "body": {"type": "object"},
        "error": {"type": "object", "properties": {"code": {"type": "integer"}, "message": {"type": "string"}}}}}
    return {"/insight": {"post": {
        "operationId": "insight",
        "summary": "The operator-view protocol (timeline, hot spots, operator details), as on the WebSocket",
        "requestBody": {"required": True, "content": {"application/json": {"schema": envelope}}},
        "responses": {
            "200": {"description": "The response envelope; result false with error {code, message} when "
                                   "the command cannot answer", "content": {"application/json": {"schema": response}}},
            "400": {"$ref": "#/components/responses/Error"},
            "401": {"$ref": "#/components/responses/Error"},
        },
    }}}
