"""Rule mindspore_parallel_strategy: MindInsight's parallel proposer over a MindSpore cluster's analysis files.

MindInsight's tests/st/func/profiler/test_parallel_proposer.py expects, of the cluster_propose folder our
real samples hold (4 ranks, 2 pipeline stages), ``pipeline_parallel_between_stage`` 25.82 % (threshold
10.0), ``pipeline_parallel_within_stage`` 60.3 % in stage 1, and ``pipeline_parallel_flops`` stage 2 at
329,610.3845 MFLOPs, 50.94 % above the stages' mean (PARALLEL_PROPOSE_RESULT).
"""

from __future__ import annotations

import json

from tests.diagnosis.mindspore_cluster import cluster_files, ingest_cluster_propose
from warehouse.analysis import findings
from warehouse.ingest import ingest_paths

RULE = "mindspore_parallel_strategy"


def test_the_real_cluster_gets_mindinsights_proposals(warehouse_db, realdata, tmp_path):
    ingest_cluster_propose(warehouse_db, realdata, tmp_path)
    found = {f.values["subject"]: f for f in findings.evaluate(warehouse_db, RULE)}
    assert sorted(found) == ["between_stage_communication", "stage_flops", "within_stage_communication"]
    numbers = {subject: json.loads(f.values["numbers"]) for subject, f in found.items()}
    assert round(numbers["between_stage_communication"]["rate"] * 100, 2) == 25.82
    assert (numbers["within_stage_communication"]["stage"],
            round(numbers["within_stage_communication"]["rate"] * 100, 2)) == (1, 60.3)
    assert (numbers["stage_flops"]["stage"], numbers["stage_flops"]["mflops"],
            round(numbers["stage_flops"]["excess"] * 100, 2)) == (2, 329610.3845, 50.94)
    assert [f.values["severity"] for f in found.values()] == ["medium", "high", "high"]
    # evidence: every rank's means for the run's finding, the stage's ranks for a stage's
    assert [note.split(" (")[0] for *_, note in found["between_stage_communication"].evidence] == [
        "rank 0", "rank 1", "rank 2", "rank 3"]
    assert [note for *_, note in found["stage_flops"].evidence] == [
        "rank 2 (stage 2): 329608.369 MFLOPs", "rank 3 (stage 2): 329612.4 MFLOPs"]


def test_a_data_parallel_run_communicating_too_much_and_one_missing_a_rank(warehouse_db, tmp_path):
    cluster_files(tmp_path / "dp", "data-parallel", (0, 1), [["6.0", "4.0"], ["6.0", "4.0"]])
    cluster_files(tmp_path / "partial", "data-parallel", (0,), [["6.0", "4.0"]])  # rank 1 has no file: not analysed
    ingest_paths(warehouse_db, [tmp_path / "dp", tmp_path / "partial"])
    (finding,) = findings.evaluate(warehouse_db, RULE)
    assert (finding.values["subject"], finding.values["severity"]) == ("data_parallel_communication", "high")
    assert json.loads(finding.values["numbers"])["rate"] == 0.4
    assert finding.values["message"] == ("Communication not hidden by computation takes 40.0% of the ranks' "
                                         "computation and communication (over 10.0%) in this data_parallel run.")
    assert findings.evaluate(warehouse_db, RULE, {"comm_rate": 0.5}) == []
