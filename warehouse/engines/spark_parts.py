"""What a Spark executor does for one group of inputs (one run's rank): the two tasks of the Spark ingest.

:func:`ingest_group` ingests the group's files, one by one as a local ingest does (the same
``warehouse.ingest`` code), into a scratch warehouse of their own (a *part*, as the parallel
ingest's workers write), and reports what the driver needs to number the rows: each table's
largest id and rowid, the strings in the order the part met them, the run's facts and the
columns' types. The driver then gives every group its id offsets and string ids
(:mod:`warehouse.engines.spark_ingest`), and :func:`write_group` copies the part into a
*shard* (a fresh warehouse) with those global ids, by the statements :mod:`warehouse.ingest.merge`
builds from the schema, and writes the shard's tables and views as Parquet files of its own
(``part-g{N}.parquet``) in the export's layout. Views are computed in the shard: a view over
the rows of inputs is taken per group, which is exact for the views that are per run and rank.

Both functions take and return plain dicts (pickled to and from the executors) and never raise:
a failure is returned with its one-line reason, so one group's failure fails no other group.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from pathlib import Path

from warehouse import db, export, ingest, sqlfiles
from warehouse.ingest.merge import SCHEMA, copied_tables, copy_statement
from warehouse.model.classify import load_rules
from warehouse.sources.base import attach_readonly

#: the file name of a group's Parquet files, in every folder it writes to
GROUP_FILE = "part-g{group:06d}.parquet"


#: name_use renumbered in the model layer's order (the part's string ids had another)
NAME_USE_ORDER = sqlfiles.statements(Path(__file__).parent / "spark_name_use.sql")


def group_file(group: int) -> str:
    """The name of group ``group``'s Parquet files."""
    return GROUP_FILE.format(group=group)


def input_tables(conn: sqlite3.Connection) -> dict[str, list[str]]:
    """The tables that hold rows of inputs: the source table, every table a source writes
    (:func:`warehouse.ingest.merge.copied_tables`) and those derived per input (``input_source_id``)."""
    tables = {"source": [row[1] for row in conn.execute("PRAGMA main.table_info(source)")]}
    tables.update(copied_tables(conn))
    for (table,) in conn.execute("SELECT name FROM main.sqlite_master WHERE type = 'table' ORDER BY rowid"):
        columns = [row[1] for row in conn.execute(f'PRAGMA main.table_info("{table}")')]
        if "input_source_id" in columns:
            tables[table] = columns
    return tables


def ingest_group(task: dict) -> dict:
    """In an executor: ingest ``task["files"]`` into a new part at ``task["part"]``.

    :returns: ``{"group", "status", "files", "errors", "ids", "rowids", "strings", "run",
        "rules", "columns"}``; ``status`` is ``failed`` when any file failed (``errors``: their
        one-line reasons) or the part could not be written.
    """
    report = {"group": task["group"], "status": "ok", "files": [], "errors": []}
    try:
        _remove_part(Path(task["part"]))  # a task Spark retries starts from a new part, not the failed try's
        conn = db.connect(task["part"])
        try:
            conn.execute("PRAGMA journal_mode = MEMORY")
            conn.execute("PRAGMA synchronous = OFF")
            for result in ingest.ingest_paths(conn, [Path(path) for path in task["files"]]):
                report["files"].append({"path": str(result.path), "status": result.status, "kind": result.kind,
                                        "rows": result.rows, "error": result.error})
                if result.status == "failed":
                    report["errors"].append(result.error)
            report.update(_numbering(conn))
        finally:
            conn.close()
    except Exception as exc:  # noqa: BLE001 - the group fails with its reason, the others go on
        report["errors"].append(_reason(task["part"], exc))
    if report["errors"]:
        report["status"] = "failed"
    return report


def _remove_part(part: Path) -> None:
    """Delete a part and its journal, left by an earlier attempt of the same task."""
    for path in (part, part.with_name(part.name + "-journal"), part.with_name(part.name + "-wal"),
                 part.with_name(part.name + "-shm")):
        path.unlink(missing_ok=True)


def _numbering(conn: sqlite3.Connection) -> dict:
    """What the driver numbers the part's rows from (see :func:`ingest_group`)."""
    tables = input_tables(conn)
    ids = {table: conn.execute(f'SELECT coalesce(max(id), 0) FROM "{table}"').fetchone()[0]
           for table, columns in tables.items() if "id" in columns}
    rowids = {table: conn.execute(f'SELECT coalesce(max(rowid), 0) FROM "{table}"').fetchone()[0]
              for table in tables if not export.has_rowid_alias(conn, table)}
    run = conn.execute("SELECT run_id, start_ns, profiler, profiler_version FROM run").fetchall()
    columns = {}
    for name, kind in export.relations(conn):
        if conn.execute(f'SELECT 1 FROM "{name}" LIMIT 1').fetchone():
            columns[name] = _voting_types(conn, name, export.columns_of(conn, name, kind))
    return {
        "ids": ids,
        "rowids": rowids,
        "strings": conn.execute("SELECT id, value FROM string ORDER BY id").fetchall(),
        "run": dict(zip(("part_run_id", "start_ns", "profiler", "profiler_version"), run[0])) if run else None,
        "rules": conn.execute("SELECT 1 FROM kernel_signature LIMIT 1").fetchone() is not None,
        "columns": columns,
    }


