"""Running SQL a user wrote, safely: one read-only SELECT, enforced twice.

sqlglot lints the text (one statement, a SELECT/WITH, nothing that writes); SQLite's
authorizer then refuses at run time whatever slipped through (ATTACH, PRAGMA writes,
load_extension), and a progress handler stops queries that run too long.

The bounds of :mod:`warehouse.limits` apply before and while it runs: SQL text too long or
nested too deeply is refused before sqlglot parses it, SQLite's own limits (value length,
SQL length, expression depth) go on the connection for the query, one deadline covers the
parse, the steps and the fetch, and the rows kept are counted in bytes as they are fetched
(rows skipped by an offset are fetched and dropped, never kept).
"""

from __future__ import annotations

import re
import sqlite3
import time
from functools import cache

from warehouse import limits as limits_module, units
from warehouse.errors import WarehouseError
from warehouse.limits import Limits

#: functions that reach outside the database
FORBIDDEN_FUNCTIONS = {"load_extension", "readfile", "writefile", "edit", "fts3_tokenizer"}
#: the sqlglot nodes of a statement that writes (names in ``sqlglot.exp``: it is imported when a lint runs)
WRITE_NODES = ("Insert", "Update", "Delete", "Create", "Drop", "Alter", "Command", "Merge")
ALLOWED_ACTIONS = {
    sqlite3.SQLITE_SELECT,
    sqlite3.SQLITE_READ,
    sqlite3.SQLITE_FUNCTION,
    sqlite3.SQLITE_RECURSIVE,
}
#: PRAGMAs a read may use through table-valued functions (pragma_table_info(...))
#: the most rows one fetch can ask for (sqlite3 takes a C int; a caller's huge _offset must not overflow it)
MAX_FETCH = 2**31 - 1
#: (and data_version, a counter FTS5 reads when it opens the name index of migration 0012)
READ_PRAGMAS = {"table_info", "table_xinfo", "index_list", "index_info", "index_xinfo", "foreign_key_list",
                "data_version"}


class UnsafeSql(WarehouseError):
    """The SQL is not a single read-only query."""


class QueryTimeout(WarehouseError):
    """The query ran longer than its time limit and was stopped."""


class TooLarge(WarehouseError):
    """A value or the answer is larger than its limit."""


#: rows fetched at first; later fetches are sized from the rows seen so far and the bytes left
FIRST_FETCH = 8
LARGEST_FETCH = 1024


@cache
def _measure():
    """The encoder that measures a chunk of rows as JSON would hold them (BLOBs as base64: within 2/3 of hex).

    Made on first use: msgspec's import is a third of Python's start, and an answer without
    ``max_bytes`` (``warehouse query``) never measures.
    """
    import msgspec

    return msgspec.json.Encoder()


def check_text(sql: str, limits: Limits | None = None) -> None:
    """:raises UnsafeSql: if ``sql`` is longer or nested deeper than the limits (checked without parsing it)."""
    limits = limits or limits_module.current()
    size = len(sql.encode("utf-8", "surrogatepass"))
    if limits.MAX_SQL_BYTES and size > limits.MAX_SQL_BYTES:
        raise UnsafeSql(f"the SQL text is {size} bytes, over the limit of {limits.MAX_SQL_BYTES} "
                        "(WAREHOUSE_MAX_SQL_BYTES)")
    depth = nesting_depth(sql)
    if limits.MAX_SQL_DEPTH and depth > limits.MAX_SQL_DEPTH:
        raise UnsafeSql(f"the SQL nests parentheses {depth} deep, over the limit of {limits.MAX_SQL_DEPTH} "
                        "(WAREHOUSE_MAX_SQL_DEPTH)")


def nesting_depth(sql: str) -> int:
    """The deepest nesting of parentheses in ``sql``, outside quotes and comments (a regex scan, ~1 ms per 100 KB)."""
    depth = deepest = 0
    for token in _NESTING_TOKENS.finditer(sql):
        text = token.group()
        if text == "(":
            depth += 1
            deepest = max(deepest, depth)
        elif text == ")":
            depth -= 1
    return deepest


