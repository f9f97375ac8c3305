"""``warehouse ingest PATH... --engine spark --out DIR``: the ingest itself on Spark, into a Parquet dataset.

For runs too large for one machine's ingest: the files are grouped by run and rank, each
group is ingested on an executor by the local ingest's own code into a scratch warehouse
(:mod:`warehouse.engines.spark_parts`), and written by that executor as Parquet into ``DIR``
in the layout ``warehouse export`` writes (hive-partitioned by ``rank_id``, a
``_warehouse.json`` manifest), so ``warehouse query --engine spark|duckdb --data DIR`` and
``warehouse compare`` read it as an export.

**Groups.** Files are walked as the local ingest walks them; a group is a stretch of
consecutive files of one run (:func:`warehouse.model.runs.run_root`) and one rank (the rank
their folders say, :func:`warehouse.sources.kit.rank_layout.rank_from_layout`; none for a run's
rank-less files). A rank's files lie together in every profiler's layout, so a rank is one
group. A group writes its tables and the views that are row by row over them; the views that
aggregate (and may compare ranks) are computed by Spark once the groups landed
(:mod:`warehouse.engines.spark_views`).

**Ids (the scheme).** Two Spark jobs. The first ingests every group into its part and returns
each table's largest id and rowid and the strings the part interned, in its order. The driver
then gives the groups, in the order of their first file, consecutive id ranges: group *g*'s
``id`` of table *t* is its part's id plus the sum of the earlier groups' largest ids of *t*
(after what earlier ingests into ``DIR`` used, ``ingest.next`` in the manifest), every column
that references *t* shifted alike (the references :mod:`warehouse.ingest.merge` reads from the
schema); the hidden rowid of a table without an INTEGER PRIMARY KEY the same way. Strings are
numbered by the driver in the order the groups met them, one id per value. That is exactly
what a local ingest of the same files gives: ids, strings and classification equal, row for
row. The second job copies each part into a shard with those ids and writes its Parquet. The
string table (and its name index) gets a new file holding the new strings only; the small
tables that are no input's rows (``run``, the classification rules, ...) are rewritten by
the driver.

**Again, into the same DIR.** A group whose files (path, size, mtime) are recorded as
ingested is left alone: its files are not rewritten. A group with a file of a recorded group
but other content replaces that group (its files are deleted, its rows ingested anew, with
new ids). A group with a failing file lands nothing: the manifest records it (``failed``,
each reason as the local ingest words it: file and place) and the next run retries it; the
other groups land.

**Killed, then run again.** The manifest is the ingest's commit record, written whole or not
at all (:func:`warehouse.export.write_manifest`). It is written first into a new folder (the
folder is this ingest's from then on), again once the groups' files are written (they are in
from then on; the run-wide views are marked still to come, ``views: false``), and last with the
run-wide views (``views: true``). A file no committed record holds is a killed run's: each run
first deletes the group files of groups the manifest does not record as landed, the string
files of batches it has not reached, and the executors' parts; a replaced group's files go
once the manifest without it is written. So a run killed at any point, then run again, ends
with the dataset of one uninterrupted run: the groups it had not committed are ingested again,
and the run-wide views computed whenever the manifest does not say they are in.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from warehouse import db, export, ingest
from warehouse.engines import spark as spark_engine
from warehouse.engines import spark_parts, spark_views
from warehouse.errors import IngestError, WarehouseError, require_extra
from warehouse.model.classify import load_rules
from warehouse.model.runs import RunNamer, run_root
from warehouse.sources.kit.rank_layout import rank_from_layout

#: the manifest's key for what the Spark ingest keeps between runs
STATE = "ingest"
#: where the executors' parts are written (on the shared file system, hidden from the readers)
PARTS_FOLDER = ".parts"
#: relations written as new files only (never rewritten): the interned strings and their index
APPENDED = ("string", "_string_fts")
#: a type that wins over another when groups' values disagree (an untyped column of a view)
TYPE_ORDER = ("int64", "float64", "string", "binary")
#: the files a group and a batch of strings write (:func:`spark_parts.group_file`, :func:`_write_catalog`)
GROUP_FILE = re.compile(r"part-g(\d+)\.parquet")
STRING_FILE = re.compile(r"part-s(\d+)\.parquet")
RUN_COLUMNS = ("run_id", "name", "root", "start_ns", "profiler", "profiler_version", "labels", "created_at")


def group_files(files: list[Path]) -> list[dict]:
    """Consecutive files of one run and one rank, in the walk's order (module docstring)."""
    groups: list[dict] = []
    for path in files:
        key = (str(run_root(path)), _rank(path))
        if not groups or (groups[-1]["run_root"], groups[-1]["rank"]) != key:
            groups.append({"run_root": key[0], "rank": key[1], "files": []})
        groups[-1]["files"].append(_fingerprint(path))
    return groups


