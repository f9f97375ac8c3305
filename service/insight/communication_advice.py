"""communication/advisor: the expert advice of MindStudio Insight's Communication page, for a cluster.

The page (modules/cluster ``components/communication/CommunicationDuration/AdviceLabel.tsx``;
``utils/RequestUtils.ts`` queryCommunicationExpertAdvisor) sends only ``clusterPath`` and draws each
item of the answer as a table: its ``name`` the title, each key of its ``statistics`` a column of
text values. The real server answers an item per analyzer (``server/src/modules/communication/
advisor/CommunicationAdvisor.cpp``), shaped as ``communication/protocol/CommunicationProtocolUtil.cpp``
ToResponseJson<CommunicationAdvisorResponse>, the columns in name order (a std::map) and the numbers
as std::to_string writes them (six decimals).

Here the "Packet Analysis" (``PacketAnalyzer.cpp``: the share of small transfers over SDMA and RDMA)
answers, from the named query ``communication_small_packets``. The byte alignment, bandwidth
contention and retransmission analyses are not given: the first needs each large operator's memcpy
tasks, the others the start and elapse of every transfer, which the warehouse does not keep per
transport.
"""

from __future__ import annotations

from service.insight import ranks
from service.insight.protocol import Params, rows

PACKETS = "Packet Analysis"
#: small below this many MB, an issue above this share (PacketAnalyzerStatistics)
SMALL_MB = {"SDMA": 16.0, "RDMA": 1.0}
ISSUE_SHARE = 0.2
TRANSPORTS = ("SDMA", "RDMA")


def _text(value: float) -> str:
    """A number as std::to_string writes a double."""
    return f"{value:.6f}"


def packets(conn, run_id: int) -> dict:
    """The Packet Analysis item: per transport, the small size, the share that makes an issue, the small
    transfers' share and time, and whether it is an issue."""
    found = {row["transport_type"]: row for row in rows(
        conn, "communication_small_packets", run_id=run_id, sdma_small_mb=SMALL_MB["SDMA"],
        rdma_small_mb=SMALL_MB["RDMA"])}
    share = {transport: found[transport]["small_ratio"] if transport in found else 0.0 for transport in TRANSPORTS}
    time = {transport: found[transport]["small_ms"] if transport in found else 0.0 for transport in TRANSPORTS}
    return {"name": PACKETS, "statistics": {
        "Category": list(TRANSPORTS),
        "Issue": ["Yes" if share[transport] > ISSUE_SHARE else "No" for transport in TRANSPORTS],
        "Small Size Duration(ms)": [_text(time[transport]) for transport in TRANSPORTS],
        "Small Size Proportion Standard(%)": [_text(ISSUE_SHARE * 100) for _ in TRANSPORTS],
        "Small Size Proportion(%)": [_text(share[transport] * 100) for transport in TRANSPORTS],
        "Small Size Standard(MB)": [_text(SMALL_MB[transport]) for transport in TRANSPORTS]}}


def advisor(conn, params: Params) -> dict:
    """communication/advisor: the cluster's advice items."""
    run_id = ranks.of_cluster(conn, params.text("clusterPath"))[0].run_id
    return {"items": [packets(conn, run_id)]}
