"""Scale-out engines: the named queries, transpiled by sqlglot, over a Parquet export.

``open_engine("duckdb", DIR)`` or ``open_engine("spark", DIR, master=URL)`` gives an
:class:`~warehouse.engines.base.Engine` whose ``run(query, values)`` answers like
``Query.run`` does on SQLite. The engines' libraries are the ``scale`` extra.
"""

from __future__ import annotations

from pathlib import Path

from warehouse.engines.base import Engine, TranspileError
from warehouse.errors import WarehouseError, require_extra

#: each engine and the modules of the ``scale`` extra it imports
ENGINES = {"duckdb": ("duckdb",), "spark": ("pyspark",)}

__all__ = ["ENGINES", "Engine", "TranspileError", "open_engine"]


def open_engine(name: str, data: str | Path, *, master: str | None = None) -> Engine:
    """The engine ``name`` over the export in ``data``.

    :param master: Spark's master URL (``local[2]``, ``spark://host:7077``, ...); Spark only.
    :raises MissingExtra: if the engine's library (the ``scale`` extra) is not installed.
    :raises WarehouseError: if the engine is unknown.
    """
    if name not in ENGINES:
        raise WarehouseError(f"unknown engine {name!r} (one of: {', '.join(ENGINES)})")
    require_extra(f"engine {name}", ENGINES[name])
    if name == "duckdb":
        from warehouse.engines.duckdb import DuckDBEngine

        return DuckDBEngine(data)
    from warehouse.engines.spark import SparkEngine

    return SparkEngine(data, master=master)
