"""The timeline commands: unit/threadTraces, unit/threadTracesSummary, unit/flows, unit/threadDetail.

``processId``/``threadId`` (``pid``/``tid`` in flows and details) are the warehouse's
process and thread ids as strings. Times, asked and answered, are integer ns relative to the
input's earliest slice start or counter lane sample, as the MindStudio Insight server's are relative to its minimum
timestamp (Ascend/msinsight ``server/src/modules/timeline/core/RenderEngine.cpp``,
QueryThreadTraces): absolute epoch nanoseconds pass 2**53, which a browser cannot hold. Only
threadDetail's ``rawStartTime``/``rawEndTime`` are absolute, as decimal strings. The level of
detail (what is merged at ``timePerPx``) is :mod:`service.insight.lod`'s.
"""

from __future__ import annotations

import functools
import itertools
import json

import msgspec
import numpy as np
from flask import current_app

from service.insight import cache, cards, lod, ranks
from service.insight.protocol import InsightError, Params, one, rows

#: most items one unit/threadTraces answer holds (whole depths from the top are kept)
MAX_ITEMS = 20_000
#: a summary is computed for the viewport padded to tiles of this many buckets, and cached
TILE_BUCKETS = 2048
#: times are clamped to +-2**62 ns (year 2116) so that window arithmetic stays in 64 bits
LIMIT_NS = 1 << 62
#: pixels a summary asked without timePerPx is drawn on
SUMMARY_PIXELS = 1000
#: the category whose slices make a thread a Python call stack
PYTHON_FUNCTION = "python_function"
#: threadDetail's text fields and the args keys they are read from (torch_npu, CANN, kineto)
DETAIL_ARGS = {
    "inputShapes": ("Input Dims", "Input Shapes", "input_shapes"),
    "inputDataTypes": ("Input type", "Input Data Types", "input_data_types"),
    "inputFormats": ("Input Formats", "input_formats"),
    "outputShapes": ("Output Dims", "Output Shapes", "output_shapes"),
    "outputDataTypes": ("Output type", "Output Data Types", "output_data_types"),
    "outputFormats": ("Output Formats", "output_formats"),
    "attrInfo": ("Attr Info", "attr_info"),
}


def _clamp(ns: int) -> int:
    return min(max(ns, -LIMIT_NS), LIMIT_NS)


def window(params: Params, zero: int, *, tpp_required: bool = True) -> tuple[int, int, float]:
    """The asked window in absolute ns (the params are relative to ``zero``) and its ns per pixel
    (without ``timePerPx``, when not required: the window on SUMMARY_PIXELS pixels)."""
    relative = params.integer("startTime"), params.integer("endTime")
    if relative[1] < relative[0]:
        raise InsightError(f"endTime {relative[1]} is before startTime {relative[0]}")
    start, end = _clamp(relative[0] + zero), _clamp(relative[1] + zero)
    if tpp_required or params.values.get("timePerPx") not in (None, ""):
        return start, end, min(params.positive("timePerPx"), float(LIMIT_NS))
    return start, end, max(1.0, (end - start) / SUMMARY_PIXELS)


def warehouse_cache() -> cache.WarehouseCache:
    """The caches of the served warehouse in its current state (:mod:`service.insight.cache`)."""
    budget = int(current_app.config.get("INSIGHT_CACHE_SLICES") or cache.MAX_SLICES)
    return cache.for_warehouse(current_app.config["DATABASE"], budget)


def thread_checked(conn, params: Params, thread_id: int, process_id: int | None) -> dict:
    """The thread ``thread_id``, checked against the process and the card the request names."""
    thread = one(conn, "insight_thread", thread_id=thread_id)
    if thread is None:
        raise InsightError(f"unknown thread {thread_id}")
    if process_id is not None and thread["process_id"] != process_id:
        raise InsightError(f"thread {thread_id} is not in process {process_id}")
    cards.check_source(conn, params, thread["source_id"], f"thread {thread_id}")
    return thread


def zero_of(conn, thread: dict) -> int:
    """Time zero of a thread's input (its earliest slice start or counter lane sample)."""
    return warehouse_cache().start(conn, thread["source_id"])


def card_zero(conn, card: ranks.RankCard) -> int:
    """Time zero of a rank card: the earliest slice start or counter lane sample of its timeline (0 without
    one)."""
    return warehouse_cache().start(conn, card.timeline_ids[0]) if card.timeline_ids else 0


