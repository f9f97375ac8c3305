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
statements kept in ``analysis_db/*.sql`` (:mod:`warehouse.sources.kit.sqlite_input`). Values
are SQLite REALs (NUMERIC columns), so the unit conversions are the text modules' own
converters, registered as SQL functions for the copy: a float goes through its shortest
decimal form (the text the JSON export writes), and us -> ns, ms -> ns, MB -> bytes and
GB/s -> bytes/s are exact. SQL arithmetic would not be: ``start_timestamp``
1736410576431645.2 us is 1736410576431645200 ns, past a double's precision.

What the db's writer leaves out, so the text export has rows or values the db does not:
the entries without ``@`` ("Total Op Info"), transport types that moved nothing (all
zeros), and the wait and synchronization ratios (``wait_ratio`` and
``synchronization_ratio`` stay NULL). ``source_row`` is the input table's rowid.

Version drift: a table the file lacks adds no rows, a column it lacks reads as NULL;
``source.detail`` lists the tables read, missing and ignored and the missing columns; each
table not read is also a row of ``source_unread``, with the reason.
The rank is the folder layout's (:func:`~warehouse.sources.kit.rank_layout.rank_from_layout`),
else unknown (-1), as for the text export's files (:func:`~warehouse.sources.kit.rank_layout.rank_or_unknown`).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome
from warehouse.sources.kit.rank_layout import rank_or_unknown
from warehouse.sources.kit.sqlite_input import Failure, attached, copy_table, detect_input, input_tables, record_unread

KIND = "analysis_db"

SQL_DIR = Path(__file__).parent
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
    return detect_input(path, FILE_NAME, INPUT_TABLES.keys())


def ingest(conn: sqlite3.Connection, path, source_id: int) -> Outcome:
    """Copy one analysis.db into the warehouse (inside the caller's transaction).

    :raises IngestError: if the file is empty, not SQLite, damaged, has none of the tables,
        or holds a value that does not convert (naming the file and table).
    """
    path = Path(path)
    tables = _identify(path)
    with attached(conn, path, INPUT_TABLES) as failures:
        return _copy(conn, path, source_id, tables, failures)


def _copy(conn: sqlite3.Connection, path: Path, source_id: int, tables: frozenset[str],
          failures: list[Failure]) -> Outcome:
    rank_id, rank_from = rank_or_unknown(path)
    params = {"source_id": source_id, "rank_id": rank_id}
    rows = 0
    columns_missing = {}
    for table, (file, wanted) in INPUT_TABLES.items():
        if table not in tables:
            continue
        added, missing = copy_table(conn, path, table, wanted, SQL_DIR / file, params, failures)
        rows += added
        if missing:
            columns_missing[table] = missing
    detail = {
        "tables_read": sorted(tables & INPUT_TABLES.keys()),
        "tables_missing": sorted(INPUT_TABLES.keys() - tables),
        "tables_ignored": record_unread(conn, source_id, tables & INPUT_TABLES.keys()),
        "rank_id_from": rank_from,
    }
    if columns_missing:
        detail["columns_missing"] = columns_missing
    return Outcome(rows, rank_id=rank_id, detail=detail)


def _identify(path: Path) -> frozenset[str]:
    """The file's tables, read on a connection of its own.

    :raises IngestError: if the file is empty, not SQLite, unreadable or has none of the input tables.
    """
    tables = input_tables(path, "an analysis db")
    if not tables & INPUT_TABLES.keys():
        raise IngestError(
            f"{path}: sqlite_master: not an analysis db (needs StepTraceTime or CommAnalyzerTime, "
            f"CommAnalyzerBandwidth, CommAnalyzerMatrix; has {', '.join(sorted(tables)) or 'no tables'})"
        )
    return tables
