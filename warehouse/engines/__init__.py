"""Scale-out engines: the named queries, transpiled by sqlglot, over a Parquet export.

``open_engine("duckdb", DIR)`` or ``open_engine("spark", DIR, master=URL)`` gives an
:class:`~warehouse.engines.base.Engine` whose ``run(query, values)`` answers like
``Query.run`` does on SQLite. The engines' libraries are the ``scale`` extra.
"""

from __future__ import annotations

from pathlib import Path

from warehouse.engines.base import Engine, TranspileError
from warehouse.errors import WarehouseError

ENGINES = ("duckdb", "spark")

__all__ = ["ENGINES", "Engine", "TranspileError", "open_engine"]


def open_engine(name: str, data: str | Path, *, master: str | None = None) -> Engine:
    """The engine ``name`` over the export in ``data``.

    :param master: Spark's master URL (``local[2]``, ``spark://host:7077``, ...); Spark only.
    :raises WarehouseError: if the engine is unknown or its library is not installed.
    """
    try:
        if name == "duckdb":
            from warehouse.engines.duckdb import DuckDBEngine

            return DuckDBEngine(data)
        if name == "spark":
            from warehouse.engines.spark import SparkEngine

            return SparkEngine(data, master=master)
    except ModuleNotFoundError as exc:
        raise WarehouseError(f"engine {name} needs {exc.name}: pip install 'ascend-warehouse[scale]'") from None
    raise WarehouseError(f"unknown engine {name!r} (one of: {', '.join(ENGINES)})")