def card_range(conn, card: ranks.RankCard, params: Params) -> dict:
    """A System View table's time range as a named query's ``start_ns``/``end_ns`` (absolute): the
    ``startTime``/``endTime`` asked (relative ns); none when they are equal (the whole card), as the real
    server reads them (TextSqlConstant.h AppendTextTimeRangeConditionSql)."""
    start, end = params.integer("startTime", required=False) or 0, params.integer("endTime", required=False) or 0
    if end < start:
        raise InsightError(f"endTime {end} is before startTime {start}")
    if start == end:
        return {}
    zero = card_zero(conn, card)
    return {"start_ns": start + zero, "end_ns": end + zero}


def thread_traces(conn, params: Params) -> dict:
    """The slices of one thread in a window at ``timePerPx``: ``data[depth]`` = that depth's items,
    with the thread's depth count (``maxDepth``), the answer's (``currentMaxDepth``) and whether the
    thread holds Python functions (UnitThreadTracesResponse)."""
    process_id = params.integer("processId")
    thread_id = params.integer("threadId")
    row = thread_checked(conn, params, thread_id, process_id)
    store = warehouse_cache()
    zero = zero_of(conn, row)
    start, end, tpp = window(params, zero)
    thread = store.thread(conn, thread_id)
    text = functools.partial(store.string, conn)
    data = screen_rows(thread, thread.screen(start, end, tpp, MAX_ITEMS), str(thread_id), text, zero)
    python = any(text(c) == PYTHON_FUNCTION for c in thread.categories)
    return {"maxDepth": thread.depths, "currentMaxDepth": len(data), "havePythonFunction": python, "data": data}


class TraceRow(msgspec.Struct, gc=False):
    """One row of unit/threadTraces, keys in the seed's order (a struct encodes ~5x faster than a dict)."""

    name: str
    duration: int
    startTime: int  # noqa: N815 - the protocol's key
    endTime: int  # noqa: N815
    depth: int
    threadId: str  # noqa: N815
    cname: str
    id: str


def screen_rows(thread: lod.ThreadLod, items: lod.Items, thread_key: str, text, zero: int = 0) -> list[list[TraceRow]]:
    """Items as the seed's rows, one list per depth (depth = index), times relative to ``zero``;
    ``cname`` is the input's own ("" when it has none, as the real server's empty column); ``text(id)``
    gives a string. The rows are built column by column (numpy for the times, ``map`` for the
    structs): a Python loop per row was half of a request's time."""
    if not len(items):
        return []
    start, end, depth, longest = items.start, items.end, items.depth, items.longest  # sorted by (depth, start)
    name_ids, cname_ids = thread.name_id[longest], thread.cname_id[longest]
    strings = {int(i): text(int(i)) for i in np.unique(np.concatenate([name_ids, cname_ids]))}
    rows = list(map(TraceRow, map(strings.__getitem__, name_ids.tolist()), (end - start).tolist(),
                    (start - zero).tolist(), (end - zero).tolist(), depth.tolist(), itertools.repeat(thread_key),
                    map(strings.__getitem__, cname_ids.tolist()), map(str, thread.ids[longest].tolist())))
    bounds = np.searchsorted(depth, np.arange(int(depth[-1]) + 2)).tolist()
    return [rows[first:last] for first, last in zip(bounds, bounds[1:])]