def _rank(path: Path) -> int | None:
    try:
        layout = rank_from_layout(path)
    except IngestError:  # a rank past 64 bits: the ingest of the file says so
        return None
    return layout.rank if layout else None


def _fingerprint(path: Path) -> list:
    try:
        stat = path.stat()
    except OSError:  # the ingest reports it, with the local ingest's words
        return [str(path), None, None]
    return [str(path), stat.st_size, stat.st_mtime_ns]


def spark_ingest(paths, out: str | Path, *, master: str | None = None, spark=None, run_name: str | None = None,
                 on_group: Callable[[dict], None] | None = None) -> dict:
    """Ingest every file under ``paths`` on Spark into the Parquet dataset ``out`` (module docstring).

    :param master: Spark's master URL (else ``SPARK_MASTER``, else local); ``spark``: a session to use.
    :param on_group: called with each group's record once it is known (landed or failed).
    :returns: the manifest written.
    :raises WarehouseError: if ``out`` holds something else than a dataset of this ingest.
    """
    require_extra("the Spark ingest", ("pyspark", "pyarrow"))
    out = Path(out).absolute()
    manifest = _open(out)
    state = {"next": {"group": 0, "batch": 0, "ids": {}, "rowids": {}, "string": 0}, "rules": False, "runs": [],
             "groups": [], "views": False, **(manifest[STATE] if manifest else {})}
    _sweep(out, state)  # what a killed run wrote and never committed
    files = [path for path in ingest.discover(paths) if out != path and out not in path.parents]
    wanted = group_files(files)
    landed = {json.dumps(group["files"]) for group in state["groups"] if group["status"] == "ok"}
    new = [group for group in wanted if json.dumps(group["files"]) not in landed]
    _drop_replaced(state, new)
    views_in = state["views"] and not new
    with spark_engine.failures_said(out), tempfile.TemporaryDirectory(prefix="warehouse-catalog-") as scratch:
        catalog = db.connect(Path(scratch) / "catalog.db")
        try:
            if manifest is None:  # the folder is this ingest's from now on
                out.mkdir(parents=True, exist_ok=True)
                export.write_manifest(out, {**export.manifest_header(catalog), "source_db": None, "tables": {},
                                            STATE: state})
            (out / PARTS_FOLDER).mkdir(exist_ok=True)
            strings = _restore(catalog, out, state)
            if spark is None and not views_in:
                spark = spark_engine.session(master)
                spark.sparkContext.setLogLevel("ERROR")  # Spark's warnings are not the ingest's news
            if new:
                _ingest_groups(spark, out, catalog, state, new, strings, RunNamer(catalog, files, run_name))
            for group in new:
                if on_group:
                    on_group(group)
            previous = manifest
            state["views"] = False  # until the manifest holds them again
            manifest = _write_catalog(catalog, out, state)  # the groups are in
            _sweep(out, state)  # the replaced groups' files
            manifest["tables"].update(_run_wide(spark, out, catalog, previous if views_in else None))
            state["views"] = True
            export.write_manifest(out, manifest)
        finally:
            catalog.close()
    return manifest


def _sweep(out: Path, state: dict) -> None:
    """Delete the files of ``out`` that no record of ``state`` holds: group files of groups not
    landed, string files of batches not reached, the executors' parts (the module docstring)."""
    shutil.rmtree(out / PARTS_FOLDER, ignore_errors=True)
    if not out.is_dir():
        return
    kept = {group["group"] for group in state["groups"] if group["status"] == "ok"}
    for number in {int(match[1]) for path in out.glob("*/**/part-g*.parquet")
                   if (match := GROUP_FILE.fullmatch(path.name))} - kept:
        spark_parts.remove_group(out, number)
    for path in out.glob("*/part-s*.parquet"):
        match = STRING_FILE.fullmatch(path.name)
        if match and int(match[1]) >= state["next"]["batch"]:
            path.unlink()


