"""Shaping a query's rows for the caller: one page of JSON objects or CSV, and paging.

``_limit`` and ``_offset`` page through the rows; the answer says ``next_offset`` (or
null on the last page). Rows are fetched up to ``offset + limit + 1`` and no further,
so a page costs what the query costs up to that row; the ``offset`` rows before the page
are dropped as they are fetched, never kept, and ``_offset`` is capped (``MAX_OFFSET``).

Every answer is bounded (warehouse/limits.py): one deadline (``TIME_LIMIT_S``) from the
start of the request through the query's steps to the encoded page, and ``MAX_ANSWER_BYTES``
counted on the rows as they are fetched and on the encoded page: past either, the answer is
a one-line error (400 ``time_limit``, 413 ``too_large``), never gigabytes buffered.

A JSON page is encoded by msgspec from one struct per row rather than by ``json.dumps``
from one dict per row: a 500-row timeline window then costs ~0.05 ms of Python instead of
~0.5 ms, which under one GIL is what bounds the p99 of 16 concurrent clients (DESIGN §7).

No JSON answer loses precision in a browser: JavaScript holds integers exactly only up to
``2**53 - 1`` (``Number.MAX_SAFE_INTEGER``), and absolute epoch nanoseconds (~1.7e18) pass it.
So in a JSON page an integer beyond +-(2**53 - 1) is sent as its decimal string (``"1700000000123456789"``,
which ``BigInt(value)`` reads exactly) and every other integer stays a number; CSV is text and
unchanged. The check is one msgspec validation in C; only a page holding such a value (or a
BLOB) is walked in Python.

Queries take turns to fetch their rows (:func:`fetch_turn`): sqlite3 releases the GIL
around each row it steps, so two server threads fetching at once hand the GIL to each
other once a row; on this 2-core machine that cost a server thread 2.5 ms of CPU per
500-row window instead of 1.4 ms, and a third of the requests/s.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Annotated

import msgspec
from flask import Response, current_app

from service.errors import ApiError
from warehouse import output, readonly

RESERVED = ("_limit", "_offset", "_format")
FORMATS = ("json", "csv")
#: the largest integer a JavaScript number holds exactly (Number.MAX_SAFE_INTEGER)
MAX_SAFE_INTEGER = 2**53 - 1
#: the rule, as the OpenAPI document and the README state it
BIG_INTEGER_RULE = ("In JSON answers an integer beyond +-(2**53 - 1) (JavaScript's Number.MAX_SAFE_INTEGER: "
                    "absolute epoch nanoseconds such as 1700000000123456789 pass it) is sent as its decimal "
                    "string, read exactly with BigInt(value); every other integer is a JSON number. "
                    "CSV answers are unchanged.")
#: rows a browser reads as they are: no BLOB (JSON shows it as hex), no integer past MAX_SAFE_INTEGER
#: (JSON sends it as a decimal string)
SAFE_ROWS = list[tuple[Annotated[int, msgspec.Meta(ge=-MAX_SAFE_INTEGER, le=MAX_SAFE_INTEGER)] | float | str | None,
                       ...]]
ENCODER = msgspec.json.Encoder()
#: held by the query fetching its rows; one process-wide lock, as the GIL it spares is
FETCHING = threading.Lock()
#: how long a query waits for its turn to fetch: ~10 window queries; a longer one is not waited for
TURN_WAIT_S = 0.005


def paging(args) -> tuple[int, int, str]:
    """``(limit, offset, format)`` from request arguments.

    :raise 400: on a non-integer or out-of-range value, or an unknown format.
    """
    limit = _integer(args, "_limit", current_app.config["DEFAULT_LIMIT"])
    offset = _integer(args, "_offset", 0)
    if not 1 <= limit <= current_app.config["MAX_LIMIT"]:
        raise ApiError("bad_parameter", f"_limit must be between 1 and {current_app.config['MAX_LIMIT']}")
    if offset < 0:
        raise ApiError("bad_parameter", "_offset must be 0 or more")
    if offset > current_app.config["MAX_OFFSET"]:
        raise ApiError("bad_parameter", f"_offset must be at most {current_app.config['MAX_OFFSET']} "
                                        "(WAREHOUSE_MAX_OFFSET)")
    fmt = str(args.get("_format") or "json")
    if fmt not in FORMATS:
        raise ApiError("bad_parameter", f"_format must be one of {', '.join(FORMATS)}")
    return limit, offset, fmt


def _integer(args, name: str, default: int) -> int:
    value = args.get(name)
    if value is None or value == "":
        return default
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ApiError("bad_parameter", f"{name} must be an integer, got {value!r}") from None


def respond(run: Callable[..., tuple[list[str], list[tuple]]], args, *, deadline: float | None = None,
            take_turn: bool = True) -> Response:
    """Run ``run(**bounds)`` (the keyword arguments of :func:`readonly.run_select` that bound it) and answer
    one page in the format asked for.

    ``deadline`` (``time.monotonic()``): when the request's time is up, by default ``TIME_LIMIT_S`` from
    now. ``take_turn``: wait (briefly) for the other fetches first (:func:`fetch_turn`); ad-hoc SQL,
    which may run to its time limit, does not hold the turn.

    :raise 400: past the deadline. :raise 413: past ``MAX_ANSWER_BYTES``.
    """
    limit, offset, fmt = paging(args)
    config = current_app.config
    time_limit_s = config["TIME_LIMIT_S"]
    deadline = deadline or time.monotonic() + time_limit_s
    max_bytes = config["MAX_ANSWER_BYTES"]
    bounds = {"skip": offset, "max_rows": limit + 1, "max_bytes": max_bytes, "time_limit_s": time_limit_s,
              "deadline": deadline, "limits": current_app.extensions["limits"]}
    with fetch_turn() if take_turn else _no_turn():
        columns, page = run(**bounds)
    next_offset = offset + limit if len(page) > limit else None
    del page[limit:]
    if fmt == "csv":
        body = output.render(columns, page, "csv").encode()
        mimetype = "text/csv"
    else:
        body = _json_page(columns, page, next_offset)
        mimetype = "application/json"
    del page
    if max_bytes and len(body) > max_bytes:
        raise readonly.TooLarge(f"the answer is {len(body)} bytes, over the limit of {max_bytes} "
                                "(WAREHOUSE_MAX_ANSWER_BYTES): ask for fewer rows or smaller values")
    if time.monotonic() > deadline:
        raise readonly.QueryTimeout(f"query exceeded the time limit of {time_limit_s} s")
    response = Response(body, mimetype=mimetype)
    if fmt == "csv" and next_offset is not None:
        response.headers["X-Next-Offset"] = str(next_offset)
    return response


@contextmanager
def _no_turn() -> Iterator[None]:
    yield


@contextmanager
def fetch_turn() -> Iterator[None]:
    """Wait for the other threads' fetches to finish, but no longer than :data:`TURN_WAIT_S`.

    Taking turns loses no parallelism worth having (two threads fetching windows at once
    were no faster than one: 0.58 against 0.57 ms a window) and spares the per-row GIL
    handoffs; the bounded wait keeps a long query (up to ``TIME_LIMIT_S``) from stalling
    every other request behind it.
    """
    turn = FETCHING.acquire(timeout=TURN_WAIT_S)
    try:
        yield
    finally:
        if turn:
            FETCHING.release()


def _json_page(columns: list[str], rows: list[tuple], next_offset: int | None) -> bytes:
    """``{"columns", "rows", "next_offset"}`` as JSON, each row an object of the columns in order, BLOBs as
    hex, integers past :data:`MAX_SAFE_INTEGER` as decimal strings."""
    try:
        msgspec.convert(rows, SAFE_ROWS)  # ~0.02 ms for 500 rows, in C; walking them in Python costs 0.07
    except msgspec.ValidationError:
        rows = [tuple(map(_browser_safe, row)) for row in rows]
    if len(set(columns)) == len(columns):
        objects = list(itertools.starmap(_row_struct(tuple(columns)), rows))
    else:  # a repeated name keeps its first place and its last value, as a dict does
        objects = [dict(zip(columns, row)) for row in rows]
    return ENCODER.encode({"columns": columns, "rows": objects, "next_offset": next_offset})


def _browser_safe(value):
    """A BLOB as hex, an integer past :data:`MAX_SAFE_INTEGER` as its decimal string, else the value."""
    if isinstance(value, bytes):
        return value.hex()
    if type(value) is int and not -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
        return str(value)
    return value


@lru_cache(maxsize=256)
def _row_struct(columns: tuple[str, ...]) -> type[msgspec.Struct]:
    """A struct that encodes as ``{column: value, ...}``, made once per column list (any name, even ``count(*)``)."""
    fields = [f"c{i}" for i in range(len(columns))]
    return msgspec.defstruct("Row", fields, rename=dict(zip(fields, columns)), gc=False)


def page_schema(columns: list[dict] | None = None) -> dict:
    """The OpenAPI schema of a page of rows (``columns``: the declared columns, when known)."""
    row = {"type": "object", "description": "One row: its columns' values. " + BIG_INTEGER_RULE,
           "additionalProperties": {"nullable": True, "anyOf": [{"type": "number"}, {"type": "string"}]}}
    if columns:
        row["properties"] = {c["name"]: {"description": c["meaning"]} for c in columns}
    return {
        "type": "object",
        "required": ["columns", "rows", "next_offset"],
        "properties": {
            "columns": {"type": "array", "items": {"type": "string"}},
            "rows": {"type": "array", "items": row},
            "next_offset": {"type": "integer", "nullable": True,
                            "description": "_offset of the next page; null on the last page"},
        },
    }


def page_parameters() -> list[dict]:
    """The OpenAPI parameters every row-returning route takes."""
    return [
        {"name": "_limit", "in": "query", "schema": {"type": "integer", "minimum": 1},
         "description": "Rows per page (default 1000)."},
        {"name": "_offset", "in": "query", "schema": {"type": "integer", "minimum": 0},
         "description": "Rows to skip (from next_offset)."},
        {"name": "_format", "in": "query", "schema": {"type": "string", "enum": list(FORMATS)},
         "description": "json (default) or csv."},
    ]


def page_responses(columns: list[dict] | None = None) -> dict:
    """The OpenAPI responses of a row-returning route."""
    return {
        "200": {"description": "One page of rows.", "content": {
            "application/json": {"schema": page_schema(columns)},
            "text/csv": {"schema": {"type": "string"}},
        }},
        "400": {"$ref": "#/components/responses/Error"},
        "401": {"$ref": "#/components/responses/Error"},
        "413": {"$ref": "#/components/responses/Error"},
    }
