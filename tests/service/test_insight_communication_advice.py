"""The Communication page's expert advice of MindStudio Insight's frontend on a cluster, through ``warehouse serve``.

The real cluster sample (two ranks' text exports and the cluster's analysis output) is imported over
a real WebSocket, then ``communication/advisor`` is asked as the page's AdviceLabel.tsx does (only
``clusterPath``). The answer is in the shape of ``server/src/modules/communication/protocol/
CommunicationProtocolUtil.cpp`` (ToResponseJson<CommunicationAdvisorResponse>); the Packet Analysis
equals the named query ``communication_small_packets`` and the transfers of ``communication_op_transports``.
"""

from __future__ import annotations

import shutil

import pytest

from test_insight_cluster import CLUSTER, CLUSTER_PARTS, named
from test_insight_timeline import opened
from test_insight_ws import empty, root  # noqa: F401 - fixtures

# each test runs `warehouse serve` in a child process and imports a real sample: seconds each
pytestmark = pytest.mark.slow


def test_a_cluster_shows_its_packet_analysis(empty, root, realdata):
    run = root / "cluster"
    for part in CLUSTER_PARTS:
        shutil.copytree(realdata / CLUSTER / part, run / part)
    with opened(empty, root, run) as (page, _):
        body = page.body("communication", "communication/advisor", {"clusterPath": str(run)})
        [item] = body["items"]
        assert item["name"] == "Packet Analysis"
        statistics = item["statistics"]
        assert list(statistics) == ["Category", "Issue", "Small Size Duration(ms)",
                                    "Small Size Proportion Standard(%)", "Small Size Proportion(%)",
                                    "Small Size Standard(MB)"]
        assert statistics["Category"] == ["SDMA", "RDMA"]
        assert statistics["Small Size Standard(MB)"] == ["16.000000", "1.000000"]
        assert statistics["Small Size Proportion Standard(%)"] == ["20.000000", "20.000000"]
        found = {row["transport_type"]: row for row in named(empty, "communication_small_packets", run_id=1)}
        # the same transfers, counted from the operators' transports
        transfers = [row for row in named(empty, "communication_op_transports", run_id=1)
                     if row["transport_type"] in found and row["transit_bytes"] > 0]
        for column, transport in enumerate(("SDMA", "RDMA")):
            own = [row for row in transfers if row["transport_type"] == transport]
            small = [row for row in own if row["transit_bytes"] < {"SDMA": 16e6, "RDMA": 1e6}[transport]]
            assert (found[transport]["transfers"], found[transport]["small_transfers"]) == (len(own), len(small))
            share = len(small) / len(own)
            assert float(statistics["Small Size Proportion(%)"][column]) == pytest.approx(share * 100, abs=1e-6)
            assert float(statistics["Small Size Duration(ms)"][column]) == pytest.approx(
                sum(row["transit_ns"] for row in small) / 1e6, abs=1e-6)
            assert statistics["Issue"][column] == ("Yes" if share > 0.2 else "No")
        # the sample's small transfers: 9 of 27 over SDMA, 5 of 9 over RDMA, both above 20 %
        assert statistics["Issue"] == ["Yes", "Yes"]
        refused = page.send("communication", "communication/advisor", {"clusterPath": str(root / "elsewhere")})
        assert refused["result"] is False and "no cluster at" in refused["error"]["message"]
