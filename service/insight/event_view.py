"""The System View's Events View: unit/eventView, the slices of one lane of a card, a page at a time.

"Show in Events View" on a lane (Ascend/msinsight ``modules/timeline/src/actions/actionShowInEventsView.ts``)
opens the Events View, which asks (``components/detailViews/EventsView.tsx`` searchData) with the lane's
``pid`` (processId) and ``tid`` (threadId) or ``threadIdList``, ``processName``, ``metaType``,
``currentPage``/``pageSize``, ``orderBy`` (a column's key, ``start`` for the start; ``duration`` by
default) and ``order``, ``filterCondition`` (JSON texts ``{"columnName": "name", "value"}``, a name
holding the value, any case) and ``startTime``/``endTime`` (relative ns; equal: the whole card).

Shape: ``server/src/modules/timeline/protocol/TimelineProtocolUtil.cpp`` ToResponseJson<EventsViewResponse>
(``eventDetails``, ``columnList``, ``count``, ``pageSize``, ``currentPage``); rows and columns as
``core/database/TraceDatabaseHelper.cpp`` ResolveEventsViewResultSet and eventsViewColumnsMap give them:
start in relative ns, duration in ns; a host process (Python, CANN, any other) shows the input's
``tid`` and ``pid``, a device process (Ascend Hardware, HCCL, Overlap Analysis) the lane's name
(``threadName``: stream, group or analysis type) and the card (``rankId``). The process's own name
chooses the columns (the lane a thread lane's metadata names carries none). The rows are the named
query ``insight_thread_events``: the lane's threads (the asked ``threadIdList``, else the thread
``tid``, else every thread of the process).
"""

from __future__ import annotations

from service.insight import paging, ranks, timeline
from service.insight.protocol import InsightError, Params, rows

#: Events View columns (name, type, key) as eventsViewColumnsMap lists them
NAME, START, DURATION = ("Name", "string", "name"), ("Start", "number", "start"), ("Duration(ns)", "number", "duration")
HOST_COLUMNS = (NAME, START, DURATION, ("TID", "string", "tid"), ("PID", "string", "pid"))
RANK = ("Rank ID", "string", "rankId")
#: a device process's columns by its name (metaTypeMap); any other process is a host one
DEVICE_COLUMNS = {
    "Ascend Hardware": (NAME, START, DURATION, ("Stream Name", "string", "threadName"), RANK),
    "HCCL": (NAME, START, DURATION, ("Group Name", "string", "threadName"), RANK),
    "Communication": (NAME, START, DURATION, ("Group Name", "string", "threadName"), RANK),
    "Overlap Analysis": (NAME, START, DURATION, ("Analysis Type", "string", "threadName"), RANK),
}


def _lane(conn, params: Params) -> tuple[int, str, list[int]]:
    """(the process ``pid``, its name, the lane's threads: ``threadIdList``, else ``tid``, else every
    thread of the process), each checked against the card."""
    process_id = params.integer("pid", aliases=("processId",))
    threads = rows(conn, "insight_process_threads", process_id=process_id)
    if not threads:
        raise InsightError(f"unknown process {process_id}")
    listed = params.values.get("threadIdList") or []
    if not isinstance(listed, list):
        raise InsightError(f"parameter threadIdList: expected a list of thread ids, got {listed!r}")
    try:
        asked = [int(str(thread_id)) for thread_id in listed]
    except ValueError:
        raise InsightError(f"parameter threadIdList: {listed!r} holds a value that is not a thread id") from None
    if not asked and params.integer("tid", required=False, aliases=("threadId",)) is not None:
        asked = [params.integer("tid", aliases=("threadId",))]
    if not asked:
        asked = [row["thread_id"] for row in threads if row["thread_id"] is not None]
    for thread_id in asked:
        timeline.thread_checked(conn, params, thread_id, process_id)
    return process_id, threads[0]["process_name"] or "", asked


def _row(event: dict, zero: int, thread_id: int, process_id: int, device: bool, card_id: str) -> dict:
    row = {"id": str(event["id"]), "name": event["name"], "start": event["ts"] - zero, "duration": event["dur"],
           "depth": event["depth"], "threadId": str(thread_id), "processId": str(process_id)}
    if device:
        row.update(threadName=event["thread_name"] or "", rankId=card_id)
    else:
        row.update(tid=event["tid"], pid=event["pid"])
    return row


def event_view(conn, params: Params) -> dict:
    """unit/eventView: one page of a lane's slices with the columns its process shows."""
    card = ranks.asked(conn, params)
    process_id, process_name, thread_ids = _lane(conn, params)
    zero, ranged = timeline.card_zero(conn, card), timeline.card_range(conn, card, params)
    text = next((value for _, value in paging.filters(params, "filterCondition", ("name",))), "")
    events = [(thread_id, event) for thread_id in thread_ids
              for event in rows(conn, "insight_thread_events", thread_id=thread_id, search=text, **ranged)]
    columns = DEVICE_COLUMNS.get(process_name, HOST_COLUMNS)
    device = columns is not HOST_COLUMNS
    items = sorted((_row(event, zero, thread_id, process_id, device, card.card_id) for thread_id, event in events),
                   key=lambda item: (item["start"], int(item["id"])))
    items = paging.ordered(items, params, {key: key for _, _, key in columns})
    return {"eventDetails": paging.page(items, params, "currentPage"),
            "columnList": [{"name": title, "type": kind, "key": key} for title, kind, key in columns],
            "count": len(items), "pageSize": params.integer("pageSize", required=False) or 10,
            "currentPage": params.integer("currentPage", required=False) or 1}
