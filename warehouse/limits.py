"""The bounds on work done for a user's SQL and on ingesting an input: one place, each a documented setting.

Every setting has a default fit for a 2-core machine and can be changed with an environment
variable ``WAREHOUSE_<NAME>`` (``WAREHOUSE_TIME_LIMIT_S=30``), read by ``warehouse serve``
(the Flask config's environment layer), ``warehouse sql`` / ``warehouse query`` (whose flags
override it) and the Datasette plugin (so plain ``datasette`` honours it too).

The SQLite limits (:func:`apply`) go on every connection that runs SQL a user wrote or
chose: a value longer than ``MAX_VALUE_BYTES`` (``zeroblob(400000000)``,
``printf('%.*c', 999999999, 'x')``) fails inside SQLite before it is built, and SQL text
longer than ``MAX_SQL_BYTES`` or nested deeper than ``MAX_SQL_DEPTH`` is refused before
sqlglot parses it (sqlglot recurses once per parenthesis: ~45 levels end in RecursionError;
100 KB of SQL take it ~0.5 s).
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import threading
from dataclasses import dataclass, fields
from typing import Mapping

ENV_PREFIX = "WAREHOUSE_"


@dataclass(frozen=True)
class Limits:
    """The bounds on one query, the service's ad-hoc SQL and one input's ingest; field names are the setting names."""

    #: seconds one query may take, from parsing its text to encoding its answer (REST, ``warehouse sql``)
    TIME_LIMIT_S: float = 10.0
    #: the most rows one answer holds (a REST page's ``_limit``; ``warehouse sql --max-rows``)
    MAX_LIMIT: int = 100_000
    #: the largest ``_offset`` a REST caller may ask for (rows skipped are still computed)
    MAX_OFFSET: int = 1_000_000
    #: the most bytes one answer may hold, counted while its rows are fetched and encoded
    MAX_ANSWER_BYTES: int = 64 * 2**20
    #: the longest string or BLOB SQLite may build or read (SQLITE_LIMIT_LENGTH)
    MAX_VALUE_BYTES: int = 16 * 2**20
    #: the most memory SQLite may hold in a process that runs user SQL (``warehouse serve``, Datasette,
    #: ``warehouse sql``): a query building more (a row of 200 16 MB values) fails as out of memory.
    #: Process-wide (SQLite's hard heap limit) and only ever lowered; 0 leaves SQLite unbounded
    MAX_SQLITE_HEAP_BYTES: int = 2 * 2**30
    #: the longest SQL text accepted (SQLITE_LIMIT_SQL_LENGTH, and checked before sqlglot parses it)
    MAX_SQL_BYTES: int = 100_000
    #: the deepest nesting of parentheses in SQL text, checked before sqlglot parses it
    MAX_SQL_DEPTH: int = 32
    #: SQLite's expression tree depth (SQLITE_LIMIT_EXPR_DEPTH; SQLite's own default is 1000)
    MAX_EXPR_DEPTH: int = 200
    #: ad-hoc SQL (REST /sql) run at once; other requests never wait for these
    SQL_SLOTS: int = max(1, (os.cpu_count() or 2) // 2)
    #: ad-hoc SQL requests that may wait for a slot; more answer 503 at once
    SQL_QUEUE: int = 8
    #: seconds an ad-hoc SQL request waits for a slot before answering 503
    SQL_WAIT_S: float = 2.0
    #: seconds a client may take to send one whole request (headers and body) before it is dropped
    REQUEST_READ_TIMEOUT_S: float = 10.0
    #: seconds an idle keep-alive connection is kept open (waitress channel_timeout)
    CHANNEL_TIMEOUT_S: float = 30.0
    #: open connections the server accepts at once (waitress connection_limit)
    CONNECTION_LIMIT: int = 1000
    #: the deepest nesting of arrays and objects in a JSON request (REST bodies, WebSocket frames)
    MAX_JSON_DEPTH: int = 64
    #: WebSocket connections (Insight port) open or opening at once; past it a new one is refused (503)
    INSIGHT_CONNECTIONS: int = 64
    #: seconds a WebSocket client may take to complete its opening handshake
    INSIGHT_OPEN_TIMEOUT_S: float = 10.0
    #: seconds a WebSocket connection may stay without a request before it is closed
    INSIGHT_IDLE_TIMEOUT_S: float = 600.0

    # --- ingest: the bounds on the work one input file may cause (warehouse ingest, import/action) ---
    #: seconds one input file may take to ingest before it is stopped and recorded as failed
    INGEST_TIME_LIMIT_S: float = 600.0
    #: the most bytes a compressed (.gz) input may decompress to
    MAX_DECOMPRESSED_BYTES: int = 64 * 2**30
    #: the most bytes of trace JSON between two event boundaries (one event's text, whitespace included)
    MAX_EVENT_BYTES: int = 64 * 2**20
    #: the longest name, category or string-table value an input may give (bytes of UTF-8)
    MAX_STRING_BYTES: int = 2**20
    #: the most trace ``B``/``b`` events open (begun, not yet ended) at once in one file
    MAX_OPEN_EVENTS: int = 200_000
    #: the largest block of an operator profile (contentSize, decompressed)
    MAX_BLOCK_BYTES: int = 2**30
    #: the most bytes one operator profile (visualize_data.bin, all its blocks, decompressed) may hold.
    #: Real ones are KBs to a few MB. The file is held whole while its blocks are framed, so this bounds
    #: what reading it takes (a block's JSON takes a few times its size again once parsed)
    MAX_OP_PROFILE_BYTES: int = 256 * 2**20
    #: the most bytes (on disk and decompressed) of a file read whole to learn a run's layout, rank or
    #: settings: profiler_info_*.json, profiler_metadata.json, msprof's info.json, communication_group.json.
    #: Real ones are KBs; a larger one is refused from its size before a byte of it is read
    MAX_SIDECAR_BYTES: int = 16 * 2**20
    #: the most rows one block of an operator profile may give
    MAX_BLOCK_ROWS: int = 10_000_000
    #: the longest ``source.detail`` (bytes of JSON); longer detail is cut with a note of what was left out
    MAX_DETAIL_BYTES: int = 64 * 2**10

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Limits:
        """The defaults, each replaced by ``WAREHOUSE_<NAME>`` when that variable is set."""
        return cls.from_mapping(environ if environ is not None else os.environ, prefix=ENV_PREFIX)

    @classmethod
    def from_mapping(cls, values: Mapping, prefix: str = "") -> Limits:
        """The defaults, each replaced by ``values[prefix + NAME]`` when present (a Flask config, the environment)."""
        chosen = {}
        for field in fields(cls):
            raw = values.get(prefix + field.name)
            if raw is None or raw == "":
                continue
            kind = type(getattr(cls, field.name))
            try:
                value = kind(json.loads(raw) if isinstance(raw, str) else raw)
            except (TypeError, ValueError):
                raise ValueError(f"{prefix}{field.name} must be a number, got {raw!r}") from None
            if value < 0:
                raise ValueError(f"{prefix}{field.name} must be 0 or more, got {raw!r}")
            chosen[field.name] = value
        return cls(**chosen)

    def as_config(self) -> dict:
        """The settings as a dict of ``NAME: value`` (the Flask app's defaults)."""
        return {field.name: getattr(self, field.name) for field in fields(self)}


def current() -> Limits:
    """The limits in force in this process: the defaults and the ``WAREHOUSE_*`` environment."""
    return Limits.from_env()


def apply(conn: sqlite3.Connection, limits: Limits | None = None) -> dict[int, int]:
    """Put the SQLite limits on ``conn``; return the previous values (for :func:`restore`).

    The heap limit (``MAX_SQLITE_HEAP_BYTES``) is the process's, not the connection's: it stays.

    Also replaces ``printf``/``format`` on ``conn`` by a guard that answers NULL at once for a
    width or precision past ``MAX_VALUE_BYTES`` (noting why: :func:`take_refusal`) and otherwise
    calls SQLite's own: SQLite stops building ``printf('%.*c', 999999999, 'x')`` at the length
    limit but still loops 10^9 times (5 s of CPU no progress handler can interrupt) before it
    answers NULL. The guard answers, never raises: with SQLite's callback tracebacks on
    (Datasette turns them on) a raise would print a traceback in the server's log.
    """
    limits = limits or current()
    wanted = {
        sqlite3.SQLITE_LIMIT_LENGTH: limits.MAX_VALUE_BYTES,
        sqlite3.SQLITE_LIMIT_SQL_LENGTH: limits.MAX_SQL_BYTES,
        sqlite3.SQLITE_LIMIT_EXPR_DEPTH: limits.MAX_EXPR_DEPTH,
    }
    previous = {category: conn.setlimit(category, value) for category, value in wanted.items()}
    if limits.MAX_SQLITE_HEAP_BYTES:
        conn.execute(f"PRAGMA hard_heap_limit = {int(limits.MAX_SQLITE_HEAP_BYTES)}")
    if limits.MAX_VALUE_BYTES:
        guard = _printf_guard(limits.MAX_VALUE_BYTES)
        for name in ("printf", "format"):
            conn.create_function(name, -1, guard)
    return previous


#: one conversion of a printf format: flags, width (digits or *), precision (. digits or .*), type
_CONVERSION = re.compile(r"%[-+ 0#,!]*(\*|\d+)?(?:\.(\*|\d+))?(?:ll|l)?(.)", re.DOTALL)
_LOCAL = threading.local()


def _printf_guard(max_length: int):
    def printf(fmt=None, *args):
        if isinstance(fmt, str):
            position = 0
            for conversion in _CONVERSION.finditer(fmt):
                width, precision, kind = conversion.groups()
                for part in (width, precision):
                    if part == "*":
                        value = args[position] if position < len(args) else 0
                        position += 1
                    else:
                        value = part
                    try:
                        too_big = value is not None and abs(int(value)) > max_length
                    except (TypeError, ValueError, OverflowError):
                        too_big = False
                    if too_big:
                        _LOCAL.refusal = (f"printf: a width or precision of {value} is over the limit of "
                                          f"{max_length} bytes (WAREHOUSE_MAX_VALUE_BYTES)")
                        return None
                if kind != "%":
                    position += 1
        return _pristine(max_length).execute(
            f"SELECT printf({', '.join('?' * (1 + len(args)))})", (fmt, *args)).fetchone()[0]

    return printf


def _pristine(max_length: int) -> sqlite3.Connection:
    """This thread's in-memory connection with SQLite's own printf (and the length limit)."""
    conn = getattr(_LOCAL, "conn", None)
    if conn is None:
        conn = _LOCAL.conn = sqlite3.connect(":memory:", check_same_thread=False)
    conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, max_length)
    return conn


def take_refusal() -> str | None:
    """The reason the printf guard last answered NULL on this thread instead of a value (once), or None."""
    refusal = getattr(_LOCAL, "refusal", None)
    _LOCAL.refusal = None
    return refusal


def restore(conn: sqlite3.Connection, previous: dict[int, int]) -> None:
    """Undo :func:`apply`."""
    for category, value in previous.items():
        conn.setlimit(category, value)


def describe(limits: Limits | None = None) -> str:
    """One line per setting: name, value, meaning (for help texts and the docs)."""
    limits = limits or current()
    return "\n".join(f"{ENV_PREFIX}{field.name}={getattr(limits, field.name)}" for field in fields(limits))