#: parentheses, and the quoted names, strings and comments whose parentheses do not count
_NESTING_TOKENS = re.compile(r"""'[^']*'?|"[^"]*"?|`[^`]*`?|\[[^\]]*\]?|--[^\n]*|/\*(?:[^*]|\*(?!/))*(?:\*/)?|[()]""")


def check_select(sql: str) -> None:
    """:raises UnsafeSql: unless ``sql`` is exactly one SELECT/WITH statement that writes nothing."""
    # imported here: sqlglot's import (~0.13 s) is three times Python's start, and SQL checked when it was
    # loaded (lint=False) never needs it
    import sqlglot
    from sqlglot import exp

    try:
        statements = [s for s in sqlglot.parse(sql, read="sqlite") if s is not None]
    except sqlglot.errors.SqlglotError as exc:
        raise UnsafeSql(f"SQL does not parse: {(str(exc).splitlines() or [type(exc).__name__])[0]}") from None
    except RecursionError:
        raise UnsafeSql("the SQL is nested too deeply to check (WAREHOUSE_MAX_SQL_DEPTH)") from None
    if len(statements) != 1:
        raise UnsafeSql("exactly one SQL statement is allowed")
    tree = statements[0]
    if not isinstance(tree, exp.Query) or any(tree.find_all(*(getattr(exp, name) for name in WRITE_NODES))):
        raise UnsafeSql("only a read-only SELECT or WITH query is allowed")
    for func in tree.find_all(exp.Anonymous):
        if func.name.lower() in FORBIDDEN_FUNCTIONS:
            raise UnsafeSql(f"function {func.name} is not allowed")


def _authorizer(action, arg1, arg2, dbname, source):
    if action in ALLOWED_ACTIONS:
        if action == sqlite3.SQLITE_FUNCTION and arg2 and arg2.lower() in FORBIDDEN_FUNCTIONS:
            return sqlite3.SQLITE_DENY
        return sqlite3.SQLITE_OK
    if action == sqlite3.SQLITE_UPDATE and arg1 == "sqlite_master":
        # SQLite asks this while it sets up an eponymous virtual table (pragma_table_info);
        # no statement the lint lets through can update the schema table
        return sqlite3.SQLITE_OK
    if action == sqlite3.SQLITE_PRAGMA and arg1 and arg1.lower() in READ_PRAGMAS:
        return sqlite3.SQLITE_OK
    return sqlite3.SQLITE_DENY


