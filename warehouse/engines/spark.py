"""The Spark engine: named queries on Apache Spark over an export's Parquet files.

Runs in local mode by default (``local[*,4]``: every core, and a failed task tried up to 4 times,
as a cluster does) and on any cluster given its master URL (``--master spark://host:7077``, or the
``SPARK_MASTER`` environment variable); the export folder must then be readable at the same path on
the driver and on every executor (a shared file system mounted alike everywhere), and executors
need a Python 3 for the one UDF. Each exported table is a temporary view with the schema the
manifest records (partition folders give back ``rank_id``). Parameters bind as Spark's named
parameter markers (``spark.sql(sql, args=...)``), typed values, never spliced text.

The session is configured for SQLite's meaning: ANSI mode off (a division by zero is NULL,
not an error) and UTC as the session time zone. Needs the ``scale`` extra (pyspark >= 3.4).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlglot import exp

from warehouse import units
from warehouse.engines import functions, spark_ctes
from warehouse.engines.base import REAL_TEXT, WAREHOUSE_FUNCTION_PREFIX, Engine
from warehouse.errors import WarehouseError
from warehouse.export import PARTITION_COLUMN

#: Arrow type of an exported column -> Spark SQL type
SPARK_TYPES = {"int64": "BIGINT", "float64": "DOUBLE", "string": "STRING", "binary": "BINARY"}
#: every core; a failed task is tried up to 4 times, as on a cluster (spark.task.maxFailures)
DEFAULT_MASTER = "local[*,4]"
#: most Java causes :func:`failures_said` names, and most characters it keeps of each
MAX_CAUSES, MAX_CAUSE_CHARS = 6, 400
#: settings every session gets (a cluster's own defaults apply to everything else)
SETTINGS = {
    "spark.sql.ansi.enabled": "false",
    "spark.sql.session.timeZone": "UTC",
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    # Spark 4.x: this rule leaves an unresolved plan for a correlated scalar subquery in a CTE
    # (queries/cluster/free_analysis.sql: PLAN_VALIDATION_FAILED_RULE_IN_BATCH)
    "spark.sql.optimizer.excludedRules": "org.apache.spark.sql.catalyst.optimizer.RemoveRedundantAliases",
}


def session(master: str | None = None, settings: dict | None = None):
    """The Spark session for ``master`` (argument, else ``SPARK_MASTER``, else ``local[*,4]``).

    ``getOrCreate`` returns a session already running in this process, so tests and the CLI
    start the JVM once.
    """
    from pyspark.sql import SparkSession

    master = master or os.environ.get("SPARK_MASTER") or DEFAULT_MASTER
    if master.startswith("local"):
        # local workers run this interpreter (a cluster's executors run their own Python)
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = SparkSession.builder.master(master)
    builder = builder.appName("ascend-warehouse")
    for key, value in {**SETTINGS, **(settings or {})}.items():
        builder = builder.config(key, value)
    return builder.getOrCreate()


@contextmanager
def failures_said(place: str | Path) -> Iterator[None]:
    """A Spark call that fails in the JVM becomes one :class:`WarehouseError` naming ``place`` and
    the Java exception with each of its causes, a line each cut to its first line (PySpark's own
    text is the JVM's whole stack, and the cause that says what happened is at its end)."""
    try:
        yield
    except Exception as exc:  # noqa: BLE001 - only what came from the JVM is said anew; the rest is raised
        causes = _java_causes(exc)
        if not causes:
            raise
        raise WarehouseError(f"{place}: the Spark job failed: {' <- '.join(causes)}") from None


def _java_causes(exc: Exception) -> list[str]:
    """The first line of the Java exception behind ``exc`` and of each of its causes (none when
    ``exc`` did not come from the JVM: py4j's error holds it, PySpark's captured errors too)."""
    java = getattr(exc, "java_exception", None) or getattr(exc, "_origin", None)
    causes: list[str] = []
    try:
        while java is not None and len(causes) < MAX_CAUSES:
            causes.append(str(java.toString()).split("\n", 1)[0][:MAX_CAUSE_CHARS])
            java = java.getCause()
    except Exception:  # noqa: BLE001 - the JVM no longer answers: what was read is what can be said
        causes.append("(the JVM did not answer)")
    return causes


class SparkEngine(Engine):
    """Spark SQL over an export folder; the tables are temporary views of one session."""

    dialect = "spark"

    def __init__(self, data: str | Path, *, master: str | None = None, spark=None):
        super().__init__(data)
        from pyspark import cloudpickle

        self.spark = spark or session(master)
        # the UDFs travel by value: executors need a Python, not this package
        cloudpickle.register_pickle_by_value(functions)
        cloudpickle.register_pickle_by_value(units)
        self.spark.udf.register(REAL_TEXT, functions.sqlite_real_text, "string")
        for name, function in units.SQL_FUNCTIONS.items():
            self.spark.udf.register(WAREHOUSE_FUNCTION_PREFIX + name, function, "string")
        for name, table in self.data.tables.items():
            self.register(name, table, self.data.folder(name))

    def register(self, name: str, table: dict, folder: Path) -> None:
        """The temporary view ``name`` over the Parquet files under ``folder``, typed as the manifest
        entry ``table`` says (Spark infers nothing: no file is read to learn the schema)."""
        columns = [c for c in table["columns"] if c["name"] != table["partitioned_by"]]
        if table["partitioned_by"]:
            columns.append({"name": PARTITION_COLUMN, "type": "int64"})
        schema = ", ".join(f"`{c['name']}` {SPARK_TYPES[c['type']]}" for c in columns)
        folder = str(folder.resolve())
        self.spark.read.schema(schema).option("basePath", folder).parquet(folder).createOrReplaceTempView(name)

    def rewrite(self, tree: exp.Expression) -> exp.Expression:
        """Spark's spelling of SQLite's constructs (:func:`rewrite`)."""
        return rewrite(tree)

    def run(self, query, values: dict | None = None) -> tuple[list[str], list[tuple]]:
        """:meth:`Engine.run`, each CTE the query reads more than once computed once (:mod:`spark_ctes`)."""
        bound = query.bind(values)
        with spark_ctes.frame(self.spark, self.tree(query), bound) as frame:
            rows = [tuple(row) for row in frame.collect()]
        return [c.name for c in query.columns], rows


def rewrite(tree: exp.Expression) -> exp.Expression:
    """What Spark spells differently: no MATERIALIZED hint on a CTE (it only steers the
    planner); ``json_object(k, v, ...)`` as ``to_json(named_struct(k, v, ...))`` keeping
    null members as SQLite does; a correlated scalar subquery in a grouped SELECT wrapped
    in ``max()`` (Spark refuses it bare; correlated on the group's keys, it has one value
    per group, which ``max`` returns)."""
    for cte in tree.find_all(exp.CTE):
        cte.set("materialized", None)
    for node in list(tree.find_all(exp.JSONObject)):
        members = []
        for pair in node.expressions:
            members += [pair.this.copy(), pair.expression.copy()]
        keep_nulls = _call("map", exp.Literal.string("ignoreNullFields"), exp.Literal.string("false"))
        node.replace(_call("to_json", _call("named_struct", *members), keep_nulls))
    for select in tree.find_all(exp.Select):
        if select.args.get("group"):
            _aggregate_correlated_subqueries(select)
    return tree


def _call(name: str, *args: exp.Expression) -> exp.Expression:
    """A function call written as is (sqlglot would turn ``map(k, v)`` into ``map_from_arrays``)."""
    return exp.Anonymous(this=name, expressions=list(args))


def _aggregate_correlated_subqueries(select: exp.Select) -> None:
    for item in select.expressions:
        for subquery in list(item.find_all(exp.Subquery)):
            inside_aggregate = subquery.find_ancestor(exp.AggFunc, exp.Select)
            if isinstance(inside_aggregate, exp.AggFunc) or not _correlated(subquery):
                continue
            bare = subquery.copy()
            alias = bare.args.get("alias")
            bare.set("alias", None)
            subquery.replace(exp.alias_(exp.Max(this=bare), alias.name) if alias else exp.Max(this=bare))


def _correlated(subquery: exp.Subquery) -> bool:
    inner = {source.alias_or_name for source in subquery.find_all(exp.Table)}
    return any(column.table and column.table not in inner for column in subquery.find_all(exp.Column))
