"""Running SQL a user wrote, safely: one read-only SELECT, enforced twice.

sqlglot lints the text (one statement, a SELECT/WITH, nothing that writes); SQLite's
authorizer then refuses at run time whatever slipped through (ATTACH, PRAGMA writes,
load_extension), and a progress handler stops queries that run too long.
"""

from __future__ import annotations

import sqlite3
import time

import sqlglot
from sqlglot import exp

from warehouse.errors import WarehouseError

#: functions that reach outside the database
FORBIDDEN_FUNCTIONS = {"load_extension", "readfile", "writefile", "edit", "fts3_tokenizer"}
WRITE_NODES = (exp.Insert, exp.Update, exp.Delete, exp.Create, exp.Drop, exp.Alter, exp.Command, exp.Merge)
ALLOWED_ACTIONS = {
    sqlite3.SQLITE_SELECT,
    sqlite3.SQLITE_READ,
    sqlite3.SQLITE_FUNCTION,
    sqlite3.SQLITE_RECURSIVE,
}
#: PRAGMAs a read may use through table-valued functions (pragma_table_info(...))
#: the most rows one fetch can ask for (sqlite3 takes a C int; a caller's huge _offset must not overflow it)
MAX_FETCH = 2**31 - 1
READ_PRAGMAS = {"table_info", "table_xinfo", "index_list", "index_info", "index_xinfo", "foreign_key_list"}


class UnsafeSql(WarehouseError):
    """The SQL is not a single read-only query."""


class QueryTimeout(WarehouseError):
    """The query ran longer than its time limit and was stopped."""


def check_select(sql: str) -> None:
    """:raises UnsafeSql: unless ``sql`` is exactly one SELECT/WITH statement that writes nothing."""
    try:
        statements = [s for s in sqlglot.parse(sql, read="sqlite") if s is not None]
    except sqlglot.errors.SqlglotError as exc:
        raise UnsafeSql(f"SQL does not parse: {str(exc).splitlines()[0]}") from None
    if len(statements) != 1:
        raise UnsafeSql("exactly one SQL statement is allowed")
    tree = statements[0]
    if not isinstance(tree, exp.Query) or any(tree.find_all(*WRITE_NODES)):
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
) -> tuple[list[str], list[tuple]]:
    """Run one checked read-only query; return its column names and rows.

    ``lint=False`` skips the sqlglot parse (about 1 ms) for SQL already checked when it
    was loaded (the named queries); the authorizer and the limits still apply.

    :raises UnsafeSql: if the SQL is not a single read-only query or is refused at run time.
    :raises QueryTimeout: if it exceeds the time limit.
    :raises WarehouseError: if it fails.
    """
    if lint:
        check_select(sql)
    deadline = time.monotonic() + time_limit_s if time_limit_s else None
    conn.set_authorizer(_authorizer)
    if deadline:
        conn.set_progress_handler(lambda: int(time.monotonic() > deadline), 10_000)
    try:
        cursor = conn.execute(sql, params or {})
        rows = cursor.fetchmany(min(max_rows, MAX_FETCH)) if max_rows else cursor.fetchall()
        columns = [d[0] for d in cursor.description or ()]
    except OverflowError:  # a parameter past SQLite's 64-bit integers
        raise WarehouseError("query failed: a parameter is out of range (integers are 64-bit)") from None
    except sqlite3.DatabaseError as exc:
        message = str(exc)
        if "interrupted" in message:
            raise QueryTimeout(f"query exceeded the time limit of {time_limit_s} s") from None
        if "not authorized" in message:
            raise UnsafeSql(f"query refused: {message}") from None
        raise WarehouseError(f"query failed: {message}") from None
    finally:
        conn.set_authorizer(None)
        conn.set_progress_handler(None, 0)
    return columns, rows
