"""Which relations of the Spark ingest are written per group, which by the driver, and the
views that span a run's ranks, computed by Spark over the dataset.

A group (one run's rank, :mod:`warehouse.engines.spark_ingest`) writes the tables of its inputs'
rows and the views that are row by row over them: no aggregate, no GROUP BY, no window, reading
tables only (``slice``, ``counter``, the holdings of summaries), so each of their rows comes from
rows of one group. Every other view over inputs' rows is *run-wide*: an aggregate or a window may
compare ranks (``step_compute``: the median over a step's ranks) or an input that holds several
ranks' rows (a cluster analysis) with a rank's own (``summary_answer``: which input answers). They
are computed once all groups have landed, by Spark, from the view's own SQL transpiled as the
named queries are (:mod:`warehouse.engines.base`), and written partitioned by rank in the
export's layout. The other relations read no input's rows
(``run``, ``run_history``, the classification rules, the strings): the driver writes them.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from sqlglot import exp

from warehouse import export, schema_views
from warehouse.engines import spark_ctes
from warehouse.engines.base import SQL_TYPES, translate

#: Spark's type name (``DataType.typeName()``) -> the export's Arrow type; Spark's integers are
#: written as int64 and its decimals as float64, as SQLite's integers and reals are exported
ARROW_TYPES = {"long": "int64", "integer": "int64", "short": "int64", "byte": "int64", "boolean": "int64",
               "double": "float64", "float": "float64", "decimal": "float64", "string": "string", "binary": "binary"}
SPARK_CASTS = {"int64": "bigint", "float64": "double", "string": "string", "binary": "binary"}


def classify(conn: sqlite3.Connection, inputs: set[str]) -> tuple[list[str], list[str]]:
    """``(per_group, run_wide)``: the relations written per group (the ``inputs`` tables and the
    views per rank over them) and the run-wide views, in the order they can be computed (the
    order :func:`schema_views.in_dependency_order` gives the views ``conn`` holds)."""
    per_group, run_wide = set(inputs), []
    for view in schema_views.in_dependency_order(list(_views(conn).values())):
        reads = schema_views.reads(view)
        if not reads & (per_group | set(run_wide)):
            continue  # no input's rows: the driver's
        if reads & inputs == reads & (per_group | set(run_wide)) and _row_by_row(schema_views.parse(view)):
            per_group.add(view.name)
        else:
            run_wide.append(view.name)
    return sorted(per_group), run_wide


def _views(conn: sqlite3.Connection) -> dict[str, schema_views.View]:
    """The view files' views that ``conn`` (a warehouse this code migrated) holds, by name."""
    held = schema_views.recorded(conn)
    return {view.name: view for view in schema_views.available_views() if view.name in held}


def _row_by_row(tree: exp.Expression) -> bool:
    """Whether the view computes each row from single rows: no aggregate, grouping or window."""
    return not any(tree.find(kind) for kind in (exp.AggFunc, exp.Group, exp.Window))


def compute(engine, out: Path, catalog: sqlite3.Connection, names: list[str]) -> dict[str, dict]:
    """Compute the run-wide views ``names`` with the Spark engine over the dataset in ``out`` and
    write each as Parquet, partitioned by rank; returns their manifest entries.

    Each view is registered in the session once written, typed as its manifest entry, for the views
    that read it.
    """
    schema = dict(engine.data.schema())
    views = _views(catalog)
    entries = {}
    for name in names:
        body = schema_views.parse(views[name]).sql("sqlite")
        folder = out / export.folder_name(name)
        with spark_ctes.frame(engine.spark, translate(body, engine.dialect, schema, {}, engine.rewrite), {}) as frame:
            fields = {field.name: field for field in frame.schema.fields}  # a star takes the export's rowid too
            columns = [{"name": c["name"], "sqlite_type": c["sqlite_type"],
                        "type": ARROW_TYPES[fields[c["name"]].dataType.typeName()]}
                       for c in export.columns_of(catalog, name, "view")]
            frame = frame.select(*[frame[c["name"]].cast(SPARK_CASTS[c["type"]]).alias(c["name"]) for c in columns])
            shutil.rmtree(folder, ignore_errors=True)
            partition = export.partition_column([{**c, "pk": False} for c in columns])
            if partition:
                frame.repartition(partition).write.partitionBy(partition).parquet(str(folder))
            else:
                frame.coalesce(1).write.parquet(str(folder))
        (folder / "_SUCCESS").unlink(missing_ok=True)
        rows = _rows_written(folder)
        if not rows:  # one file of no rows, unpartitioned, typed as the export types an empty view
            shutil.rmtree(folder, ignore_errors=True)
            partition = None
            columns = [{key: c[key] for key in ("name", "sqlite_type", "type")}
                       for c in export.columns_of(catalog, name, "view")]
            export.write_relation(catalog, name, folder, columns, None)
        else:
            columns = _valueless_as_float(folder, columns)
        partitions = sorted(p.name for p in folder.iterdir() if p.is_dir())
        entries[name] = {"kind": "view", "path": export.folder_name(name), "rows": rows, "partitioned_by": partition,
                         "partitions": partitions, "columns": columns}
        schema[name] = {c["name"]: SQL_TYPES[c["type"]] for c in columns}
        engine.register(name, entries[name], folder)
    return entries


def _valueless_as_float(folder: Path, columns: list[dict]) -> list[dict]:
    """``columns`` as the export types them: a column computed by an expression (no declared type)
    that holds no value is float64 there (its rule for untyped columns), where Spark typed it from
    the expression (``min(global_ranks)``: string). The files of ``folder`` are rewritten with each
    such column as float64, and the columns returned so typed."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    files = {path: pq.ParquetFile(path) for path in sorted(folder.glob("**/*.parquet"))}
    in_files = next(iter(files.values())).schema_arrow.names  # not the partition key: folder names hold it
    untyped = [c["name"] for c in columns if c["sqlite_type"] is None and c["type"] != "float64" and c["name"] in in_files]
    valueless = {name for name in untyped
                 if all(file.read(columns=[name]).column(name).null_count == file.metadata.num_rows
                        for file in files.values())}
    if not valueless:
        return columns
    for path, file in files.items():
        table = file.read()
        for name in valueless:
            table = table.set_column(table.schema.get_field_index(name), name,
                                     table.column(name).cast(pa.float64()))
        pq.write_table(table, path)
    return [{**c, "type": "float64"} if c["name"] in valueless else c for c in columns]


def _rows_written(folder: Path) -> int:
    """The rows of the Parquet files under ``folder``, from their footers."""
    import pyarrow.parquet as pq

    return sum(pq.ParquetFile(path).metadata.num_rows for path in folder.glob("**/*.parquet")) if folder.is_dir() else 0

