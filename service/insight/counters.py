"""Counter lanes on the Timeline: their declaration in parse/success and unit/counter, the values they plot.

A trace's counter events ('C': HBM bandwidth, NPU memory, AI Core frequency, ...) are drawn as lanes of
type ``counter`` under their process, one per event name, whose ``dataType`` lists the event's args
(Ascend/msinsight ``server/src/modules/timeline/core/database/TextTraceDatabase.cpp`` AddThreadTrack).
The warehouse holds each arg as a series named ``'<event name>.<arg>'`` (named query
``insight_counter_lanes``). The frontend's CounterUnit (``modules/timeline/src/insight/units/AscendUnit.tsx``,
``cache/simplecache.ts`` requestCounterData) asks ``unit/counter`` with the lane's ``rankId``, ``pid``
(the process id), ``threadName`` (the event name) and a window (``startTime``/``endTime``, relative), and
plots ``data: [{timestamp, value: {arg: number}}]`` (``protocol/TimelineProtocolUtil.cpp``
ToResponseJson<UnitCounterResponse>). As TextTraceDatabase::QueryUnitCounter: the samples of the
window in time order (``insight_counter_samples``), one per time with every arg's value, a sample kept
only where the values change, thinned to at most COUNTER_SAMPLES (VirtualTraceDatabase.cpp
DownSampleUnitCounterData), the last sample always at the end. A rank db's device counters (HBM, LLC,
... tables) have no process in the warehouse and are not declared.
"""

from __future__ import annotations

from service.insight import ranks, timeline
from service.insight.protocol import InsightError, Params, rows

#: most samples one answer plots (VirtualTraceDatabase.h counterSampleSize)
COUNTER_SAMPLES = 10_000


def series(name: str) -> tuple[str, str]:
    """(event name, arg) of a series named ``'<event name>.<arg>'`` (a name without a dot: the arg is the name)."""
    event, dot, arg = name.rpartition(".")
    return (event, arg) if dot else (name, name)


def lanes(conn, source_id: int) -> list[dict]:
    """The input's counter lanes: ``{process_id, pid, process_name, labels, event, args, track_ids}`` in
    display order."""
    found: dict[tuple[int, str], dict] = {}
    for row in rows(conn, "insight_counter_lanes", source_id=source_id):
        event, arg = series(row["name"])
        lane = found.setdefault((row["process_id"], event), {
            "process_id": row["process_id"], "pid": row["pid"], "process_name": row["process_name"],
            "labels": row["labels"], "event": event, "args": [], "track_ids": []})
        lane["args"].append(arg)
        lane["track_ids"].append(row["track_id"])
    return list(found.values())


def _thinned(samples: list[dict]) -> list[dict]:
    """Every len/COUNTER_SAMPLES-th sample when there are more (DownSampleUnitCounterData)."""
    if len(samples) <= COUNTER_SAMPLES:
        return samples
    step = len(samples) / COUNTER_SAMPLES
    return [samples[min(int(i * step), len(samples) - 1)] for i in range(COUNTER_SAMPLES)]


def unit_counter(conn, params: Params) -> dict:
    """unit/counter: the values of the lane (``pid``, ``threadName``) over the window, where they change."""
    card = ranks.asked(conn, params)
    process_id, event = params.integer("pid", aliases=("processId",)), params.text("threadName")
    lane = next((lane for source_id in card.timeline_ids for lane in lanes(conn, source_id)
                 if lane["process_id"] == process_id and lane["event"] == event), None)
    if lane is None:
        raise InsightError(f"card {card.card_id!r} has no counter lane {event!r} in process {process_id}")
    zero = timeline.card_zero(conn, card)
    start, end, _ = timeline.window(params, zero, tpp_required=False)
    values: dict[int, dict] = {}
    for track_id, arg in zip(lane["track_ids"], lane["args"]):
        for row in rows(conn, "insight_counter_samples", track_id=track_id, start_ns=start, end_ns=end):
            values.setdefault(row["ts"], {})[arg] = row["value"]
    samples, previous = [], None
    for ts in sorted(values):
        if values[ts] != previous:
            samples.append({"timestamp": ts - zero, "value": values[ts]})
            previous = values[ts]
    if not values:
        return {"data": []}
    last = max(values)
    return {"data": [*_thinned(samples), {"timestamp": last - zero, "value": values[last]}]}
