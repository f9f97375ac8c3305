"""cluster_step_trace_time.csv into ``step_trace_time``: rank rows and stage rows."""

from __future__ import annotations

from tests.factories.text_exports import ClusterStepTraceTimeFactory
from warehouse.ingest import ingest_file
from warehouse.sources import cluster_step_trace_time, step_trace_time


def test_rank_and_stage_rows(warehouse_db, tmp_path):
    path = tmp_path / "cluster_analysis_output" / "cluster_step_trace_time.csv"
    ClusterStepTraceTimeFactory(path=path)
    assert step_trace_time.detect(path) is False and cluster_step_trace_time.detect(path)
    result = ingest_file(warehouse_db, path)
    assert (result.status, result.kind, result.rows) == ("ok", "cluster_step_trace_time_csv", 2)
    assert warehouse_db.execute(
        "SELECT source_row, rank_id, step_id, scope, scope_key, computing_ns, stage_ns, preparing_ns "
        "FROM step_trace_time ORDER BY source_row"
    ).fetchall() == [
        (1, 3, 2, "rank", "3", 75174500, 5000, None),
        (2, -1, 2, "stage", "(0, 1, 2, 3)", 76310940, 304017500, None),
    ]
