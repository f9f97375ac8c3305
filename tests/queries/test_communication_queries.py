"""The communication queries (queries/communication/*.sql) on rank-db and cluster-export rows.

One fact, one source: a rank's HCCL operators come from hccl_operator (COMMUNICATION_OP of its
rank db, else the HCCL rows of its kernel_details.csv), its per-operator communication figures
from the input that answers them (analysis.db, else communication.json, else the cluster file),
so a rank holding two exports of one fact counts each operator once; runs are never added together.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from factories.analysis_db import AnalysisDbFactory
from factories.text_exports import CommunicationJsonFactory, CommunicationMatrixFactory
from factories.warehouse_rows import (
    CommunicationOpFactory, CommunicationTaskFactory, HccsFactory, KernelFactory, SliceFactory, insert, rank_source,
    run_id,
)
from warehouse.ingest import ingest_paths


def test_communication_ops(run, rows):
    for rank, op_type, dur in ((0, "hcom_allReduce_", 100), (0, "hcom_allReduce_", 300), (0, "hcom_broadcast_", 50),
                               (1, "hcom_allReduce_", 80)):
        CommunicationOpFactory(rank_id=rank, op_type=op_type, dur=dur)
    this = run_id("run")
    result = run("communication_ops")
    assert [(r["run_id"], r["rank_id"], r["name"], r["count"], r["total_ns"], r["avg_ns"], r["max_ns"])
            for r in result] == [
        (this, 0, "hcom_allReduce_", 2, 400, 200, 300),
        (this, 0, "hcom_broadcast_", 1, 50, 50, 50),
        (this, 1, "hcom_allReduce_", 1, 80, 80, 80),
    ]
    assert len(run("communication_ops", rank_id=1)) == 1


def test_communication_ops_from_either_export_once(run, rows):
    # rank 0: COMMUNICATION_OP of its rank db (a level0 db writes the type 'N/A', read as none), and the same
    # operator as a kernel_details.csv row
    CommunicationOpFactory(rank_id=0, name="hcom_allReduce__1_0_1", op_type=None, dur=300)
    KernelFactory(rank_id=0, source_id=rank_source(0, kind="kernel_details_csv"), name="hcom_allReduce__1_0_1",
                  op_type=None, op_class="communication", dur=300)
    # rank 1 exported as text only: its HCCL rows are its operators (no type: the name less its instance suffix)
    for name, dur in (("hcom_allReduce__1_0_1", 250), ("hcom_allReduce__1_1_1", 50), ("hcom_broadcast", 5)):
        KernelFactory(rank_id=1, source_id=rank_source(1, kind="kernel_details_csv"), name=name, op_type=None,
                      op_class="communication", dur=dur)
    KernelFactory(rank_id=1, source_id=rank_source(1, kind="kernel_details_csv"), name="MatMul", dur=10**6)
    assert [(r["rank_id"], r["name"], r["count"], r["total_ns"]) for r in run("communication_ops")] == [
        (0, "hcom_allReduce_", 1, 300), (1, "hcom_allReduce_", 2, 300), (1, "hcom_broadcast", 1, 5)]
    assert [(r["rank_id"], r["name"], r["count"], r["total_ns"]) for r in run("hccl_sum")] == [
        (0, "hcom_allReduce_", 1, 300), (1, "hcom_allReduce_", 2, 300), (1, "hcom_broadcast", 1, 5)]


def test_communication_ops_keep_runs_apart(run, rows):
    CommunicationOpFactory(rank_id=0, op_type="hcom_allReduce_", dur=100)
    CommunicationOpFactory(rank_id=0, source_id=rank_source(0, run="other"), op_type="hcom_allReduce_", dur=900)
    this, other = run_id("run"), run_id("other")
    assert [(r["run_id"], r["rank_id"], r["count"], r["total_ns"]) for r in run("communication_ops")] == [
        (this, 0, 1, 100), (other, 0, 1, 900)]
    assert [r["total_ns"] for r in run("communication_ops", run_id=other, rank_id=0)] == [900]


def test_communication_matrix_from_tasks(run, rows):
    fast = SliceFactory(dur=1000)
    slow = SliceFactory(thread_id=fast["thread_id"], dur=4000)
    CommunicationTaskFactory(src_rank=0, dst_rank=1, size_bytes=1000, slice_id=fast["id"])
    CommunicationTaskFactory(src_rank=0, dst_rank=1, size_bytes=3000, slice_id=slow["id"])
    CommunicationTaskFactory(src_rank=1, dst_rank=0, size_bytes=500, slice_id=None, transport_type="RDMA",
                             link_type="ROCE")
    # notify tasks move nothing; a local reduce has no peer (4294967295)
    CommunicationTaskFactory(src_rank=1, dst_rank=0, size_bytes=0, task_type="Notify Wait")
    CommunicationTaskFactory(src_rank=1, dst_rank=4294967295, size_bytes=32, task_type="Reduce Inline")
    CommunicationTaskFactory(src_rank=0, dst_rank=1, size_bytes=99, group_name="group_b")
    this = run_id("run")
    result = run("communication_matrix", group_name="group_a")
    assert result == [
        {"run_id": this, "src_rank": 0, "dst_rank": 1, "transport_type": "SDMA", "link_type": "HCCS",
         "task_count": 2, "total_bytes": 4000, "total_ns": 5000, "bandwidth_bytes_per_s": pytest.approx(0.8e9)},
        {"run_id": this, "src_rank": 1, "dst_rank": 0, "transport_type": "RDMA", "link_type": "ROCE",
         "task_count": 1, "total_bytes": 500, "total_ns": None, "bandwidth_bytes_per_s": None},
    ]
    assert len(run("communication_matrix")) == 2 and run("communication_matrix")[0]["total_bytes"] == 4099


def test_communication_matrix_keeps_runs_apart(run, rows):
    CommunicationTaskFactory(src_rank=0, dst_rank=1, size_bytes=1000)
    CommunicationTaskFactory(rank_id=0, source_id=rank_source(0, run="other"), src_rank=0, dst_rank=1,
                             size_bytes=7000)
    this, other = run_id("run"), run_id("other")
    assert [(r["run_id"], r["src_rank"], r["dst_rank"], r["task_count"], r["total_bytes"])
            for r in run("communication_matrix")] == [(this, 0, 1, 1, 1000), (other, 0, 1, 1, 7000)]
    assert [r["total_bytes"] for r in run("communication_matrix", run_id=other)] == [7000]


def _export_row(table: str, rank: int | None = 0, kind: str = "communication_json", run_name: str = "run",
                **values):
    """One row of an export table, from the rank's input of ``kind`` in run ``run_name``."""
    insert(table, {"source_id": rank_source(rank, run=run_name, kind=kind), "rank_id": rank, **values})


