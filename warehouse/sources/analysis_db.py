"""``analysis.db``: torch_npu's per-rank analysis tables, written beside ``ascend_pytorch_profiler_{N}.db``.

Its four tables hold what the text export writes as three files, and go to the same
warehouse tables with the same conversions, so a rank exported either way gives the same rows:

| input table | text export twin | warehouse table |
| --- | --- | --- |
| StepTraceTime | step_trace_time.csv | ``step_trace_time`` |
| CommAnalyzerTime | communication.json, "Communication Time Info" | ``communication_time`` |
| CommAnalyzerBandwidth | communication.json, "Communication Bandwidth Info" | ``communication_bandwidth`` |
| CommAnalyzerMatrix | communication_matrix.json | ``communication_matrix`` |

The file is ATTACHed read-only and immutable and copied with ``INSERT ... SELECT``
statements kept in ``analysis_db/*.sql``. Values are SQLite REALs (NUMERIC columns), so
the unit conversions are the text modules' own converters, registered as SQL functions for
the copy: a float goes through its shortest decimal form (the text the JSON export writes),
and us -> ns, ms -> ns, MB -> bytes and GB/s -> bytes/s are exact. SQL arithmetic would
not be: ``start_timestamp`` 1736410576431645.2 us is 1736410576431645200 ns, past a
double's precision.

What the db's writer leaves out, so the text export has rows or values the db does not:
the entries without ``@`` ("Total Op Info"), transport types that moved nothing (all
zeros), and the wait and synchronization ratios (``wait_ratio`` and
``synchronization_ratio`` stay NULL). ``source_row`` is the input table's rowid.

Version drift: a table the file lacks adds no rows, a column it lacks reads as NULL;
``source.detail`` lists the tables read, missing and ignored and the missing columns.
The rank is the folder layout's (:func:`~warehouse.sources.rank_layout.rank_from_layout`),
as for the text export's files.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.base import (
    SQLITE_MAGIC,
    Outcome,
    attach_readonly,
    read_head,
    readonly_uri,
    require_sqlite,
)
from warehouse.sources.communication_json import step_id
from warehouse.sources.communication_matrix import LINK
from warehouse.sources.rank_layout import rank_from_layout
from warehouse.sources.step_trace_time import step_number
from warehouse.sources.text_export import (
    UNKNOWN_RANK,
    gb_per_s_to_bytes_per_s,
    mb_to_bytes,
    ms_to_ns,
    real,
    source_rank,
    us_to_ns,
)

KIND = "analysis_db"

SQL_DIR = Path(__file__).with_suffix("")
SCHEMA = "analysis_db_src"
#: the name torch_npu gives the file (claimed even when unreadable, so that it fails rather than is skipped)
FILE_NAME = "analysis.db"

#: The input tables, the statement file that copies each, and the columns it expects.
INPUT_TABLES: dict[str, tuple[str, tuple[str, ...]]] = {
    "StepTraceTime": ("step_trace_time.sql", (
        "step", "computing", "communication_not_overlapped", "overlapped", "communication", "free", "stage",
        "bubble", "communication_not_overlapped_and_exclude_receive", "preparing",
    )),
    "CommAnalyzerTime": ("communication_time.sql", (
        "hccl_op_name", "group_name", "start_timestamp", "elapse_time", "transit_time", "wait_time",
        "synchronization_time", "idle_time", "step", "type",
    )),
    "CommAnalyzerBandwidth": ("communication_bandwidth.sql", (
        "hccl_op_name", "group_name", "transport_type", "transit_size", "transit_time", "bandwidth",
        "large_packet_ratio", "package_size", "count", "total_duration", "step", "type",
    )),
    "CommAnalyzerMatrix": ("communication_matrix.sql", (
        "hccl_op_name", "group_name", "src_rank", "dst_rank", "transport_type", "transit_size", "transit_time",
        "bandwidth", "step", "type", "op_name",
    )),
}


def detect(path) -> bool:
    """A file named ``analysis.db``, or an SQLite file with StepTraceTime or a CommAnalyzer* table."""
    try:
        path = Path(path)
        if path.name == FILE_NAME:
            return True
        if read_head(path, len(SQLITE_MAGIC)) != SQLITE_MAGIC:
            return False
        return bool(_tables(path) & INPUT_TABLES.keys())
    except Exception:  # noqa: BLE001 - detect never raises
        return False


def ingest(conn: sqlite3.Connection, path, source_id: int) -> Outcome:
    """Copy one analysis.db into the warehouse (inside the caller's transaction).

    :raises IngestError: if the file is empty, not SQLite, damaged, has none of the tables,
        or holds a value that does not convert (naming the file and table).
    """
    path = Path(path)
    tables = _identify(path)
    attach_readonly(conn, path, SCHEMA)
    failures: list[Exception] = []
    _register_functions(conn, failures)
    try:
        return _copy(conn, path, source_id, tables, failures)
    finally:
        _register_functions(conn, None)
        for table in INPUT_TABLES:
            conn.execute(f'DROP VIEW IF EXISTS temp."in_{table}"')
        # SQLite refuses to detach inside the transaction that read the file: the frame
        # detaches after its COMMIT/ROLLBACK; a caller without a transaction gets it here.
        if not conn.in_transaction:
            conn.execute(f"DETACH DATABASE {SCHEMA}")


def _copy(conn: sqlite3.Connection, path: Path, source_id: int, tables: frozenset[str],
          failures: list[Exception]) -> Outcome:
    layout = rank_from_layout(path)
    rank_id, rank_from = layout or (UNKNOWN_RANK, "unset")
    params = {"source_id": source_id, "rank_id": rank_id}
    rows = 0
    columns_missing = {}
    for table, (file, wanted) in INPUT_TABLES.items():
        if table not in tables:
            continue
        try:
            missing = _create_input_view(conn, table, wanted)
            before = conn.total_changes
            conn.execute((SQL_DIR / file).read_text(encoding="utf-8"), params)
        except sqlite3.DatabaseError as exc:
            raise IngestError(f"{path}: {table}: {failures[0] if failures else exc}") from None
        if failures:
            raise IngestError(f"{path}: {table}: {failures[0]}")
        rows += conn.total_changes - before
        if missing:
            columns_missing[table] = missing
    detail = {
        "tables_read": sorted(tables & INPUT_TABLES.keys()),
        "tables_missing": sorted(INPUT_TABLES.keys() - tables),
        "tables_ignored": sorted(tables - INPUT_TABLES.keys()),
        "rank_id_from": rank_from,
    }
    if columns_missing:
        detail["columns_missing"] = columns_missing
    return Outcome(rows, rank_id=source_rank(rank_id), detail=detail)


def _tables(path: Path) -> frozenset[str]:
    with closing(sqlite3.connect(readonly_uri(path), uri=True)) as probe:
        return frozenset(row[0] for row in probe.execute(
            "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')"))


def _identify(path: Path) -> frozenset[str]:
    """The file's tables, read on a connection of its own.

    :raises IngestError: if the file is empty, not SQLite, unreadable or has none of the input tables.
    """
    require_sqlite(path, "an analysis db")
    try:
        tables = _tables(path)
    except sqlite3.DatabaseError as exc:
        raise IngestError(f"{path}: sqlite_master: unreadable ({exc})") from None
    if not tables & INPUT_TABLES.keys():
        raise IngestError(
            f"{path}: sqlite_master: not an analysis db (needs StepTraceTime or CommAnalyzerTime, "
            f"CommAnalyzerBandwidth, CommAnalyzerMatrix; has {', '.join(sorted(tables)) or 'no tables'})"
        )
    return tables


def _create_input_view(conn: sqlite3.Connection, table: str, wanted: tuple[str, ...]) -> list[str]:
    """A temp view ``in_<table>`` with exactly the expected columns (NULL where the file has none)
    and ``_row``, the input rowid; returns the expected columns the file lacks."""
    present = {row[1] for row in conn.execute(f'PRAGMA {SCHEMA}.table_info("{table}")')}
    columns = ["rowid AS _row"] + [f'"{name}"' if name in present else f'NULL AS "{name}"' for name in wanted]
    conn.execute(f'CREATE TEMP VIEW "in_{table}" AS SELECT {", ".join(columns)} FROM {SCHEMA}."{table}"')
    return [name for name in wanted if name not in present]


# --- the SQL functions of the copy -------------------------------------------------------------------


def _step_of(convert):
    """A step converter that also takes a number (a NUMERIC step column of another writer)."""
    def step(value):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return None if value is None else convert(str(value))
    return step


def _link_end(link, index: int) -> int | None:
    """The sending (1) or receiving (2) rank of a '<src>-<dst>' pair, None when it is not two ranks."""
    match = LINK.match(link) if isinstance(link, str) else None
    return int(match[index]) if match else None


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
    "link_end": (2, _link_end),
}


def _register_functions(conn: sqlite3.Connection, failures: list[Exception] | None) -> None:
    """Register the copy's SQL functions; ``failures`` None removes them again.

    A value that does not convert becomes NULL and its ValueError goes to ``failures``,
    which the copy checks after each statement: an exception raised through SQLite would
    reach it only as "user-defined function raised exception", and be printed to stderr.
    """
    for name, (arity, convert) in FUNCTIONS.items():
        conn.create_function(name, arity, None if failures is None else _kept(convert, failures),
                             deterministic=True)
    conn.create_aggregate("size_distribution", 4, None if failures is None else _kept_aggregate(failures))


def _kept(convert, failures: list[Exception]):
    def call(*args):
        try:
            return convert(*args)
        except ValueError as exc:
            failures.append(exc)
            return None
    return call


def _kept_aggregate(failures: list[Exception]):
    class Kept(SizeDistribution):
        def step(self, *args):
            try:
                super().step(*args)
            except ValueError as exc:
                failures.append(exc)
    return Kept
