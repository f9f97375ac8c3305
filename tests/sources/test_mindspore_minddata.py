"""MindSpore's data pipeline files (MindData) into ``mindspore_minddata_op``, ``mindspore_minddata_cpu``,
``mindspore_device_queue`` and ``mindspore_get_next``; the views minddata_op_queue and minddata_step_queue;
the audit mindspore_minddata_agrees.

Expected figures cite MindInsight's tests (mindspore-ai/mindinsight @ e233ee19a350) where they state
them for the same bytes: tests/ut/profiler/analyser/test_minddata_analyse.py and
tests/st/func/profiler/test_minddata_analyse.py (run_2's device_queue_profiling_1.txt, whose bytes
our real device_queue_profiling_0.txt has, sha256 bd60136e91578f65, and its minddata_aicpu_1.txt,
which GetNextFactory writes), tests/st/func/profiler/test_minddata_pipeline_analyser.py (run_1's
minddata_pipeline_raw_1.csv, written from the pipeline_profiling_1.json our real sample has).
"""

from __future__ import annotations

import pytest

from tests.factories.minddata import (
    CpuUtilizationFactory,
    DeviceQueueFactory,
    GetNextFactory,
    PipelineCsvFactory,
    PipelineProfilingFactory,
)
from tests.sources.mindspore_hostile import assert_fails_naming
from warehouse import audits
from warehouse.ingest import ingest_file, ingest_paths

OPS = ("SELECT op_id, op_type, num_workers, parent_op_id, children_ids, queue_sizes, queue_average_size, queue_length, "
       "queue_usage_rate, sample_interval_ms FROM mindspore_minddata_op WHERE source_id = ? ORDER BY op_id")
VIEW = ("SELECT rank_id, op_id, op_type, queue_average_size, queue_length, queue_usage_rate, sample_interval_ms, "
        "parent_op_id, children FROM minddata_op_queue ORDER BY rank_id, op_id")


def agreement(conn) -> list[tuple]:
    audit = {audit.name: audit for audit in audits.load_audits()}["mindspore_minddata_agrees"]
    return audits.run_audit(conn, audit).examples


def test_the_pipeline_json_gives_the_operators_mindspore_s_parser_writes(warehouse_db, tmp_path):
    result = ingest_file(warehouse_db, PipelineProfilingFactory(path=tmp_path / "pipeline_profiling_2.json").path)
    assert (result.status, result.kind, result.rows) == ("ok", "mindspore_pipeline_profiling_json", 6)
    # the mean of the samples over the capacity; op 3's parent is op 2 (the ShuffleOp between has no queue)
    assert warehouse_db.execute(OPS, (result.source_id,)).fetchall() == [
        (0, "BatchOp", 4, None, "[1]", "[0, 2]", 1.0, 64, 0.015625, 10),
        (1, "MapOp", 8, 0, "[2]", "[0, 0]", 0.0, 128, 0.0, 10),
        (2, "MapOp", 8, 1, "[5]", "[0, 40]", 20.0, 128, 0.15625, 10),
        (3, "ImageFolderOp", 8, 2, None, "[0, 0]", 0.0, 128, 0.0, 10),
        (4, "EpochCtrlOp", 1, None, "[0]", None, None, None, None, 10),
        (5, "ShuffleOp", 1, 2, "[3]", None, None, None, None, 10)]
    assert warehouse_db.execute("SELECT rank_id, device_id FROM source").fetchone() == (2, 2)
    # the view keeps what the CSV would: operator 0 and those with a queue
    assert warehouse_db.execute(VIEW).fetchall() == [
        (2, 0, "BatchOp", 1.0, 64, 0.015625, 10, None, 1), (2, 1, "MapOp", 0.0, 128, 0.0, 10, 0, 1),
        (2, 2, "MapOp", 20.0, 128, 0.15625, 10, 1, 1), (2, 3, "ImageFolderOp", 0.0, 128, 0.0, 10, 2, 0)]


