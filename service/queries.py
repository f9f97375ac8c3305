"""Routes of the named queries: the catalog, and running one with paging and CSV."""

from __future__ import annotations

from flask import Blueprint, request

from service import openapi, results
from service.errors import ApiError
from service.db import get_db
from warehouse import queries, readonly

bp = Blueprint("queries", __name__)
OPENAPI_TYPES = {"integer": "integer", "real": "number", "text": "string", "boolean": "boolean"}


@bp.get("/queries")
def catalog():
    """Every named query: name, view, title, description, params, columns."""
    return {"queries": [_entry(q) for q in queries.catalog().values()]}


@bp.get("/queries/<name>")
def run(name: str):
    """Run a named query; query-string arguments are its parameters, converted to their types.

    :raise 404: if no query has that name.
    :raise 400: on an unknown, missing or badly typed parameter.
    """
    query = queries.published(name)
    values = {k: v for k, v in request.args.items() if k not in results.RESERVED}
    repeated = [k for k in values if len(request.args.getlist(k)) > 1]
    if repeated:
        raise ApiError("bad_parameter", f"parameter {repeated[0]} given more than once")
    bound = query.bind(values)  # report parameter errors before opening the warehouse
    # what query.run does (checked SQL, no lint), with the bounds of a served answer (skip, bytes, limits)
    return results.respond(lambda **bounds: readonly.run_select(get_db(), query.sql, bound, lint=False, **bounds),
                           request.args)


def _parameter(param: dict) -> dict:
    schema = {"type": OPENAPI_TYPES[param["type"]]}
    if "choices" in param:
        schema["enum"] = param["choices"]
    if param["default"] is not None:
        schema["default"] = param["default"]
    return {"name": param["name"], "in": "query", "required": param["required"], "description": param["meaning"],
            "schema": schema}


def _entry(query: queries.Query) -> dict:
    entry = query.describe()
    entry.pop("sql")
    return entry


def openapi_paths() -> dict:
    paths = {
        "/queries": {"get": openapi.operation("queries", "The catalog of named queries", {
            "type": "object", "properties": {"queries": {"type": "array", "items": {"type": "object"}}}})},
        "/queries/{name}": {"get": {
            "operationId": "run_query",
            "summary": "Run any named query (its parameters as query-string arguments)",
            "parameters": [{"name": "name", "in": "path", "required": True, "schema": {"type": "string"}}]
                          + results.page_parameters(),
            "responses": {**results.page_responses(), "404": {"$ref": "#/components/responses/Error"}},
        }},
    }
    for query in queries.catalog().values():
        parameters = [_parameter(p.describe()) for p in query.params]
        paths[f"/queries/{query.name}"] = {"get": {
            "operationId": f"query_{query.name}",
            "summary": query.title,
            "description": query.description,
            "tags": [query.view],
            "parameters": parameters + results.page_parameters(),
            "responses": results.page_responses([{"name": c.name, "meaning": c.meaning} for c in query.columns]),
        }}
    return paths
