"""``ascend_pytorch_profiler_{rank}.db``: one SQLite file per rank of a torch_npu run (seed 001).

The input is ATTACHed read-only and immutable and copied with ``INSERT ... SELECT``
statements kept in ``rank_db/*.sql``, with the STRING_IDS / ENUM_* lookups done in SQL:
no row goes through Python. The slices are written unnested; the model nests them
(:mod:`warehouse.model.nesting`, called by the frame).

Version drift (optional tables, renamed or added columns) is absorbed by one temporary
view per input table, ``in_<TABLE>``, with the columns the statements expect: a column
the file lacks reads as NULL (or from its older name, e.g. ``blockNum`` / ``blockDim``),
a table the file lacks reads as empty, a table under an older name reads as the current one
(:data:`OLDER_NAMES`: report_N.db's API is CANN_API), and a statement file is skipped unless the
file has every table its ``-- reads:`` header names.

Hostile or damaged files fail with one line naming the file, the table and the field: an
input table that is a view or a virtual table (which could run without end), a timestamp or
id that is not an integer (``'abc'``, ``1e300``), an interval that ends before it starts, a
STRING_IDS value that is not UTF-8 text or is longer than ``MAX_STRING_BYTES``
(:mod:`warehouse.limits`). A file with a non-empty ``-wal`` beside it is read with its WAL
(a private copy, checkpointed: :func:`~warehouse.sources.base.sqlite_snapshot`). A slice table
whose rowids are far sparser than its rows (a rowid of 2**63 - 100001) is renumbered densely
in rowid order, so it cannot exhaust the warehouse's slice ids (``source_row`` is then that
number; ``source.detail`` says ``renumbered``).

The rank is read from RANK_DEVICE_MAP, else the file name, else the folders above
(:func:`~warehouse.sources.kit.rank_layout.rank_from_layout`: a rank folder's name, a
``profiler_info_{N}.json``, a PROF folder's info.json), else it is unknown (-1,
:data:`~warehouse.sources.kit.rank_layout.UNKNOWN_RANK`). A warehouse holds many runs, and a run
one rank db per rank: a second, different file claiming a rank its run already holds is refused
by :func:`claim` with :class:`~warehouse.errors.SourceConflict` (``--force`` replaces the earlier
file); files of an unknown rank never conflict, nor twins: two files of one capture (a CANN
``msprof_N.db`` beside its older-named ``report_N.db``), told by :func:`_capture` and recorded as
the run_metadata row ``captureDigest``; the model's ``source_twin`` lets one of them answer.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from warehouse import limits, sqlfiles
from warehouse.errors import IngestError, SourceConflict
from warehouse.model import derived
from warehouse.sources.base import (
    SQLITE_MAGIC,
    Outcome,
    attach_readonly,
    read_head,
    readonly_uri,
    require_sqlite,
    require_tables,
    sqlite_snapshot,
)
from warehouse.model.folder_grammar import is_torch_npu_folder
from warehouse.sources.kit.numbers import int64, whole
from warehouse.sources.kit.rank_layout import UNKNOWN_RANK, rank_or_unknown
from warehouse.sources.kit.sqlite_input import create_input_view, record_unread, statement_reads

KIND = "rank_db"

SQL_DIR = Path(__file__).parent
SCHEMA = "rank_db_src"
#: torch_npu's rank db, and MindSpore's of the same tables
FILE_NAME = re.compile(r"^ascend_(?:pytorch|mindspore)_profiler_(\d+)\.db$")
SLICE_NAMES_SQL = sqlfiles.text(SQL_DIR / "slice_names.sql")
INSERT_TARGET = re.compile(r"^\s*INSERT\s+(?:OR\s+\w+\s+)?INTO\s+([\w.]+)", re.IGNORECASE | re.MULTILINE)

#: The input tables this source reads and the columns it expects of each.
#: "a=b|c" reads column a from the first of b, c the file has (newest name first).
INPUT_COLUMNS: dict[str, tuple[str, ...]] = {
    "STRING_IDS": ("id", "value"),
    "PYTORCH_API": ("startNs", "endNs", "globalTid", "connectionId", "name", "sequenceNumber", "fwdThreadId",
                    "inputDtypes", "inputShapes", "callchainId", "type"),
    "CONNECTION_IDS": ("id", "connectionId"),
    "PYTORCH_CALLCHAINS": ("id", "stack", "stackDepth"),
    "MEMORY_RECORD": ("component", "timestamp", "totalAllocated", "totalReserved", "totalActive", "streamPtr",
                      "deviceId"),
    "OP_MEMORY": ("name", "size", "allocationTime", "releaseTime", "activeReleaseTime", "duration",
                  "activeDuration", "allocationTotalAllocated", "allocationTotalReserved", "allocationTotalActive",
                  "releaseTotalAllocated", "releaseTotalReserved", "releaseTotalActive", "streamPtr", "deviceId"),
    "RANK_DEVICE_MAP": ("rankId", "deviceId"),
    "STEP_TIME": ("id", "startNs", "endNs"),
    "GC_RECORD": ("startNs", "endNs", "globalTid"),
    "ROCE": ("deviceId", "timestampNs", "bandwidth", "rxPacketRate", "rxByteRate", "rxPackets", "rxBytes",
             "rxErrors", "rxDropped", "txPacketRate", "txByteRate", "txPackets", "txBytes", "txErrors",
             "txDropped", "funcId"),
    "HCCS": ("deviceId", "timestampNs", "txThroughput", "rxThroughput"),
    "PCIE": ("deviceId", "timestampNs", "txPostMin", "txPostMax", "txPostAvg", "txNonpostMin", "txNonpostMax",
             "txNonpostAvg", "txCplMin", "txCplMax", "txCplAvg", "txNonpostLatencyMin", "txNonpostLatencyMax",
             "txNonpostLatencyAvg", "rxPostMin", "rxPostMax", "rxPostAvg", "rxNonpostMin", "rxNonpostMax",
             "rxNonpostAvg", "rxCplMin", "rxCplMax", "rxCplAvg"),
    "TASK": ("startNs", "endNs", "deviceId", "connectionId", "globalTaskId", "globalPid", "taskType",
             "contextId", "streamId", "taskId", "modelId"),
    # blockNum/mixBlockNum (current CANN) are what blockDim/mixBlockDim (2025) and block_dim (older) were.
    "COMPUTE_TASK_INFO": ("name", "globalTaskId", "blockDim=blockNum|blockDim|block_dim",
                          "mixBlockDim=mixBlockNum|mixBlockDim|mix_block_dim", "taskType", "opType",
                          "inputFormats", "inputDataTypes", "inputShapes", "outputFormats", "outputDataTypes",
                          "outputShapes", "opState", "hf32Eligible"),
    "TASK_PMU_INFO": ("globalTaskId", "name", "value"),
    "MEMCPY_INFO": ("globalTaskId", "size", "memcpyOperation"),
    "COMMUNICATION_OP": ("opName", "startNs", "endNs", "connectionId", "groupName", "opId", "relay", "retry",
                         "dataType", "algType", "count", "opType", "deviceId", "rankSize"),
    "COMMUNICATION_TASK_INFO": ("name", "globalTaskId", "taskType", "planeId", "groupName", "notifyId",
                                "rdmaType", "srcRank", "dstRank", "transportType", "size", "dataType", "linkType",
                                "opId", "isMaster", "bandwidth"),
    "CANN_API": ("startNs", "endNs", "type", "globalTid", "connectionId", "name"),
    "NPU_MEM": ("type", "ddr", "hbm", "timestampNs", "deviceId"),
    "HBM": ("deviceId", "timestampNs", "bandwidth", "hbmId", "type"),
    "LLC": ("deviceId", "llcId", "timestampNs", "hitRate", "throughput", "mode"),
    "AICORE_FREQ": ("deviceId", "timestampNs", "freq"),
    "ACC_PMU": ("accId", "readBwLevel", "writeBwLevel", "readOstLevel", "writeOstLevel", "timestampNs",
                "deviceId"),
    "SOC_BANDWIDTH_LEVEL": ("l2BufferBwLevel", "mataBwLevel", "timestampNs", "deviceId"),
    "NPU_MODULE_MEM": ("moduleId", "timestampNs", "totalReserved", "deviceId"),
    "NPU_OP_MEM": ("operatorName", "addr", "type", "size", "timestampNs", "globalTid", "totalAllocate",
                   "totalReserve", "component", "deviceId"),
    "META_DATA": ("name", "value"),
    "HOST_INFO": ("hostUid", "hostName"),
    "SESSION_TIME_INFO": ("startTimeNs", "endTimeNs"),
    "NPU_INFO": ("id", "name"),
    "MSTX_EVENTS": ("startNs", "endNs", "eventType", "rangeId", "category", "message", "globalTid", "endGlobalTid",
                    "domainId", "connectionId"),
    "OVERLAP_ANALYSIS": ("deviceId", "startNs", "endNs", "type"),
    **{f"ENUM_{name}": ("id", "name") for name in (
        "API_TYPE", "HCCL_DATA_TYPE", "HCCL_LINK_TYPE", "HCCL_RDMA_TYPE", "HCCL_TRANSPORT_TYPE", "MODULE",
        "MEMCPY_OPERATION",
    )},
}
INPUT_COLUMNS["NIC"] = INPUT_COLUMNS["ROCE"]

#: Older names of input tables, newest first: msprof's report_N.db (the db export's name before
#: msprof_N.db) calls CANN_API plain API.
OLDER_NAMES: dict[str, tuple[str, ...]] = {"CANN_API": ("API",)}
OLDER_TABLES = frozenset(name for names in OLDER_NAMES.values() for name in names)

#: What tells a capture's device tasks (else framework calls) apart: times and ids, never a
#: STRING_IDS id (two writers may number the strings differently).
CAPTURE_COLUMNS = {"TASK": ("startNs", "endNs", "deviceId", "streamId", "taskId"),
                   "PYTORCH_API": ("startNs", "endNs", "globalTid")}

#: Tables whose rows become slices; each reserves a block of slice ids (base + rowid).
SLICE_TABLES = ("PYTORCH_API", "CANN_API", "TASK", "COMMUNICATION_OP")

#: Columns that must hold integers (or integer text, as PYTORCH_API's TEXT timestamps): times and ids.
INTEGER_COLUMNS: dict[str, tuple[str, ...]] = {
    "STRING_IDS": ("id",),
    "PYTORCH_API": ("startNs", "endNs", "globalTid", "connectionId", "name"),
    "CANN_API": ("startNs", "endNs", "globalTid", "connectionId", "name", "type"),
    "TASK": ("startNs", "endNs", "globalTaskId", "connectionId", "deviceId", "streamId", "taskId"),
    "COMMUNICATION_OP": ("startNs", "endNs", "opName", "connectionId", "opId"),
    "STEP_TIME": ("id", "startNs", "endNs"),
    "GC_RECORD": ("startNs", "endNs", "globalTid"),
    "MEMORY_RECORD": ("timestamp",),
    "OP_MEMORY": ("allocationTime", "releaseTime"),
    "COMPUTE_TASK_INFO": ("globalTaskId", "name"),
    "COMMUNICATION_TASK_INFO": ("globalTaskId",),
    "MEMCPY_INFO": ("globalTaskId", "size", "memcpyOperation"),
    "MSTX_EVENTS": ("startNs", "endNs", "connectionId"),
    "OVERLAP_ANALYSIS": ("startNs", "endNs"),
}
#: Tables whose rows are intervals: endNs may not come before startNs.
INTERVAL_TABLES = ("PYTORCH_API", "CANN_API", "TASK", "COMMUNICATION_OP", "STEP_TIME", "GC_RECORD", "OVERLAP_ANALYSIS")
#: A slice table is renumbered densely when its rowids span more than this many times its rows (plus slack).
SPARSE_FACTOR, SPARSE_SLACK = 4, 1 << 20

#: Statement files by phase, run in this order (the threads are made between prepare and timeline).
PHASES_BEFORE_THREADS = ("meta", "prepare")
PHASES_AFTER_THREADS = ("timeline", "fact", "sample", "counter", "flow")

#: Display order of the timeline's processes.
PROCESS_ORDER = {"Python": 0, "CANN": 1, "Ascend Hardware": 2, "HCCL": 3}


def detect(path) -> bool:
    """An SQLite file with STRING_IDS and PYTORCH_API or TASK; or a file named like a rank db.

    A file named ``ascend_pytorch_profiler_{N}.db`` (MindSpore: ``ascend_mindspore_profiler_{N}.db``) is claimed even when it is empty,
    damaged or another kind of SQLite file, so that a rank that cannot be read is a
    recorded failure rather than silently skipped. ``analysis.db`` is not claimed
    (:mod:`~warehouse.sources.analysis_db` reads it), nor a CANN-only db (TASK without
    PYTORCH_API, msprof's ``msprof_*.db``) inside a torch_npu run folder (``*_ascend_pt``):
    it is the CANN half of that run's rank db, read there.
    """
    try:
        path = Path(path)
        if FILE_NAME.match(path.name):
            return True
        if read_head(path, len(SQLITE_MAGIC)) != SQLITE_MAGIC:
            return False
        with closing(sqlite3.connect(readonly_uri(path), uri=True)) as probe:
            tables = {row[0] for row in probe.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "PYTORCH_API" not in tables and any(is_torch_npu_folder(folder.name) for folder in path.parents):
            return False
        return _is_rank_db(tables)
    except Exception:  # noqa: BLE001 - detect never raises
        return False


def ingest(conn: sqlite3.Connection, path, source_id: int) -> Outcome:
    """Copy one rank db into the warehouse (inside the caller's transaction).

    :raises IngestError: if the file is empty, not SQLite, damaged, or lacks the rank db tables.
    """
    path = Path(path)
    with sqlite_snapshot(path) as readable:
        identity = _identify(path, readable)
        attach_readonly(conn, readable, SCHEMA)
        try:
            _validate(conn, path, identity.tables)
            return _copy(conn, path, source_id, identity)
        except sqlite3.DatabaseError as exc:
            raise IngestError(f"{path}: reading the file: {exc}") from None
        finally:
            _drop_scratch(conn)
            # SQLite refuses to detach inside the transaction that read the file: the frame
            # detaches after its COMMIT/ROLLBACK; a caller without a transaction gets it here.
            if not conn.in_transaction:
                conn.execute(f"DETACH DATABASE {SCHEMA}")


def _copy(conn: sqlite3.Connection, path: Path, source_id: int, identity: Identity) -> Outcome:
    tables, rank_id, device_id = identity.tables, identity.rank_id, identity.device_id
    read = _tables_read(tables)
    renumbered = _sparse_tables(conn, tables)
    _create_input_views(conn, tables, renumbered)
    params = {"source_id": source_id, "rank_id": rank_id, "device_id": device_id, "capture": identity.capture,
              **_slice_bases(conn, tables, renumbered)}
    rows = 0
    _run_script(conn, "setup.sql")
    for phase in PHASES_BEFORE_THREADS:
        rows += _run_phase(conn, path, phase, read, params)
    rows += _make_threads(conn, source_id, rank_id)
    for phase in PHASES_AFTER_THREADS:
        rows += _run_phase(conn, path, phase, read, params)
    _note_slice_names(conn, source_id, params["first_slice"])
    stored = {table: _in_file(tables, table) for table in sorted(read)}
    renamed = {table: name for table, name in stored.items() if name != table}
    detail = {
        "tables_read": sorted(read),
        "tables_missing": sorted(INPUT_COLUMNS.keys() - read),
        "tables_ignored": record_unread(conn, source_id, _read_in_file(tables), SCHEMA),
        "rank_id_from": identity.rank_from,
    }
    if renamed:
        detail["tables_renamed"] = renamed
    if renumbered:
        detail["renumbered"] = {
            "tables": sorted(renumbered),
            "note": "rowids far sparser than the rows: slice ids and source_row number the rows in rowid order",
        }
    return Outcome(rows, rank_id=rank_id, device_id=device_id, host_name=identity.host_name,
                   card=f"rank{rank_id}", detail=detail, slices_to_nest=True)


# --- detection and rank ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Identity:
    """What a rank db says about itself: its tables, rank, device and host."""

    tables: frozenset[str]
    rank_id: int
    device_id: int | None
    host_name: str | None
    #: where rank_id came from: RANK_DEVICE_MAP, file name, profiler_info_{N}.json or unset
    rank_from: str
    #: the capture the file exported (:func:`_capture`), or None when it cannot tell
    capture: str | None = None


def _is_rank_db(tables) -> bool:
    return "STRING_IDS" in tables and bool({"PYTORCH_API", "TASK"} & tables)


def _in_file(tables, table: str) -> str | None:
    """The name input table ``table`` has in a file holding ``tables``: its own, else an older one
    (:data:`OLDER_NAMES`); None when the file has neither."""
    return next((name for name in (table, *OLDER_NAMES.get(table, ())) if name in tables), None)


def _tables_read(tables) -> frozenset[str]:
    """The input tables a file holding ``tables`` has, under the names this source reads them by."""
    return frozenset(table for table in INPUT_COLUMNS if _in_file(tables, table))


def _read_in_file(tables) -> set[str]:
    """The tables of a file holding ``tables`` that the source reads, by the file's names: those its
    statements read (:func:`_statement_reads`) and RANK_DEVICE_MAP, read for the rank (:func:`_identify`)."""
    return {name for table in (*_statement_reads(), "RANK_DEVICE_MAP") if (name := _in_file(tables, table))}


@cache
def _statement_reads() -> frozenset[str]:
    """The input tables the statement files read, from the files themselves (every phase's files,
    each ``-- each:`` copy): a new statement file makes its tables read with no list to extend."""
    phases = (*PHASES_BEFORE_THREADS, *PHASES_AFTER_THREADS)
    return statement_reads(sql for phase in phases for _, sql in _phase_sql(phase))


def _capture(probe: sqlite3.Connection, tables) -> str | None:
    """A digest of what identifies the capture a file exported, whatever the file's name or writer:
    the session's start and end, and the first and last rows (by rowid) of its device tasks, else
    of its framework calls, in times and ids. Two files of one run and rank with the same digest are
    the same capture exported twice (twins). Read by rowid bounds, so it costs no scan; None for a
    file that holds no such rows or cannot be read so."""
    table = next((name for name in CAPTURE_COLUMNS if name in tables), None)
    try:
        present = {row[1] for row in probe.execute(f'PRAGMA table_info("{table}")')} if table else set()
        columns = [column for column in CAPTURE_COLUMNS.get(table, ()) if column in present]
        if not columns:
            return None
        selected = ", ".join(f'"{column}"' for column in columns)
        ends = probe.execute(
            f'SELECT {selected} FROM "{table}" WHERE rowid IN '
            f'((SELECT min(rowid) FROM "{table}"), (SELECT max(rowid) FROM "{table}")) ORDER BY rowid'
        ).fetchall()
        session = probe.execute("SELECT startTimeNs, endTimeNs FROM SESSION_TIME_INFO LIMIT 1").fetchone() \
            if "SESSION_TIME_INFO" in tables else None
    except sqlite3.DatabaseError:  # a WITHOUT ROWID table, a session table of other columns
        return None
    if not ends:
        return None
    return hashlib.sha256(repr((table, session, ends)).encode()).hexdigest()[:16]


def _identify(path: Path, readable: Path | None = None) -> Identity:
    """Read the file's tables and rank on a connection of its own (closed before any copy);
    ``readable`` is the file to open (a copy with its WAL, see :func:`sqlite_snapshot`).

    :raises IngestError: if the file is empty, not SQLite, unreadable or not a rank db, or an
        input table is a view or a virtual table.
    """
    require_sqlite(path, "a rank db")
    try:
        with closing(sqlite3.connect(readonly_uri(readable or path), uri=True)) as probe:
            tables = require_tables(path, probe, INPUT_COLUMNS.keys() | OLDER_TABLES)
            if not _is_rank_db(tables):
                raise IngestError(
                    f"{path}: sqlite_master: not a rank db (needs STRING_IDS and PYTORCH_API or TASK; "
                    f"has {', '.join(sorted(tables)) or 'no tables'})"
                )
            mapped = probe.execute(
                "SELECT rankId, deviceId FROM RANK_DEVICE_MAP ORDER BY rankId = -1, rowid LIMIT 1"
            ).fetchone() if "RANK_DEVICE_MAP" in tables else None
            host = probe.execute("SELECT hostName FROM HOST_INFO LIMIT 1").fetchone() if "HOST_INFO" in tables else None
            capture = _capture(probe, tables)
    except sqlite3.DatabaseError as exc:
        raise IngestError(f"{path}: sqlite_master: unreadable ({exc})") from None
    rank, device = UNKNOWN_RANK, None
    if mapped:
        rank = UNKNOWN_RANK if mapped[0] is None else _mapped_number(path, mapped[0], "rankId")
        device = None if mapped[1] is None else _mapped_number(path, mapped[1], "deviceId")
        device = None if device < 0 else device
    rank_from = "RANK_DEVICE_MAP"
    if rank < 0:
        rank, rank_from = _rank_from_path(path)
    return Identity(tables, rank, device, host[0] if host else None, rank_from, capture)


def _mapped_number(path: Path, value, column: str) -> int:
    """A RANK_DEVICE_MAP value (any SQLite type: the table declares none we can trust) as a 64-bit integer.

    :raises IngestError: naming the file and column when it is not one.
    """
    try:
        return int64(int(value), value)
    except (ValueError, OverflowError):  # text, an infinite REAL, past 64 bits
        raise IngestError(f"{path}: RANK_DEVICE_MAP: {column} is not a 64-bit integer ({value!r})") from None


def _rank_from_path(path: Path) -> tuple[int, str]:
    """The rank the file name (``ascend_pytorch_profiler_{N}.db``) or the layout sets, else ``UNKNOWN_RANK``.

    :raises IngestError: when the file name's rank is past 64-bit integers.
    """
    match = FILE_NAME.match(path.name)
    if match:
        try:
            return whole(match[1]), "file name"
        except ValueError as exc:
            raise IngestError(f"{path}: file name: {exc}") from None
    return rank_or_unknown(path)


def claim(conn: sqlite3.Connection, path, source_id: int) -> None:
    """Refuse a second file for a rank already held (the frame replaces it under --force).

    The frame calls it before the rows go in, whether :func:`ingest` runs here or in a
    worker process that cannot see this warehouse. An unknown rank (``UNKNOWN_RANK``) is held by no
    one: files that do not say their rank never conflict. Nor does a twin: a file of the capture the
    held one exported (the same ``captureDigest``); both are kept and one answers (``source_twin``).

    :raises SourceConflict: naming the files that hold the rank.
    :raises IngestError: if the file cannot be read as a rank db.
    """
    path = Path(path)
    with sqlite_snapshot(path) as readable:
        identity = _identify(path, readable)
    if identity.rank_id == UNKNOWN_RANK:
        return
    held = conn.execute(
        "SELECT id, path FROM source WHERE kind = :kind AND status = 'ok' AND rank_id = :rank AND id != :id "
        "AND run_id IS (SELECT run_id FROM source WHERE id = :id) AND NOT EXISTS (SELECT 1 FROM run_metadata "
        "WHERE source_id = source.id AND name = 'captureDigest' AND value = :capture)",
        {"kind": KIND, "rank": identity.rank_id, "id": source_id, "capture": identity.capture},
    ).fetchall()
    if held:
        others = ", ".join(other for _, other in held)
        raise SourceConflict(
            f"{path}: {identity.rank_from}: rank {identity.rank_id} is already in the warehouse from {others}; "
            "a run holds one rank db per rank (use --force to replace it)",
            [old_id for old_id, _ in held],
        )


# --- the input views and the statements --------------------------------------------------------------


def _create_input_views(conn: sqlite3.Connection, tables: set[str], renumbered: frozenset[str] = frozenset()) -> None:
    """One temp view ``in_<TABLE>`` per input table, with exactly the expected columns (an absent
    table as an empty view, a table under an older name as the current one). A table in
    ``renumbered`` gets dense ``_row`` numbers (its rows 1, 2, ... in rowid order)."""
    for table, wanted in INPUT_COLUMNS.items():
        stored = _in_file(tables, table)
        if stored:
            create_input_view(conn, table, wanted, dense=table in renumbered, schema=SCHEMA, stored=stored)
        else:
            columns = ["NULL AS _row"] + [f'NULL AS "{spec.split("=")[0]}"' for spec in wanted]
            conn.execute(f'CREATE TEMP VIEW "in_{table}" AS SELECT {", ".join(columns)} WHERE 0')


def _slice_bases(conn: sqlite3.Connection, tables: set[str], renumbered: frozenset[str] = frozenset()) -> dict[str, int]:
    """Slice id = base + input rowid: reserve a block of ids per table that becomes slices, the
    first block from ``first_slice`` on (every slice of the input has an id from there)."""
    next_id = (conn.execute("SELECT MAX(id) FROM _slice").fetchone()[0] or 0) + 1
    bases = {"first_slice": next_id}
    for table in SLICE_TABLES:
        low, high = (None, None)
        if table in renumbered:
            low, high = conn.execute(f'SELECT MIN(_row), MAX(_row) FROM temp."dense_{table}"').fetchone()
        elif stored := _in_file(tables, table):
            low, high = conn.execute(f'SELECT MIN(rowid), MAX(rowid) FROM {SCHEMA}."{stored}"').fetchone()
        bases[f"base_{table.lower()}"] = next_id - (low or 0)
        next_id += (high - low + 1) if low is not None else 0
    return bases


def _note_slice_names(conn: sqlite3.Connection, source_id: int, first_slice: int) -> None:
    """Count the input's slices per name where they were written (one pass over their block of ids)
    for :func:`warehouse.model.derived.count_names`, which would otherwise read them back thread by
    thread through the (thread_id, ts, dur DESC) index, a table lookup per slice."""
    counts = dict(conn.execute(SLICE_NAMES_SQL, {"first_slice": first_slice}).fetchall())
    derived.note_slice_names(conn, source_id, counts)


def _sparse_tables(conn: sqlite3.Connection, tables: set[str]) -> frozenset[str]:
    """The slice tables whose rowids span far more ids than they have rows (renumbered densely)."""
    sparse = set()
    for table in SLICE_TABLES:
        stored = _in_file(tables, table)
        if stored is None:
            continue
        count, low, high = conn.execute(
            f'SELECT count(*), MIN(rowid), MAX(rowid) FROM {SCHEMA}."{stored}"').fetchone()
        if count and high - low + 1 > SPARSE_FACTOR * count + SPARSE_SLACK:
            sparse.add(table)
    return frozenset(sparse)


# --- checks of the input's values ----------------------------------------------------------------------


def _integer_ok(column: str) -> str:
    """SQL true when ``column`` holds an integer, NULL, or the text of a 64-bit integer."""
    c = f'"{column}"'
    # The second test accepts what the full text test would, at a fifth of its cost: the canonical text
    # of a non-negative integer (CAST clamps past 64 bits, so no longer text reads back the same).
    return (f"(typeof({c}) IN ('integer', 'null') "
            f"OR (typeof({c}) = 'text' AND CAST(CAST({c} AS INTEGER) AS TEXT) = {c} AND substr({c}, 1, 1) != '-') "
            f"OR (typeof({c}) = 'text' AND length({c}) BETWEEN 1 AND 20 "
            f"AND {c} GLOB '[0-9-]*' AND substr({c}, 2) NOT GLOB '*[^0-9]*' AND {c} != '-' "
            f"AND (length(ltrim({c}, '-')) < 19 OR (length(ltrim({c}, '-')) = 19 "
            f"AND ltrim({c}, '-') <= '9223372036854775807'))))")


def _validate(conn: sqlite3.Connection, path: Path, tables: frozenset[str]) -> None:
    """Refuse values the copy would store wrong: non-integer times and ids, inverted intervals,
    STRING_IDS values that are not UTF-8 text or are too long.

    :raises IngestError: naming the file, the table, the row and the field.
    """
    for expected, columns in INTEGER_COLUMNS.items():
        table = _in_file(tables, expected)  # the file's name for it: the errors name what the file holds
        if table is None:
            continue
        present = {row[1] for row in conn.execute(f'PRAGMA {SCHEMA}.table_info("{table}")')}
        checked = [column for column in columns if column in present]
        tests = [(f"NOT {_integer_ok(column)}", column) for column in checked]
        if expected in INTERVAL_TABLES and {"startNs", "endNs"} <= present:
            tests.append(('(typeof("endNs") != \'null\' AND typeof("startNs") != \'null\' '
                          'AND CAST("endNs" AS INTEGER) < CAST("startNs" AS INTEGER))', "endNs<startNs"))
        if not tests:
            continue
        which = " ".join(f"WHEN {test} THEN {index}" for index, (test, _) in enumerate(tests))
        found = conn.execute(
            f'SELECT rowid, CASE {which} END FROM {SCHEMA}."{table}" WHERE {" OR ".join(t for t, _ in tests)} LIMIT 1'
        ).fetchone()
        if found is None:
            continue
        row, index = found
        name = tests[index][1]
        if name == "endNs<startNs":
            start, end = conn.execute(
                f'SELECT "startNs", "endNs" FROM {SCHEMA}."{table}" WHERE rowid = ?', (row,)).fetchone()
            raise IngestError(f"{path}: {table}: row {row}: endNs {end!r} is before startNs {start!r}")
        value = conn.execute(
            f'SELECT substr(CAST("{name}" AS TEXT), 1, 40), typeof("{name}") FROM {SCHEMA}."{table}" WHERE rowid = ?',
            (row,)).fetchone()
        raise IngestError(f"{path}: {table}: row {row}: {name} is not a 64-bit integer ({value[1]} {value[0]!r})")
    if "STRING_IDS" in tables:
        _validate_strings(conn, path)


def _utf8_ok(data) -> int:
    if data is None:
        return 1
    try:
        bytes(data).decode("utf-8")
        return 1
    except (UnicodeDecodeError, TypeError):
        return 0


def _validate_strings(conn: sqlite3.Connection, path: Path) -> None:
    """Every STRING_IDS value is UTF-8 text of at most MAX_STRING_BYTES bytes."""
    longest = limits.current().MAX_STRING_BYTES
    present = {row[1] for row in conn.execute(f'PRAGMA {SCHEMA}.table_info("STRING_IDS")')}
    if "value" not in present:
        return
    conn.create_function("rank_db_utf8_ok", 1, _utf8_ok, deterministic=True)
    try:
        found = conn.execute(
            f"SELECT rowid, id, typeof(value), length(CAST(value AS BLOB)), "
            f"CASE WHEN length(CAST(value AS BLOB)) <= 200000 THEN rank_db_utf8_ok(CAST(value AS BLOB)) END "
            f"FROM {SCHEMA}.STRING_IDS WHERE typeof(value) NOT IN ('text', 'null') "
            f"OR (:longest > 0 AND length(CAST(value AS BLOB)) > :longest) "
            f"OR NOT rank_db_utf8_ok(CAST(value AS BLOB)) LIMIT 1", {"longest": longest}).fetchone()
    finally:
        conn.create_function("rank_db_utf8_ok", 1, None)
    if found is None:
        return
    row, string_id, kind, size, utf8 = found
    where = f"{path}: STRING_IDS: row {row} (id {string_id}): value"
    if kind not in ("text", "null"):
        raise IngestError(f"{where} is {kind}, not text")
    if longest and size > longest:
        raise IngestError(f"{where} is {size} bytes long, over the limit of {longest} (WAREHOUSE_MAX_STRING_BYTES)")
    raise IngestError(f"{where} is not UTF-8 text")


def _run_phase(conn: sqlite3.Connection, path: Path, phase: str, tables: frozenset[str], params: dict) -> int:
    """Run a phase's statement files whose ``-- reads:`` tables are all in ``tables`` (the input
    tables the file has, by the names read: :func:`_tables_read`); return the rows they added to
    warehouse tables."""
    rows = 0
    for file, sql in _phase_sql(phase):
        reads = sqlfiles.field(sql, "reads")
        if reads and not set(reads) <= tables:
            continue
        for statement in sqlfiles.split(sql):
            before = conn.total_changes  # (cursor.rowcount is -1 for WITH ... INSERT)
            try:
                conn.execute(statement, params)
            except sqlite3.DatabaseError as exc:
                raise IngestError(f"{path}: {', '.join(reads) or 'tables'} ({file.name}): {exc}") from None
            if _counts(statement):
                rows += conn.total_changes - before
    return rows


def _phase_sql(phase: str) -> Iterator[tuple[Path, str]]:
    """Each statement file of ``phase`` with its SQL, includes expanded, once per ``-- each:`` copy."""
    for file in sorted(SQL_DIR.glob(f"{phase}_*.sql")):
        for sql in _instances(sqlfiles.expand_includes(sqlfiles.text(file), SQL_DIR)):
            yield file, sql


def _instances(text: str) -> list[str]:
    """A file's SQL, once per ``-- each: TABLE[:kind] ...`` entry when it has that header.

    In each copy ``{INPUT}`` is the input table, ``{input}`` its lower-case name and
    ``{kind}`` the word after the colon: one statement serves tables of the same shape.
    """
    copies = []
    for entry in sqlfiles.field(text, "each"):
        table, _, kind = entry.partition(":")
        copies.append(text.replace("{INPUT}", table).replace("{input}", table.lower()).replace("{kind}", kind))
    return copies or [text]


def _counts(statement: str) -> bool:
    """Whether a statement's rows count as the source's: inserts into warehouse tables
    (not the scratch tables, not the shared ``string`` table)."""
    target = INSERT_TARGET.search(statement)
    return bool(target) and not target[1].startswith("temp.") and target[1] != "string"


def _run_script(conn: sqlite3.Connection, name: str) -> None:
    for statement in sqlfiles.statements(SQL_DIR / name):
        conn.execute(statement)


def _drop_scratch(conn: sqlite3.Connection) -> None:
    for table in INPUT_COLUMNS:
        conn.execute(f'DROP VIEW IF EXISTS temp."in_{table}"')
    for table in SLICE_TABLES:
        conn.execute(f'DROP TABLE IF EXISTS temp."dense_{table}"')
    _run_script(conn, "teardown.sql")


# --- timeline ----------------------------------------------------------------------------------------


def _make_threads(conn: sqlite3.Connection, source_id: int, rank_id: int) -> int:
    """A process per (pid, kind) and a thread per track; fills temp.rank_db_thread."""
    processes: dict[tuple[str, str], int] = {}
    rows = 0
    tracks = conn.execute(
        "SELECT kind, key, pid, tid, process_name, thread_name FROM temp.rank_db_track ORDER BY kind, key"
    ).fetchall()
    for kind, key, pid, tid, process_name, thread_name in tracks:
        process_id = processes.get((pid, process_name))
        if process_id is None:
            process_id = processes[(pid, process_name)] = conn.execute(
                "INSERT INTO process (source_id, rank_id, pid, name, sort_index) VALUES (?, ?, ?, ?, ?)",
                (source_id, rank_id, pid, process_name, PROCESS_ORDER.get(process_name)),
            ).lastrowid
            rows += 1
        thread_id = conn.execute(
            "INSERT INTO thread (process_id, source_id, tid, name) VALUES (?, ?, ?, ?)",
            (process_id, source_id, tid, thread_name),
        ).lastrowid
        conn.execute("INSERT INTO temp.rank_db_thread (kind, key, thread_id) VALUES (?, ?, ?)", (kind, key, thread_id))
        rows += 1
    return rows
