"""A capture's metadata files into ``capture_info``: msprof's start_info / end_info / info.json of a device,
MindSpore's host_start.log, its older profiler's min_cycle_counter and step_trace_point_info, msprof's .done marks
(reconciled with the files they mark: done_marks_agree)."""

from __future__ import annotations

import json

import pytest

from tests.factories.capture import (
    DoneMarkFactory,
    HostStartLogFactory,
    MinCycleCounterFactory,
    PointInfoFactory,
    StartInfoFactory,
)
from tests.factories.cluster_outputs import ProfFolderFactory
from tests.sources.audit_examples import audit_examples
from tests.sources.mindspore_hostile import assert_fails_naming
from warehouse.ingest import ingest_file, ingest_paths

VALUES = "SELECT source_row, rank_id, key, value FROM capture_info WHERE source_id = ? ORDER BY source_row"


def test_start_info_s_values_on_the_device_of_its_folder(warehouse_db, tmp_path):
    prof = ProfFolderFactory(root=tmp_path, rank_id=5, host_rank_id=5, device_ids=(2,))
    written = StartInfoFactory(path=prof.devices[2] / "start_info.2")
    result = ingest_file(warehouse_db, written.path)
    assert (result.status, result.kind, result.rows) == ("ok", "capture_info_json", 3)
    # the rank info.json.2 beside it says, the device its folder
    assert warehouse_db.execute(VALUES, (result.source_id,)).fetchall() == [
        (1, 5, "collectionDateBegin", "2023-08-18 14:27:04.324979"), (2, 5, "collectionTimeBegin", "1692340024324979"),
        (3, 5, "clockMonotonicRaw", "56579931060630")]
    assert warehouse_db.execute("SELECT rank_id, device_id FROM source").fetchone() == (5, 2)


def test_an_info_json_s_nested_values_by_path(warehouse_db, tmp_path):
    path = tmp_path / "info.json.0"
    path.write_text(json.dumps({"rank_id": 0, "DeviceInfo": [{"ai_core_num": 32, "hwts_frequency": "100"}],
                                "netCard": [], "ok": True, "cycle": 0.25, "none": None}, separators=(",", ":")))
    result = ingest_file(warehouse_db, path)
    assert warehouse_db.execute("SELECT key, value FROM capture_info ORDER BY source_row").fetchall() == [
        ("rank_id", "0"), ("DeviceInfo[0].ai_core_num", "32"), ("DeviceInfo[0].hwts_frequency", "100"),
        ("netCard", "[]"), ("ok", "true"), ("cycle", "0.25"), ("none", None)]
    assert result.rows == 7


def test_host_start_log_s_clocks_by_section(warehouse_db, tmp_path):
    written = HostStartLogFactory(path=tmp_path / "host_start.log.3", device=3)
    result = ingest_file(warehouse_db, written.path)
    assert (result.status, result.kind, result.rows) == ("ok", "mindspore_host_start_log", 2)
    assert warehouse_db.execute(VALUES, (result.source_id,)).fetchall() == [
        (2, 3, "Device3.clock_realtime", "1591183963784568740"), (3, 3, "Device3.clock_monotonic_raw", "261003032627")]


def test_the_older_profiler_s_first_cycle_counter_as_written(warehouse_db, tmp_path):
    """MindInsight's run_1 min_cycle_counter_1.txt (the factory writes it whole): 43806841592.0, no line end."""
    written = MinCycleCounterFactory(path=tmp_path / "min_cycle_counter_1.txt")
    assert written.data == b"43806841592.0"
    result = ingest_file(warehouse_db, written.path)
    assert (result.status, result.kind, result.rows) == ("ok", "mindspore_min_cycle_counter_txt", 1)
    assert warehouse_db.execute(VALUES, (result.source_id,)).fetchall() == [(1, 1, "min_cycle_counter", "43806841592.0")]
    assert warehouse_db.execute("SELECT rank_id, device_id FROM source").fetchone() == (1, 1)


@pytest.mark.parametrize(("name", "rank"), [("step_trace_point_info.json", -1), ("step_trace_point_info_3.json", 3)])
def test_the_step_s_point_operators_as_mindinsight_reads_them(warehouse_db, tmp_path, name, rank):
    """MindInsight's run_1 step_trace_point_info.json (the factory writes it whole): tests/st/func/profiler/
    test_analyse.py expects {'fp_start': 'Default/Cast-op6', 'bp_end': 'Default/TransData-op7'}. The older name
    names no device (the folders' rank: none here), the later one does."""
    written = PointInfoFactory(path=tmp_path / name)
    assert written.data == b'{"fp_start": "Default/Cast-op6", "bp_end": "Default/TransData-op7"}'
    result = ingest_file(warehouse_db, written.path)
    assert (result.status, result.kind, result.rows) == ("ok", "mindspore_point_info_json", 2)
    assert warehouse_db.execute(VALUES, (result.source_id,)).fetchall() == [
        (1, rank, "fp_start", "Default/Cast-op6"), (2, rank, "bp_end", "Default/TransData-op7")]


