"""The communication queries (queries/communication/*.sql) on rank-db and cluster-export rows."""

from __future__ import annotations

import pytest

from factories.warehouse_rows import (
    CommunicationOpFactory, CommunicationTaskFactory, SliceFactory, SourceFactory, insert,
)


def test_communication_ops(run, rows):
    for rank, op_type, dur in ((0, "hcom_allReduce_", 100), (0, "hcom_allReduce_", 300), (0, "hcom_broadcast_", 50),
                               (1, "hcom_allReduce_", 80)):
        CommunicationOpFactory(rank_id=rank, op_type=op_type, dur=dur)
    result = run("communication_ops")
    assert [(r["rank_id"], r["name"], r["count"], r["total_ns"], r["avg_ns"], r["max_ns"]) for r in result] == [
        (0, "hcom_allReduce_", 2, 400, 200, 300),
        (0, "hcom_broadcast_", 1, 50, 50, 50),
        (1, "hcom_allReduce_", 1, 80, 80, 80),
    ]
    assert len(run("communication_ops", rank_id=1)) == 1


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
    result = run("communication_matrix", group_name="group_a")
    assert result == [
        {"src_rank": 0, "dst_rank": 1, "transport_type": "SDMA", "link_type": "HCCS", "task_count": 2,
         "total_bytes": 4000, "total_ns": 5000, "bandwidth_bytes_per_s": pytest.approx(0.8e9)},
        {"src_rank": 1, "dst_rank": 0, "transport_type": "RDMA", "link_type": "ROCE", "task_count": 1,
         "total_bytes": 500, "total_ns": None, "bandwidth_bytes_per_s": None},
    ]
    assert len(run("communication_matrix")) == 2 and run("communication_matrix")[0]["total_bytes"] == 4099


def _export_row(table: str, **values):
    insert(table, {"source_id": SourceFactory()["id"], **values})


def test_communication_time_summary(run, rows):
    for rank, op, elapse, transit, wait, sync in ((0, "hcom_a", 100, 60, 30, 10), (0, "hcom_b", 50, 20, 20, 0),
                                                  (0, "Total Op Info", 150, 80, 50, 10), (1, "hcom_a", 90, 90, 0, 0)):
        _export_row("communication_time", rank_id=rank, step_id=3, op_name=op, elapse_ns=elapse, transit_ns=transit,
                    wait_ns=wait, synchronization_ns=sync, idle_ns=elapse - transit - wait)
    result = run("communication_time_summary")
    assert [(r["rank_id"], r["op_count"], r["elapse_ns"], r["transit_ns"], r["wait_ns"], r["synchronization_ns"],
             r["idle_ns"]) for r in result] == [(0, 2, 150, 80, 50, 10, 20), (1, 1, 90, 90, 0, 0, 0)]
    assert result[0]["wait_ratio"] == pytest.approx(50 / 130)
    assert result[0]["synchronization_ratio"] == pytest.approx(10 / 90)
    assert result[1]["wait_ratio"] == 0


def test_communication_bandwidth_summary(run, rows):
    for op, transport, size, ns in (("hcom_a", "HCCS", 1000, 10), ("hcom_b", "HCCS", 3000, 30),
                                    ("hcom_a", "RDMA", 500, 50), ("Total Op Info", "HCCS", 4000, 40)):
        _export_row("communication_bandwidth", rank_id=0, step_id=1, op_name=op, transport_type=transport,
                    transit_bytes=size, transit_ns=ns)
    result = run("communication_bandwidth_summary", rank_id=0)
    assert [(r["transport_type"], r["op_count"], r["transit_bytes"], r["transit_ns"], r["bandwidth_bytes_per_s"])
            for r in result] == [("HCCS", 2, 4000, 40, 1e11), ("RDMA", 1, 500, 50, 1e10)]


def test_communication_matrix_summary(run, rows):
    for step, src, dst, size, ns in ((1, 0, 1, 1000, 100), (2, 0, 1, 1000, 300), (1, 1, 0, 10, 1)):
        _export_row("communication_matrix", step_id=step, op_name="allreduce-top1", src_rank=src, dst_rank=dst,
                    transport_type="HCCS", transit_bytes=size, transit_ns=ns)
    _export_row("communication_matrix", step_id=1, op_name="Total Op Info", src_rank=0, dst_rank=1,
                transport_type="HCCS", transit_bytes=9999, transit_ns=1)
    result = run("communication_matrix_summary")
    assert [(r["src_rank"], r["dst_rank"], r["op_count"], r["transit_bytes"], r["transit_ns"],
             r["bandwidth_bytes_per_s"]) for r in result] == [(0, 1, 2, 2000, 400, 5e9), (1, 0, 1, 10, 1, 1e10)]
    assert [r["transit_bytes"] for r in run("communication_matrix_summary", step_id=2)] == [1000]
