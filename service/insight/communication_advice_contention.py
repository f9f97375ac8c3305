"""The "Bandwidth Contention Analysis" item of communication/advisor: SDMA transfers slowed beside MatMuls.

The real server (``server/src/modules/communication/advisor/BandwidthContentionAnalyzer.cpp``) walks,
per rank, the SDMA rows of the cluster's communication summary (start and elapse of their operator,
``communication/database/DbClusterDataBase.cpp`` QueryBandwidthContentionAnalyzerData) beside the
rank's MatMul kernels (``operator/database/DbSummaryDataBase.cpp`` QueryBandwidthContentionMatMulData)
and lists a transfer that meets one under 14.4 GB/s. Here the named query
``communication_contended_transfers`` lists them; the columns (std::map keys, in name order) give the
duration in us and the bandwidth in GB/s as std::to_string writes them.
"""

from __future__ import annotations

from service.insight.protocol import cpp_text, rows

TITLE = "Bandwidth Contention Analysis"
#: below this bandwidth (GB/s) a transfer beside a MatMul is contended (BANDWIDTH_CONTENTION_ANALYZER_THRESHOLD)
THRESHOLD_GB_S = 14.4


def item(conn, run_id: int) -> dict:
    """The Bandwidth Contention Analysis item of the run: each contended transfer's rank, operator,
    duration and bandwidth."""
    found = rows(conn, "communication_contended_transfers", run_id=run_id, threshold_gb_s=THRESHOLD_GB_S)
    return {"name": TITLE, "statistics": {
        "bandwidth(GB/s)": [cpp_text(row["bandwidth_bytes_per_s"] / 1e9) for row in found],
        "duration(us)": [cpp_text(row["elapse_ns"] / 1e3) for row in found],
        "name": [row["op_name"] for row in found],
        "rankId": [str(row["rank_id"]) for row in found]}}
