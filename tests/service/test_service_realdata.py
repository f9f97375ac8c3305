"""Every named query through REST on a warehouse built from the real 2-rank sample, checked
against the raw rank databases read directly (never modified: opened immutable)."""

from __future__ import annotations

import json
import sqlite3

import pytest

from service import create_app
from service.results import MAX_SAFE_INTEGER
from warehouse import db, ingest, queries
from warehouse.analysis import findings

API = "/api/v1"
RUN = "msinsight/pytorch/db/level1"
OPERATOR = "msinsight/server_test_data/test_bin_mix/visualize_data.bin"
#: the views of the REST issue's library (other views, e.g. insight, are tested by their own tests)
LIBRARY_VIEWS = ("timeline", "framework", "kernels", "steps", "communication", "cluster", "memory", "interconnect",
                 "operator")


@pytest.fixture(scope="module")
def real_client(realdata, tmp_path_factory):
    path = tmp_path_factory.mktemp("real") / "warehouse.db"
    conn = db.connect(path)
    results = ingest.ingest_paths(conn, [realdata / RUN, realdata / OPERATOR])
    assert [r.status for r in results if r.status == "failed"] == []
    findings.analyze(conn)  # the step classes and layers are written by the analysis
    conn.close()
    return create_app({"DATABASE": str(path)}).test_client()


def raw(realdata, rank: int, sql: str) -> list[tuple]:
    path = realdata / RUN / f"rank{rank}_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_{rank}.db"
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def rows_of(client, name: str, **params) -> list[dict]:
    response = client.get(f"{API}/queries/{name}", query_string={**params, "_limit": 100_000})
    assert response.status_code == 200, response.get_json()
    return response.get_json()["rows"]


def test_every_query_answers(real_client):
    sql = real_client.post(f"{API}/sql", json={"sql": (
        "SELECT s.thread_id, s.id, s.ts FROM _slice AS s JOIN flow AS f ON f.slice_out = s.id "
        "WHERE s.id IN (SELECT parent_id FROM _slice) ORDER BY s.id LIMIT 1")}).get_json()
    thread_id, slice_id, ts = (sql["rows"][0][k] for k in ("thread_id", "id", "ts"))
    # an epoch-ns ts passes 2**53: JSON answers send it as its decimal string (service/results.py)
    assert isinstance(ts, str) and isinstance(slice_id, int)
    ts = int(ts)
    required = {
        "timeline_slices": {"thread_id": thread_id, "start": ts, "end": ts + 1_000_000},
        "slice_detail": {"slice_id": slice_id},
        "slice_flows": {"slice_id": slice_id},
        "slice_children": {"slice_id": slice_id},
        "memory_curve": {"rank_id": 0},
    }
    (profile,) = rows_of(real_client, "op_runs")
    assert profile["name"].startswith("MatmulLeakyreluCustom_")
    library = [q.name for q in queries.registry().values() if q.view in LIBRARY_VIEWS]
    for name in library:
        if queries.get(name).view == "operator" and name != "op_runs":
            required[name] = {"source_id": profile["source_id"]}
    assert len(library) == 57
    empty = []
    for name in library:
        if not rows_of(real_client, name, **required.get(name, {})):
            empty.append(name)
    # what the samples hold no input for: no mstx ranges, no grouped matmul, no link samples, no profiler's
    # operator type table (a db export keeps no op_statistic); the operator profile has no source lines,
    # instructions or roofline (step and communication exports: analysis.db); the run names no parallel
    # group, so no communication falls in one; its SDMA rows move no byte (no transfer beside a MatMul) and
    # none goes over RDMA (no retransmission)
    assert sorted(empty) == ["communication_contended_transfers", "communication_retransmissions", "ep_load_balance",
                             "interconnect_bandwidth", "mstx_sum", "op_hot_instructions", "op_hot_lines", "op_roofline",
                             "op_type_statistic", "parallel_group_comm_time"]


@pytest.mark.parametrize("rank", (0, 1))
def test_steps_and_communication_match_the_rank_db(real_client, realdata, rank):
    ((step_id, start, end),) = raw(realdata, rank, "SELECT id, startNs, endNs FROM STEP_TIME")
    (step,) = rows_of(real_client, "step_time", rank_id=rank)
    # epoch nanoseconds, as decimal strings in JSON (past 2**53); durations stay numbers
    assert (step["step_id"], step["start_ns"], step["end_ns"]) == (step_id, str(start), str(end))
    # the profiler's own breakdown answers (analysis.db), and its parts add up as the profiler's do
    assert step["basis"] == "analysis_db"
    assert step["computing_ns"] + step["communication_not_overlapped_ns"] + step["free_ns"] == (
        step["stage_ns"] + step["bubble_ns"])
    assert step["preparing_ns"] + step["stage_ns"] + step["bubble_ns"] == step["duration_ns"] <= int(end) - int(start)
    ((count, total),) = raw(realdata, rank, "SELECT count(*), sum(endNs - startNs) FROM COMMUNICATION_OP")
    (ops,) = rows_of(real_client, "communication_ops", rank_id=rank)
    assert (ops["name"], ops["count"], ops["total_ns"]) == ("hcom_allReduce_", count, total)


