"""The Summary module of MindStudio Insight for a cluster: its base information.

Once the cluster is parsed (``parse/clusterCompleted``, :mod:`parse_events`) the Summary page asks
``summary/queryTopData`` with the cluster's folder as ``clusterPath`` (Ascend/msinsight
``modules/cluster/src/components/summary/BaseInfo.tsx`` updateBaseInfoData, ``utils/RequestUtils.ts``
queryTopSummary, withClusterPath). The real server answers from its cluster database's base info,
filled from ClusterStepTraceTime (``server/src/modules/summary/core/SummaryService.cpp``
QueryCompareSummaryBaseInfo, UpdateStartTimeAndDuration; ``communication/database/DbClusterDataBase.cpp``
QueryBaseInfo) in the shape of ``server/src/modules/summary/protocol/SummaryProtocolUtil.cpp``
(ToResponseJson<SummaryTopRankResponse>, BaseInfoToJson).

Here the steps and ranks are those of the named query ``step_trace_summary`` on the cluster's run
(the profiler's own step_trace_time.csv, cluster_step_trace_time.csv or analysis.db), the start is
the run's (``runs``); as the real server: ``collectStartTime`` in ms, ``collectDuration`` in us (the
longest rank's summed step time, its npuTotalTime), ``dataSize`` in MB of the database answering (the
warehouse), ``filePath`` the cluster's folder. ``baseline`` is the base info of the baseline cluster when the
request is in compare mode (``isCompare``, the cluster global/setBaseline chose:
:func:`~service.insight.baseline.cluster_baseline`), else empty, as QueryCompareSummaryBaseInfo answers.
"""

from __future__ import annotations

from pathlib import Path

from flask import current_app

from service.insight import baseline, ranks
from service.insight.protocol import Params, rows

NS_PER_MS, NS_PER_US, BYTES_PER_MB = 1_000_000, 1_000, 1024 * 1024
#: the accelerator cores the compute table lists (GetComputeStatisticsSQL)
COMPUTE_CORES = ("AI_CPU", "AI_CORE", "AI_VECTOR_CORE", "MIX_AIC", "MIX_AIV", "FFTS_PLUS")


def base_info(conn, cluster: list[ranks.RankCard]) -> dict:
    """BaseInfoToJson's keys for the run of several ranks whose cards are ``cluster``."""
    run_id, cluster_path = cluster[0].run_id, cluster[0].run_root
    steps = rows(conn, "step_trace_summary", run_id=run_id)
    step_ids = list(dict.fromkeys(str(row["step_id"]) for row in steps if row["step_id"] is not None))
    rank_ids = sorted({row["rank_id"] for row in steps})
    per_rank: dict[int, int] = {}
    for row in steps:
        per_rank[row["rank_id"]] = per_rank.get(row["rank_id"], 0) + row["step_total_ns"]
    run = next(row for row in rows(conn, "runs") if row["run_id"] == run_id)
    return {"stepList": step_ids, "rankList": [str(rank) for rank in rank_ids], "rankCount": len(rank_ids),
            "dataSize": Path(current_app.config["DATABASE"]).stat().st_size / BYTES_PER_MB,
            "collectStartTime": (run["start_ns"] or 0) // NS_PER_MS, "filePath": cluster_path,
            "collectDuration": max(per_rank.values(), default=0) // NS_PER_US, "stepNum": len(step_ids)}


def empty_base_info() -> dict:
    """The base info of no cluster (the real server's default SummaryBaseInfo)."""
    return {"stepList": [], "rankList": [], "rankCount": 0, "dataSize": 0.0, "collectStartTime": 0, "filePath": "",
            "collectDuration": 0, "stepNum": 0}


def query_top_data(conn, params: Params) -> dict:
    """summary/queryTopData: the cluster's base info as ``compare``, the baseline cluster's as ``baseline`` in
    compare mode (else empty)."""
    compare = base_info(conn, ranks.of_cluster(conn, params.text("clusterPath")))
    other = baseline.cluster_baseline(conn, params)
    return {"baseInfo": {"compare": compare,
                         "baseline": empty_base_info() if other is None else base_info(conn, other)}}


def _item(core: str, overlap: str, duration: float, utilization: float = 0) -> dict:
    return {"acceleratorCore": core, "overlapType": overlap, "duration": duration, "utilization": utilization}


def statistic(conn, params: Params) -> dict:
    """summary/statistic: a rank's kernel time per accelerator core (``timeFlag`` compute) or its communication
    overlapped and not overlapped (communication), in us, for ``stepId`` or every step."""
    cards = ranks.of_cluster(conn, params.text("clusterPath"))
    asked = {"run_id": cards[0].run_id, "rank_id": params.integer("rankId")}
    step = params.integer("stepId", required=False)  # empty: every step
    if "compute" in (params.text("timeFlag", required=False) or ""):
        per_core: dict[str, int] = {}
        for row in rows(conn, "kernel_core_time", **asked, step_id=step):
            if row["accelerator_core"] in COMPUTE_CORES:
                per_core[row["accelerator_core"]] = per_core.get(row["accelerator_core"], 0) + row["total_ns"]
        # whole us per core, each core's share of their sum (the real server reads its sums as integers)
        per_core_us = {core: ns // NS_PER_US for core, ns in per_core.items()}
        total = sum(per_core_us.values())
        return {"summaryStatisticsItemList": [_item(core, "", us, us / total if total else 0)
                                              for core, us in per_core_us.items()]}
    steps = [row for row in rows(conn, "step_trace_summary", **asked) if step is None or row["step_id"] == step]
    overlapped = sum((row["overlapped_ns"] or 0) for row in steps)
    alone = sum((row["communication_not_overlapped_ns"] or 0) for row in steps)
    return {"summaryStatisticsItemList": [_item("", "Communication(Overlapped)", overlapped / NS_PER_US),
                                          _item("", "Communication(Not Overlapped)", alone / NS_PER_US)]}
