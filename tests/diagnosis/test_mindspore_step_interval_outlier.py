"""Rule mindspore_step_interval_outlier: MindInsight's parallel proposer's slow rank by its step interval.

MindInsight's tests/st/func/profiler/test_parallel_proposer.py expects, of the cluster_propose folder our
real samples hold (4 ranks, 2 pipeline stages), get_step_interval 1.5722, 1.5588, 2.4318 and 2.3954 ms for
ranks 0-3 (test_get_step_interval: the iteration interval of each rank's step trace average record) and the
proposal ``"step_interval": {"rank_id": 2, "val": 2.4318, "percent": 22.23}`` (PARALLEL_PROPOSE_RESULT:
22.23 % above the ranks' mean, over its 20 % threshold).
"""

from __future__ import annotations

import json

from tests.diagnosis.mindspore_cluster import cluster_files, ingest_cluster_propose
from tests.factories.mindspore import StepTraceRawFactory
from warehouse.analysis import findings
from warehouse.ingest import ingest_paths

RULE = "mindspore_step_interval_outlier"


def test_the_real_cluster_gets_mindinsights_step_interval_proposal(warehouse_db, realdata, tmp_path):
    ingest_cluster_propose(warehouse_db, realdata, tmp_path)
    (finding,) = findings.evaluate(warehouse_db, RULE)
    numbers = json.loads(finding.values["numbers"])
    assert (finding.values["rank_id"], numbers["step_interval_ms"], numbers["percent"]) == (2, 2.4318, 22.23)
    assert (numbers["stage"], finding.values["severity"], finding.values["confidence"]) == (2, "medium", "high")
    # the whole of stage 2 is slow: its two ranks average 2.4136 ms
    assert numbers["stage_mean_ms"] == 2.4136
    assert finding.values["message"].startswith(
        "Rank 2 (stage 2) takes 2.432 ms from one step's end to the next forward pass, 22.23% above the ranks' "
        "mean of 1.990 ms (over 20.0%); its stage's ranks average 2.414 ms")
    # evidence: every rank's average record, with its stage
    assert [note for *_, note in finding.evidence] == [
        "rank 0 (stage 1): step interval 1.572 ms", "rank 1 (stage 1): step interval 1.559 ms",
        "rank 2 (stage 2): step interval 2.432 ms", "rank 3 (stage 2): step interval 2.395 ms"]
    assert {table for _, table, *_ in finding.evidence} == {"mindspore_step_average"}


def data_parallel(folder, intervals: dict[int, int], ranks=(0, 1)):
    """A 2-rank data-parallel cluster: each rank's cluster analysis file, and a step trace for each rank of
    ``intervals`` whose steps after the first have that iteration interval (cycles of 10 ns)."""
    cluster_files(folder, "data-parallel", ranks)
    for rank, interval in intervals.items():
        StepTraceRawFactory(path=folder / f"step_trace_raw_{rank}_detail_time.csv",
                            phases=((0, 1702944, 2300103), (interval, 1714377, 2300344), (interval, 1718895, 2301458)))


def test_a_data_parallel_rank_far_above_the_mean_and_runs_that_are_not_judged(warehouse_db, tmp_path):
    # 1.0 and 1.6 ms: the mean is 1.3 ms, rank 1 is 23.08 % above it
    data_parallel(tmp_path / "dp", {0: 100_000, 1: 160_000})
    # rank 1 has no step trace: MindInsight does not judge the cluster
    data_parallel(tmp_path / "partial", {0: 100_000})
    ingest_paths(warehouse_db, [tmp_path / "dp", tmp_path / "partial"])
    (finding,) = findings.evaluate(warehouse_db, RULE)
    numbers = json.loads(finding.values["numbers"])
    assert (finding.values["rank_id"], numbers["step_interval_ms"], numbers["percent"], numbers["stage"]) == (
        1, 1.6, 23.08, None)
    # no stages in the run: the message names none
    assert finding.values["message"].startswith("Rank 1 takes 1.600 ms from one step's end to the next forward "
                                                "pass, 23.08% above the ranks' mean of 1.300 ms (over 20.0%): ")
    assert [note for *_, note in finding.evidence] == ["rank 0: step interval 1.000 ms",
                                                       "rank 1: step interval 1.600 ms"]
    assert findings.evaluate(warehouse_db, RULE, {"excess": 0.25}) == []
    assert findings.evaluate(warehouse_db, RULE, {"high_excess": 0.2})[0].values["severity"] == "high"