def _run_wide(spark, out: Path, catalog, previous: dict | None) -> dict[str, dict]:
    """The run-wide views' manifest entries: as ``previous`` recorded them (they are in and no group
    landed since), else computed anew by Spark over the dataset (the manifest without them is
    written first)."""
    names = _classified(catalog)[1]
    if previous is not None:
        return {name: previous["tables"][name] for name in names if name in previous["tables"]}
    return spark_views.compute(spark_engine.SparkEngine(out, spark=spark), out, catalog, names)


def _open(out: Path) -> dict | None:
    """The dataset's manifest (None for a new or empty folder).

    :raises WarehouseError: if the folder holds something else.
    """
    if out.exists() and not out.is_dir():
        raise WarehouseError(f"{out}: not a folder; give an empty or new folder for the dataset")
    if not out.exists() or all(path.name == export.MANIFEST_TMP for path in out.iterdir()):
        return None  # new, empty, or killed while its first manifest was written
    try:
        manifest = json.loads((out / export.MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise WarehouseError(f"{out}: not empty and not a dataset of the Spark ingest; give an empty or new folder") \
            from None
    if STATE not in manifest:
        raise WarehouseError(f"{out}: holds a `warehouse export`, not a dataset of the Spark ingest; "
                             "give an empty or new folder")
    if manifest.get("schema_version") != len(db.available_migrations()):
        raise WarehouseError(f"{out}: written at schema version {manifest.get('schema_version')}, this version "
                             f"writes {len(db.available_migrations())}: ingest into a new folder")
    return manifest


def _drop_replaced(state: dict, new: list[dict]) -> None:
    """Forget the recorded groups that a new group holds a file of (its content changed); their
    files go once the manifest without them is written."""
    paths = {record[0] for group in new for record in group["files"]}
    state["groups"] = [group for group in state["groups"] if not any(record[0] in paths for record in group["files"])]


def _restore(catalog, out: Path, state: dict) -> dict[str, int]:
    """The recorded runs into the catalog; the strings already in the dataset, value -> id."""
    for run in state["runs"]:
        catalog.execute(f"INSERT INTO run ({', '.join(RUN_COLUMNS)}) VALUES ({', '.join('?' * len(RUN_COLUMNS))})",
                        [run[c] for c in RUN_COLUMNS])
    if state["rules"]:
        load_rules(catalog)
    catalog.commit()
    folder = out / export.folder_name("string")
    if not folder.is_dir():
        return {}
    import pyarrow.parquet as pq

    strings = {}
    for path in sorted(folder.glob("*.parquet")):
        table = pq.read_table(path, columns=["id", "value"])
        strings.update(zip(table.column("value").to_pylist(), table.column("id").to_pylist()))
    return strings


def _ingest_groups(spark, out, catalog, state, new, strings, runs: RunNamer) -> None:
    """Both Spark jobs over the new groups; records each group's outcome in ``state``."""
    for group in new:
        group["group"] = state["next"]["group"]
        state["next"]["group"] += 1
    tasks = [{"group": g["group"], "files": [f[0] for f in g["files"]], "part": str(_part(out, g))} for g in new]
    context = spark.sparkContext
    reports = {r["group"]: r for r in context.parallelize(tasks, len(tasks)).map(spark_parts.ingest_group).collect()}
    plans = []
    for group in new:
        report = reports[group["group"]]
        group.update(status=report["status"], errors=report["errors"], inputs=report["files"])
        if report["status"] == "ok":
            plans.append(_plan(out, catalog, state, group, report, strings, runs))
    relations = _relations(catalog, state, [reports[p["group"]] for p in plans])
    for plan in plans:
        plan["relations"] = relations
    written = context.parallelize(plans, max(1, len(plans))).map(spark_parts.write_group).collect() if plans else []
    for report in written:
        group = next(g for g in new if g["group"] == report["group"])
        group.update(status=report["status"], errors=group["errors"] + report["errors"], written=report["written"])
    state["columns"] = {name: relation["columns"] for name, relation in relations.items()}
    state["groups"] += new
    _refresh_runs(catalog, state)


def _part(out: Path, group: dict) -> Path:
    return out / PARTS_FOLDER / f"g{group['group']:06d}.db"


def _plan(out, catalog, state, group, report, strings, runs: RunNamer) -> dict:
    """Group ``group``'s global numbering (module docstring: the id scheme), advancing ``state["next"]``."""
    following = state["next"]
    offsets = {table: following["ids"].get(table, 0) for table in report["ids"]}
    rowid_offsets = {table: following["rowids"].get(table, 0) for table in report["rowids"]}
    for table, largest in report["ids"].items():
        following["ids"][table] = offsets[table] + largest
    for table, largest in report["rowids"].items():
        following["rowids"][table] = rowid_offsets[table] + largest
    mapping = []
    for part_id, value in report["strings"]:
        if value not in strings:
            following["string"] += 1
            strings[value] = following["string"]
            catalog.execute("INSERT INTO string (id, value) VALUES (?, ?)", (strings[value], value))
        mapping.append((part_id, strings[value]))
    state["rules"] = state["rules"] or report["rules"]
    run_id = runs.run_of(Path(group["files"][0][0]))
    group.update(run_id=run_id, facts=report["run"], offsets=offsets, rowid_offsets=rowid_offsets)
    offsets = {**offsets, "run": run_id - report["run"]["part_run_id"]} if report["run"] else offsets
    run = _run_row(catalog, state, run_id, report["run"])
    return {"group": group["group"], "part": str(_part(out, group)), "out": str(out), "offsets": offsets,
            "rowid_offsets": rowid_offsets, "strings": mapping, "run": run}


def _run_row(catalog, state, run_id: int, facts: dict | None) -> dict:
    """The run's row with its facts over every landed group of it and this one (run_facts.sql's
    rules: the earliest start; the first group's profiler and version)."""
    groups = [g["facts"] for g in state["groups"] if g.get("run_id") == run_id and g["status"] == "ok"]
    groups += [facts] if facts else []
    starts = [f["start_ns"] for f in groups if f["start_ns"] is not None]
    row = dict(zip(RUN_COLUMNS, catalog.execute(f"SELECT {', '.join(RUN_COLUMNS)} FROM run WHERE run_id = ?",
                                                (run_id,)).fetchone()))
    row["start_ns"] = min(starts) if starts else None
    for fact in ("profiler", "profiler_version"):
        row[fact] = next((f[fact] for f in groups if f[fact] is not None), None)
    return row


def _refresh_runs(catalog, state) -> None:
    """The catalog's runs with the facts of their landed groups; runs no landed group holds are dropped."""
    for (run_id,) in catalog.execute("SELECT run_id FROM run").fetchall():
        if any(g.get("run_id") == run_id and g["status"] == "ok" for g in state["groups"]):
            row = _run_row(catalog, state, run_id, None)
            catalog.execute("UPDATE run SET start_ns = :start_ns, profiler = :profiler, "
                            "profiler_version = :profiler_version WHERE run_id = :run_id", row)
        else:
            catalog.execute("DELETE FROM run WHERE run_id = ?", (run_id,))
    catalog.commit()
    state["runs"] = [dict(zip(RUN_COLUMNS, row)) for row in
                     catalog.execute(f"SELECT {', '.join(RUN_COLUMNS)} FROM run ORDER BY run_id")]


def _classified(conn) -> tuple[list[str], list[str]]:
    """The relations written per group, and the run-wide views (:func:`spark_views.classify`)."""
    return spark_views.classify(conn, set(spark_parts.input_tables(conn)))


def _relations(catalog, state, reports: list[dict]) -> dict[str, dict]:
    """Each group relation's columns (one type per column, whatever group wrote it) and partition key."""
    kinds = dict(export.relations(catalog))
    relations = {}
    for name in _classified(catalog)[0]:
        columns = state.get("columns", {}).get(name) if _rows(state, name) else None
        if columns is None:
            seen = [r["columns"][name] for r in reports if name in r["columns"]]
            columns = export.columns_of(catalog, name, kinds[name])
            for column in columns:
                types = {c["type"] for group in seen for c in group if c["name"] == column["name"]} - {None}
                column["type"] = max(types, key=TYPE_ORDER.index) if types else column["type"]
        relations[name] = {"columns": columns, "partition": export.partition_column(columns)}
    return relations


def _rows(state: dict, name: str) -> int:
    return sum(g["written"].get(name, [0])[0] for g in state["groups"] if g["status"] == "ok" and "written" in g)


def _write_catalog(catalog, out: Path, state: dict) -> dict:
    """The driver's relations (strings appended, the others rewritten), empty relations' schema files,
    and the manifest without the run-wide views (written: the engine that computes them reads it)."""
    if state["rules"]:
        load_rules(catalog)  # the classification rules the groups' kernels were classified with
    appended = state.setdefault("appended", {})  # rows of the appended relations so far
    tables = {}
    per_group, run_wide = _classified(catalog)
    batch = state["next"]["batch"]
    for name, kind in export.relations(catalog):
        folder = out / export.folder_name(name)
        columns = export.columns_of(catalog, name, kind)
        if name in run_wide:
            continue
        if name in per_group:
            tables[name] = _group_table(catalog, state, name, kind, folder)
            continue
        partition, partitions = None, []
        if name in APPENDED:
            rows = catalog.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0]
            if rows:
                (folder / "part-0.parquet").unlink(missing_ok=True)  # the schema file of no rows
                export.write_relation(catalog, name, folder, columns, None, f"part-s{batch:06d}.parquet")
            rows = appended[name] = appended.get(name, 0) + rows
            if not rows:
                export.write_relation(catalog, name, folder, columns, None)
        else:
            shutil.rmtree(folder, ignore_errors=True)
            rows = catalog.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0]
            partition = export.partition_column(columns) if rows else None
            partitions = export.write_relation(catalog, name, folder, columns, partition)[1]
        tables[name] = _entry(kind, name, rows, partition, partitions, columns)
    state["next"]["batch"] = batch + 1
    manifest = {**export.manifest_header(catalog), "source_db": None, "tables": tables, STATE: state}
    export.write_manifest(out, manifest)
    return manifest


