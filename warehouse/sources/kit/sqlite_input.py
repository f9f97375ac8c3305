"""An SQLite input (analysis.db, cluster_analysis.db) copied by SQL: attached read-only, read through
input views, converted by SQL functions.

The file is ATTACHed read-only and immutable as :data:`SCHEMA`; each input table is read through a
temp view ``in_<table>`` with exactly the columns the copy expects (NULL where the file has none),
and the copy's statements (the format module's ``.sql`` files) convert values with the text
modules' own converters, registered as SQL functions (:data:`FUNCTIONS`): a float goes through its
shortest decimal form (the text the JSON export writes), and us -> ns, ms -> ns, MB -> bytes and
GB/s -> bytes/s are exact, which SQL arithmetic would not be.

An input table that is a view or a virtual table is refused (naming it), and a file with a
non-empty ``-wal`` beside it is read with its WAL (:func:`~warehouse.sources.base.sqlite_snapshot`).

Nothing of the file is dropped in silence: each table (or view) no statement reads goes to
``source_unread`` with its reason (:func:`record_unread`), the same for every SQLite source.
"""

from __future__ import annotations

import csv
import json
import re
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import closing, contextmanager
from functools import cache
from pathlib import Path

from warehouse import sqlfiles
from warehouse.errors import IngestError
from warehouse.sources.base import (
    SQLITE_MAGIC,
    attach_readonly,
    read_head,
    readonly_uri,
    require_sqlite,
    require_tables,
    sqlite_snapshot,
)
from warehouse.sources.kit.communication import link_ends, rank_set, step_id
from warehouse.sources.kit.step_trace import step_number
from warehouse.sources.kit.text import gb_per_s_to_bytes_per_s, mb_to_bytes, ms_to_ns, real, to_json, us_to_ns

#: the name the input is attached under
SCHEMA = "analysis_db_src"
#: a conversion's ValueError and the input value it failed on (None for an aggregate's)
Failure = tuple[ValueError, object]
#: why a known table is not read, by its name (data: one line per table, ``item,reason``)
REASONS_FILE = Path(__file__).parents[1] / "unread_reasons.csv"
#: the reason of an unread table the reasons file does not name
NOT_HELD = "not read: no table of the warehouse holds it yet"
#: the reason of an unread table without rows: nothing of it is lost
EMPTY = "empty: no rows to read"
#: a statement's input view ``in_<TABLE>``
INPUT_VIEW = re.compile(r"\bin_(\w+)")


def detect_input(path, file_name: str, known) -> bool:
    """A file named ``file_name``, or an SQLite file with one of the ``known`` tables (never raises)."""
    try:
        path = Path(path)
        if path.name == file_name:
            return True
        if read_head(path, len(SQLITE_MAGIC)) != SQLITE_MAGIC:
            return False
        return bool(tables(path) & known)
    except Exception:  # noqa: BLE001 - detect never raises
        return False


def tables(path: Path) -> frozenset[str]:
    """The names of the file's tables and views, read on a connection of its own."""
    with closing(sqlite3.connect(readonly_uri(path), uri=True)) as probe:
        return frozenset(row[0] for row in probe.execute(
            "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')"))


def input_tables(path: Path, what: str) -> frozenset[str]:
    """The file's tables, read on a connection of its own.

    :raises IngestError: if the file is empty, not SQLite (``what`` says what it should be) or unreadable.
    """
    require_sqlite(path, what)
    try:
        with sqlite_snapshot(path) as readable:
            return tables(readable)
    except sqlite3.DatabaseError as exc:
        raise IngestError(f"{path}: sqlite_master: unreadable ({exc})") from None


@contextmanager
def attached(conn: sqlite3.Connection, path: Path, views: Iterable[str]) -> Iterator[list[Failure]]:
    """The file attached as :data:`SCHEMA` with the copy's SQL functions registered, for the block;
    yields the list the functions' failures go to (each with the value it failed on). Afterwards the
    functions and the input views of ``views`` are removed, and the file detached unless a transaction is open."""
    views = tuple(views)
    with sqlite_snapshot(path) as readable:
        try:
            with closing(sqlite3.connect(readonly_uri(readable), uri=True)) as probe:
                require_tables(path, probe, views)
        except sqlite3.DatabaseError as exc:
            raise IngestError(f"{path}: sqlite_master: unreadable ({exc})") from None
        attach_readonly(conn, readable, SCHEMA)
        failures: list[Failure] = []
        register_functions(conn, failures)
        try:
            yield failures
        finally:
            register_functions(conn, None)
            for table in views:
                conn.execute(f'DROP VIEW IF EXISTS temp."in_{table}"')
            # SQLite refuses to detach inside the transaction that read the file: the frame
            # detaches after its COMMIT/ROLLBACK; a caller without a transaction gets it here.
            if not conn.in_transaction:
                conn.execute(f"DETACH DATABASE {SCHEMA}")