@pytest.mark.parametrize("rank", (0, 1))
def test_memory_peak_matches_the_rank_db(real_client, realdata, rank):
    expected = raw(realdata, rank, "SELECT s.value, max(m.totalAllocated), max(m.totalReserved) FROM MEMORY_RECORD AS m "
                                   "JOIN STRING_IDS AS s ON s.id = m.component GROUP BY s.value UNION ALL "
                                   "SELECT 'APP', NULL, max(n.ddr + n.hbm) FROM NPU_MEM AS n "
                                   "JOIN STRING_IDS AS s ON s.id = n.type WHERE s.value = 'app' ORDER BY 1")
    peaks = rows_of(real_client, "memory_peak", rank_id=rank)
    # one peak per component (the process's APP, from NPU_MEM; the framework's PTA, GE, PTA+GE), never one over all
    assert sorted((p["component"], p["peak_allocated_bytes"], p["peak_reserved_bytes"]) for p in peaks) == expected
    assert {p["component"] for p in peaks} == {"APP", "GE", "PTA", "PTA+GE"}


TEXT_RANKS = ("msinsight/server_test_data/test_rank_0", "msinsight/server_test_data/test_rank_1")


@pytest.fixture(scope="module")
def text_warehouse(realdata, tmp_path_factory):
    """A warehouse of the real text exports of two ranks (communication.json, step_trace_time.csv, ...)."""
    path = tmp_path_factory.mktemp("text") / "warehouse.db"
    conn = db.connect(path)
    results = ingest.ingest_paths(conn, [realdata / rank for rank in TEXT_RANKS])
    assert [r.error for r in results if r.status == "failed"] == []
    conn.close()
    return path


def test_communication_time_summary_matches_the_exports_own_totals(text_warehouse):
    """The query sums the operators; communication.json also carries a 'Total Op Info' per step and
    type: the two agree to the rounding of each operator's ms figure to ns."""
    client = create_app({"DATABASE": str(text_warehouse)}).test_client()
    summary = {(r["rank_id"], r["step_id"]): r for r in rows_of(client, "communication_time_summary")}
    totals = client.post(f"{API}/sql", json={"sql": (
        "SELECT rank_id, step_id, sum(elapse_ns) AS elapse_ns, sum(transit_ns) AS transit_ns, "
        "sum(wait_ns) AS wait_ns FROM communication_time WHERE op_name = 'Total Op Info' "
        "GROUP BY rank_id, step_id")}).get_json()["rows"]
    assert len(totals) == len(summary) == 2
    for total in totals:
        mine = summary[(total["rank_id"], total["step_id"])]
        for column in ("elapse_ns", "transit_ns", "wait_ns"):
            assert abs(mine[column] - total[column]) <= mine["op_count"], column


def test_step_trace_summary_adds_up_to_the_stage(text_warehouse):
    client = create_app({"DATABASE": str(text_warehouse)}).test_client()
    result = rows_of(client, "step_trace_summary")
    assert [r["rank_id"] for r in result] == [0, 1]
    for row in result:
        # computing + not-overlapped communication + free is the step (stage) time, to the export's rounding
        assert abs(row["step_total_ns"] - row["stage_ns"]) < 1000
    assert max(r["ratio_to_slowest"] for r in result) == 1.0


def test_cli_and_rest_give_the_same_rows(real_client, runner):
    from warehouse.cli import cli

    path = real_client.application.config["DATABASE"]
    for name in ("top_kernels", "step_time", "communication_ops", "memory_peak", "compute_op_sum"):
        result = runner.invoke(cli, ["query", name, "--db", path, "--format", "json"])
        assert result.exit_code == 0, result.output
        # the same rows, the REST answer's integers past 2**53 (epoch ns) as decimal strings (service/results.py)
        expected = [{k: str(v) if type(v) is int and abs(v) > MAX_SAFE_INTEGER else v for k, v in row.items()}
                    for row in json.loads(result.output)]
        assert expected == rows_of(real_client, name), name
