"""cluster_communication_matrix.json into ``communication_matrix``."""

from __future__ import annotations

from tests.factories.text_exports import ClusterCommunicationMatrixFactory
from warehouse.ingest import ingest_file
from warehouse.sources import cluster_communication_matrix, communication_matrix


def test_links_of_all_ranks(warehouse_db, tmp_path):
    path = tmp_path / "cluster_communication_matrix.json"
    ClusterCommunicationMatrixFactory(path=path)
    assert cluster_communication_matrix.detect(path) and not communication_matrix.detect(path)
    result = ingest_file(warehouse_db, path)
    assert (result.status, result.kind, result.rows) == ("ok", "cluster_communication_matrix_json", 3)
    assert warehouse_db.execute(
        "SELECT source_row, rank_id, step_id, comm_type, op_name, group_name, src_rank, dst_rank, transport_type, "
        "transit_bytes, transit_ns, bandwidth_bytes_per_s, task_op_name FROM communication_matrix "
        "ORDER BY source_row").fetchall() == [
        (1, -1, 2, "p2p", "hcom_send__822_0", "13337953553061386822", 0, 0, "LOCAL", 20971520, 27553, 761138300000,
         None),
        (2, -1, 2, "p2p", "hcom_send__822_0", "13337953553061386822", 0, 8, "RDMA", 20971520, 863815, 24277800000,
         None),
        (3, -1, 2, "p2p", "Total Op Info", None, 0, 8, "RDMA", 20971520, 863815, 24277800000, None),
    ]