def test_a_done_mark_agrees_with_the_file_it_marks(warehouse_db, tmp_path):
    written = StartInfoFactory(path=tmp_path / "device_0" / "start_info.0")
    DoneMarkFactory(path=tmp_path / "device_0" / "start_info.0.done", rows=[len(written.data)])
    DoneMarkFactory(path=tmp_path / "device_0" / "end_info.0.done", rows=[126])
    results = ingest_paths(warehouse_db, [tmp_path / "device_0"])
    assert sorted((r.path.name, r.kind, r.rows) for r in results) == [
        ("end_info.0.done", "done_mark", 1), ("start_info.0", "capture_info_json", 3),
        ("start_info.0.done", "done_mark", 1)]
    # the end_info it marks is missing: nothing to compare
    assert audit_examples(warehouse_db, "done_marks_agree") == []
    StartInfoFactory(path=tmp_path / "device_0" / "end_info.0", rows=[{"collectionTimeEnd": "1"}])
    DoneMarkFactory(path=tmp_path / "device_0" / "end_info.0.done", rows=[126])
    ingest_paths(warehouse_db, [tmp_path / "device_0"])
    assert [row[3:] for row in audit_examples(warehouse_db, "done_marks_agree")] == [
        (str(tmp_path / "device_0" / "end_info.0"), 126, 25)]


def test_an_empty_mark_of_a_framework_file_is_read_and_keeps_no_row(warehouse_db, tmp_path):
    """MindInsight's JOB1/Framework.host.vm.graph_desc_info.0.slice_0.done: zero bytes beside the 946-byte file it
    marks; its framework parser passes over the .done names. Only a Framework file's mark may be empty."""
    folder = tmp_path / "JOB1"
    mark = DoneMarkFactory(path=folder / "Framework.host.vm.graph_desc_info.0.slice_0.done", data=b"")
    other = DoneMarkFactory(path=folder / "start_info.0.done", data=b"")
    assert mark.path.stat().st_size == 0
    result = ingest_file(warehouse_db, mark.path)
    assert (result.status, result.kind, result.rows) == ("ok", "done_mark", 0)
    assert warehouse_db.execute("SELECT count(*) FROM capture_info").fetchone() == (0,)
    assert audit_examples(warehouse_db, "done_marks_agree") == []
    assert ingest_file(warehouse_db, other.path).status != "ok"


@pytest.mark.parametrize(("factory", "name", "data", "reason", "table"), [
    (StartInfoFactory, "start_info.0", b"[1, 2]", "top level: expected an object", "capture_info"),
    (HostStartLogFactory, "host_start.log.0", b"[Device0]\nclock_realtime 1\n", "line 2: expected '[<section>]'",
     "capture_info"),
    (DoneMarkFactory, "x.done", b"filesize:12x\n", "byte 0: expected 'filesize:<bytes>'", "capture_info"),
    (DoneMarkFactory, "Framework.host.vm.point.0.slice_0.done", b"filesize:\n", "byte 0: expected 'filesize:<bytes>'",
     "capture_info"),
    (DoneMarkFactory, "x.done", b"filesize:9999999999999999999\n", "byte 9: number out of range", "capture_info"),
    (MinCycleCounterFactory, "min_cycle_counter_0.txt", b"43806841592.0 43806841593.0",
     "byte 0: expected one cycle counter", "capture_info"),
    (PointInfoFactory, "step_trace_point_info.json", b'{"fp_start": "Default/Cast-op6"', "byte 31: invalid JSON",
     "capture_info"),
])
def test_a_hostile_file_fails_naming_the_place(warehouse_db, tmp_path, factory, name, data, reason, table):
    written = factory(path=tmp_path / name)
    assert_fails_naming(warehouse_db, written.path, data, reason, table)


def test_the_real_files(warehouse_db, realdata):
    """MindInsight's PROF folder (start_info, end_info, info.json and their marks) and JOB3's host_start.log:
    figures read in the files; each mark's filesize the size of the file it marks (130, 126, 1021 bytes)."""
    device = realdata / "mindinsight" / "PROF_000001_20230818142704322_COJGGGCANRMICFBC" / "device_0"
    ingest_paths(warehouse_db, [device / name for name in ("start_info.0", "end_info.0", "info.json.0",
                                                           "start_info.0.done", "end_info.0.done",
                                                           "info.json.0.done")])
    info = dict(warehouse_db.execute("SELECT key, value FROM capture_info"))
    assert (info["collectionTimeBegin"], info["collectionTimeEnd"]) == ("1692340024324979", "1692340082430569")
    assert (info["hostname"], info["rank_id"], info["DeviceInfo[0].ai_core_num"]) == ("A2007104679", "0", "32")
    assert audit_examples(warehouse_db, "done_marks_agree") == []
    assert warehouse_db.execute(
        "SELECT count(*) FROM capture_info WHERE key = 'filesize' AND value IN ('130', '126', '1021')").fetchone() == (3,)
    result = ingest_file(warehouse_db, realdata / "mindinsight" / "JOB3" / "host_start.log.1")
    assert warehouse_db.execute(VALUES, (result.source_id,)).fetchall() == [
        (2, 1, "Device0.clock_realtime", "1591183963784568740"), (3, 1, "Device0.clock_monotonic_raw", "261003032627")]
