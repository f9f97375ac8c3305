"""The System View's Operator Details table: kernel/total/list, a rank card's kernels summed per type and core.

The frontend's OperatorDetailView (Ascend/msinsight ``modules/timeline/src/components/detailViews/
OperatorDetailView.tsx`` queryOperatorStatistic) asks a page of it with ``rankId``, ``dbPath``, ``group``
("Operator Type"), ``current``/``pageSize``, ``orderBy``/``order`` (a column key; ``totalTime``
descending by default), ``filterCondition`` (JSON texts ``{"columnName", "value"}`` on ``type`` or
``acceleratorCore``, a value held any case) and ``startTime``/``endTime`` (relative ns; equal: the whole
card); a row's Details opens the card's Kernel Details of that type (unit/kernelDetails).

The real server groups the card's Kernel Details rows by type and accelerator core
(``server/src/modules/timeline/core/systemView/KernelDetailOverallDatabaseAccesser.cpp``
BuildOverallRecords, SortOverallRecords: ties by type; ``handler/QueryKernelOverallHandler.cpp``
BuildKernelOverallResult: times in us, the mean to 2 digits, ``key`` as ``<len>:<type>|<len>:<core>``),
in the shape of ``protocol/TimelineProtocolUtil.cpp`` ToResponseJson<KernelOverallResponse>. Here the
groups are the named query ``insight_kernel_types`` (the kernels unit/kernelDetails lists).
"""

from __future__ import annotations

from service.insight import paging, ranks, timeline
from service.insight.protocol import Params, rows

NS_PER_US = 1000.0
#: the table's sortable columns
SORT_COLUMNS = {key: key for key in ("type", "acceleratorCore", "number", "totalTime", "avgTime", "minTime",
                                     "maxTime")}
#: the columns the table filters on
FILTER_COLUMNS = ("type", "acceleratorCore")


def _key(op_type: str, core: str) -> str:
    """The row's key as BuildKernelOverallResponseKey writes it."""
    return f"{len(op_type)}:{op_type}|{len(core)}:{core}"


def kernel_types(conn, params: Params) -> dict:
    """kernel/total/list: one page of the card's kernels summed per type and accelerator core."""
    card = ranks.asked(conn, params)
    groups = rows(conn, "insight_kernel_types", run_id=card.run_id, rank_id=card.rank_id,
                  **timeline.card_range(conn, card, params))
    items = [{"key": _key(group["op_type"], group["acc_core"]), "type": group["op_type"],
              "acceleratorCore": group["acc_core"], "number": group["calls"],
              "totalTime": group["total_ns"] / NS_PER_US, "avgTime": round(group["avg_ns"] / NS_PER_US, 2),
              "minTime": group["min_ns"] / NS_PER_US, "maxTime": group["max_ns"] / NS_PER_US} for group in groups]
    columns = {column: column for column in FILTER_COLUMNS}
    items = paging.kept(items, paging.filters(params, "filterCondition", FILTER_COLUMNS), columns)
    # ties keep the type's order, as SortOverallRecords breaks them
    items = paging.ordered(sorted(items, key=lambda item: item["type"]), params, SORT_COLUMNS)
    return {"data": paging.page(items, params), "count": len(items),
            "pageSize": params.integer("pageSize", required=False) or 10,
            "current": params.integer("current", required=False) or 1, "isLoading": False}