def create_input_view(conn: sqlite3.Connection, table: str, wanted: Iterable[str], *, dense: bool = False,
                      schema: str = SCHEMA, stored: str | None = None) -> list[str]:
    """A temp view ``in_<table>`` with exactly the expected columns (NULL where the file has none)
    and ``_row``, the input rowid; returns the expected columns the file lacks.

    An expected column may be written ``name=first|second``: the view's ``name`` is the first of
    those the file has (versions of the profiler renamed columns). With ``dense``, the rows are
    first copied to a temp table where ``_row`` numbers them 1, 2, ... in rowid order. ``schema`` is
    where the input is attached; ``stored`` the table's name in the file when it is an older one.
    """
    stored = stored or table
    present = {row[1] for row in conn.execute(f'PRAGMA {schema}.table_info("{stored}")')}
    columns, missing = ["rowid AS _row"], []
    for spec in wanted:
        name, _, alternatives = spec.partition("=")
        found = next((c for c in (alternatives.split("|") if alternatives else [name]) if c in present), None)
        columns.append(f'"{found}" AS "{name}"' if found else f'NULL AS "{name}"')
        if found is None:
            missing.append(name)
    body = f'SELECT {", ".join(columns)} FROM {schema}."{stored}"'
    if dense:
        numbered = ", ".join(["row_number() OVER (ORDER BY rowid) AS _row"] + columns[1:])
        conn.execute(f'CREATE TEMP TABLE "dense_{table}" AS SELECT {numbered} FROM {schema}."{stored}"')
        body = f'SELECT * FROM temp."dense_{table}"'
    conn.execute(f'CREATE TEMP VIEW "in_{table}" AS {body}')
    return missing


def statement_reads(statements: Iterable[str]) -> frozenset[str]:
    """The input tables the ``statements`` read: each one's ``in_<TABLE>`` views (what a source reads,
    told by its SQL files themselves rather than by a second list to keep in step with them)."""
    return frozenset(name for sql in statements for name in INPUT_VIEW.findall(sql))


def record_unread(conn: sqlite3.Connection, source_id: int, read: Iterable[str], schema: str = SCHEMA) -> list[str]:
    """Record in ``source_unread`` each table and view of the input attached as ``schema`` that is not
    in ``read`` (the file's names of the tables the source reads), with its reason; returns their names.

    The reason is :data:`EMPTY` for a table without rows, else its line of :data:`REASONS_FILE`, else
    :data:`NOT_HELD`. Only ordinary tables are looked into: a view or a virtual table could run without end.
    """
    read = frozenset(read)
    items = conn.execute(f"SELECT name, type, sql FROM {schema}.sqlite_master "
                         "WHERE type IN ('table', 'view') ORDER BY name").fetchall()
    rows = [(source_id, name, _unread_reason(conn, schema, name, kind, sql or ""))
            for name, kind, sql in items if name not in read]
    conn.executemany("INSERT INTO source_unread (source_id, item, reason) VALUES (?, ?, ?)", rows)
    return [name for _, name, _ in rows]


def _unread_reason(conn: sqlite3.Connection, schema: str, name: str, kind: str, sql: str) -> str:
    """Why the item ``name`` (of sqlite_master ``kind`` and ``sql``) is not read."""
    ordinary = kind == "table" and not sql.lstrip().upper().startswith("CREATE VIRTUAL")
    quoted = name.replace('"', '""')
    if ordinary and conn.execute(f'SELECT 1 FROM {schema}."{quoted}" LIMIT 1').fetchone() is None:
        return EMPTY
    return unread_reasons().get(name, NOT_HELD)


@cache
def unread_reasons() -> dict[str, str]:
    """Table name -> why it is not read, from :data:`REASONS_FILE`."""
    with REASONS_FILE.open(newline="", encoding="utf-8") as file:
        return {row["item"]: row["reason"] for row in csv.DictReader(file)}


def copy_table(conn: sqlite3.Connection, path: Path, table: str, wanted: tuple[str, ...], statement: Path,
               params: dict, failures: list[Failure], view: str | None = None) -> tuple[int, list[str]]:
    """Run the ``statement`` file over the input view of ``table`` (also named ``in_<view>`` when given);
    returns the rows it added and the expected columns the file lacks.

    :raises IngestError: naming the file and ``table`` when the copy fails, and also the row and column
        when a value does not convert.
    """
    try:
        missing = create_input_view(conn, table, wanted)
        if view is not None and view != table:
            conn.execute(f'CREATE TEMP VIEW "in_{view}" AS SELECT * FROM temp."in_{table}"')
        before = conn.total_changes
        conn.execute(sqlfiles.text(statement), params)
    except sqlite3.DatabaseError as exc:
        raise IngestError(f"{path}: {table}: {_failed(conn, table, wanted, failures) if failures else exc}") from None
    if failures:
        raise IngestError(f"{path}: {table}: {_failed(conn, table, wanted, failures)}")
    return conn.total_changes - before, missing


