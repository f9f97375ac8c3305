"""Routes about the service and the warehouse: health, the OpenAPI document, the sources."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify

from service import openapi
from service.db import get_db
from warehouse import db, queries

bp = Blueprint("meta", __name__)
SOURCE_COLUMNS = ("id", "run_id", "path", "kind", "sha256", "size_bytes", "rank_id", "card", "status", "error",
                  "row_count", "elapsed_ns", "ingested_at", "stage")


@bp.get("/health")
def health():
    """Status, schema version and number of named queries.

    :raise 503: if the warehouse cannot be opened.
    """
    return {"status": "ok", "schema_version": db.schema_version(get_db()), "queries": len(queries.catalog())}


@bp.get("/openapi.json")
def openapi_document():
    """The OpenAPI 3 document of every route and every named query."""
    return jsonify(openapi.document(current_app))


@bp.get("/sources")
def sources():
    """The ingested inputs with their status and errors; ``stage`` says what of an input is still to
    come (``answers``: its first answers only, ``pending``: nothing yet; ingest --answers-first)."""
    cursor = get_db().execute(f"SELECT {', '.join(SOURCE_COLUMNS)} FROM source ORDER BY id")
    return {"sources": [dict(zip(SOURCE_COLUMNS, row)) for row in cursor]}


def openapi_paths() -> dict:
    source = {"type": "object", "properties": {name: {} for name in SOURCE_COLUMNS}}
    return {
        "/health": {"get": openapi.operation(
            "health", "Status and schema version",
            {"type": "object", "properties": {"status": {"type": "string"}, "schema_version": {"type": "integer"},
                                              "queries": {"type": "integer"}}})},
        "/openapi.json": {"get": openapi.operation("openapi", "This document", {"type": "object"})},
        "/sources": {"get": openapi.operation(
            "sources", "Ingested inputs, their status and errors",
            {"type": "object", "properties": {"sources": {"type": "array", "items": source}}})},
    }
