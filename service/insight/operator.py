"""The Operator module of MindStudio Insight for a rank of a training run: its operators summed and listed.

Once ``parse/operatorCompleted`` named a rank (:func:`service.insight.parse_events.operator_completed`)
the Operator page asks, for the rank chosen (``rankId``: the card's id) and a grouping (``group``),
with the page's whole condition as params (Ascend/msinsight ``modules/operator/src/components/
RequestUtils.ts``): ``operator/category`` and ``operator/compute_unit`` (``DetailChart.tsx``: the two
pies), then ``operator/statistic`` for a grouping ("Operator Type", "Input Shape", "Communication
Operator Type") or ``operator/details`` for a list ("Operator", "Communication Operator")
(``DetailTable.tsx`` queryOperatorData), and ``operator/more_info`` for a group's operators when a
row is opened (queryOperatorDetailData).

The real server answers from the rank's COMPUTE_TASK_INFO/TASK and COMMUNICATION_OP, or the
kernel_details.csv it parsed (``server/src/modules/operator/database/DbSummaryDataBase.cpp``,
``TextSummaryDataBase.cpp``; handlers ``handler/QueryOp*Handler.cpp``) in the shapes of
``protocol/OperatorProtocolUtil.cpp``, and so does this module, from the named queries
``insight_operator_groups`` and ``insight_operators`` (the kernels that answer for the rank, the
db and the text export alike, and its HCCL operators): the most time first, ``topK`` of them (-1:
all), then ``filters`` (a value within the column, ignoring case), ``orderBy``/``order``
("ascend", else descending) and a page (``current``, ``pageSize``). Times as the real server's: pie
durations in us rounded to 2 digits; table figures as text with 3 decimals (totals, means and
extremes rounded to 0.01 us, durations and waits to 0.001 us); ``startTime`` in ms from the card's
time zero (the Timeline's), rounded to 0.01 ms.

A kernel's PMU figures (a level-1 export's) are columns of its row, named as its export names
them (:mod:`pmu`), those of the page's kernels in ``pmuHeaders``; ``level`` says whether the kernels give
input shapes. In compare mode (``isCompare``, a rank set as baseline with global/setBaseline)
``operator/statistic`` and ``operator/details`` pair the rank's rows with the baseline rank's
(:mod:`operator_compare`); the pies and ``operator/more_info``, which the page does not ask then,
answer for the rank alone, as the real server's. The Export button's ``operator/exportDetails`` writes
these tables whole (:mod:`operator_export`). Not kept: the compute-unit pie of a communication grouping
(the frontend hides it; the answer is empty). An HCCL operator's wait is empty where the input keeps
none (a rank db's COMMUNICATION_OP), where the real server answers "Loading".
"""

from __future__ import annotations


from service.insight import operator_compare, paging, pmu, ranks, timeline
from service.insight.baseline import rank_baseline
from service.insight.protocol import InsightError, Params, one, rows

NS_PER_US, NS_PER_MS = 1000.0, 1_000_000.0
#: the frontend's groupings (OperatorGroupConverter.h): (group_by of insight_operator_groups or None
#: for one row per operator, whether they are HCCL operators)
GROUPS = {"Operator Type": ("op_type", False), "Input Shape": ("name_shape", False), "Operator": (None, False),
          "Communication Operator Type": ("communication_type", True), "Communication Operator": (None, True)}
#: pies of more slices than this show the rest as one (DbSummaryDataBase.h maxCategorySize)
MAX_SLICES, OTHERS = 50, "Others"
#: a grouped row's protocol column -> its key in a row of insight_operator_groups (OperatorProtocolDefs.h)
STATISTIC_COLUMNS = {"opType": "op_type", "opName": "op_name", "inputShape": "input_shape", "accCore": "acc_core",
                     "count": "count", "totalTime": "total_ns", "avgTime": "avg_ns", "maxTime": "max_ns",
                     "minTime": "min_ns"}
#: an operator's protocol column -> its key in a row of insight_operators
DETAIL_COLUMNS = {"name": "name", "type": "op_type", "accCore": "acc_core", "startTime": "ts", "duration": "dur",
                  "waitTime": "wait_ns", "blockNum": "block_dim", "inputShape": "input_shapes",
                  "inputType": "input_dtypes", "inputFormat": "input_formats", "outputShape": "output_shapes",
                  "outputType": "output_dtypes", "outputFormat": "output_formats"}
STATISTIC_FILTERS, DETAIL_FILTERS = ("opType", "opName", "accCore", "inputShape"), ("name", "type", "accCore")
#: a value the input does not give: sorted before any other


def _group(params: Params) -> tuple[str | None, bool]:
    group = params.text("group")
    if group not in GROUPS:
        raise InsightError(f"group must be one of {', '.join(GROUPS)}, not {group!r}")
    return GROUPS[group]


def _asked(conn, params: Params) -> tuple[ranks.RankCard, str | None, bool, int]:
    """(the rank card, its grouping, whether of HCCL operators, topK) of a request."""
    card = ranks.asked(conn, params)
    group_by, communication = _group(params)
    top_k = params.integer("topK", required=False) or 0
    if top_k < -1:
        raise InsightError(f"topK must be -1 (all) or at least 0, not {top_k}")
    return card, group_by, communication, top_k


