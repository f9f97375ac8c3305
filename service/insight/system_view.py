"""The Timeline's system view of a rank card: tableData/nameList, systemView/overall and their drill-downs.

Right after ``parse/success`` the frontend's SystemView asks both for the card (Ascend/msinsight
``modules/timeline/src/components/detailViews/SystemView.tsx``, ``Common.tsx`` queryTableDataNameList;
``OverallMetrics.tsx``).

``tableData/nameList`` lists the tables a served (text) trace declares in its ``data_table``
(``server/src/modules/timeline/handler/QueryTableDataNameListHandler.cpp``,
``core/database/TextTraceDatabase.cpp`` QueryTableDataNameList) as ``layers: [{name, description}]``.
A profiler's rank declares none: the answer is no layers, and the frontend shows its own statistics
views (the real server refuses a db card, with the same effect). An operator profile's card (its trace, on
the Timeline since its parse/success) declares none either.

``systemView/overall`` is the card's time split at its first level, as
``QuerySystemViewOverallHandler.cpp`` GetOverlapAnalysisData builds it: Computing Time,
Communication(Not Overlapped) Time, Free Time and E2E Time (their sum), in us rounded to 2 digits, each
with its percent of E2E Time; in the shape of ``protocol/TimelineProtocolUtil.cpp``
(ToResponseJson<SystemViewOverallResponse>, SystemViewOverallResToJson: counts ``-`` where there are
none). The real server sums its OVERLAP_ANALYSIS intervals; here the rank's steps of the named query
``step_time`` are summed (the profiler's step trace where it wrote one, else the breakdown derived
from the kernels, or for a lone trace_view.json from its Overlap Analysis lanes), so the figures are those
of the step trace; a card whose steps give none (a trace without step markers) is split by its Overlap
Analysis lanes summed by name, as the real server splits every card. The computing split by operator
kind (from PMU data) and the communication split by operator are not answered, nor a time range. An
operator profile's card answers an empty table: no overlap analysis is parsed for a profile's trace (the real
server answers ``isLoading`` and result false, OVERLAP_ANALYSIS_PARSE_NOT_FINISH, which leaves the page waiting).

The drill-downs of the same view answer as the real server does for what this view holds:

- ``systemView/overall/more/details`` (OverallMetrics.tsx useMetricsMoreUpdater: sent when a row below the
  first level is clicked, with its ``categoryList``) lists the operators of a category below the first
  level; ``QueryOverallMoreDetailsHandler.cpp`` refuses a ``categoryList`` of one name or none (a first-level
  row) and answers a category without operators with an error. The overall answered here has no level
  below the first, so each is refused, naming why.
- ``tableData/detail`` (TableDataView.tsx, SelectedDataBottomPanel.tsx: a page of a declared table,
  ``selectKey`` its index in ``tableData/nameList``) answers an empty table for an index past the declared
  tables and for a card that is no text trace (``QueryTableDataDetailHandler.cpp`` ComputeTableDetail,
  ComputeLinkPageDetail): a profiler's rank declares none, so every page is empty, in the shape of
  ToResponseJson<TableDataDetailResponse> (``totalNum``, ``tableData``, ``columnAttr``).
- ``systemView/systemViewFtraceStat`` (FtraceTaskSummary.tsx, shown when a card holds ftrace data) pages a
  text trace's ftrace task summary; a trace without one answers no rows (TextTraceDatabaseFtrace.cpp
  QueryTraceTaskSummary: no ``trace_task_summary`` table), a db card is refused
  (``QuerySystemViewFtraceStatHandler.cpp``: no text trace database). The warehouse reads no ftrace
  data, so a text card answers no rows, in the shape of ToResponseJson<SystemViewFtraceStatResponse>
  (``data``, ``current``, ``pageSize``, ``count``).
"""

from __future__ import annotations

from service.insight import cards, paging, ranks
from service.insight.protocol import InsightError, Params, rows

NS_PER_US = 1000.0
#: (name, step_time column) of the first level, in the real server's order (CommonDefs.h)
FIRST_LEVEL = (("Computing Time", "computing_ns"),
               ("Communication(Not Overlapped) Time", "communication_not_overlapped_ns"),
               ("Free Time", "free_ns"))
E2E_TIME = "E2E Time"
#: the Overlap Analysis lanes' names giving FIRST_LEVEL's times, in its order (the trace's thread names)
OVERLAP_NAMES = ("Computing", "Communication(Not Overlapped)", "Free")
#: the columns an ftrace task summary may be filtered on (TextTraceDatabaseFtrace.cpp AppendFtraceFilter)
FTRACE_FILTERS = ("cpu", "comm", "pid")