def _time_row(rank, op, elapse, transit, wait, sync, step=3, **where):
    _export_row("communication_time", rank, step_id=step, op_name=op, elapse_ns=elapse, transit_ns=transit,
                wait_ns=wait, synchronization_ns=sync, idle_ns=elapse - transit - wait, **where)


def test_communication_time_summary(run, rows):
    for rank, op, elapse, transit, wait, sync in ((0, "hcom_a", 100, 60, 30, 10), (0, "hcom_b", 50, 20, 20, 0),
                                                  (0, "Total Op Info", 150, 80, 50, 10), (1, "hcom_a", 90, 90, 0, 0)):
        _time_row(rank, op, elapse, transit, wait, sync)
    this = run_id("run")
    result = run("communication_time_summary")
    assert [(r["run_id"], r["rank_id"], r["op_count"], r["elapse_ns"], r["transit_ns"], r["wait_ns"],
             r["synchronization_ns"], r["idle_ns"]) for r in result] == [
        (this, 0, 2, 150, 80, 50, 10, 20), (this, 1, 1, 90, 90, 0, 0, 0)]
    assert result[0]["wait_ratio"] == pytest.approx(50 / 130)
    assert result[0]["synchronization_ratio"] == pytest.approx(10 / 90)
    assert result[1]["wait_ratio"] == 0


def test_communication_time_summary_counts_each_operator_once(run, rows):
    # rank 0: analysis.db and communication.json hold the same two operators (the db answers);
    # rank 1: communication.json and the cluster file (communication.json answers); rank 2: the cluster file only
    for kind in ("analysis_db", "communication_json"):
        _time_row(0, "hcom_a", 100, 60, 30, 10, kind=kind)
        _time_row(0, "hcom_b", 50, 20, 20, 0, kind=kind)
    _time_row(0, "Total Op Info", 150, 80, 50, 10, kind="communication_json")
    for kind in ("communication_json", "cluster_communication_json"):
        _time_row(1, "hcom_a", 90, 90, 0, 0, kind=kind)
    _time_row(2, "hcom_a", 70, 70, 0, 0, kind="cluster_communication_json")
    result = run("communication_time_summary")
    assert [(r["rank_id"], r["op_count"], r["elapse_ns"], r["transit_ns"], r["wait_ns"]) for r in result] == [
        (0, 2, 150, 80, 50), (1, 1, 90, 90, 0), (2, 1, 70, 70, 0)]


