"""The "Packet Analysis" item of communication/advisor: the share of small transfers over SDMA and RDMA.

As the real server's ``server/src/modules/communication/advisor/PacketAnalyzer.cpp`` (thresholds of
its PacketAnalyzerStatistics), from the named query ``communication_small_packets``: per transport,
the small size, the share that makes an issue, the small transfers' share and time, and whether it
is an issue.
"""

from __future__ import annotations

from service.insight.protocol import cpp_text, rows

TITLE = "Packet Analysis"
#: small below this many MB, an issue above this share (PacketAnalyzerStatistics)
SMALL_MB = {"SDMA": 16.0, "RDMA": 1.0}
ISSUE_SHARE = 0.2
TRANSPORTS = ("SDMA", "RDMA")


def item(conn, run_id: int) -> dict:
    """The Packet Analysis item of the run: a column per statistic, a value per transport."""
    found = {row["transport_type"]: row for row in rows(
        conn, "communication_small_packets", run_id=run_id, sdma_small_mb=SMALL_MB["SDMA"],
        rdma_small_mb=SMALL_MB["RDMA"])}
    share = {transport: found[transport]["small_ratio"] if transport in found else 0.0 for transport in TRANSPORTS}
    time = {transport: found[transport]["small_ms"] if transport in found else 0.0 for transport in TRANSPORTS}
    return {"name": TITLE, "statistics": {
        "Category": list(TRANSPORTS),
        "Issue": ["Yes" if share[transport] > ISSUE_SHARE else "No" for transport in TRANSPORTS],
        "Small Size Duration(ms)": [cpp_text(time[transport]) for transport in TRANSPORTS],
        "Small Size Proportion Standard(%)": [cpp_text(ISSUE_SHARE * 100) for _ in TRANSPORTS],
        "Small Size Proportion(%)": [cpp_text(share[transport] * 100) for transport in TRANSPORTS],
        "Small Size Standard(MB)": [cpp_text(SMALL_MB[transport]) for transport in TRANSPORTS]}}
