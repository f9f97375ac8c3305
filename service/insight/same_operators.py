"""query/all/same/operators/duration: the slices behind one line of the timeline's selection summary.

A line of unit/threads clicked (Ascend/msinsight ``modules/timeline/src/insight/units/details.tsx``
clickCallback) is listed slice by slice in the frontend's SameOperatorsList (``insight/units/AscendUnit.tsx``,
``api/request.ts`` queryAllSameOperatorsDuration): the request carries the line back (``rankId``, ``name``,
``processes: [{pid, tidList}]``, ``startTime``/``endTime`` relative) with the table's ``orderBy``
(``timestamp`` for its start column), ``order``, ``current``, ``pageSize`` and, when the selection keeps
a depth range, ``startDepth``/``endDepth``. As the real server answers it
(``server/src/modules/timeline/handler/QueryThreadsSameOperatorHandler.cpp``, ``core/database/
TextTraceDatabase.cpp`` QueryThreadSameOperatorsDetails; shape ``protocol/TimelineProtocolUtil.cpp``
ToResponseJson<UnitThreadsOperatorsResponse>): ``{sameOperatorsDetails: [{timestamp, duration, depth, id,
tid, pid}], rankId, count, pageSize, currentPage}``, times relative, durations ns. The slices are the named
query ``insight_thread_named_slices``'s: those unit/threads counted on the line.
"""

from __future__ import annotations

from service.insight import paging, ranks, timeline
from service.insight.protocol import InsightError, Params, rows

SORT_COLUMNS = {"timestamp": "timestamp", "duration": "duration", "depth": "depth"}


def _threads(params: Params) -> list[tuple[int, int]]:
    """(process id, thread id) of each thread of the line: ``processes``, else the older ``pid`` and ``tid``."""
    processes = params.values.get("processes")
    if processes is None:
        tids = params.values.get("tid")
        tids = tids if isinstance(tids, list) else [tids]
        return [(params.integer("pid"), Params({"tid": tid}).integer("tid")) for tid in tids]
    if not isinstance(processes, list) or not all(isinstance(p, dict) and isinstance(p.get("tidList"), list)
                                                  for p in processes):
        raise InsightError(f"parameter processes: expected a list of {{pid, tidList}}, got {processes!r}")
    return [(Params(process).integer("pid"), Params({"tid": tid}).integer("tid"))
            for process in processes for tid in process["tidList"]]


def _depths(params: Params) -> tuple[int, int] | None:
    """The selection's depth range (``startDepth``, ``endDepth``), None when it keeps none."""
    low, high = params.integer("startDepth", required=False), params.integer("endDepth", required=False)
    if low is None and high is None:
        return None
    return low if low is not None else 0, high if high is not None else timeline.LIMIT_NS


def durations(conn, params: Params) -> dict:
    """One page of the slices named ``name`` on the line's threads in the range, in the asked order."""
    card = ranks.asked(conn, params)
    name = params.text("name")
    zero = timeline.card_zero(conn, card)
    start, end, _ = timeline.window(params, zero, tpp_required=False)
    depths = _depths(params)
    items = []
    for process_id, thread_id in _threads(params):
        timeline.thread_checked(conn, params, thread_id, process_id)
        for row in rows(conn, "insight_thread_named_slices", thread_id=thread_id, slice_name=name, start_ns=start,
                        end_ns=end):
            if depths is None or depths[0] <= row["depth"] <= depths[1]:
                items.append({"timestamp": row["ts"] - zero, "duration": row["dur"], "depth": row["depth"],
                              "id": str(row["id"]), "tid": str(thread_id), "pid": str(process_id)})
    items.sort(key=lambda item: (item["timestamp"], int(item["id"])))
    shown = paging.page(paging.ordered(items, params, SORT_COLUMNS), params)
    return {"sameOperatorsDetails": shown, "rankId": card.card_id, "count": len(items),
            "pageSize": params.integer("pageSize", required=False) or 10,
            "currentPage": params.integer("current", required=False) or 1}
