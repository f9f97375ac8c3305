"""Reading a kernel table exported as CSV (kernel_details.csv, op_summary_*.csv, task_time_*.csv) into ``kernel``.

The exports list one device kernel (task_time: one device task) per record with the same fields
under different header names (``Name`` / ``Op Name`` / ``kernel_name``, ``Duration(us)`` /
``Task Duration(us)`` / ``task_time(us)``, ``Block Dim`` / ``Block Num``, ...), and
a set of metric columns that depends on the ``aic_metrics`` mode of the run. Known
columns go to their ``kernel`` column (us -> ns exactly); any other metric column goes
to ``kernel.metrics`` as a JSON object keyed by its header. The rows are then classified.

The file is read and converted by DuckDB (:mod:`warehouse.sources.kit.duck`, the conversions of
``csv_cells.sql``), not record by record in Python: a GB export is millions of records. Python
reads the file itself only to check its bytes first (a NUL, unbalanced quotes) and, when DuckDB
refuses the file, a cell does not convert or a record is short, to name the line as the warehouse
always has (:mod:`warehouse.sources.kit.csv_lines`).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome, attach_readonly
from warehouse.sources.kit import duck
from warehouse.sources.kit.csv_lines import check_bytes, reread
from warehouse.sources.kit.rank_layout import rank_or_unknown
from warehouse.sources.kit.text import (
    Column,
    Plan,
    column_plan,
    has_headers,
    integer,
    open_records,
    real,
    scalar,
    short_record_note,
    text,
    us_to_ns,
)


def _stage(prefix: str, *stages: str) -> tuple[Column, ...]:
    """The time (us -> ns) and ratio columns of pipeline stages, e.g. aic_mac_time(us), aic_mac_ratio."""
    columns = []
    for stage in stages:
        columns.append(Column(f"{prefix}_{stage}_ns", (f"{prefix}_{stage}_time(us)",), us_to_ns))
        columns.append(Column(f"{prefix}_{stage}_ratio", (f"{prefix}_{stage}_ratio",), real))
    return tuple(columns)


KERNEL_COLUMNS: tuple[Column, ...] = (
    Column("device_id", ("Device_id", "Device Id"), integer),
    Column("step_id", ("Step Id",), integer),
    Column("model_id", ("Model ID",), integer),
    Column("task_id", ("Task ID", "task_id"), integer),
    Column("stream_id", ("Stream ID", "stream_id"), integer),
    Column("name", ("Name", "Op Name", "kernel_name")),
    Column("op_type", ("Type", "OP Type")),
    Column("op_state", ("OP State",)),
    Column("accelerator_core", ("Accelerator Core",)),
    Column("task_type", ("Task Type", "kernel_type")),
    Column("ts", ("Start Time(us)", "Task Start Time(us)", "task_start(us)"), us_to_ns),
    Column("dur", ("Duration(us)", "Task Duration(us)", "task_time(us)"), us_to_ns),
    Column("wait_ns", ("Wait Time(us)", "Task Wait Time(us)"), us_to_ns),
    # msprof's op_summary names them Block Num and Mix Block Num since CANN renamed blockDim blockNum
    Column("block_dim", ("Block Dim", "Block Num"), integer),
    Column("mix_block_dim", ("Mix Block Dim", "Mix Block Num"), integer),
    Column("hf32_eligible", ("HF32 Eligible",)),
    Column("input_shapes", ("Input Shapes",)),
    Column("input_dtypes", ("Input Data Types",)),
    Column("input_formats", ("Input Formats",)),
    Column("output_shapes", ("Output Shapes",)),
    Column("output_dtypes", ("Output Data Types",)),
    Column("output_formats", ("Output Formats",)),
    Column("context_id", ("Context ID",), integer),
    Column("aicore_ns", ("aicore_time(us)",), us_to_ns),
    Column("aic_total_cycles", ("aic_total_cycles",), integer),
    *_stage("aic", "mac", "scalar", "mte1", "mte2", "fixpipe"),
    Column("aic_icache_miss_rate", ("aic_icache_miss_rate",), real),
    Column("aiv_ns", ("aiv_time(us)",), us_to_ns),
    Column("aiv_total_cycles", ("aiv_total_cycles",), integer),
    *_stage("aiv", "vec", "scalar", "mte2", "mte3"),
    Column("aiv_icache_miss_rate", ("aiv_icache_miss_rate",), real),
    Column("cube_utilization_pct", ("cube_utilization(%)",), real),
)
#: task_time's end, which its start and duration give, is no metric
KNOWN_HEADERS = frozenset(header for column in KERNEL_COLUMNS for header in column.headers) | {"task_stop(us)"}
#: the DuckDB macro converting a cell for each Python converter of text.py
SQL_CONVERTERS = {us_to_ns: "us_to_ns", integer: "whole", real: "ratio", text: "as_text"}
CELLS_SQL = Path(__file__).with_name("csv_cells.sql")
#: the scratch file's schema on the warehouse connection while its rows are copied
SCRATCH_SCHEMA = "kernel_csv_rows"
#: what DuckDB reads as NULL: nothing a real cell holds, so an empty field stays '' and NULL means
#: "no such field" (a short record, padded)
NO_CELL = "\x01\x02no field\x02\x01"


def kernel_source(kind: str, required: frozenset[str]) -> tuple[Callable[[object], bool], Callable[..., Outcome]]:
    """The ``detect`` and ``ingest`` functions of a source module reading one kernel CSV export: a file
    whose header has the ``required`` names, its rows ``kernel`` rows of origin ``kind``."""

    def detect(path) -> bool:
        return has_headers(path, required)

    def ingest(conn: sqlite3.Connection, path, source_id: int) -> Outcome:
        return ingest_kernels(conn, path, source_id, kind)

    return detect, ingest


def ingest_kernels(conn: sqlite3.Connection, path, source_id: int, origin: str) -> Outcome:
    """Insert every record of a kernel CSV as a ``kernel`` row of ``origin``, then classify them.

    :raises IngestError: naming the file and line, as the record reader of text.py words it.
    """
    rank_id = rank_or_unknown(path).rank
    with open_records(path) as records:
        header = records.header
    scan = check_bytes(path)
    plan = column_plan(header, KERNEL_COLUMNS)
    if scan.nul:
        reread(path, plan, 0)  # names the NUL's line
    with duck.session(conn, CELLS_SQL) as (engine, folder):
        scratch = folder / duck.SCRATCH_FILE
        try:
            _convert(engine, header, _convert_sql(path, header, plan, scan.gzipped, scratch))
        except Exception as exc:  # noqa: BLE001 - DuckDB's errors are worded for the warehouse below
            reread(path, plan, 0)
            raise IngestError(f"{path}: {_duck_reason(exc)}") from None
        attach_readonly(conn, scratch, SCRATCH_SCHEMA)  # the frame detaches it after its transaction
        count, short, bad = conn.execute(
            f"SELECT count(*), count(*) FILTER (WHERE short), min(rowid) FILTER (WHERE failed_at IS NOT NULL "
            f"AND NOT short) FROM {SCRATCH_SCHEMA}.rows").fetchone()
        short_lines = []
        if bad or short or scan.odd_quotes:
            records, short_lines = reread(path, plan, bad or 0)
            if (records, len(short_lines)) != (count, short):  # DuckDB read a quote never closed otherwise
                reread(path, plan, None)
                raise IngestError(f"{path}: line {scan.lines}: a quoted field is not closed before the end of the file")
            if bad:  # a cell DuckDB's conversion refused and Python's took: none is known; never kept as NULL
                raise IngestError(f"{path}: record {bad}: column {_failed_header(conn, header, bad)!r}: not a number")
        conn.execute(_copy_sql(plan), {"source_id": source_id, "origin": origin, "rank_id": rank_id})
    detail = {"table": "kernel", "origin": origin, **short_record_note(short_lines)}
    return Outcome(rows=count, rank_id=rank_id, detail=detail)


def _convert_sql(path, header: list[str], plan: Plan, gzipped: bool, scratch: Path) -> str:
    """DuckDB's statement writing the file's converted records into the scratch SQLite file: each planned
    column converted (``v0``, ``v1``, ...), ``metrics``, ``short`` (a record with fewer fields than the
    header) and ``failed_at`` (the first field, in file order, whose planned column does not convert)."""
    fields = [f"f{index}" for index in range(len(header))]
    types = ", ".join(f"'{name}': 'VARCHAR'" for name in fields)
    extra = [f"f{index}" for index, name in enumerate(header) if name not in KNOWN_HEADERS]
    converted, failures, masked = [], [], []
    for position, (index, convert, _) in enumerate(plan):
        if index is None:
            converted.append(f"NULL AS v{position}")
            masked.append(f"v{position}")
            continue
        converted.append(f"{SQL_CONVERTERS[convert]}(f{index}) AS v{position}")
        masked.append(f"CASE WHEN short AND {index} >= failed_at THEN NULL ELSE v{position} END AS v{position}")
        if convert is not text:
            failures.append(f"CASE WHEN v{position} IS NULL AND NOT missing(stripped(f{index})) THEN {index} END")
    metrics = "metrics_json([" + ", ".join(extra) + "])" if extra else "NULL"
    return f"""
        ATTACH {_literal(str(scratch))} AS scratch (TYPE sqlite);
        CREATE TABLE scratch.rows AS
        SELECT {", ".join(masked)},
               CASE WHEN short THEN short_json([{", ".join(fields)}]) ELSE {metrics} END AS metrics,
               short, failed_at
        FROM (
            SELECT *, {f"least({', '.join(failures)})" if failures else "NULL::INTEGER"} AS failed_at
            FROM (
                SELECT *, {", ".join(converted)}, {fields[-1]} IS NULL AS short
                FROM read_csv({_literal(str(path))}, header = true, auto_detect = false,
                              columns = {{{types}}}, delim = ',', quote = '"', escape = '"',
                              null_padding = true, strict_mode = true, nullstr = {_literal(NO_CELL)},
                              parallel = false, compression = '{"gzip" if gzipped else "none"}')
            )
        );
        DETACH scratch;
    """


def _copy_sql(plan: Plan) -> str:
    """The warehouse's statement copying the scratch rows into ``kernel``, in file order."""
    names = ", ".join(column.name for column in KERNEL_COLUMNS)
    values = ", ".join(f"v{position}" for position in range(len(plan)))
    return (f"INSERT INTO kernel (source_id, source_row, origin, rank_id, {names}, metrics) "
            f"SELECT :source_id, rowid, :origin, :rank_id, {values}, metrics "
            f"FROM {SCRATCH_SCHEMA}.rows ORDER BY rowid")