def test_the_json_answers_and_the_csv_written_from_it_agrees(warehouse_db, tmp_path):
    PipelineProfilingFactory(path=tmp_path / "profiler" / "pipeline_profiling_0.json")
    csv = PipelineCsvFactory(path=tmp_path / "profiler" / "minddata_pipeline_raw_0.csv")
    results = ingest_paths(warehouse_db, [tmp_path / "profiler"])
    assert sorted(r.kind for r in results) == ["mindspore_minddata_pipeline_csv", "mindspore_pipeline_profiling_json"]
    run_ids = warehouse_db.execute("SELECT DISTINCT run_id FROM source").fetchall()
    assert len(run_ids) == 1  # one run: the profiler folder's
    answering = warehouse_db.execute("SELECT DISTINCT s.kind FROM minddata_op_queue AS o "
                                     "JOIN source AS s ON s.id = o.source_id").fetchall()
    assert answering == [("mindspore_pipeline_profiling_json",)]
    assert agreement(warehouse_db) == []
    # a CSV whose operator 2 has another mean: the audit names it
    csv.path.write_bytes(csv.data.replace(b"20.0,128,0.15625", b"2.0,128,0.015625"))
    assert ingest_file(warehouse_db, csv.path).status == "ok"
    assert [row[:4] for row in agreement(warehouse_db)] == [(run_ids[0][0], 0, 2, "queue_average_size")]


def test_the_csv_answers_where_no_json_is(warehouse_db, tmp_path):
    result = ingest_file(warehouse_db, PipelineCsvFactory(path=tmp_path / "minddata_pipeline_raw_7.csv").path)
    assert (result.status, result.kind, result.rows) == ("ok", "mindspore_minddata_pipeline_csv", 4)
    assert warehouse_db.execute(VIEW).fetchall()[0] == (7, 0, "BatchOp", 1.0, 64, 0.015625, 10, None, 1)
    assert warehouse_db.execute("SELECT children_ids, queue_sizes FROM mindspore_minddata_op WHERE op_id = 2"
                                ).fetchone() == ("[3]", "[0, 40]")


def test_cpu_utilization_keeps_every_sample_of_every_series(warehouse_db, tmp_path):
    result = ingest_file(warehouse_db, CpuUtilizationFactory(path=tmp_path / "minddata_cpu_utilization_0.json").path)
    # 6 host series, 2 process series, 2 series of each of 2 operators: 12 series of 3 samples
    assert (result.status, result.kind, result.rows) == ("ok", "mindspore_minddata_cpu_json", 36)
    assert warehouse_db.execute(
        "SELECT source_row, time_stamp, value FROM mindspore_minddata_cpu WHERE scope = 'device' "
        "AND metric = 'idle_utilization' ORDER BY source_row").fetchall() == [(1, 1000, 10.0), (2, 1100, 20.0),
                                                                              (3, 1200, 15.0)]
    assert warehouse_db.execute("SELECT DISTINCT op_id FROM mindspore_minddata_cpu WHERE scope = 'op' ORDER BY op_id"
                                ).fetchall() == [(-1,), (1,)]


def test_device_queue_records_make_the_steps_mindinsight_lists(warehouse_db, tmp_path):
    result = ingest_file(warehouse_db, DeviceQueueFactory(path=tmp_path / "device_queue_profiling_0.txt").path)
    assert (result.status, result.kind, result.rows) == ("ok", "mindspore_device_queue_txt", 16)
    assert warehouse_db.execute(
        "SELECT step_id, queue_size, queue_capacity, is_empty, is_full, get_ns, push_ns, total_ns, queue_source_row "
        "FROM minddata_step_queue ORDER BY step_id").fetchall() == [
        (1, 0, 64, 1, 0, 12_000_000, 4_000_000, 16_000_000, 4), (2, 8, 64, 0, 0, 1_000_000, 3_000_000, 4_000_000, 8),
        (3, 0, 64, 1, 0, 9_000_000, 4_000_000, 13_000_000, 12), (4, 64, 64, 0, 1, 0, 2_000_000, 2_000_000, 16)]
    assert warehouse_db.execute("SELECT time_ms FROM mindspore_device_queue WHERE source_row = 1").fetchone() == (
        85406783,)


