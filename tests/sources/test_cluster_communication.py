"""cluster_communication.json into ``communication_time`` / ``communication_bandwidth``, rank from the key."""

from __future__ import annotations

from tests.factories.text_exports import ClusterCommunicationFactory, CommunicationEntryFactory
from warehouse.ingest import ingest_file
from warehouse.sources import cluster_communication, communication_json


def test_rows_per_rank(warehouse_db, tmp_path):
    path = tmp_path / "cluster_analysis_output" / "cluster_communication.json"
    ClusterCommunicationFactory(path=path)
    assert cluster_communication.detect(path) and not communication_json.detect(path)
    result = ingest_file(warehouse_db, path)
    assert (result.status, result.kind, result.rows) == ("ok", "cluster_communication_json", 2 + 4)
    assert warehouse_db.execute(
        "SELECT source_row, rank_id, step_id, comm_type, op_name, group_name, elapse_ns FROM communication_time "
        "ORDER BY source_row").fetchall() == [
        (1, 0, 2, "p2p", "hcom_send__822_0", "13337953553061386822", 79089520),
        (2, 8, 2, "p2p", "hcom_send__822_0", "13337953553061386822", 79089520),
    ]
    assert warehouse_db.execute(
        "SELECT rank_id, count(*) FROM communication_bandwidth GROUP BY rank_id").fetchall() == [(0, 2), (8, 2)]


def test_rank_key_must_be_a_number(warehouse_db, tmp_path):
    path = tmp_path / "cluster_communication.json"
    ClusterCommunicationFactory(path=path, document={"p2p": {"step2": {"op@1": {"x": CommunicationEntryFactory()}}}})
    result = ingest_file(warehouse_db, path)
    assert result.error == f"{path}: p2p/step2/op@1/x: rank key 'x' is not a number"
