"""The Timeline's system view of a rank card: tableData/nameList and systemView/overall.

Right after ``parse/success`` the frontend's SystemView asks both for the card (Ascend/msinsight
``modules/timeline/src/components/detailViews/SystemView.tsx``, ``Common.tsx`` queryTableDataNameList;
``OverallMetrics.tsx``).

``tableData/nameList`` lists the tables a served (text) trace declares in its ``data_table``
(``server/src/modules/timeline/handler/QueryTableDataNameListHandler.cpp``,
``core/database/TextTraceDatabase.cpp`` QueryTableDataNameList) as ``layers: [{name, description}]``.
A profiler's rank declares none: the answer is no layers, and the frontend shows its own statistics
views (the real server refuses a db card, with the same effect).

``systemView/overall`` is the card's time split at its first level, as
``QuerySystemViewOverallHandler.cpp`` GetOverlapAnalysisData builds it: Computing Time,
Communication(Not Overlapped) Time, Free Time and E2E Time (their sum), in us rounded to 2 digits, each
with its percent of E2E Time; in the shape of ``protocol/TimelineProtocolUtil.cpp``
(ToResponseJson<SystemViewOverallResponse>, SystemViewOverallResToJson: counts ``-`` where there are
none). The real server sums its OVERLAP_ANALYSIS intervals; here the rank's steps of the named query
``step_time`` are summed (the profiler's step trace where it wrote one, else the breakdown derived
from the kernels), so the figures are those of the step trace. The computing split by operator
kind (from PMU data) and the communication split by operator are not answered, nor a time range.
"""

from __future__ import annotations

from service.insight import ranks
from service.insight.protocol import InsightError, Params, rows

NS_PER_US = 1000.0
#: (name, step_time column) of the first level, in the real server's order (CommonDefs.h)
FIRST_LEVEL = (("Computing Time", "computing_ns"),
               ("Communication(Not Overlapped) Time", "communication_not_overlapped_ns"),
               ("Free Time", "free_ns"))
E2E_TIME = "E2E Time"


def name_list(conn, params: Params) -> dict:
    """tableData/nameList: the tables the card's trace declares (a profiler's rank declares none)."""
    ranks.asked(conn, params)
    return {"layers": []}


def _item(index: int, name: str, total_us: float, e2e_us: float) -> dict:
    return {"totalTime": total_us, "ratio": round(100.0 * total_us / e2e_us, 2), "nums": "-", "avg": "-",
            "max": "-", "min": "-", "name": name, "id": str(index), "level": 1}


def overall(conn, params: Params) -> dict:
    """systemView/overall: the rank's computing, communication not overlapped, free and E2E times."""
    rank = ranks.asked(conn, params)
    if (params.integer("startTime", required=False) or 0) != (params.integer("endTime", required=False) or 0):
        raise InsightError("systemView/overall over a time range is not answered (startTime must equal endTime)")
    steps = rows(conn, "step_time", run_id=rank.run_id, rank_id=rank.rank_id)
    totals = [round(sum(step[column] or 0 for step in steps) / NS_PER_US, 2) for _, column in FIRST_LEVEL]
    e2e = sum(totals)
    if e2e == 0:
        raise InsightError(f"card {rank.card_id!r} has no step time to split (no step trace, no device activity)")
    details = [_item(index, name, total, e2e) for index, ((name, _), total) in enumerate(zip(FIRST_LEVEL, totals))]
    details.append({**_item(len(details), E2E_TIME, round(e2e, 2), e2e), "ratio": 100.0})
    return {"data": details, "count": len(details), "pageSize": params.integer("pageSize", required=False) or 0,
            "current": params.integer("current", required=False) or 0, "isLoading": False}
