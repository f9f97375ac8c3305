"""Rule mindspore_iteration_interval: MindInsight's step trace proposer over MindSpore's step traces.

MindInsight proposes ``step_trace-iter_interval`` when the iteration interval of MindSpore's average
record (step 0 of its step trace analyser: the mean over the steps after the first) exceeds 0.5 ms
(mindinsight/profiler/proposer/allproposers/step_trace_proposer.py, analyser/step_trace_analyser.py
``_get_proc_details``). On the real profiler folder of MindInsight's test resources that record says
9,035,360 cycles (90.3536 ms) for device 0 and 9,037,347 (90.3735 ms) for device 10; the raw training
trace of JOB3 averages 0.2 ms, under the threshold (it writes no average record: the mean is computed).
"""

from __future__ import annotations

import csv
import json
import shutil

from tests.diagnosis.mindspore_cluster import ingest_cluster_propose
from warehouse.analysis import findings
from warehouse.ingest import ingest_paths

#: ns per cycle of MindSpore's 100 MHz step points
NS_PER_CYCLE = 10


def test_the_real_profiler_folder_is_proposed_as_mindinsight_does(warehouse_db, realdata, tmp_path):
    folder = tmp_path / "profiler"
    folder.mkdir()
    for device in (0, 10):
        shutil.copy(realdata / "mindinsight" / "profiler" / f"step_trace_raw_{device}_detail_time.csv", folder)
    ingest_paths(warehouse_db, [folder])
    found = findings.evaluate(warehouse_db, "mindspore_iteration_interval")
    assert [(f.values["rank_id"], f.values["subject"], f.values["severity"]) for f in found] == [
        (0, "iteration_interval", "high"), (10, "iteration_interval", "high")]
    for finding, device in zip(found, (0, 10)):
        with (folder / f"step_trace_raw_{device}_detail_time.csv").open(newline="", encoding="utf-8") as handle:
            steps = list(csv.DictReader(handle))
        average = steps.pop()
        numbers = json.loads(finding.values["numbers"])
        # MindInsight's figure: the average record in ms to 4 decimals (to_millisecond)
        assert round(numbers["iteration_interval_ns"] / 1e6, 4) == round(int(average["iteration_interval"]) / 1e5, 4)
        assert (numbers["mean_source"], numbers["steps"], numbers["averaged_steps"]) == (
            "average_record", len(steps), len(steps) - 1)
        assert numbers["share"] > 0.69
        longest = sorted(steps[1:], key=lambda s: (-int(s["iteration_interval"]), int(s["step_num"])))[:5]
        assert [note for *_, note in finding.evidence] == [
            f"step {s['step_num']}: iteration interval {int(s['iteration_interval']) * NS_PER_CYCLE / 1e6:.3f} ms of "
            f"{int(s['total']) * NS_PER_CYCLE / 1e6:.3f} ms" for s in longest]
    assert found[0].values["message"].startswith("The mean iteration interval is 90.354 ms (over 0.5 ms), 69.3% of "
                                                 "the mean step of 130.456 ms")


def test_a_short_interval_is_no_finding_until_the_threshold_is_lowered(warehouse_db, realdata, tmp_path):
    shutil.copytree(realdata / "mindinsight" / "JOB3", tmp_path / "JOB3")
    ingest_paths(warehouse_db, [tmp_path / "JOB3"])
    assert findings.evaluate(warehouse_db, "mindspore_iteration_interval") == []
    (finding,) = findings.evaluate(warehouse_db, "mindspore_iteration_interval", {"threshold_ms": 0.1})
    numbers = json.loads(finding.values["numbers"])
    assert (finding.values["rank_id"], finding.values["severity"], numbers["steps"]) == (1, "low", 322)
    assert 100_000 < numbers["iteration_interval_ns"] < 500_000 and numbers["share"] < 0.1
    # the raw training trace writes no average: the mean is of its steps after the first
    assert numbers["mean_source"] == "steps" and finding.values["message"].endswith("of the steps after the first.")


def test_a_file_cut_short_is_judged_by_its_average_record(warehouse_db, realdata, tmp_path):
    """cluster_propose keeps five steps of each rank and MindSpore's average record of many more: MindInsight's
    proposer (profile_api.py asks for step 0, the average record) reads the record, whose iteration intervals
    are tests/st/func/profiler/test_parallel_proposer.py's step intervals (lines 91-103: 1.5722, 1.5588, 2.4318,
    2.3954 ms), all over 0.5 ms: it proposes step_trace-iter_interval for every rank. The kept steps 2-5 of
    rank 0 average 0.839 ms, not the figure."""
    ingest_cluster_propose(warehouse_db, realdata, tmp_path)
    found = findings.evaluate(warehouse_db, "mindspore_iteration_interval")
    assert [f.values["rank_id"] for f in found] == [0, 1, 2, 3]
    numbers = [json.loads(f.values["numbers"]) for f in found]
    assert [round(n["iteration_interval_ns"] / 1e6, 4) for n in numbers] == [1.5722, 1.5588, 2.4318, 2.3954]
    assert {(n["mean_source"], n["steps"], n["averaged_steps"]) for n in numbers} == {("average_record", 5, 4)}
    # rank 0's record: 157225 of 18030115 cycles, under a tenth of the step
    assert (numbers[0]["step_ns"], numbers[0]["share"], found[0].values["severity"]) == (180301150, 0.0087, "low")
    assert found[0].values["message"].startswith("The mean iteration interval is 1.572 ms (over 0.5 ms), 0.9% of ")
    assert found[0].values["message"].endswith("The means are the file's average record.")
    steps = [(step_id, ns) for step_id, ns in warehouse_db.execute(
        "SELECT step_id, iteration_interval_ns FROM mindspore_step_phase WHERE rank_id = 0 AND averaged = 1")]
    assert [step_id for step_id, _ in steps] == [2, 3, 4, 5]
    assert round(sum(ns for _, ns in steps) / 4 / 1e6, 3) == 0.839
