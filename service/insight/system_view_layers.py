"""The System View's layer tables of a rank card: unit/systemView (a "... Summary") and unit/systemViewTrace
(a "... Trace").

The frontend's Stats System View lists, after Overall Metrics, a Summary and a Trace table per layer:
Python, CANN, Ascend Hardware, HCCL, and the Overlap Analysis summary (Ascend/msinsight
``modules/timeline/src/components/detailViews/Common.tsx`` statsSystemViewItems, summaryAndTraceTypes,
querySystemViewDetails, querySystemViewTrace; ``SystemView.tsx`` BaseSummary). Each page is asked with
``rankId``, ``dbPath``, ``layer``, ``searchName`` (the Name column's search), ``orderBy``/``order``
(a column key; the Summary's default ``totalTime`` descending, the Trace's ``startTime`` ascending),
``current``/``pageSize`` and ``startTime``/``endTime`` (relative ns; equal: the whole card).

Shapes: ``server/src/modules/timeline/protocol/TimelineProtocolUtil.cpp`` ToResponseJson<SystemViewResponse>
and <SystemViewTraceResponse>; figures as ``core/database/TextSqlConstant.h`` GetQueryPythonViewDataSql and
GetQueryPythonViewTraceDataSql give them: ``time`` the name's percent of the layer's time less its slices
named Communication (2 digits), total, min and max in us, ``avg`` in us to 4 digits, ``count`` the number
of names; a trace row's start in relative ns and its duration in us to 3 digits, ``count`` the number of
slices. The Python layer falls back to the
MindSpore one when it holds nothing (``handler/QuerySystemViewHandler.cpp``). The rows are the named
queries ``insight_layer_summary`` and ``insight_layer_trace``: the slices of the card's timeline
processes named as the layer (and a rank db's OVERLAP_ANALYSIS intervals for Overlap Analysis).
"""

from __future__ import annotations

from service.insight import paging, ranks, timeline
from service.insight.protocol import InsightError, Params, rows

NS_PER_US = 1000.0
#: the layers the frontend asks (Common.tsx summaryAndTraceTypes) and those the real server also takes
LAYERS = ("Python", "CANN", "Ascend Hardware", "HCCL", "Overlap Analysis", "COMMUNICATION", "MindSpore")
#: a Python layer holding nothing is answered by this one (QuerySystemViewHandler.cpp)
PYTHON_FALLBACK = "MindSpore"
SUMMARY_COLUMNS = {key: key for key in ("name", "time", "totalTime", "numberCalls", "avg", "min", "max")}
TRACE_COLUMNS = {key: key for key in ("name", "startTime", "duration")}


def _asked(conn, params: Params, card: ranks.RankCard) -> dict:
    """The named query's parameters of a layer table's request for ``card``."""
    layer = params.text("layer")
    if layer not in LAYERS:
        raise InsightError(f"layer must be one of {', '.join(LAYERS)}, not {layer!r}")
    return {"run_id": card.run_id, "rank_id": card.rank_id, "layer": layer,
            "search": params.text("searchName", required=False) or "", **timeline.card_range(conn, card, params)}


def _layer_rows(conn, query: str, asked: dict) -> list[dict]:
    """The named query's rows for the layer asked (a Python layer holding nothing: the MindSpore one)."""
    found = rows(conn, query, **asked)
    if not found and asked["layer"] == "Python":
        found = rows(conn, query, **{**asked, "layer": PYTHON_FALLBACK})
    return found


def _body(items: list[dict], params: Params, columns: dict) -> dict:
    """A page of the items in the order asked (else the named query's), as SystemViewResponse carries it."""
    shown = paging.page(paging.ordered(items, params, columns), params)
    return {"systemViewDetails": shown, "count": len(items), "pageSize": params.integer("pageSize", required=False)
            or 10, "currentPage": params.integer("current", required=False) or 1}


def summary(conn, params: Params) -> dict:
    """unit/systemView: one page of a layer's slices summed by name."""
    asked = _asked(conn, params, ranks.asked(conn, params))
    items = [{"name": row["name"], "time": round(row["share"] or 0.0, 2), "totalTime": row["total_ns"] / NS_PER_US,
              "numberCalls": row["calls"], "avg": round(row["avg_ns"] / NS_PER_US, 4),
              "min": row["min_ns"] / NS_PER_US, "max": row["max_ns"] / NS_PER_US}
             for row in _layer_rows(conn, "insight_layer_summary", asked)]
    return _body(items, params, SUMMARY_COLUMNS)


def trace(conn, params: Params) -> dict:
    """unit/systemViewTrace: one page of a layer's slices, one by one."""
    card = ranks.asked(conn, params)
    asked, zero = _asked(conn, params, card), timeline.card_zero(conn, card)
    items = [{"name": row["name"], "startTime": row["ts"] - zero, "duration": round(row["dur"] / NS_PER_US, 3)}
             for row in _layer_rows(conn, "insight_layer_trace", asked)]
    return _body(items, params, TRACE_COLUMNS)