def _top(items: list, top_k: int) -> list:
    return items if top_k == -1 else items[:top_k]


def _groups(conn, card: ranks.RankCard, group_by: str) -> list[dict]:
    """The rank's groups, most time first, each with its mean (``avg_ns``); kept for the warehouse's
    state, which the page asks for its pies and each page of its table (not to be changed)."""

    def compute() -> list[dict]:
        found = rows(conn, "insight_operator_groups", run_id=card.run_id, rank_id=card.rank_id, group_by=group_by)
        return [{**row, "avg_ns": row["total_ns"] / row["count"]} for row in found]

    return timeline.warehouse_cache().summary(("operator groups", card.run_id, card.rank_id, group_by), compute)


def operators(conn, card: ranks.RankCard, communication: bool, top_k: int = -1, **only) -> list[dict]:
    """The rank's kernels (or HCCL operators), longest first, the ``top_k`` of them; ``only``: of one
    group (``op_type``, ``op_name``, ``input_shapes``, ``acc_core``)."""
    return rows(conn, "insight_operators", run_id=card.run_id, rank_id=card.rank_id, communication=communication,
                top_k=top_k, **{"op_type": None, "op_name": None, "input_shapes": None, "acc_core": None, **only})


def _us(ns: float, digits: int) -> float:
    return round(ns / NS_PER_US, digits)


def _pie(slices: list[tuple[str, float]]) -> dict:
    """``{data: [{name, duration}]}``; of more than 50 slices the 50th and later are one, "Others"
    (QueryOperatorDurationInfo)."""
    if len(slices) <= MAX_SLICES:
        return {"data": [{"name": name, "duration": duration} for name, duration in slices]}
    data = [{"name": name, "duration": duration} for name, duration in slices[:MAX_SLICES - 1]]
    data.append({"name": OTHERS, "duration": sum(duration for _, duration in slices[MAX_SLICES - 1:])})
    return {"data": data}


def _slice_name(row: dict) -> str:
    """A group's name in the pie: its type, or ``name[shapes]`` (GetGroupNameByIdListStr)."""
    if row["op_name"] is None:
        return row["op_type"] or ""
    return f"{row['op_name']}[{row['input_shape'] or ''}]"


def category(conn, params: Params) -> dict:
    """operator/category: the time of the topK groups (or operators), as a pie."""
    card, group_by, communication, top_k = _asked(conn, params)
    if group_by is None:
        found = operators(conn, card, communication, top_k)
        return _pie([(row["name"] or "", _us(row["dur"], 2)) for row in found])
    found = _top(_groups(conn, card, group_by), top_k)
    return _pie([(_slice_name(row), _us(row["total_ns"], 2)) for row in found])


def compute_unit(conn, params: Params) -> dict:
    """operator/compute_unit: the time of the topK compute groups (or kernels) summed per accelerator core."""
    card, group_by, communication, top_k = _asked(conn, params)
    if communication:
        return {"data": []}
    if group_by is None:
        found = [(row["acc_core"], _us(row["dur"], 2)) for row in operators(conn, card, False, top_k)]
    else:
        found = [(row["acc_core"], _us(row["total_ns"], 2)) for row in _top(_groups(conn, card, group_by), top_k)]
    cores: dict[str, float] = {}
    for core, duration in found:
        cores[core or ""] = cores.get(core or "", 0.0) + duration
    ranked = sorted(cores.items(), key=lambda item: -item[1])
    return {"data": [{"name": core, "duration": round(duration, 2)} for core, duration in ranked]}


def _fixed(ns: float | None, digits: int) -> str:
    """A time in us as the real server writes a figure: rounded to ``digits``, then with 3 decimals."""
    return "" if ns is None else f"{_us(ns, digits):.3f}"


def _statistic_row(row: dict) -> dict:
    return {"opType": row["op_type"] or "", "opName": row["op_name"] or "", "accCore": row["acc_core"] or "",
            "inputShape": row["input_shape"] or "", "totalTime": _fixed(row["total_ns"], 2),
            "count": str(row["count"]), "avgTime": _fixed(row["avg_ns"], 2), "maxTime": _fixed(row["max_ns"], 2),
            "minTime": _fixed(row["min_ns"], 2)}


def _empty(keys) -> dict:
    return {key: "" for key in keys}


def statistic(conn, params: Params) -> dict:
    """operator/statistic: a page of the topK groups, each ``{diff, baseline, compare}`` (only compare filled)."""
    card, group_by, _, top_k = _asked(conn, params)
    if group_by is None or top_k == 0:
        raise InsightError("operator/statistic needs a grouping (Operator Type, Input Shape, Communication Operator "
                           "Type) and a topK other than 0")
    filters, baseline = paging.filters(params, "filters", STATISTIC_FILTERS), rank_baseline(conn, params)
    if baseline is not None:
        sides = [[_statistic_row(row) for row in paging.kept(_groups(conn, rank, group_by), filters, STATISTIC_COLUMNS)]
                 for rank in (baseline, card)]
        return operator_compare.statistic(params.text("group"), *sides, paging.asked(params), _order(params), top_k)
    found = paging.kept(_top(_groups(conn, card, group_by), top_k), filters, STATISTIC_COLUMNS)
    page = paging.page(paging.ordered(found, params, STATISTIC_COLUMNS), params)
    return {"total": len(found), "data": [
        {"diff": _empty(STATISTIC_COLUMNS), "baseline": _empty(STATISTIC_COLUMNS), "compare": _statistic_row(row)}
        for row in page]}


