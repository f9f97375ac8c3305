"""Issue 35's factory clusters of known shape: every rule runs (``warehouse analyze``) and the
findings are exactly the planted ones, naming the planted rank and cause, and nothing else
(kernel hot spots, which every run has, aside).

- PP 2 x DP 2, stage 1 running more layers (1.27x), each data-parallel pair reducing apart: one
  pipeline imbalance, no slow rank;
- TP 4 in balance: nothing;
- EP 4 with an overloaded expert rank: that rank's expert imbalance; PP 2 x EP 2 whose second
  stage's expert kernels run 1.75x (more MoE layers there): a pipeline imbalance, no expert suspect;
- one late rank (it computes 1.5x): the slow rank, and the collectives waiting for it name it
  as their cause;
- one slow link (a rank's allreduce ends 1 ms late once all had arrived): that collective, on
  that rank, as a slow transfer.
"""

import json

import pytest

from tests.diagnosis import cluster as synth
from warehouse.analysis import findings

#: PP 2 x DP 2: ranks 0, 1 are stage 0 and 2, 3 stage 1; each stage is one data-parallel pair
PP2_DP2 = {"dp": [[0, 1], [2, 3]], "pp": [[0, 2], [1, 3]]}
ONE_GROUP = [[0, 1, 2, 3]]

CASES = {
    "pp2_dp2_stage_imbalance": (
        dict(compute_scale={2: 1.27, 3: 1.27}, collective_groups=PP2_DP2["dp"]), PP2_DP2,
        {("pipeline_stage_imbalance", 2, None)}),
    "tp4_balanced": (dict(), {"tp": ONE_GROUP}, set()),
    "ep4_overloaded_expert_rank": (
        dict(ep_rank=2), {"ep": ONE_GROUP, "dp": ONE_GROUP}, {("ep_load_imbalance_suspected", 2, None)}),
    "pp2_ep2_stage_with_more_experts": (
        dict(moe=True, compute_scale={2: 1.75, 3: 1.75}, collective_groups=PP2_DP2["dp"]),
        {"ep": PP2_DP2["dp"], "pp": PP2_DP2["pp"]}, {("pipeline_stage_imbalance", 2, None)}),
    "late_rank": (
        dict(slow_rank=1), {"dp": ONE_GROUP},
        {("slow_rank_suspected", 1, None), ("communication_collective_slow", 1, "late_arrival")}),
    "slow_link": (
        dict(slow_collective=(2, 3)), {"dp": ONE_GROUP}, {("communication_collective_slow", 3, "slow_transfer")}),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_cluster_of_known_shape_gives_exactly_the_planted_findings(warehouse_db, case):
    options, groups, planted = CASES[case]
    built = synth.build(warehouse_db, ranks=4, steps=(1, 2), **options)
    synth.place(warehouse_db, built, groups)
    findings.analyze(warehouse_db)
    found = warehouse_db.execute(
        "SELECT finding_type, rank_id, numbers, message FROM finding WHERE finding_type != 'kernel_hotspot'").fetchall()
    assert {(kind, rank, json.loads(numbers).get("cause")) for kind, rank, numbers, _ in found} == planted
    for kind, _, _, message in found:
        # a link is blamed only for a slow transfer; a rank is compared within its stage where the shape is known
        assert ("check its links" in message) == (case == "slow_link"), message
        assert "Compared with every rank" not in message, message