def _rank_or_profile(conn, params: Params) -> ranks.RankCard | None:
    """The rank card the request names, or None when it names an operator profile (whose Timeline card is its
    own trace: :func:`ranks.of_operator_profile`).

    :raises InsightError: if it names neither (the answer lists the rank cards).
    """
    try:
        return ranks.asked(conn, params)
    except InsightError as not_a_rank:
        try:
            cards.named(conn, params.text("rankId", aliases=("cardId", "dbPath")), kind=cards.OPERATOR_KIND)
        except InsightError:
            raise not_a_rank from None
        return None


def name_list(conn, params: Params) -> dict:
    """tableData/nameList: the tables the card's trace declares (a profiler's rank declares none, nor does an
    operator profile's trace)."""
    _rank_or_profile(conn, params)
    return {"layers": []}


def _item(index: int, name: str, total_us: float, e2e_us: float) -> dict:
    return {"totalTime": total_us, "ratio": round(100.0 * total_us / e2e_us, 2), "nums": "-", "avg": "-",
            "max": "-", "min": "-", "name": name, "id": str(index), "level": 1}


def overall(conn, params: Params) -> dict:
    """systemView/overall: the rank's computing, communication not overlapped, free and E2E times."""
    rank = _rank_or_profile(conn, params)
    if (params.integer("startTime", required=False) or 0) != (params.integer("endTime", required=False) or 0):
        raise InsightError("systemView/overall over a time range is not answered (startTime must equal endTime)")
    if rank is None:  # an operator profile: no overlap analysis to split, an empty table
        return _overall_body(params, [])
    steps = rows(conn, "step_time", run_id=rank.run_id, rank_id=rank.rank_id)
    totals = [round(sum(step[column] or 0 for step in steps) / NS_PER_US, 2) for _, column in FIRST_LEVEL]
    if sum(totals) == 0:
        totals = _overlap_totals(conn, rank)
    e2e = sum(totals)
    if e2e == 0:
        raise InsightError(f"card {rank.card_id!r} has no step time to split (no step trace, no device activity, "
                           "no overlap analysis)")
    details = [_item(index, name, total, e2e) for index, ((name, _), total) in enumerate(zip(FIRST_LEVEL, totals))]
    details.append({**_item(len(details), E2E_TIME, round(e2e, 2), e2e), "ratio": 100.0})
    return _overall_body(params, details)


def _overlap_totals(conn, rank: ranks.RankCard) -> list[float]:
    """The first level's times in us from the rank's Overlap Analysis lanes, each summed by name
    (``insight_layer_summary``), as the real server's GetOverlapAnalysisData sums them: the split of a card whose
    steps say none (a trace without step markers holds no step to sum, but its Overlap Analysis process)."""
    found = {row["name"]: row["total_ns"] for row in rows(conn, "insight_layer_summary", run_id=rank.run_id,
                                                          rank_id=rank.rank_id, layer="overlap analysis")}
    return [round((found.get(name) or 0) / NS_PER_US, 2) for name in OVERLAP_NAMES]


def _overall_body(params: Params, details: list[dict]) -> dict:
    return {"data": details, "count": len(details), "pageSize": params.integer("pageSize", required=False) or 0,
            "current": params.integer("current", required=False) or 0, "isLoading": False}


def overall_more_details(conn, params: Params) -> dict:
    """systemView/overall/more/details: refused, as the real server refuses it for what the overall holds (a
    first-level row, or a category below it, which this overall has none of)."""
    card = ranks.asked(conn, params)
    categories = params.values.get("categoryList") or []
    if not isinstance(categories, list) or not all(isinstance(name, str) for name in categories):
        raise InsightError(f"parameter categoryList: {categories!r} is not a list of names")
    if len(categories) <= 1:
        raise InsightError("categoryList must name a category below the first level (a first-level row has no "
                           f"operator list), not {categories!r}")
    raise InsightError(f"card {card.card_id!r} has no category {' > '.join(categories)!r}: the overall split "
                       "answered has no level below the first (no computing or communication split)")


def table_detail(conn, params: Params) -> dict:
    """tableData/detail: a page of a table the card's trace declares; a profiler's rank declares none."""
    ranks.asked(conn, params)
    paging.asked(params, "currentPage")
    return {"totalNum": 0, "tableData": [], "columnAttr": []}


def ftrace_stat(conn, params: Params) -> dict:
    """systemView/systemViewFtraceStat: a page of the card's ftrace task summary, which no input the warehouse
    reads holds (a text card: no rows; a db card: refused, as the real server's)."""
    card = ranks.asked(conn, params)
    current, page_size = params.integer("current"), params.integer("pageSize")
    if current < 1 or page_size < 1:
        raise InsightError(f"current and pageSize must be at least 1, not {current} and {page_size}")
    paging.filters(params, "filterCondition", FTRACE_FILTERS)
    if card.is_db:
        raise InsightError(f"card {card.card_id!r} is a database export: ftrace statistics come from a text trace")
    return {"data": [], "current": current, "pageSize": page_size, "count": 0}