def thread_traces_summary(conn, params: Params) -> dict:
    """The busy intervals of a process over [startTime, endTime] at ``timePerPx`` (optional, as for
    the real server: the window on SUMMARY_PIXELS pixels without it)."""
    process_id = params.integer("processId")
    threads = rows(conn, "insight_process_threads", process_id=process_id)
    if not threads:
        raise InsightError(f"unknown process {process_id}")
    cards.check_source(conn, params, threads[0]["source_id"], f"process {process_id}")
    thread_ids = [t["thread_id"] for t in threads if t["thread_id"] is not None]
    store = warehouse_cache()
    zero = zero_of(conn, threads[0])
    start, end, tpp = window(params, zero, tpp_required=False)
    width = lod.bucket_width(tpp)
    tile = width * TILE_BUCKETS
    # the viewport padded by half its span on each side, out to whole tiles: pans and re-requests hit the cache
    pad = (end - start) // 2
    first, last = _clamp((start - pad) // tile * tile), _clamp(-(-(end + pad) // tile) * tile)

    def compute():
        parts = [store.thread(conn, t).busy(first, last, width) for t in thread_ids]
        return lod.union([p[0] for p in parts], [p[1] for p in parts], width)

    starts, ends = store.summary((process_id, width, first, last), compute)
    keep = (ends > start) | (starts >= start)
    keep &= starts <= end
    return {"data": [{"startTime": s - zero, "duration": e - s}
                     for s, e in zip(starts[keep].tolist(), ends[keep].tolist())]}


def _end(prefix: str, row: dict, card_key: str, zero: int) -> dict:
    return {"pid": str(row[f"{prefix}_process_id"]), "tid": str(row[f"{prefix}_thread_id"]),
            "timestamp": row[f"{prefix}_ts"] - zero, "duration": row[f"{prefix}_dur"],
            "depth": row[f"{prefix}_depth"],
            "name": row[f"{prefix}_name"] or "", "id": str(row[f"{prefix}_id"]), "metaType": "", "rankId": card_key}


def flows(conn, params: Params) -> dict:
    """The arrows at one slice (``id``), grouped by category; a flow's id is the input's own."""
    slice_id = params.integer("id")
    detail, thread = _slice(conn, params, slice_id)
    zero = zero_of(conn, thread)
    card_key = params.text("rankId", required=False, aliases=("cardId",)) or ""
    groups: dict[str, list] = {}
    for row in rows(conn, "insight_slice_flows", slice_id=detail["id"]):
        cat = row["category"] or row["name"] or ""
        groups.setdefault(cat, []).append({
            "title": row["name"] or "flow", "cat": cat, "id": row["flow_key"] or str(row["flow_id"]),
            "from": _end("from", row, card_key, zero), "to": _end("to", row, card_key, zero)})
    return {"unitAllFlows": [{"cat": cat, "flows": items} for cat, items in groups.items()]}


def _slice(conn, params: Params, slice_id: int) -> tuple[dict, dict]:
    """The slice ``slice_id`` and its thread, checked against ``tid``/``pid`` and the card when the
    request gives them."""
    detail = one(conn, "insight_slice_detail", slice_id=slice_id)
    if detail is None:
        raise InsightError(f"unknown slice {slice_id}")
    thread_id = params.integer("tid", required=False, aliases=("threadId",))
    process_id = params.integer("pid", required=False, aliases=("processId",))
    if thread_id is not None and thread_id != detail["thread_id"]:
        raise InsightError(f"slice {slice_id} is not on thread {thread_id}")
    if process_id is not None and process_id != detail["process_id"]:
        raise InsightError(f"slice {slice_id} is not in process {process_id}")
    thread = one(conn, "insight_thread", thread_id=detail["thread_id"])
    cards.check_source(conn, params, thread["source_id"], f"slice {slice_id}")
    return detail, thread


def thread_detail(conn, params: Params) -> dict:
    """One slice's details: by ``id``, else the slice of ``tid`` at ``depth`` covering ``startTime``
    (relative); ``rawStartTime``/``rawEndTime`` are its absolute start and end as decimal strings."""
    slice_id = params.integer("id", required=False)
    if slice_id is None:
        thread_id = params.integer("tid", aliases=("threadId",))
        depth, at = params.integer("depth"), params.integer("startTime")
        thread = thread_checked(conn, params, thread_id, params.integer("pid", required=False, aliases=("processId",)))
        at = _clamp(at + zero_of(conn, thread))
        found = one(conn, "insight_slice_at", thread_id=thread_id, depth=depth, ts=at)
        if found is None:
            return {"emptyFlag": True, "data": {}}
        slice_id = found["id"]
    detail, _ = _slice(conn, params, slice_id)
    args = detail["args"] or ""
    return {"emptyFlag": False, "data": {
        "selfTime": detail["self_time"], "args": args, "title": detail["name"] or "", "duration": detail["dur"],
        "cat": detail["category"] or "", "rawStartTime": str(detail["ts"]),
        "rawEndTime": str(detail["ts"] + detail["dur"]), **_arg_fields(args)}}


def _arg_fields(args: str) -> dict:
    """threadDetail's shape and type fields, from the args keys producers use for them."""
    try:
        parsed = json.loads(args) if args else {}
    except ValueError:
        parsed = {}
    parsed = parsed if isinstance(parsed, dict) else {}
    fields = {}
    for field, keys in DETAIL_ARGS.items():
        value = next((parsed[k] for k in keys if k in parsed), "")
        fields[field] = value if isinstance(value, str) else json.dumps(value)
    return fields
