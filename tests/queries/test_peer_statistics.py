"""compute_op_sum and hccl_sum give msprof-analyze's statistics on the real samples.

msprof-analyze (cluster_analyse/common_func/utils.py, describe_duration) groups the rows its
exports read from each rank db (COMPUTE_TASK_INFO by OpType and TaskType, COMMUNICATION_OP by
opType) and takes pandas' count, sum, mean, std (n - 1), min, max and linear quantiles at 0.25,
0.5 and 0.75. The tests run that arithmetic (numpy's linear quantile is pandas' default) on the
same rows, read from the rank dbs directly, and compare it with the queries' answers.
"""

from __future__ import annotations

import csv
import sqlite3
from collections import defaultdict

import numpy as np
import pytest

from warehouse import db, ingest, queries

RUN = "msinsight/pytorch/db/level1"
RANKS = (0, 1)
#: kernel_details.csv of a 2.x capture with Cast on AI_CORE and on AI_CPU
MIXED = "msinsight/server_test_data/test_rank_0/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
#: a text export whose op_statistic.csv sits beside its kernel_details.csv
TEXT = "msinsight/pytorch/text/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT"
#: the peer's rows (prof_exports/compute_op_sum_export.py and hccl_sum_export.py), as keys and a duration
PEER_ROWS = {
    "compute_op_sum": """
        SELECT o.value, t.value, k.endNs - k.startNs
        FROM COMPUTE_TASK_INFO AS c
        JOIN TASK AS k ON k.globalTaskId = c.globalTaskId
        LEFT JOIN STRING_IDS AS o ON o.id = c.opType
        LEFT JOIN STRING_IDS AS t ON t.id = c.taskType""",
    "hccl_sum": """
        SELECT o.value, NULL, c.endNs - c.startNs
        FROM COMMUNICATION_OP AS c
        LEFT JOIN STRING_IDS AS o ON o.id = c.opType""",
}
EXACT = ("count", "total_ns", "min_ns", "q1_ns", "median_ns", "q3_ns", "max_ns")


@pytest.fixture(scope="module")
def warehouse(realdata, tmp_path_factory):
    """The real 2-rank db sample as run "db", the mixed kernel_details.csv as run "mixed", the text
    export's kernel_details.csv as run "text"."""
    conn = db.connect(tmp_path_factory.mktemp("peer") / "warehouse.db")
    for name, path in (("db", realdata / RUN), ("mixed", realdata / MIXED), ("text", realdata / TEXT / "kernel_details.csv")):
        results = ingest.ingest_paths(conn, [path], run_name=name)
        assert [r.status for r in results if r.status != "ok"] == []
    yield conn
    conn.close()


def answer(conn, name: str, run: str, **params) -> list[dict]:
    run_id = conn.execute("SELECT run_id FROM run WHERE name = ?", (run,)).fetchone()[0]
    columns, rows = queries.get(name).run(conn, {"run_id": str(run_id), **{k: str(v) for k, v in params.items()}})
    return [dict(zip(columns, row)) for row in rows]


def peer_rows(realdata, rank: int, name: str) -> list[tuple]:
    path = realdata / RUN / f"rank{rank}_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_{rank}.db"
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
    try:
        return conn.execute(PEER_ROWS[name]).fetchall()
    finally:
        conn.close()


def describe(rows: list[tuple]) -> dict[tuple, dict]:
    """(op type, task type) -> msprof-analyze's statistics of the durations of ``rows``."""
    groups = defaultdict(list)
    for op_type, task_type, dur in rows:
        groups[(op_type, task_type)].append(dur)
    described = {}
    for key, durations in groups.items():
        values = np.array(durations, dtype=np.float64)
        q1, median, q3 = np.quantile(values, (0.25, 0.5, 0.75), method="linear")
        described[key] = {
            "count": len(values), "total_ns": values.sum(), "mean_ns": values.mean(),
            "std_ns": values.std(ddof=1) if len(values) > 1 else None,
            "min_ns": values.min(), "q1_ns": q1, "median_ns": median, "q3_ns": q3, "max_ns": values.max()}
    return described


def assert_as_the_peer(got: list[dict], expected: dict[tuple, dict]) -> None:
    keyed = {(r["name"], r.get("core_type")): r for r in got}
    assert set(keyed) == set(expected)
    for key, stats in expected.items():
        row = keyed[key]
        # integer durations: pandas' interpolation and the query's are exact, so equal to the bit
        assert {k: row[k] for k in EXACT} == {k: stats[k] for k in EXACT}, key
        assert row["mean_ns"] == pytest.approx(stats["mean_ns"], rel=1e-12), key
        # pandas' std of a single value is NaN, the query's null
        std = stats["std_ns"]
        assert row["std_ns"] == (None if std is None else pytest.approx(std, rel=1e-9)), key


@pytest.mark.parametrize("name", ("compute_op_sum", "hccl_sum"))
def test_per_rank_statistics_are_the_peers(warehouse, realdata, name):
    got = answer(warehouse, name, "db")
    for rank in RANKS:
        assert_as_the_peer([r for r in got if r["rank_id"] == rank], describe(peer_rows(realdata, rank, name)))


@pytest.mark.parametrize("name", ("compute_op_sum", "hccl_sum"))
def test_all_rank_statistics_are_the_peers(warehouse, realdata, name):
    every_row = [row for rank in RANKS for row in peer_rows(realdata, rank, name)]
    assert_as_the_peer(answer(warehouse, name, "db", per_rank="false"), describe(every_row))


def test_the_sample_has_quartiles_between_two_values(warehouse):
    # the comparison above is not vacuous: nearest-rank quartiles would differ on the sample
    matmul = {r["rank_id"]: r for r in answer(warehouse, "compute_op_sum", "db") if r["name"] == "MatMulV2"}
    assert (matmul[0]["count"], matmul[0]["q1_ns"], matmul[0]["q3_ns"]) == (8, 28691, 170463)


def test_an_operator_type_on_two_core_types_is_two_rows(warehouse, realdata):
    with open(realdata / MIXED, newline="", encoding="utf-8") as f:
        cast = [r["Accelerator Core"] for r in csv.DictReader(f) if r["Type"] == "Cast"]
    got = [(r["core_type"], r["count"]) for r in answer(warehouse, "compute_op_sum", "mixed") if r["name"] == "Cast"]
    assert sorted(got) == sorted((core, cast.count(core)) for core in set(cast)) == [("AI_CORE", 1), ("AI_CPU", 2)]
    merged = [r for r in answer(warehouse, "compute_op_sum", "mixed", per_core_type="false") if r["name"] == "Cast"]
    assert [(r["core_type"], r["count"]) for r in merged] == [(None, 3)]


def test_groups_are_op_statistic_csvs(warehouse, realdata):
    with open(realdata / TEXT / "op_statistic.csv", newline="", encoding="utf-8") as f:
        peer = {(r["OP Type"], r["Core Type"]): (int(r["Count"]), float(r["Total Time(us)"])) for r in csv.DictReader(f)}
    got = {(r["name"], r["core_type"]): r for r in answer(warehouse, "compute_op_sum", "text")}
    assert set(got) == set(peer)
    for key, (count, total_us) in peer.items():
        assert got[key]["count"] == count, key
        # kernel_details.csv rounds each duration to the ns, op_statistic.csv only the total
        assert abs(got[key]["total_ns"] - total_us * 1000) <= count, key
