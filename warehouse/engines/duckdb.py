"""The DuckDB engine: named queries in-process over an export's Parquet files.

Each exported table becomes a view over ``read_parquet`` (hive partitions read back as the
``rank_id`` column), so the transpiled query reads the same names it reads in SQLite.
Parameters bind natively (``$name``). DuckDB is a core dependency (the kernel CSVs are ingested
through it).
"""

from __future__ import annotations

from pathlib import Path

from warehouse import units
from warehouse.engines.base import REAL_TEXT, WAREHOUSE_FUNCTION_PREFIX, Engine
from warehouse.export import PARTITION_COLUMN


#: the folder name of a NULL partition value (the Hive convention pyarrow writes)
NULL_PARTITION = "__HIVE_DEFAULT_PARTITION__"


class DuckDBEngine(Engine):
    """DuckDB over an export folder, one in-memory database per engine."""

    dialect = "duckdb"

    def __init__(self, data: str | Path):
        import duckdb

        super().__init__(data)
        self.conn = duckdb.connect(":memory:")
        self.define_functions(self.conn)
        for name, table in self.data.tables.items():
            partitioned = table["partitioned_by"] is not None
            # the partition is read as text: a NULL rank's folder is __HIVE_DEFAULT_PARTITION__, which
            # DuckDB 1.4 casts to BIGINT as a value (an error), not as NULL
            options = (f", hive_partitioning = true, hive_types = {{'{PARTITION_COLUMN}': VARCHAR}}"
                       if partitioned else ", hive_partitioning = false")
            columns = (f" REPLACE (CAST(NULLIF({PARTITION_COLUMN}, '{NULL_PARTITION}') AS BIGINT) AS "
                       f"{PARTITION_COLUMN})" if partitioned else "")
            self.conn.execute(f"CREATE VIEW {_quote(name)} AS SELECT *{columns} FROM "
                              f"read_parquet({_literal(self.data.files(name))}{options})")

    @staticmethod
    def define_functions(conn) -> None:
        """The SQLite behaviours the transpiled queries call, as DuckDB macros, and the
        warehouse's own SQL functions (:data:`warehouse.units.SQL_FUNCTIONS`) as Python UDFs."""
        for name, function in units.SQL_FUNCTIONS.items():
            conn.create_function(WAREHOUSE_FUNCTION_PREFIX + name, function, ["DOUBLE"], "VARCHAR")
        # a real as text the way SQLite writes it (functions.sqlite_real_text): 15 significant
        # digits, always a point; + 0.0 turns -0.0 into 0.0
        conn.execute(f"CREATE MACRO {REAL_TEXT}(x) AS CASE WHEN isinf(x) THEN "
                     "CASE WHEN x > 0 THEN 'Inf' ELSE '-Inf' END WHEN NOT isnan(x) THEN "
                     "regexp_replace(printf('%.15g', x + 0.0), '^(-?[0-9]+)(e|$)', '\\1.0\\2') END")

    def execute(self, sql: str, params: dict) -> list[tuple]:
        return self.conn.execute(sql, params).fetchall()

    def close(self) -> None:
        self.conn.close()


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"