def _failed(conn: sqlite3.Connection, table: str, wanted: tuple[str, ...], failures: list[Failure]) -> str:
    """The first failure, after the input row and column holding the value it failed on when one does."""
    error, value = failures[0]
    if value is not None:
        for column in wanted:
            found = conn.execute(f'SELECT _row FROM temp."in_{table}" WHERE "{column}" IS ? ORDER BY _row LIMIT 1',
                                 (value,)).fetchone()
            if found:
                return f"row {found[0]}: {column}: {error}"
    return str(error)


# --- the SQL functions of the copy -------------------------------------------------------------------


def _step_of(convert):
    """A step converter that also takes a number (a NUMERIC step column of another writer)."""
    def step(value):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return None if value is None else convert(str(value))
    return step


def _link_end(src, dst, index: int) -> int | None:
    """The sending (1) or receiving (2) rank of the pair read as its '<src>-<dst>' text is, None when
    it is not two ranks.

    The ends come apart rather than as SQL's ``src || '-' || dst``: a BLOB end makes that text
    invalid UTF-8, which Python cannot take as an argument (an unraisable exception, printed with
    its traceback when callback tracebacks are on).
    """
    ends = [end.decode("utf-8", "replace") if isinstance(end, bytes) else end for end in (src, dst)]
    return None if None in ends else link_ends(f"{ends[0]}-{ends[1]}")[index - 1]


def _rank_set_json(text) -> str | None:
    """A rank set ``(0, 1)`` / ``(0,1)`` as the JSON array communication_group.json's reader stores."""
    return None if text is None else to_json(rank_set(text))


class SizeDistribution:
    """Aggregate: the JSON "Size Distribution" ``{package size in MB: [count, time in ms]}`` of one
    operator and transport again, from its rows (input row, package_size, count, total_duration).

    A row of zeros is the writer's mark for "no packets"; NULL when the file has none of the columns.
    """

    def __init__(self):
        self.rows: list[tuple] = []
        self.known = False

    def step(self, row, package_size, count, total_duration):
        for value in (package_size, count, total_duration):
            if not (value is None or isinstance(value, (int, float, str))):
                raise ValueError(f"not a number: {value!r}")
        self.known = self.known or any(value is not None for value in (package_size, count, total_duration))
        if not package_size and not count and not total_duration:
            return
        key = repr(package_size) if isinstance(package_size, float) else str(package_size)
        self.rows.append((row, key, [count, total_duration]))

    def finalize(self):
        if not self.known:
            return None
        return json.dumps({key: value for _, key, value in sorted(self.rows, key=lambda r: r[0])})


#: SQL name -> (arity, converter): the text modules' conversions
FUNCTIONS = {
    "us_to_ns": (1, us_to_ns),
    "ms_to_ns": (1, ms_to_ns),
    "mb_to_bytes": (1, mb_to_bytes),
    "gb_per_s_to_bytes_per_s": (1, gb_per_s_to_bytes_per_s),
    "ratio": (1, real),
    "step_number": (1, _step_of(step_number)),
    "step_of_key": (1, _step_of(step_id)),
    "link_end": (3, _link_end),
    "rank_set_json": (1, _rank_set_json),
}


def register_functions(conn: sqlite3.Connection, failures: list[Failure] | None) -> None:
    """Register the copy's SQL functions; ``failures`` None removes them again.

    A value that does not convert becomes NULL and its ValueError goes to ``failures``,
    which the copy checks after each statement: an exception raised through SQLite would
    reach it only as "user-defined function raised exception", and be printed to stderr.
    """
    for name, (arity, convert) in FUNCTIONS.items():
        conn.create_function(name, arity, None if failures is None else _kept(convert, failures),
                             deterministic=True)
    conn.create_aggregate("size_distribution", 4, None if failures is None else _kept_aggregate(failures))


def _kept(convert, failures: list[Failure]):
    def call(*args):
        try:
            return convert(*args)
        except ValueError as exc:
            # the value of a one-argument function is one cell, which the failure can name
            failures.append((exc, args[0] if len(args) == 1 else None))
            return None
    return call


def _kept_aggregate(failures: list[Failure]):
    class Kept(SizeDistribution):
        def step(self, *args):
            try:
                super().step(*args)
            except ValueError as exc:
                failures.append((exc, None))
    return Kept