def run_select(
    conn: sqlite3.Connection,
    sql: str,
    params: dict | None = None,
    *,
    max_rows: int | None = None,
    time_limit_s: float | None = None,
    lint: bool = True,
    skip: int = 0,
    max_bytes: int | None = None,
    limits: Limits | None = None,
    deadline: float | None = None,
) -> tuple[list[str], list[tuple]]:
    """Run one checked read-only query; return its column names and rows.

    ``lint=False`` skips the sqlglot parse (about 1 ms) for SQL already checked when it
    was loaded (the named queries); the authorizer and the limits still apply.
    ``skip`` rows are fetched and dropped before the (at most ``max_rows``) rows returned;
    ``max_bytes`` caps the rows returned, measured as JSON. ``limits``: SQLite's limits
    for the query (and the text checks before the lint); ``deadline`` (``time.monotonic()``)
    overrides ``time_limit_s`` so a caller's deadline can start before this call.
    The query may call :data:`warehouse.units.SQL_FUNCTIONS` (``format_ns``, ``format_bytes``).

    :raises UnsafeSql: if the SQL is not a single read-only query, is too long or deep, or is refused at run time.
    :raises QueryTimeout: if it exceeds the time limit.
    :raises TooLarge: if a value or the answer exceeds its limit.
    :raises WarehouseError: if it fails.
    """
    if deadline is None and time_limit_s:
        deadline = time.monotonic() + time_limit_s
    limit_s = time_limit_s if time_limit_s else round(deadline - time.monotonic(), 3) if deadline else None
    if lint:
        check_text(sql, limits)
        check_select(sql)
        _check_deadline(deadline, limit_s)
    previous = limits_module.apply(conn, limits) if limits is not None else None
    for name, function in units.SQL_FUNCTIONS.items():  # what the rules' messages call (format_ns, ...)
        conn.create_function(name, 1, function, deterministic=True)
    value_limit = conn.getlimit(sqlite3.SQLITE_LIMIT_LENGTH)
    conn.set_authorizer(_authorizer)
    if deadline:
        conn.set_progress_handler(lambda: int(time.monotonic() > deadline), 10_000)
    limits_module.take_refusal()  # forget a refusal of an earlier query on this thread
    try:
        cursor = conn.execute(sql, params or {})
        columns = [d[0] for d in cursor.description or ()]
        rows = _fetch(cursor, columns, skip, max_rows, max_bytes, deadline, limit_s)
        refusal = limits_module.take_refusal()
        if refusal:  # a printf too wide answered NULL: say so rather than answer a NULL
            raise TooLarge(refusal)
    except OverflowError:  # a parameter past SQLite's 64-bit integers
        raise WarehouseError("query failed: a parameter is out of range (integers are 64-bit)") from None
    except MemoryError:
        raise TooLarge("the answer does not fit in the memory SQLite may use (WAREHOUSE_MAX_SQLITE_HEAP_BYTES): "
                       "ask for fewer or smaller values") from None
    except sqlite3.DatabaseError as exc:
        message = str(exc)
        if "interrupted" in message:
            raise QueryTimeout(f"query exceeded the time limit of {limit_s} s") from None
        if "not authorized" in message:
            raise UnsafeSql(f"query refused: {message}") from None
        if "too big" in message:
            raise TooLarge(f"a value is longer than the limit of {value_limit} bytes "
                           "(WAREHOUSE_MAX_VALUE_BYTES)") from None
        raise WarehouseError(f"query failed: {' '.join(message.split())}") from None
    finally:
        conn.set_authorizer(None)
        conn.set_progress_handler(None, 0)
        if previous is not None:
            limits_module.restore(conn, previous)
    return columns, rows


def _check_deadline(deadline: float | None, limit_s: float | None) -> None:
    if deadline and time.monotonic() > deadline:
        raise QueryTimeout(f"query exceeded the time limit of {limit_s} s")


def _fetch(cursor: sqlite3.Cursor, columns: list[str], skip: int, max_rows: int | None, max_bytes: int | None,
           deadline: float | None, limit_s: float | None) -> list[tuple]:
    """Up to ``max_rows`` rows after ``skip`` dropped ones, fetched in chunks sized so the kept rows stay within
    ``max_bytes`` (the first chunk small, the next ones from the biggest row seen and the bytes left).

    :raises TooLarge: as soon as the rows kept pass ``max_bytes``.
    """
    wanted = min(max_rows, MAX_FETCH) if max_rows else MAX_FETCH
    if not max_bytes and not skip:
        return cursor.fetchmany(wanted) if max_rows else cursor.fetchall()
    row_overhead = sum(len(c) + 4 for c in columns) + 2  # a JSON object's keys, quotes and commas
    rows: list[tuple] = []
    size = 0
    biggest_row = 1
    chunk_rows = FIRST_FETCH if max_bytes else LARGEST_FETCH
    while len(rows) < wanted:
        chunk = cursor.fetchmany(min(chunk_rows, skip) if skip else min(chunk_rows, wanted - len(rows)))
        if not chunk:
            break
        _check_deadline(deadline, limit_s)
        if not max_bytes:
            if skip:
                skip -= len(chunk)
            else:
                rows.extend(chunk)
            continue
        chunk_size = len(_measure().encode(chunk)) + row_overhead * len(chunk)
        biggest_row = max(biggest_row, -(-chunk_size // len(chunk)))
        if skip:
            skip -= len(chunk)
        else:
            rows.extend(chunk)
            size += chunk_size
            if size > max_bytes:
                raise TooLarge(f"the answer is over the limit of {max_bytes} bytes (WAREHOUSE_MAX_ANSWER_BYTES): "
                               "ask for fewer rows or smaller values")
        chunk_rows = max(1, min(LARGEST_FETCH, (max_bytes - size) // (2 * biggest_row)))
    return rows
