"""A level-0 rank db's 'N/A' cells are read as not given (NULL), as the text export of the same level
reads its N/A cells (issue 34): COMPUTE_TASK_INFO's types and input and output shapes, data types
and formats, COMMUNICATION_OP's type, COMMUNICATION_TASK_INFO's type and its enums' 'N/A' (RDMA,
transport, data and link type). Checked on the real level-0
captures, msinsight/pytorch/db/level0 and .../text/level0, ingested as two runs."""

from __future__ import annotations

import sqlite3

import pytest

from warehouse import db
from warehouse.ingest import ingest_paths

SAMPLES = "msinsight/pytorch/{export}/level0"
RANK_DB = "rank{rank}_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_{rank}.db"
#: the rank db's columns that hold 'N/A' in every row of the level-0 capture -> the warehouse column
WRITTEN_N_A = {
    ("COMPUTE_TASK_INFO", "opType"): ("kernel", "op_type"),
    ("COMPUTE_TASK_INFO", "taskType"): ("kernel", "task_type"),
    ("COMPUTE_TASK_INFO", "inputShapes"): ("kernel", "input_shapes"),
    ("COMPUTE_TASK_INFO", "inputDataTypes"): ("kernel", "input_dtypes"),
    ("COMPUTE_TASK_INFO", "inputFormats"): ("kernel", "input_formats"),
    ("COMPUTE_TASK_INFO", "outputShapes"): ("kernel", "output_shapes"),
    ("COMPUTE_TASK_INFO", "outputDataTypes"): ("kernel", "output_dtypes"),
    ("COMPUTE_TASK_INFO", "outputFormats"): ("kernel", "output_formats"),
    ("COMMUNICATION_OP", "opType"): ("communication_op", "op_type"),
    ("COMMUNICATION_TASK_INFO", "taskType"): ("communication_task", "task_type"),
}
#: the rank db's enum columns that hold 65534, the enum's 'N/A', in every row -> its enum table
ENUM_N_A = {"rdmaType": "ENUM_HCCL_RDMA_TYPE", "transportType": "ENUM_HCCL_TRANSPORT_TYPE",
            "dataType": "ENUM_HCCL_DATA_TYPE", "linkType": "ENUM_HCCL_LINK_TYPE"}
#: the kernel columns both exports can fill: a level-0 kernel_details.csv has no shape columns
KERNEL_DETAILS = ("op_type", "input_shapes", "input_dtypes", "input_formats", "output_shapes", "output_dtypes",
                  "output_formats")


@pytest.fixture(scope="module")
def warehouse(realdata, tmp_path_factory):
    conn = db.connect(tmp_path_factory.mktemp("level0") / "warehouse.db")
    for export in ("db", "text"):
        results = ingest_paths(conn, [realdata / SAMPLES.format(export=export)], run_name=export)
        assert [r.error for r in results if r.status != "ok"] == []
    yield conn
    conn.close()


def of_run(conn, table: str, columns: str, run: str) -> list[tuple]:
    return conn.execute(f"SELECT {columns} FROM {table} AS t JOIN source AS s ON s.id = t.source_id "
                        "JOIN run AS r ON r.run_id = s.run_id WHERE r.name = ?", (run,)).fetchall()


@pytest.mark.parametrize("rank", (0, 1))
def test_the_level0_rank_db_writes_n_a_in_every_row(realdata, rank):
    path = realdata / SAMPLES.format(export="db") / RANK_DB.format(rank=rank)
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
    try:
        for table, column in WRITTEN_N_A:
            values = conn.execute(f"SELECT DISTINCT s.value FROM {table} AS t "
                                  f"LEFT JOIN STRING_IDS AS s ON s.id = t.{column}").fetchall()
            assert values == [("N/A",)], (table, column)
        for column, enum in ENUM_N_A.items():
            values = conn.execute(f"SELECT DISTINCT t.{column}, e.name FROM COMMUNICATION_TASK_INFO AS t "
                                  f"LEFT JOIN {enum} AS e ON e.id = t.{column}").fetchall()
            assert values == [(65534, "N/A")], column
    finally:
        conn.close()


def test_no_column_of_the_db_run_holds_n_a(warehouse):
    for table in ("kernel", "communication_op", "communication_task"):
        columns = [row[1] for row in warehouse.execute(f"PRAGMA table_info({table})")]
        held = [c for c in columns if of_run(warehouse, table, f"count(*) FILTER (WHERE t.{c} IN ('N/A', ''))", "db")
                != [(0,)]]
        assert held == [], table


def test_the_n_a_columns_are_not_given(warehouse):
    enums = {("communication_task", c) for c in ("rdma_type", "transport_type", "data_type", "link_type")}
    for table, column in set(WRITTEN_N_A.values()) | enums:
        count, given = of_run(warehouse, table, f"count(*), count(t.{column})", "db")[0]
        assert count > 0 and given == 0, (table, column)


def test_the_text_export_of_the_level_agrees(warehouse):
    # each export's kernels hold no type, shape, data type or format; the db's HCCL tasks no type
    # (the level-0 text export writes no HCCL task)
    for column in KERNEL_DETAILS:
        assert {v for (v,) in of_run(warehouse, "kernel", f"t.{column}", "db")} == {None}, column
        assert {v for (v,) in of_run(warehouse, "kernel", f"t.{column}", "text")} == {None}, column
    assert of_run(warehouse, "communication_task", "count(*)", "text") == [(0,)]
    assert of_run(warehouse, "kernel", "count(*)", "db") == [(374,)]
    assert of_run(warehouse, "kernel", "count(*)", "text") == [(382,)]
