"""A CSV export's records read and converted in bulk by DuckDB: every CSV table of the text exports.

The exports are millions of records (a GB kernel_details.csv, a memory_record.csv of every
allocation); record by record in Python they ran at ~20,000 rows per CPU-second. DuckDB reads the
file (:mod:`warehouse.sources.kit.duck`), converts each planned column with the macro of
``csv_cells.sql`` its Python converter has (:data:`SQL_CONVERTERS`), and writes the records into a
scratch SQLite file, which the caller copies into the warehouse inside the ingest's transaction
(:func:`converted`). A cell no macro converts (a form the macros leave to Python, or a converter
without a macro) is converted by the Python converter itself, called from DuckDB for that cell
alone: the values are the Python converters' by construction, the common forms at DuckDB's speed.

Python reads the file itself only to check its bytes first (a NUL, unbalanced quotes) and, when
DuckDB refuses the file, a cell does not convert or a record is short, to name the line as the
warehouse always has (:mod:`warehouse.sources.kit.csv_lines`).

:func:`ingest_csv` is the ingest of a :class:`~warehouse.sources.kit.text.CsvTable`;
:mod:`warehouse.sources.kit.kernel_csv` calls :func:`converted` with its metrics column.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from warehouse.errors import IngestError
from warehouse.sources.base import Outcome, attach_readonly
from warehouse.sources.kit import duck
from warehouse.sources.kit.csv_lines import check_bytes, reread
from warehouse.sources.kit.rank_layout import rank_or_unknown
from warehouse.sources.kit.step_trace import step_number
from warehouse.sources.kit.text import (
    CsvTable,
    Plan,
    column_plan,
    device_id,
    has_headers,
    integer,
    kib_to_bytes,
    mib_to_bytes,
    ms_to_ns,
    open_records,
    real,
    short_record_note,
    text,
    us2_to_ns2,
    us_to_ns,
)

#: each converter's macro in ``csv_cells.sql`` and the SQL type of its values
SQL_CONVERTERS: dict[Callable[[Any], Any], tuple[str, str]] = {
    text: ("as_text", "VARCHAR"),
    integer: ("whole", "BIGINT"),
    real: ("ratio", "DOUBLE"),
    us_to_ns: ("us_to_ns", "BIGINT"),
    ms_to_ns: ("ms_to_ns", "BIGINT"),
    kib_to_bytes: ("kib_to_bytes", "BIGINT"),
    mib_to_bytes: ("mib_to_bytes", "BIGINT"),
    us2_to_ns2: ("us2_to_ns2", "DOUBLE"),
    device_id: ("device_number", "BIGINT"),
    step_number: ("step_number", "BIGINT"),
}
CELLS_SQL = Path(__file__).with_name("csv_cells.sql")
#: DuckDB's CSV read buffer: its progress (:func:`duck.reading`) moves a buffer at a time, and its
#: default (16 lines of the longest, 32 MB) holds most exports whole; twice the longest line it reads
READ_BUFFER_BYTES = 4 << 20


def sql_form(convert: Callable[[Any], Any]) -> tuple[str | None, str]:
    """``convert``'s macro and SQL type. A converter of a source's own (not in :data:`SQL_CONVERTERS`)
    has no macro: DuckDB calls it on every cell, missing ones too (it may refuse those), and its
    ``sql_type`` attribute names its values' type."""
    return SQL_CONVERTERS.get(convert) or (None, convert.sql_type)
#: the scratch file's schema on the warehouse connection while its rows are copied
SCRATCH_SCHEMA = "csv_rows"
#: what DuckDB reads as NULL: nothing a real cell holds, so an empty field stays '' and NULL means
#: "no such field" (a short record, padded)
NO_CELL = "\x01\x02no field\x02\x01"


@dataclass(frozen=True)
class Extra:
    """A column the caller adds to the scratch rows: ``sql``, a DuckDB expression of the raw fields
    (``f0``, ``f1``, ... in header order) and ``short``, with the Python ``functions`` it calls
    (each ``VARCHAR[] -> VARCHAR``)."""

    sql: str
    functions: dict[str, Callable] = field(default_factory=dict)