def _group_table(catalog, state: dict, name: str, kind: str, folder: Path) -> dict:
    """The manifest entry of a group relation; its schema file while no group wrote a row of it."""
    rows = _rows(state, name)
    empty = folder / "part-0.parquet"
    if rows:
        empty.unlink(missing_ok=True)
        columns = state["columns"][name]
        partitions = sorted({p for g in state["groups"] if g["status"] == "ok" and "written" in g
                             for p in g["written"].get(name, [0, []])[1]})
        return _entry(kind, name, rows, export.partition_column(columns), partitions, columns)
    columns = export.columns_of(catalog, name, kind)
    shutil.rmtree(folder, ignore_errors=True)
    export.write_relation(catalog, name, folder, columns, None)
    return _entry(kind, name, 0, None, [], columns)


def _entry(kind: str, name: str, rows: int, partition: str | None, partitions: list[str], columns: list[dict]) -> dict:
    return {"kind": kind, "path": export.folder_name(name), "rows": rows, "partitioned_by": partition,
            "partitions": partitions, "columns": [{k: c[k] for k in ("name", "sqlite_type", "type")} for c in columns]}


def main(paths, out: str | Path, *, master: str | None, run_name: str | None, quiet: bool) -> int:
    """``warehouse ingest --engine spark``: ingest, say what landed and what failed; the exit code
    (1 if a group failed, as the local ingest's when a file failed)."""
    import click

    groups = []
    manifest = spark_ingest(paths, out, master=master, run_name=run_name, on_group=groups.append)
    for group in groups:
        rank = "no rank" if group["rank"] is None else f"rank {group['rank']}"
        if not quiet:
            click.echo(f"group {group['group']} ({group['run_root']}, {rank}): {group['status']}, "
                       f"{len(group['files'])} files")
        for error in group["errors"]:
            click.echo(f"error: {error}", err=True)
    failed = sum(group["status"] == "failed" for group in groups)
    if not quiet:
        click.echo(f"{len(groups) - failed} groups landed, {failed} failed, "
                   f"{len(manifest[STATE]['groups']) - len(groups)} already in {out}")
    return 1 if failed else 0
