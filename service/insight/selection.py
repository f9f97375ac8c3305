"""unit/threads: the timeline's selection summary, slices of the selected threads grouped by name.

As the MindStudio Insight server answers it (Ascend/msinsight ``server/src/modules/timeline/``,
UnitThreadsResponse in ``protocol/TimelineProtocolUtil.cpp``): ``{emptyFlag, data: [{title,
wallDuration, occurrences, avgWallDuration, selfTime, tid, pid, metaType, processes, metaTypeList}]}``,
one row per slice name and process, ``tid`` the threads it ran on; ``processes`` (``[{pid, tidList}]``)
and ``metaTypeList`` say the same as the newer server does, and the frontend sends them back to list
the row's slices (query/all/same/operators/duration, :mod:`service.insight.same_operators`). The
threads come as the newer frontend sends them (``metadataList: [{tid, pid, metaType}]``) or as the
older one did (``tid`` and ``pid``);
ids are the warehouse's, times relative to the input's time zero (service.insight.timeline).
Durations are ns; a slice counts when it overlaps [startTime, endTime].
"""

from __future__ import annotations

from service.insight import timeline
from service.insight.protocol import InsightError, Params, rows


def _selected(params: Params) -> list[dict]:
    """The selected threads as {tid, pid, metaType} (given as metadataList, or tid and pid)."""
    listed = params.values.get("metadataList")
    if listed is None:
        return [{"tid": params.text("tid", aliases=("threadId",)),
                 "pid": params.text("pid", required=False, aliases=("processId",)) or "", "metaType": ""}]
    if not isinstance(listed, list) or not all(isinstance(item, dict) for item in listed):
        raise InsightError(f"parameter metadataList: expected a list of {{tid, pid, metaType}}, got {listed!r}")
    return [{"tid": str(item.get("tid", "")), "pid": str(item.get("pid", "")), "metaType": str(item.get("metaType", ""))}
            for item in listed]


def threads(conn, params: Params) -> dict:
    """Per slice name and process: wall time, occurrences, average, self time, the threads."""
    merged: dict[tuple[str, str], dict] = {}
    for item in _selected(params):
        thread_id = Params(item).integer("tid")
        thread = timeline.thread_checked(conn, params, thread_id, Params(item).integer("pid", required=False))
        start, end, _ = timeline.window(params, timeline.zero_of(conn, thread), tpp_required=False)
        pid = str(thread["process_id"])
        for row in rows(conn, "insight_thread_names", thread_id=thread_id, start_ns=start, end_ns=end):
            entry = merged.setdefault((row["name"] or "", pid), {
                "title": row["name"] or "", "wallDuration": 0, "occurrences": 0, "avgWallDuration": 0.0,
                "selfTime": 0, "tid": [], "pid": pid, "metaType": item["metaType"]})
            entry["wallDuration"] += row["wall_ns"]
            entry["occurrences"] += row["occurrences"]
            entry["selfTime"] += row["self_ns"]
            if str(thread_id) not in entry["tid"]:
                entry["tid"].append(str(thread_id))
    data = sorted(merged.values(), key=lambda e: (-e["wallDuration"], e["title"], e["pid"]))
    for entry in data:
        entry["avgWallDuration"] = entry["wallDuration"] / entry["occurrences"]
        entry["processes"] = [{"pid": entry["pid"], "tidList": list(entry["tid"])}]
        entry["metaTypeList"] = [entry["metaType"]]
    return {"emptyFlag": not data, "data": data}