def _convert(engine, header: list[str], sql: str) -> None:
    """Run the file's ``sql`` with its two JSON functions, as Python's json writes them, defined for it:
    the fields of unknown columns (only files with such columns call it) and a short record's raw
    fields (only short records call it). The scratch file is detached whatever happens."""
    extra = [name for name in header if name not in KNOWN_HEADERS]

    def metrics_json(cells: list[str]) -> str | None:
        values = {name: scalar(value) for name, value in zip(extra, cells)}
        values = {name: value for name, value in values.items() if value is not None}
        return json.dumps(values) if values else None

    def short_json(cells: list[str | None]) -> str:
        return json.dumps({"_short_record": [value for value in cells if value is not None]})

    engine.create_function("metrics_json", metrics_json, ["VARCHAR[]"], "VARCHAR", null_handling="special")
    engine.create_function("short_json", short_json, ["VARCHAR[]"], "VARCHAR", null_handling="special")
    try:
        engine.execute(sql)
    finally:
        engine.remove_function("metrics_json")
        engine.remove_function("short_json")
        if engine.execute("SELECT count(*) FROM duckdb_databases() WHERE database_name = 'scratch'").fetchone()[0]:
            engine.execute("DETACH scratch")


def _failed_header(conn: sqlite3.Connection, header: list[str], record: int) -> str:
    """The header of the field whose conversion failed in scratch row ``record``."""
    index = conn.execute(f"SELECT failed_at FROM {SCRATCH_SCHEMA}.rows WHERE rowid = ?", (record,)).fetchone()[0]
    return header[index]


def _duck_reason(exc: Exception) -> str:
    """DuckDB's error, on one line, with the line it names in the warehouse's words ("line N: ...")."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()] or [type(exc).__name__]
    place = next((line.rpartition(":")[2].strip() for line in lines if "CSV Error on Line:" in line), None)
    advice = next((number for number, line in enumerate(lines) if line.startswith("Possible")), len(lines))
    what = lines[advice - 1] if place and advice > 1 else lines[0]
    return f"line {place}: {what}" if place else f"not read as CSV ({what})"


def _literal(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"
