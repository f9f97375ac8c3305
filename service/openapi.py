"""The OpenAPI 3 document, assembled from each route module's ``openapi_paths()``."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from flask import Flask

from service.results import BIG_INTEGER_RULE

ERROR_SCHEMA = {
    "type": "object",
    "required": ["error"],
    "properties": {"error": {"type": "object", "required": ["code", "message"], "properties": {
        "code": {"type": "string"}, "message": {"type": "string"}}}},
}


def operation(operation_id: str, summary: str, schema: dict) -> dict:
    """A GET operation answering ``schema`` as JSON."""
    return {
        "operationId": operation_id,
        "summary": summary,
        "responses": {
            "200": {"description": summary, "content": {"application/json": {"schema": schema}}},
            "401": {"$ref": "#/components/responses/Error"},
        },
    }


def document(app: Flask) -> dict:
    """The document for ``app``: every route module's paths under /api/v1, bearer auth when a token is set."""
    from service import API_PREFIX, ROUTE_MODULES

    paths = {}
    for module in ROUTE_MODULES:
        paths.update(module.openapi_paths())
    doc = {
        "openapi": "3.0.3",
        "info": {"title": "Ascend profiling warehouse API", "version": _version(),
                 "description": BIG_INTEGER_RULE},
        "servers": [{"url": API_PREFIX}],
        "paths": paths,
        "components": {
            "schemas": {"Error": ERROR_SCHEMA},
            "responses": {"Error": {"description": "The caller's mistake (4xx) or a server problem (5xx).",
                                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}},
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
    }
    if app.config.get("TOKEN"):
        doc["security"] = [{"bearer": []}]
    return doc


def _version() -> str:
    try:
        return version("ascend-warehouse")
    except PackageNotFoundError:
        return "0"