@dataclass(frozen=True)
class Records:
    """What :func:`converted` read: the records (scratch rows ``1..count``) and the lines of the short ones."""

    count: int
    short_lines: list[int]


@contextmanager
def converted(conn: sqlite3.Connection, path, header: list[str], plan: Plan,
              extra: Extra | None = None) -> Iterator[Records]:
    """The file's records converted into ``<SCRATCH_SCHEMA>.rows`` on ``conn`` for the block: ``v0``,
    ``v1``, ... (the planned columns, in ``plan`` order; NULL past the first bad field of a short
    record), ``extra`` (when given), in file order (rowid = record number).

    :raises IngestError: naming the file and line, as the record reader of text.py words it.
    """
    scan = check_bytes(path)
    if scan.nul:
        reread(path, plan, 0)  # names the NUL's line
    with duck.session(conn, CELLS_SQL) as (engine, folder):
        scratch = folder / duck.SCRATCH_FILE
        try:
            _convert(engine, path, plan, extra, _convert_sql(path, header, plan, extra, scan.gzipped, scratch))
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
            if bad:  # the Python converter refused the cell in DuckDB: the record reader must have said where
                raise IngestError(f"{path}: record {bad}: column {_failed_header(conn, header, bad)!r}: not a number")
        yield Records(count, short_lines)


def _convert_sql(path, header: list[str], plan: Plan, extra: Extra | None, gzipped: bool, scratch: Path) -> str:
    """DuckDB's statement writing the file's converted records into the scratch SQLite file: each planned
    column converted (``v0``, ``v1``, ...), ``extra``, ``short`` (a record with fewer fields than the
    header) and ``failed_at`` (the first field, in file order, whose planned column does not convert).

    A planned column is converted by its macro (``m0``, ...); a cell the macro leaves NULL that is a value
    goes to the Python converter (``py0``: its value, ``py_refuses0``: whether it raises), cell by cell."""
    fields = [f"f{index}" for index in range(len(header))]
    types = ", ".join(f"'{name}': 'VARCHAR'" for name in fields)
    by_macro, by_python, refusals, masked = [], [], [], []
    for position, (index, convert, _) in enumerate(plan):
        if index is None:
            by_macro.append(f"NULL AS m{position}")
            by_python.append(f"NULL AS v{position}")
            masked.append(f"v{position}")
            continue
        cell, value = f"f{index}", f"v{position}"
        macro = sql_form(convert)[0]
        masked.append(f"CASE WHEN short AND {index} >= failed_at THEN NULL ELSE {value} END AS {value}")
        if macro is None:
            by_macro.append(f"NULL AS m{position}")
            by_python.append(f"py{position}({cell}) AS {value}")
            refusals.append(f"CASE WHEN {value} IS NULL AND py_refuses{position}({cell}) THEN {index} END")
            continue
        by_macro.append(f"{macro}({cell}) AS m{position}")
        by_python.append(f"CASE WHEN m{position} IS NOT NULL OR missing(stripped({cell})) THEN m{position} "
                         f"ELSE py{position}({cell}) END AS {value}")
        refusals.append(f"CASE WHEN {value} IS NULL AND NOT missing(stripped({cell})) THEN "
                        f"CASE WHEN py_refuses{position}({cell}) THEN {index} END END")
    extra_sql = f", {extra.sql} AS extra" if extra else ""
    return f"""
        ATTACH {duck.literal(str(scratch))} AS scratch (TYPE sqlite);
        CREATE TABLE scratch.rows AS
        SELECT {", ".join(masked)}{extra_sql}, short, failed_at
        FROM (
            SELECT *, {f"least({', '.join(refusals)})" if refusals else "NULL::INTEGER"} AS failed_at
            FROM (
                SELECT *, {", ".join(by_python)}
                FROM (
                    SELECT *, {", ".join(by_macro)}, {fields[-1]} IS NULL AS short
                    FROM read_csv({duck.literal(str(path))}, header = true, auto_detect = false,
                                  columns = {{{types}}}, delim = ',', quote = '"', escape = '"',
                                  null_padding = true, strict_mode = true, nullstr = {duck.literal(NO_CELL)},
                                  parallel = false, buffer_size = {READ_BUFFER_BYTES}, compression = '{"gzip" if gzipped else "none"}')
                )
            )
        );
        DETACH scratch;
    """