def test_a_dataset_iterator_file_counts_only_without_a_device_queue(warehouse_db, tmp_path):
    """MindInsight's run_2 dataset_iterator_profiling_1.txt: one queue record of four fields, read by MindInsight
    only where no device_queue_profiling file is."""
    path = tmp_path / "profiler" / "dataset_iterator_profiling_1.txt"
    path.parent.mkdir()
    path.write_bytes(b"1 64 1 3\n")
    assert ingest_file(warehouse_db, path).kind == "mindspore_device_queue_txt"
    assert warehouse_db.execute("SELECT feeder, record, step_id, queue_size, queue_capacity, time_ms "
                                "FROM mindspore_device_queue").fetchall() == [("dataset_iterator", "queue", 1, 3, 64, None)]
    assert warehouse_db.execute("SELECT step_id, queue_size FROM minddata_step_queue").fetchall() == [(1, 3)]
    DeviceQueueFactory(path=tmp_path / "profiler" / "device_queue_profiling_1.txt")
    ingest_paths(warehouse_db, [tmp_path / "profiler"])
    assert warehouse_db.execute("SELECT step_id, queue_size FROM minddata_step_queue ORDER BY step_id").fetchall() == [
        (1, 0), (2, 8), (3, 0), (4, 64)]


def test_get_next_gives_mindinsight_s_queue_and_times(warehouse_db, tmp_path):
    """tests/ut/profiler/analyser/test_minddata_analyse.py (analyse_get_next_info): queue [3, 2, 1], no empty
    queue, get_next [0.001, 0, 0.001] ms, avg_cost 0.000666... ms."""
    result = ingest_file(warehouse_db, GetNextFactory(path=tmp_path / "minddata_aicpu_1.txt").path)
    assert (result.status, result.kind, result.rows) == ("ok", "mindspore_get_next_txt", 3)
    rows = warehouse_db.execute("SELECT queue_size, end_ns - start_ns FROM mindspore_get_next ORDER BY source_row"
                                ).fetchall()
    assert rows == [(3, 1000), (2, 0), (1, 1000)]
    assert sum(wait for _, wait in rows) / len(rows) / 1e6 == pytest.approx(0.0006666666666666666)


def test_get_next_on_gpu_is_in_ns_and_other_nodes_are_left_out(warehouse_db, tmp_path):
    path = tmp_path / "minddata_getnext_profiling_0.txt"
    path.write_bytes(b"GetNext 100 2600 0\nInitData 5 9 1\nGetNext 3000 3500 2\n")
    assert ingest_file(warehouse_db, path).rows == 2
    assert warehouse_db.execute("SELECT source_row, name, start_ns, end_ns, queue_size FROM mindspore_get_next").fetchall(
    ) == [(1, "GetNext", 100, 2600, 0), (3, "GetNext", 3000, 3500, 2)]


@pytest.mark.parametrize(("factory", "name", "change", "reason", "table"), (
    (DeviceQueueFactory, "device_queue_profiling_0.txt", lambda data: data.replace(b"0 1 2 3 85406790\n", b"0 1 2\n"),
     "line 6: expected '<0|1> <kind or capacity> <step> <ms or size> [time]', found '0 1 2'",
     "mindspore_device_queue"),
    (DeviceQueueFactory, "device_queue_profiling_0.txt", lambda data: data.replace(b"0 1 2 3 ", b"0 7 2 3 "),
     "line 6: a time record of kind 7 (0 get, 1 push, 2 total)", "mindspore_device_queue"),
    (GetNextFactory, "minddata_aicpu_0.txt", lambda data: data[:-4],
     "line 3: expected '<node> <start> <end> <queue size>', found 'GetNext_dequeue_wait 154907896920 15490789692'",
     "mindspore_get_next"),
    (PipelineProfilingFactory, "pipeline_profiling_0.json", lambda data: data[:120],
     "byte 120: invalid JSON", "mindspore_minddata_op"),
    (PipelineProfilingFactory, "pipeline_profiling_0.json", lambda data: data.replace(b'"length":64', b'"length":0'),
     "op_info[4].metrics.output_queue.length: expected a capacity above 0, found 0", "mindspore_minddata_op"),
    (PipelineProfilingFactory, "pipeline_profiling_0.json", lambda data: data.replace(b'"size":[0,40]', b'"size":[0,"40"]'),
     "op_info[2].metrics.output_queue.size: expected a list of numbers", "mindspore_minddata_op"),
    (CpuUtilizationFactory, "minddata_cpu_utilization_0.json",
     lambda data: data.replace(b'"idle_utilization":[10,20,15]', b'"idle_utilization":[10,null,15]'),
     "device_info.idle_utilization: expected a list of numbers", "mindspore_minddata_cpu"),
    (PipelineCsvFactory, "minddata_pipeline_raw_0.csv", lambda data: data.replace(b"\r\n2,MapOp", b"\r\n,MapOp"),
     "line 4: column 'op_id': no operator id", "mindspore_minddata_op"),
))
def test_a_hostile_file_fails_naming_the_file_and_the_place(warehouse_db, tmp_path, factory, name, change, reason,
                                                            table):
    written = factory(path=tmp_path / name)
    assert_fails_naming(warehouse_db, written.path, change(written.data), reason, table)


