"""cluster_communication.json into ``communication_time`` / ``communication_bandwidth``, rank from the key."""

from __future__ import annotations

from tests.factories.cluster_outputs import GROUP, OP, GroupCommunicationFactory
from tests.factories.text_exports import ClusterCommunicationFactory, CommunicationEntryFactory, link
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


def test_layout_keyed_by_the_groups_ranks(warehouse_db, tmp_path):
    """msprof-analyze's ``{"(0, 1)": {step: {"<op>@<group>": {rank: entry}}}}``: same rows, no comm type."""
    path = tmp_path / "cluster_analysis_output" / "cluster_communication.json"
    GroupCommunicationFactory(path=path)
    assert cluster_communication.detect(path) and not communication_json.detect(path)
    result = ingest_file(warehouse_db, path)
    # 2 operators (the allReduce and its 'Total Op Info') x 2 ranks; bandwidth: rank 0 HCCS + RDMA, rank 1 HCCS
    assert (result.status, result.kind, result.rows) == ("ok", "cluster_communication_json", 4 + 6)
    assert warehouse_db.execute("SELECT rank_id FROM source").fetchall() == [(None,)]
    assert warehouse_db.execute(
        "SELECT source_row, rank_id, step_id, comm_type, op_name, group_name, ts, elapse_ns, wait_ns, wait_ratio, "
        "synchronization_ratio FROM communication_time ORDER BY source_row").fetchall() == [
        (1, 0, 2, None, OP, GROUP, 1736408883732241500, 79089520, 5646633, 0.9594, 0.9591),
        (2, 1, 2, None, OP, GROUP, 1736408883732300500, 1500000, 1000000, 0.6667, 0.3333),
        (3, 0, 2, None, "Total Op Info", GROUP, 1736408883732241500, 79089520, 5646633, 0.9594, 0.9591),
        (4, 1, 2, None, "Total Op Info", GROUP, 1736408883732300500, 1500000, 1000000, 0.6667, 0.3333),
    ]
    assert warehouse_db.execute(
        "SELECT rank_id, op_name, transport_type, transit_bytes, transit_ns, bandwidth_bytes_per_s "
        "FROM communication_bandwidth WHERE op_name = ? ORDER BY source_row", (OP,)).fetchall() == [
        (0, OP, "HCCS", 28647232, 1816836, 15767600000),
        (0, OP, "RDMA", 0, 0, 0),
        (1, OP, "HCCS", 2000000, 500000, 4000000000),
    ]


def test_group_layout_edge_keys(warehouse_db, tmp_path):
    # a group the analysis did not find is written '()'; a one-rank group '(3,)'
    path = tmp_path / "a" / "cluster_communication.json"
    GroupCommunicationFactory(path=path, document={
        "()": {"step7": {"hcom_broadcast__1_0@9": {"5": CommunicationEntryFactory()}}},
        "(3,)": {"step7": {"hcom_send__1_0@8": {"3": CommunicationEntryFactory()}}},
    })
    assert ingest_file(warehouse_db, path).status == "ok"
    assert warehouse_db.execute(
        "SELECT rank_id, step_id, comm_type, op_name, group_name FROM communication_time ORDER BY source_row"
    ).fetchall() == [(5, 7, None, "hcom_broadcast__1_0", "9"), (3, 7, None, "hcom_send__1_0", "8")]
    # a top key that is neither a type nor a rank set fails, naming it
    path = tmp_path / "b" / "cluster_communication.json"
    GroupCommunicationFactory(path=path, document={
        "(0, 1)": {"step2": {"op@1": {"0": CommunicationEntryFactory()}}},
        "group0": {"step2": {"op@1": {"0": CommunicationEntryFactory()}}},
    })
    result = ingest_file(warehouse_db, path)
    assert result.error == f"{path}: group0: top-level key 'group0' is neither p2p/collective nor a group's ranks"


def test_group_layout_matrix_is_not_taken_for_the_time_file(tmp_path):
    path = tmp_path / "cluster_communication_matrix.json"
    GroupCommunicationFactory(path=path, document={"(0, 1)": {"step2": {f"allreduce-top1@{GROUP}": {
        "0-1": link("HCCS", 37.781504, 2.153383, 17.5452, OP)}}}})
    assert not cluster_communication.detect(path)
    empty = tmp_path / "cluster_communication.json"
    GroupCommunicationFactory(path=empty, document={"(0, 1)": {"step2": {}}})
    assert cluster_communication.detect(empty)  # no entry to tell: the name does
