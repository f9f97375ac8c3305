"""Every named query answers on DuckDB over the export of the real samples as on SQLite.

The real profiler outputs (/work/shared/realdata, copied first) hold what the factories do
not: GPU kineto traces beside Ascend runs, NCCL kernels, operator profiles whose memory paths
are enum codes in an untyped column (exported as text). Each query's rows must equal SQLite's,
in SQLite's order when the query orders them (tests/scale/test_scale_engines.py's comparison).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.scale.test_scale_engines import NAMES, assert_answers_as_on_sqlite
from warehouse import db, export, ingest

pytestmark = pytest.mark.slow

REALDATA = Path("/work/shared/realdata")


@pytest.fixture(scope="module")
def real_warehouse(tmp_path_factory) -> dict:
    """The real samples ingested into SQLite, and that warehouse's export."""
    folder = tmp_path_factory.mktemp("real-engines")
    shutil.copytree(REALDATA, folder / "inputs")
    conn = db.connect(folder / "warehouse.db")
    results = ingest.ingest_paths(conn, [folder / "inputs"])
    conn.close()
    assert [r.error for r in results if r.status == "failed"] == []
    export.export_parquet(folder / "warehouse.db", folder / "export")
    return {"db": folder / "warehouse.db", "export": folder / "export"}


@pytest.fixture(scope="module")
def duckdb_engine(real_warehouse):
    from warehouse.engines.duckdb import DuckDBEngine

    engine = DuckDBEngine(real_warehouse["export"])
    yield engine
    engine.close()


@pytest.mark.parametrize("name", NAMES)
def test_every_named_query_answers_on_duckdb_as_on_sqlite(duckdb_engine, real_warehouse, name):
    assert_answers_as_on_sqlite(duckdb_engine, real_warehouse["db"], name)
