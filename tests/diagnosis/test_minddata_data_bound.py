"""Rule minddata_data_bound: MindInsight's minddata proposers over a MindSpore run's data pipeline files.

The real sample's figures are those MindInsight's tests/st/func/profiler/test_proposer_analyser.py
expects of run_2 (mindspore-ai/mindinsight @ e233ee19a350), whose device queue, CPU utilization and
pipeline JSON our real profiler folder holds byte for byte (the JSON up to its trailing newlines):
minddata_device_queue [1, 1, 0, 1] (1 empty of 1 step, 0 full), minddata_pipeline-dataset_op
["ImageFolderOp_3"], minddata_cpu_utilization [90].
"""

from __future__ import annotations

import json

from tests.factories.minddata import CpuUtilizationFactory, DeviceQueueFactory, GetNextFactory, PipelineProfilingFactory
from warehouse.analysis import findings
from warehouse.ingest import ingest_paths


def test_real_run_is_data_bound_as_mindinsight_proposes(warehouse_db, realdata):
    ingest_paths(warehouse_db, [realdata / "mindinsight" / "profiler"])
    found = findings.evaluate(warehouse_db, "minddata_data_bound")
    assert [(f.values["rank_id"], f.values["subject"], f.values["severity"]) for f in found] == [
        (0, "data_process", "high")]
    numbers = json.loads(found[0].values["numbers"])
    assert (numbers["empty_steps"], numbers["steps"], numbers["full_steps"]) == (1, 1, 0)
    assert (numbers["cpu_active_pct"], numbers["slow_operators"]) == (90.0, 1)
    assert "slowest pipeline operators: ImageFolderOp_3;" in found[0].values["message"]
    assert [(table, note) for _, table, _, _, _, note in found[0].evidence] == [
        ("mindspore_device_queue", "step 1: device queue empty (capacity 64)"),
        ("mindspore_minddata_op", "operator ImageFolderOp_3: output queue 0.0% used")]


def test_two_empty_steps_of_four_are_data_bound_of_medium_severity(warehouse_db, tmp_path):
    folder = tmp_path / "profiler"
    DeviceQueueFactory(path=folder / "device_queue_profiling_0.txt")
    PipelineProfilingFactory(path=folder / "pipeline_profiling_0.json")
    CpuUtilizationFactory(path=folder / "minddata_cpu_utilization_0.json")
    ingest_paths(warehouse_db, [folder])
    (finding,) = findings.evaluate(warehouse_db, "minddata_data_bound")
    assert (finding.values["subject"], finding.values["severity"]) == ("data_process", "medium")
    assert finding.values["message"] == (
        "The device queue was empty in 2 of 4 steps (50.0%, over 30.0%): the data pipeline does not keep up and the "
        "device waits for data; slowest pipeline operators: MapOp_1, ImageFolderOp_3; the host's CPU was 85.0% "
        "active: more workers will not help.")
    # the empty steps' queue records (lines 4 and 12), then the operators, emptiest first: MapOp 1's queue (0 %)
    # emptier than its input's (MapOp 2's, 15.6 %) by more than 10 points, ImageFolderOp a dataset operator
    # under 60 % used
    assert [(table, row) for _, table, row, _, _, _ in finding.evidence] == [
        ("mindspore_device_queue", 4), ("mindspore_device_queue", 12), ("mindspore_minddata_op", 4),
        ("mindspore_minddata_op", 1)]


def test_thresholds_are_parameters_and_a_late_device_is_data_transmission(warehouse_db, tmp_path):
    folder = tmp_path / "profiler"
    DeviceQueueFactory(path=folder / "device_queue_profiling_0.txt")
    written = GetNextFactory(path=folder / "minddata_aicpu_0.txt")
    written.path.write_bytes(written.data.replace(b"154907895614 2\n", b"154907895614 0\n"))
    ingest_paths(warehouse_db, [folder])
    (finding,) = findings.evaluate(warehouse_db, "minddata_data_bound", {"empty_share": 0.5})
    assert (finding.values["subject"], finding.values["severity"]) == ("data_transmission", "low")
    assert finding.values["message"].startswith("GetNext found the device's queue empty 1 times in 3 batches")
    assert [(table, row, note) for _, table, row, _, _, note in finding.evidence] == [
        ("mindspore_get_next", 2, "batch 2: GetNext found the queue empty and waited 0 ns")]