def test_communication_time_summary_keeps_runs_apart(run, rows):
    _time_row(0, "hcom_a", 100, 60, 30, 10)
    _time_row(0, "hcom_a", 400, 300, 100, 0, run_name="other")
    this, other = run_id("run"), run_id("other")
    assert [(r["run_id"], r["rank_id"], r["step_id"], r["op_count"], r["elapse_ns"])
            for r in run("communication_time_summary")] == [(this, 0, 3, 1, 100), (other, 0, 3, 1, 400)]
    assert [r["elapse_ns"] for r in run("communication_time_summary", run_id=other, rank_id=0)] == [400]


def test_communication_bandwidth_summary(run, rows):
    for op, transport, size, ns in (("hcom_a", "HCCS", 1000, 10), ("hcom_b", "HCCS", 3000, 30),
                                    ("hcom_a", "RDMA", 500, 50), ("Total Op Info", "HCCS", 4000, 40)):
        _export_row("communication_bandwidth", step_id=1, op_name=op, transport_type=transport,
                    transit_bytes=size, transit_ns=ns)
    # the same operators in the rank's analysis.db answer instead (bytes written as the db rounds them)
    for op, transport, size, ns in (("hcom_a", "HCCS", 1001, 10), ("hcom_b", "HCCS", 3001, 30),
                                    ("hcom_a", "RDMA", 501, 50)):
        _export_row("communication_bandwidth", kind="analysis_db", step_id=1, op_name=op, transport_type=transport,
                    transit_bytes=size, transit_ns=ns)
    # and another run's rank 0 is another answer
    _export_row("communication_bandwidth", run_name="other", step_id=1, op_name="hcom_a", transport_type="HCCS",
                transit_bytes=8000, transit_ns=80)
    this, other = run_id("run"), run_id("other")
    result = run("communication_bandwidth_summary", rank_id=0)
    assert [(r["run_id"], r["transport_type"], r["op_count"], r["transit_bytes"], r["transit_ns"],
             r["bandwidth_bytes_per_s"]) for r in result] == [
        (this, "HCCS", 2, 4002, 40, 100_050_000_000.0), (this, "RDMA", 1, 501, 50, 10_020_000_000.0),
        (other, "HCCS", 1, 8000, 80, 1e11)]
    assert [r["transit_bytes"] for r in run("communication_bandwidth_summary", run_id=other)] == [8000]


def _matrix_row(step, src, dst, size, ns, op="allreduce-top1", rank=None, **where):
    _export_row("communication_matrix", rank, **{"kind": "communication_matrix_json", **where}, step_id=step,
                op_name=op, src_rank=src, dst_rank=dst, transport_type="HCCS", transit_bytes=size, transit_ns=ns)


def test_communication_matrix_summary(run, rows):
    for step, src, dst, size, ns in ((1, 0, 1, 1000, 100), (2, 0, 1, 1000, 300), (1, 1, 0, 10, 1)):
        _matrix_row(step, src, dst, size, ns)
    _matrix_row(1, 0, 1, 9999, 1, op="Total Op Info")
    this = run_id("run")
    result = run("communication_matrix_summary")
    assert [(r["run_id"], r["src_rank"], r["dst_rank"], r["op_count"], r["transit_bytes"], r["transit_ns"],
             r["bandwidth_bytes_per_s"]) for r in result] == [(this, 0, 1, 2, 2000, 400, 5e9),
                                                              (this, 1, 0, 1, 10, 1, 1e10)]
    assert [r["transit_bytes"] for r in run("communication_matrix_summary", step_id=2)] == [1000]


