"""The Timeline's Expert System View advice on a rank card: advisor/operatorDispatch.

The frontend's Expert System View lists, under "Operator Dispatch", the operators compiled while the model ran
(Ascend/msinsight ``modules/timeline/src/components/detailViews/ExpertSystemView.tsx`` OperatorDispatch, a
BaseSummary table of ``Common.tsx`` operatorDispatchColumns: name, start, duration, note), asking
``advisor/operatorDispatch`` with ``rankId``, ``dbPath``, ``current``, ``pageSize``, ``orderBy``, ``order``,
``startTime`` and ``endTime`` (relative ns; equal: the whole card) (``api/interface.ts``
QueryOperatorDispatchParams; the server reads the same keys, ``advisor/protocol/
AdvisorProtocolFromRequestJson.cpp`` ToRequest). A row clicked is found on the timeline by its name, start
and duration (handleAdvisorSelected: ``unit/one/kernelDetail``).

The rule (``server/src/modules/advisor/process/OperatorDispatchAdvisor.cpp``): a rank whose CANN API calls
``aclopCompileAndExecute`` number at least 20 compiles operators at run time; every such call is listed with
the advice to turn jit compile off; fewer is no pattern and lists none. The named query
``insight_operator_dispatch`` applies it to the rank's CANN API calls (a rank db's CANN_API, a trace's CANN
process: the two the real server reads, its db and text queries). A page is ordered by ``orderBy``
(``startTime``, ``duration``, ``pid``, ``tid`` or ``name``; any other: ``duration``) ascending when ``order``
is "ascend", else descending. Shape: ``advisor/protocol/AdvisorProtocolToResponseJson.cpp``
ToResponseJson<OperatorDispatchResponse> (``count`` all the rows, ``dbPath``, ``data``: ``id``, ``rankId``,
``startTime``, ``duration`` ns, ``pid``, ``tid``, ``depth``, ``name``, ``note``). ``id``, ``pid`` and ``tid``
name the call's slice and lane as the timeline commands take them (the warehouse's ids, as ``parse/success``
declares the lanes), where the real server gives a db's CANN_API row and global thread id.
"""

from __future__ import annotations

from service.insight import paging, ranks, timeline
from service.insight.protocol import Params, rows

#: the real server's advice on every row (OperatorDispatchAdvisor.h SUGGESTION_NOTE)
NOTE = ("Please use `torch_npu.npu.set_compile_mode(jit_compile=False)` to disable jit compile in dynamic shape "
        "usage.")
#: the columns a page is ordered by (OPERATOR_DISPATCH_ORDER_BY_NAME_LIST), the others falling back to duration
ORDER_BY = ("startTime", "duration", "pid", "tid", "name")
DEFAULT_ORDER = "duration"


def _row(call: dict, card: ranks.RankCard, zero: int) -> dict:
    return {"id": str(call["slice_id"]), "rankId": card.card_id, "startTime": call["ts"] - zero,
            "duration": call["dur"], "pid": str(call["process_id"] or ""), "tid": str(call["thread_id"] or ""),
            "depth": call["depth"], "name": call["name"], "note": NOTE}


def operator_dispatch(conn, params: Params) -> dict:
    """advisor/operatorDispatch: a page of the card's run-time operator compilations, when they make the pattern."""
    card = ranks.asked(conn, params)
    paging.asked(params)  # a page before 1 or of no row is refused, as CheckPageValid
    found = rows(conn, "insight_operator_dispatch", run_id=card.run_id, rank_id=card.rank_id,
                 **timeline.card_range(conn, card, params))
    zero = timeline.card_zero(conn, card)
    items = [_row(call, card, zero) for call in found]
    order_by = params.text("orderBy", required=False)
    order_by = order_by if order_by in ORDER_BY else DEFAULT_ORDER
    ascending = params.text("order", required=False) == "ascend"
    if order_by in ("pid", "tid"):  # lane ids: ordered as numbers
        items.sort(key=lambda row: int(row[order_by] or 0), reverse=not ascending)
    else:
        items.sort(key=lambda row: row[order_by], reverse=not ascending)
    return {"count": len(items), "dbPath": card.path, "data": paging.page(items, params)}
