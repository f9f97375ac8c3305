"""communication.json into ``communication_time`` and ``communication_bandwidth``."""

from __future__ import annotations

import json

from tests.factories.text_exports import CommunicationEntryFactory, CommunicationJsonFactory, ProfilerInfoFactory
from warehouse.ingest import ingest_file
from warehouse.sources import cluster_communication, communication_json, communication_matrix


def test_time_and_bandwidth_rows(warehouse_db, tmp_path):
    folder = tmp_path / "host_1234_20250101_ascend_pt"
    # no rank in the folder name: the rank comes from profiler_info_{N}.json beside it
    ProfilerInfoFactory(path=folder / "profiler_info_3.json")
    path = folder / "ASCEND_PROFILER_OUTPUT" / "communication.json"
    CommunicationJsonFactory(path=path)
    result = ingest_file(warehouse_db, path)
    assert (result.status, result.kind, result.rows) == ("ok", "communication_json", 2 + 4)
    assert warehouse_db.execute(
        "SELECT source_row, rank_id, step_id, comm_type, op_name, group_name, ts, elapse_ns, transit_ns, wait_ns, "
        "synchronization_ns, idle_ns, wait_ratio, synchronization_ratio FROM communication_time ORDER BY source_row"
    ).fetchall()[0] == (1, 3, 50, "collective", "hcom_allReduce__586_0_1", "17522688603477080586",
                        1736408883732241500, 79089520, 239185, 5646633, 5615692, 73203703, 0.9594, 0.9591)
    rows = warehouse_db.execute(
        "SELECT source_row, rank_id, op_name, transport_type, transit_bytes, transit_ns, bandwidth_bytes_per_s, "
        "large_packet_ratio, size_distribution FROM communication_bandwidth ORDER BY source_row").fetchall()
    assert [row[:8] for row in rows[:2]] == [
        (1, 3, "hcom_allReduce__586_0_1", "HCCS", 28647232, 1816836, 15767600000, 0.0),
        (2, 3, "hcom_allReduce__586_0_1", "RDMA", 0, 0, 0, 0.0),
    ]
    assert json.loads(rows[0][8]) == {"2.064384": [12, 1.578891625]}
    assert [row[0] for row in rows] == [1, 2, 3, 4]


def test_detection(tmp_path):
    path = tmp_path / "communication.json"
    CommunicationJsonFactory(path=path)
    assert communication_json.detect(path)
    assert not communication_matrix.detect(path) and not cluster_communication.detect(path)
    trace = tmp_path / "trace_view.json"
    trace.write_text(json.dumps({"traceEvents": [{"ph": "X", "name": "Communication Time Info"}]}))
    assert not communication_json.detect(trace)


def test_entry_that_is_not_an_object_names_its_place(warehouse_db, tmp_path):
    path = tmp_path / "communication.json"
    CommunicationJsonFactory(path=path, document={"step1": {"collective": {
        "a@1": CommunicationEntryFactory(), "b@1": {"Communication Time Info": [1, 2]}}}})
    result = ingest_file(warehouse_db, path)
    assert result.status == "failed"
    assert result.error == f"{path}: step1/collective/b@1/Communication Time Info: expected an object, found list"


def test_a_step_without_operators_is_read_as_what_its_name_says(warehouse_db, tmp_path):
    empty = {"step3": {"p2p": {}, "collective": {}}}
    timing = CommunicationJsonFactory(path=tmp_path / "a" / "communication.json", document=empty).path
    matrix = CommunicationJsonFactory(path=tmp_path / "b" / "communication_matrix.json", document=empty).path
    assert communication_json.detect(timing) and not communication_matrix.detect(timing)
    assert communication_matrix.detect(matrix) and not communication_json.detect(matrix)
    result = ingest_file(warehouse_db, timing)
    assert (result.status, result.kind, result.rows) == ("ok", "communication_json", 0)
