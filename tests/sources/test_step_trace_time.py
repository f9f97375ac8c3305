"""step_trace_time.csv into ``step_trace_time``."""

from __future__ import annotations

from tests.factories.text_exports import STEP_TRACE_HEADER, StepTraceTimeFactory
from warehouse.ingest import ingest_file
from warehouse.sources import cluster_step_trace_time, step_trace_time


def test_values_units_and_rank(warehouse_db, tmp_path):
    path = tmp_path / "rank1_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / "step_trace_time.csv"
    StepTraceTimeFactory(path=path)
    result = ingest_file(warehouse_db, path)
    assert (result.status, result.kind, result.rows) == ("ok", "step_trace_time_csv", 1)
    assert warehouse_db.execute(
        "SELECT source_row, rank_id, step_id, scope, scope_key, computing_ns, communication_not_overlapped_ns, "
        "overlapped_ns, communication_ns, free_ns, stage_ns, bubble_ns, "
        "communication_not_overlapped_exclude_receive_ns, preparing_ns FROM step_trace_time"
    ).fetchall() == [(1, 1, 50, "rank", "1", 8873756, 101963203, 4028675, 105991878, 25744050, 136581000, 0,
                      101963203, 17902500)]


def test_older_file_without_preparing_and_empty_step(warehouse_db, tmp_path):
    path = tmp_path / "step_trace_time.csv"
    row = {"Step": "", "Computing": "1.5", "Communication(Not Overlapped)": "2", "Free": "3"}
    StepTraceTimeFactory(path=path, header=STEP_TRACE_HEADER[:-1], rows=[row])
    assert ingest_file(warehouse_db, path).status == "ok"
    assert warehouse_db.execute("SELECT step_id, computing_ns, preparing_ns FROM step_trace_time").fetchall() == [
        (None, 1500, None)]


def test_rank_file_is_not_the_cluster_file(tmp_path):
    path = tmp_path / "step_trace_time.csv"
    StepTraceTimeFactory(path=path)
    assert step_trace_time.detect(path) and not cluster_step_trace_time.detect(path)
