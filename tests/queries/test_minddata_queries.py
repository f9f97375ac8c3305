"""The MindData queries (queries/mindspore/minddata_*.sql) on a profiler folder of MindData files.

The queue summary's figures are MindInsight's analyse_queue_summary on the same records
(mindinsight/profiler/analyser/minddata_analyser.py: empty and full steps of the device queue, the
GetNext calls that found their queue empty).
"""

from __future__ import annotations

import pytest

from factories.minddata import CpuUtilizationFactory, DeviceQueueFactory, GetNextFactory, PipelineProfilingFactory
from warehouse.ingest import ingest_paths


@pytest.fixture
def folder(run, rows, tmp_path):
    """A profiler folder of device 0's MindData files, ingested."""
    profiler = tmp_path / "profiler"
    DeviceQueueFactory(path=profiler / "device_queue_profiling_0.txt")
    GetNextFactory(path=profiler / "minddata_aicpu_0.txt")
    PipelineProfilingFactory(path=profiler / "pipeline_profiling_0.json")
    CpuUtilizationFactory(path=profiler / "minddata_cpu_utilization_0.json")
    ingest_paths(rows, [profiler])
    return rows.execute("SELECT DISTINCT run_id FROM source").fetchone()[0]


def test_minddata_queue_summary(run, folder):
    (summary,) = run("minddata_queue_summary", run_id=folder)
    assert (summary["steps"], summary["empty_steps"], summary["full_steps"], summary["empty_share"]) == (4, 2, 1, 0.5)
    assert (summary["avg_get_ns"], summary["avg_push_ns"], summary["avg_total_ns"]) == (5_500_000, 3_250_000, 8_750_000)
    assert (summary["get_next_batches"], summary["get_next_empty"]) == (3, 0)
    assert summary["get_next_avg_wait_ns"] == pytest.approx(2000 / 3)


def test_minddata_queue_lists_the_steps(run, folder):
    assert [(r["step_id"], r["queue_size"], r["is_empty"], r["is_full"], r["total_ns"])
            for r in run("minddata_queue", rank_id=0)] == [
        (1, 0, 1, 0, 16_000_000), (2, 8, 0, 0, 4_000_000), (3, 0, 1, 0, 13_000_000), (4, 64, 0, 1, 2_000_000)]
    assert run("minddata_queue", rank_id=1) == []


def test_minddata_pipeline_lists_the_operators_with_their_queues(run, folder):
    assert [(r["op_id"], r["op_type"], r["parent_op_id"], r["children"], r["queue_usage_rate"], r["max_child_usage_rate"])
            for r in run("minddata_pipeline", run_id=folder)] == [
        (0, "BatchOp", None, 1, 0.015625, 0.0), (1, "MapOp", 0, 1, 0.0, 0.15625), (2, "MapOp", 1, 1, 0.15625, 0.0),
        (3, "ImageFolderOp", 2, 0, 0.0, None)]


def test_minddata_cpu_averages_each_series(run, folder):
    result = {(r["scope"], r["op_id"], r["metric"]): (r["samples"], r["avg_value"], r["max_value"])
              for r in run("minddata_cpu", run_id=folder)}
    assert result[("device", None, "idle_utilization")] == (3, 15.0, 20.0)
    assert result[("process", None, "user_utilization")] == (3, 30.0, 35.0)
    assert result[("op", 1, "user_utilization")] == (3, 12.0, 14.0)
    assert len(result) == 12