def _figures(conn, row: dict) -> dict[str, str]:
    """A kernel's PMU figures by their shown names (:mod:`pmu`); none for an HCCL operator."""
    found = None if row["kernel_id"] is None else one(conn, "insight_kernel_pmu", kernel_id=row["kernel_id"])
    return pmu.figures(found) if found else {}


def _detail_rows(conn, page: list[dict], zero: int) -> tuple[list[dict], list[str]]:
    """The operators of a page as table rows, and the PMU figures they have, by name (a set, sorted:
    the real server's pmuHeaders)."""
    figures = [_figures(conn, row) for row in page]
    return ([{**found, **_detail_row(row, zero)} for row, found in zip(page, figures)],
            sorted({name for found in figures for name in found}))


def _detail_row(row: dict, zero: int) -> dict:
    """An operator's fields as a table row."""
    ts = row["ts"]
    return {"name": row["name"] or "", "type": row["op_type"] or "", "accCore": row["acc_core"] or "",
            "startTime": "NA" if not ts else str(round((ts - zero) / NS_PER_MS, 2)),
            "duration": _fixed(row["dur"], 3), "waitTime": _fixed(row["wait_ns"], 3),
            "blockNum": str(row["block_dim"] or 0), "inputShape": row["input_shapes"] or "",
            "inputType": row["input_dtypes"] or "", "inputFormat": row["input_formats"] or "",
            "outputShape": row["output_shapes"] or "", "outputType": row["output_dtypes"] or "",
            "outputFormat": row["output_formats"] or ""}


def _level(page: list[dict]) -> str:
    """l1 when the kernels give input shapes (the table shows them), else l0 (OperatorGetLevel)."""
    return "l1" if page and page[0]["input_shapes"] else "l0"


def details(conn, params: Params) -> dict:
    """operator/details: a page of the topK longest operators, each ``{diff, baseline, compare}``."""
    card, group_by, communication, top_k = _asked(conn, params)
    if group_by is not None:
        raise InsightError("operator/details lists operators: group must be Operator or Communication Operator")
    filters, baseline = paging.filters(params, "filters", DETAIL_FILTERS), rank_baseline(conn, params)
    if baseline is not None:
        sides = [(rank, paging.kept(operators(conn, rank, communication), filters, DETAIL_COLUMNS))
                 for rank in (baseline, card)]
        listed = [_detail_rows(conn, found, timeline.card_zero(conn, rank)) for rank, found in sides]
        return operator_compare.details(*listed, paging.asked(params), _order(params), top_k, _level(sides[0][1]))
    found = paging.kept(operators(conn, card, communication, top_k), filters, DETAIL_COLUMNS)
    page = paging.page(paging.ordered(found, params, DETAIL_COLUMNS), params)
    listed, headers = _detail_rows(conn, page, timeline.card_zero(conn, card))
    return {"total": len(found), "level": _level(page), "pmuHeaders": headers, "data": [
        {"diff": _empty(DETAIL_COLUMNS), "baseline": _empty(DETAIL_COLUMNS), "compare": row} for row in listed]}


def _order(params: Params) -> tuple[str, str]:
    """(``orderBy``, ``order``) as asked ("" when not)."""
    return params.text("orderBy", required=False) or "", params.text("order", required=False) or ""


def _group_of(group_by: str, params: Params) -> dict:
    """The group a grouped row names (``opType``; ``opName`` and ``shape``; ``accCore`` of a kernel), as
    insight_operators' ``only`` parameters."""
    if group_by == "communication_type":
        return {"op_type": params.text("opType")}
    core = params.text("accCore", required=False) or ""
    if group_by == "op_type":
        return {"op_type": params.text("opType"), "acc_core": core}
    return {"op_name": params.text("opName"), "input_shapes": params.text("shape", required=False) or "",
            "acc_core": core}


def more_info(conn, params: Params) -> dict:
    """operator/more_info: a page of one group's operators, longest first (See More of a grouped row)."""
    card, group_by, communication, _ = _asked(conn, params)
    if group_by is None:
        raise InsightError("operator/more_info opens a group: group must be Operator Type, Input Shape or "
                           "Communication Operator Type")
    members = operators(conn, card, communication, **_group_of(group_by, params))
    found = paging.kept(members, paging.filters(params, "filters", DETAIL_FILTERS), DETAIL_COLUMNS)
    page = paging.page(paging.ordered(found, params, DETAIL_COLUMNS), params)
    listed, headers = _detail_rows(conn, page, timeline.card_zero(conn, card))
    return {"total": len(found), "level": _level(page), "pmuHeaders": headers, "data": listed}