def _voting_types(conn: sqlite3.Connection, name: str, columns: list[dict]) -> list[dict]:
    """The columns with their types, ``None`` for an untyped column without a value here: its
    type is the export's guess for no value (float64), which the other groups' values decide."""
    untyped = [c for c in columns if c["sqlite_type"] not in export.TYPES]
    if untyped:
        items = ", ".join(f"max({export.quote(column['name'])} IS NOT NULL)" for column in untyped)
        held = conn.execute(f"SELECT {items} FROM {export.quote(name)}").fetchone()
        for column, has_value in zip(untyped, held):
            column["type"] = column["type"] if has_value else None
    return columns


def write_group(plan: dict) -> dict:
    """In an executor: copy the part into a shard with the plan's global ids, write its Parquet.

    ``plan``: ``group``, ``part`` (its path), ``out`` (the dataset folder), ``offsets``
    (table -> id offset, ``run`` -> run id offset), ``rowid_offsets``, ``strings`` (part id ->
    global id pairs), ``run`` (the global run row), ``relations`` (name -> columns, partition).

    :returns: ``{"group", "status", "errors", "written": {relation: [rows, partitions]}}``; on
        failure nothing of the group is left in ``out``.
    """
    report = {"group": plan["group"], "status": "ok", "errors": [], "written": {}}
    scratch = tempfile.mkdtemp(prefix="warehouse-shard-")
    try:
        conn = db.connect(Path(scratch) / "shard.db")
        try:
            conn.execute("PRAGMA journal_mode = MEMORY")
            conn.execute("PRAGMA synchronous = OFF")
            _fill_shard(conn, plan)
            for name, relation in plan["relations"].items():
                if conn.execute(f'SELECT 1 FROM "{name}" LIMIT 1').fetchone():
                    rows, partitions = export.write_relation(
                        conn, name, Path(plan["out"]) / export.folder_name(name), relation["columns"],
                        relation["partition"], group_file(plan["group"]))
                    report["written"][name] = [rows, partitions]
        finally:
            conn.close()
    except Exception as exc:  # noqa: BLE001 - the group fails with its reason, the others go on
        remove_group(Path(plan["out"]), plan["group"])
        report.update(status="failed", errors=[_reason(plan["part"], exc)], written={})
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return report


def _fill_shard(conn: sqlite3.Connection, plan: dict) -> None:
    """The part's rows in the shard, every id global (the merge's statements, the plan's offsets)."""
    attach_readonly(conn, Path(plan["part"]), SCHEMA)
    conn.execute("BEGIN")
    conn.execute("CREATE TEMP TABLE merge_string (part_id INTEGER PRIMARY KEY, string_id INTEGER NOT NULL)")
    conn.executemany("INSERT INTO temp.merge_string VALUES (?, ?)", plan["strings"])
    conn.execute(f"INSERT INTO main.string (id, value) SELECT m.string_id, p.value FROM {SCHEMA}.string AS p "
                 "JOIN temp.merge_string AS m ON m.part_id = p.id")
    run = plan["run"]
    conn.execute("INSERT INTO main.run (run_id, name, root, start_ns, profiler, profiler_version, labels, created_at) "
                 "VALUES (:run_id, :name, :root, :start_ns, :profiler, :profiler_version, :labels, :created_at)", run)
    offsets = plan["offsets"]
    source_id = f'p."source_id" + {offsets["source"]}'
    for table, columns in input_tables(conn).items():
        conn.execute(copy_statement(conn, table, columns, offsets, source_id=source_id,
                                    rowid_offset=plan["rowid_offsets"].get(table)))
    for statement in NAME_USE_ORDER:
        conn.execute(statement, {"offset": plan["rowid_offsets"].get("name_use", 0)})
    if conn.execute(f"SELECT 1 FROM {SCHEMA}.kernel_signature LIMIT 1").fetchone():
        load_rules(conn)  # what the views of classified kernels join
    conn.execute("COMMIT")


def remove_group(out: Path, group: int) -> None:
    """Delete every Parquet file group ``group`` wrote under ``out`` (a failed or replaced group)."""
    for path in out.glob(f"*/**/{group_file(group)}"):
        path.unlink(missing_ok=True)
    for folder in sorted((p for p in out.glob("*/*") if p.is_dir()), reverse=True):
        if not any(folder.iterdir()):
            folder.rmdir()


def _reason(place: str, exc: Exception) -> str:
    """One line: the error's own message when it names its file, else the place and the error."""
    message = " ".join(str(exc).split())
    return message if message.startswith("/") else f"{place}: {type(exc).__name__}: {message}"