def test_real_minddata_files_give_mindinsight_s_figures(warehouse_db, realdata):
    results = {r.path.name: r for r in ingest_paths(warehouse_db, [realdata / "mindinsight" / "profiler"])}
    for name in ("device_queue_profiling_0.txt", "minddata_cpu_utilization_0.json", "minddata_pipeline_raw_0.csv",
                 "pipeline_profiling_0.json", "pipeline_profiling_1.json"):
        assert results[name].status == "ok", results[name].error
    assert warehouse_db.execute("SELECT count(DISTINCT run_id) FROM source WHERE kind LIKE 'mindspore%'"
                                ).fetchone() == (1,)
    # analyse_device_queue_info: queue [0], empty_queue 1, full_queue 0; total_cost [4], push_cost [4], get_cost [0]
    assert warehouse_db.execute("SELECT step_id, queue_size, is_empty, is_full, total_ns, push_ns, get_ns "
                                "FROM minddata_step_queue").fetchall() == [(1, 0, 1, 0, 4_000_000, 4_000_000, 0)]
    # tests/st/func/profiler/test_proposer_analyser.py: minddata_cpu_utilization [90] (100 - mean idle)
    assert warehouse_db.execute("SELECT 100 - avg(value) FROM mindspore_minddata_cpu WHERE scope = 'device' "
                                "AND metric = 'idle_utilization'").fetchone() == (90.0,)
    # test_minddata_pipeline_analyser.py's query, from device 1's JSON (run_1's CSV was written from it):
    # [1, 'Shuffle', 20.0, 64, 0.3125, 10, 0, [2, 3]], the TFReaders 2 and 3 alike under 1, [0, 'Batch', None, None, 0, 10]
    assert warehouse_db.execute(VIEW).fetchall()[4:] == [
        (1, 0, "Batch", None, None, 0, 10, None, 1), (1, 1, "Shuffle", 20.0, 64, 0.3125, 10, 0, 2),
        (1, 2, "TFReader", 20.0, 64, 0.3125, 10, 1, 0), (1, 3, "TFReader", 20.0, 64, 0.3125, 10, 1, 0)]
    # device 0's CSV says the same of its Shuffle and TFReaders, but device 0's JSON is another pipeline
    # (MindInsight's resources keep the JSON of run_2 beside the CSV of run_1): the audit names each operator
    csv = warehouse_db.execute("SELECT op_type, queue_average_size, queue_length, queue_usage_rate, parent_op_id "
                               "FROM mindspore_minddata_op AS o JOIN source AS s ON s.id = o.source_id "
                               "WHERE s.kind = 'mindspore_minddata_pipeline_csv' ORDER BY op_id").fetchall()
    assert csv == [("Batch", None, None, 0.0, None), ("Shuffle", 20.0, 64, 0.3125, 0), ("TFReader", 20.0, 64, 0.3125, 1),
                   ("TFReader", 20.0, 64, 0.3125, 1)]
    assert [(row[2], row[3], row[6], row[7]) for row in agreement(warehouse_db)] == [
        (0, "op_type", "Batch", "BatchOp"), (1, "op_type", "Shuffle", "MapOp"), (2, "op_type", "TFReader", "MapOp"),
        (3, "op_type", "TFReader", "ImageFolderOp")]
