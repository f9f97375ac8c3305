"""Rule mindspore_slow_link: MindInsight's parallel proposer's slow link of a MindSpore cluster.

MindInsight's tests/st/func/profiler/test_parallel_proposer.py expects, of the cluster_propose folder our
real samples hold (4 ranks, 2 pipeline stages), the proposal ``"cluster_link": [{"src_rank": 0,
"des_rank": 1, "link_type": "SDMA", "val": 107910491.8874, "percent": 74.26}]`` (PARALLEL_PROPOSE_RESULT):
of the links between two different ranks of get_rank_link_summary (test_get_rank_link_summary: each rank's
hccl_raw mean record), rank 1's 0-1 has the lowest bandwidth, 74.26 % under the SDMA links' mean.
"""

from __future__ import annotations

import json

from tests.diagnosis.mindspore_cluster import cluster_files, ingest_cluster_propose
from tests.factories.mindspore_summaries import HcclRawFactory, hccl_step
from warehouse.analysis import findings
from warehouse.ingest import ingest_paths

RULE = "mindspore_slow_link"


def test_the_real_cluster_gets_mindinsights_link_proposal(warehouse_db, realdata, tmp_path):
    ingest_cluster_propose(warehouse_db, realdata, tmp_path)
    (finding,) = findings.evaluate(warehouse_db, RULE)
    numbers = json.loads(finding.values["numbers"])
    assert {key: numbers[key] for key in ("src_rank", "dst_rank", "link_type", "bandwidth_kb_per_s", "percent")} == {
        "src_rank": 0, "dst_rank": 1, "link_type": "SDMA", "bandwidth_kb_per_s": 107910491.8874, "percent": 74.26}
    # the file is rank 1's, in stage 1 (ranks 0-1 of 4 in 2 stages)
    assert (finding.values["rank_id"], numbers["stage"], finding.values["severity"]) == (1, 1, "high")
    assert finding.values["message"].startswith("The SDMA link 0-1 of rank 1 (stage 1) has 100.5 GiB/s")
    # evidence: the link's six steps in rank 1's file; step 1 moved 1,324.544 KB at 125,569,996 KB/s
    assert [(table, row) for _, table, row, *_ in finding.evidence] == [("mindspore_hccl_link", n) for n in range(1, 7)]
    assert finding.evidence[0][-1] == "step 1: 1.3 MiB in 258.630 us, 116.9 GiB/s"


def cluster(folder, bandwidths: dict[int, dict], ranks=(0, 1)):
    """A 2-rank data-parallel cluster: each rank's cluster analysis file, and for each rank of ``bandwidths``
    an hccl_raw file of two steps whose links ({"src-dst": {type: KB/s}}) have those bandwidths."""
    cluster_files(folder, "data-parallel", ranks)
    for rank, links in bandwidths.items():
        figures = {name: {kind: [0.5, 1024.0, rate] for kind, rate in kinds.items()} for name, kinds in links.items()}
        HcclRawFactory(path=folder / f"hccl_raw_{rank}.csv",
                       steps=[hccl_step(step, 1.0, 2.0, figures, {}) for step in (1, 2)])


def test_a_link_far_below_its_transports_mean_and_runs_that_are_not_judged(warehouse_db, tmp_path):
    # SDMA: 1-0 at 100.0, 0-1 at 300.0 (mean 200.0: 50 % under); the self links are not compared;
    # RDMA: 100.0 and 90.0 (mean 95.0: 5.26 % under, within the 20 %)
    cluster(tmp_path / "dp", {0: {"1-0": {"SDMA": 100.0, "RDMA": 100.0}, "0-0": {"SDMA": 5.0}},
                              1: {"0-1": {"SDMA": 300.0, "RDMA": 90.0}, "1-1": {"SDMA": 5.0}}})
    # rank 1 has no hccl_raw file: MindInsight does not judge the cluster's links
    cluster(tmp_path / "partial", {0: {"1-0": {"SDMA": 100.0}, "0-0": {"SDMA": 900.0}}})
    ingest_paths(warehouse_db, [tmp_path / "dp", tmp_path / "partial"])
    (finding,) = findings.evaluate(warehouse_db, RULE)
    numbers = json.loads(finding.values["numbers"])
    assert (finding.values["rank_id"], numbers["src_rank"], numbers["dst_rank"], numbers["link_type"],
            numbers["bandwidth_kb_per_s"], numbers["type_mean_kb_per_s"], numbers["percent"], numbers["stage"]) == (
        0, 1, 0, "SDMA", 100.0, 200.0, 50.0, None)
    assert finding.values["severity"] == "high"
    # no stages in the run: the message names none
    assert finding.values["message"].startswith("The SDMA link 1-0 of rank 0 has 97.7 KiB/s")
    assert len(finding.evidence) == 2
    assert findings.evaluate(warehouse_db, RULE, {"shortfall": 0.5}) == []
    assert findings.evaluate(warehouse_db, RULE, {"high_shortfall": 0.6})[0].values["severity"] == "medium"
    # one finding per transport: RDMA's 0-1 of rank 1 is 5.26 % under its mean
    found = {json.loads(f.values["numbers"])["link_type"]: f for f in findings.evaluate(
        warehouse_db, RULE, {"shortfall": 0.05})}
    assert sorted(found) == ["RDMA", "SDMA"]
    rdma = json.loads(found["RDMA"].values["numbers"])
    assert (found["RDMA"].values["rank_id"], rdma["src_rank"], rdma["percent"]) == (1, 0, 5.26)
