"""communication_matrix.json into ``communication_matrix``."""

from __future__ import annotations

from tests.factories.text_exports import CommunicationMatrixFactory
from warehouse.ingest import ingest_file
from warehouse.sources import communication_json, communication_matrix


def test_links(warehouse_db, tmp_path):
    path = tmp_path / "rank0_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / "communication_matrix.json"
    CommunicationMatrixFactory(path=path)
    assert communication_matrix.detect(path) and not communication_json.detect(path)
    result = ingest_file(warehouse_db, path)
    assert (result.status, result.kind, result.rows) == ("ok", "communication_matrix_json", 2)
    assert warehouse_db.execute(
        "SELECT source_row, rank_id, step_id, comm_type, op_name, group_name, link, src_rank, dst_rank, "
        "transport_type, transit_bytes, transit_ns, bandwidth_bytes_per_s, task_op_name FROM communication_matrix "
        "ORDER BY source_row").fetchall() == [
        (1, 0, 50, "collective", "allreduce-top1", "17522688603477080586", "0-0", 0, 0, "LOCAL", 4128776, 8220,
         502274600000, "hcom_allReduce__586_0_1"),
        (2, 0, 50, "collective", "allreduce-top1", "17522688603477080586", "0-1", 0, 1, "HCCS", 37781504, 2153383,
         17545200000, "hcom_allReduce__586_2_1"),
    ]