def test_communication_matrix_summary_counts_each_pair_once(run, rows):
    # rank 0 holds analysis.db and communication_matrix.json (the db answers); the cluster file
    # (rank -1) repeats the ranks' own matrices: it answers only in a run without them
    _matrix_row(1, 0, 1, 1000, 100, rank=0, kind="analysis_db")
    _matrix_row(1, 0, 1, 1000, 100, rank=0, kind="communication_matrix_json")
    _matrix_row(1, 0, 1, 1000, 100, rank=-1, kind="cluster_communication_matrix_json")
    _matrix_row(1, 0, 1, 5000, 100, rank=-1, kind="cluster_communication_matrix_json", run_name="other")
    this, other = run_id("run"), run_id("other")
    assert [(r["run_id"], r["src_rank"], r["dst_rank"], r["op_count"], r["transit_bytes"])
            for r in run("communication_matrix_summary")] == [(this, 0, 1, 1, 1000), (other, 0, 1, 1, 5000)]
    assert [r["run_id"] for r in run("communication_matrix_summary", run_id=other)] == [other]


def test_interconnect_bandwidth_keeps_runs_apart(run, rows):
    # queries/interconnect: the link samples of rank 0 of two runs
    HccsFactory(rank_id=0, device_id=2, rx_throughput=100.0, tx_throughput=10.0)
    HccsFactory(rank_id=0, device_id=2, rx_throughput=300.0, tx_throughput=30.0)
    HccsFactory(rank_id=0, device_id=2, source_id=rank_source(0, run="other"), rx_throughput=1000.0,
                tx_throughput=1.0)
    this, other = run_id("run"), run_id("other")
    result = run("interconnect_bandwidth", kind="hccs")
    assert [(r["run_id"], r["kind"], r["rank_id"], r["device_id"], r["samples"], r["avg_rx_bytes_per_s"],
             r["max_tx_bytes_per_s"]) for r in result] == [
        (this, "hccs", 0, 2, 2, 200.0, 30.0), (other, "hccs", 0, 2, 1, 1000.0, 1.0)]
    assert [r["samples"] for r in run("interconnect_bandwidth", kind="hccs", run_id=other, rank_id=0)] == [1]


OUTPUT = "ASCEND_PROFILER_OUTPUT"


def test_a_rank_folder_with_analysis_db_and_communication_json_counts_each_collective_once(run, rows, tmp_path):
    """The issue's symptom: a rank folder holding both exports gave 30 ops where the file has 15."""
    folder = tmp_path / "cluster" / "rank2_ascend_pt" / OUTPUT
    communication = CommunicationJsonFactory(path=folder / "communication.json").document
    matrix = CommunicationMatrixFactory(path=folder / "communication_matrix.json").document
    AnalysisDbFactory(path=folder / "analysis.db", communication=communication, matrix=matrix)
    results = ingest_paths(rows, [Path(tmp_path / "cluster")])
    assert sorted((r.status, Path(r.path).name) for r in results) == [
        ("ok", "analysis.db"), ("ok", "communication.json"), ("ok", "communication_matrix.json")]
    # both inputs hold the two operators of step 50 (the JSON also its 'Total Op Info' rows)
    assert rows.execute("SELECT s.kind, count(*) FROM communication_time AS t JOIN source AS s ON s.id = t.source_id "
                        "WHERE t.op_name <> 'Total Op Info' GROUP BY s.kind ORDER BY s.kind").fetchall() == [
        ("analysis_db", 2), ("communication_json", 2)]
    (this,) = {r[0] for r in rows.execute("SELECT run_id FROM source")}

    (summary,) = run("communication_time_summary")
    # Elapse Time 79.08952021875 ms and Transit Time 0.23918478124999998 ms per operator, in ns
    assert (summary["run_id"], summary["rank_id"], summary["step_id"], summary["op_count"]) == (this, 2, 50, 2)
    assert summary["elapse_ns"] == pytest.approx(2 * 79.08952021875e6, abs=2)
    assert summary["transit_ns"] == pytest.approx(2 * 0.23918478124999998e6, abs=2)

    # the HCCS bytes once: 28.647232 MB per operator; RDMA moved nothing and is not written by the db
    (hccs,) = run("communication_bandwidth_summary")
    assert (hccs["transport_type"], hccs["op_count"]) == ("HCCS", 2)
    one = rows.execute("SELECT transit_bytes FROM communication_bandwidth WHERE transport_type = 'HCCS' "
                       "AND op_name <> 'Total Op Info' ORDER BY source_id LIMIT 1").fetchone()[0]
    assert hccs["transit_bytes"] == 2 * one and one > 28_000_000

    assert [(r["src_rank"], r["dst_rank"], r["transport_type"], r["op_count"])
            for r in run("communication_matrix_summary")] == [(0, 0, "LOCAL", 1), (0, 1, "HCCS", 1)]