def _convert(engine, path, plan: Plan, extra: Extra | None, sql: str) -> None:
    """Run the file's ``sql`` with its Python functions defined for it: each planned column's converter
    (its value and whether it refuses a cell) and ``extra``'s, its progress told as reads of ``path``.
    The scratch file is detached and the functions removed whatever happens."""
    functions: dict[str, tuple[Callable, list[str], str]] = {}
    for position, (index, convert, _) in enumerate(plan):
        if index is not None:
            functions[f"py{position}"] = (_value_of(convert), ["VARCHAR"], sql_form(convert)[1])
            functions[f"py_refuses{position}"] = (_refuses(convert), ["VARCHAR"], "BOOLEAN")
    for name, function in (extra.functions if extra else {}).items():
        functions[name] = (function, ["VARCHAR[]"], "VARCHAR")
    for name, (function, parameters, returns) in functions.items():
        engine.create_function(name, function, parameters, returns, null_handling="special")
    try:
        with duck.reading(engine, path):
            engine.execute(sql)
    finally:
        for name in functions:
            engine.remove_function(name)
        if engine.execute("SELECT count(*) FROM duckdb_databases() WHERE database_name = 'scratch'").fetchone()[0]:
            engine.execute("DETACH scratch")


def _value_of(convert: Callable[[Any], Any]) -> Callable[[str | None], Any]:
    """``convert`` as DuckDB calls it: its value, None where it refuses the cell."""

    def value(cell: str | None) -> Any:
        try:
            return convert(cell)
        except ValueError:
            return None

    return value


def _refuses(convert: Callable[[Any], Any]) -> Callable[[str | None], bool]:
    """Whether ``convert`` refuses a cell (raises ValueError)."""

    def refuses(cell: str | None) -> bool:
        try:
            convert(cell)
        except ValueError:
            return True
        return False

    return refuses


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


def ingest_csv(conn: sqlite3.Connection, path, source_id: int, spec: CsvTable, rank_id: int | None) -> Outcome:
    """Insert every record of a CSV export into ``spec.table``, each with ``rank_id`` (the file's)."""
    with open_records(path) as records:
        header = records.header
    plan = column_plan(header, spec.columns)
    names = ", ".join(column.name for column in spec.columns)
    values = ", ".join(f"v{position}" for position in range(len(plan)))
    with converted(conn, path, header, plan) as read:
        conn.execute(f"INSERT INTO {spec.table} (source_id, source_row, rank_id, {names}) "
                     f"SELECT :source_id, rowid, :rank_id, {values} FROM {SCRATCH_SCHEMA}.rows ORDER BY rowid",
                     {"source_id": source_id, "rank_id": rank_id})
    if spec.finish:
        conn.execute(spec.finish, {"source_id": source_id})
    detail = {"table": spec.table, **short_record_note(read.short_lines)}
    return Outcome(rows=read.count, rank_id=rank_id, detail=detail)


def csv_source(spec: CsvTable) -> tuple[Callable[[Any], bool], Callable[..., Outcome]]:
    """The ``detect`` and ``ingest`` functions of a source module that reads one CSV export."""

    def detect(path) -> bool:
        return has_headers(path, spec.required, spec.excluded)

    def ingest(conn, path, source_id) -> Outcome:
        return ingest_csv(conn, path, source_id, spec, None if spec.cluster else rank_or_unknown(path).rank)

    return detect, ingest
