"""The Memory page of MindStudio Insight on a training run's ranks: ``parse/memoryCompleted`` and ``Memory/*``.

The frontend lists a rank on its Memory page only once the event ``parse/memoryCompleted`` names it
(Ascend/msinsight ``modules/memory/src/connection/handler.ts`` parseMemoryCompletedHandler), then asks
``Memory/view/type`` and ``Memory/view/resourceType`` (``pages/Memory.tsx``), the curve
``Memory/view/memoryUsage`` (``components/DynamicLineChart.tsx``), the size bounds and the table
(``Memory/view/operatorSize``, ``Memory/view/operator``; for a static graph ``staticOpMemorySize``,
``staticOpMemoryList``, ``staticOpMemoryGraph``: ``components/MemoryDetailTable.tsx``,
``StaticLineChart.tsx``), the components (``Memory/view/component``: ``AntTableChart.tsx``) and, from
a table row, its slice on the Timeline (``Memory/find/slice``). Every request names the rank by the
card's id (``rankId``).

Answers are the real server's (``server/src/modules/memory``: the handlers, ``protocol/
MemoryProtocolUtil.cpp``, ``database/VirtualMemoryDataBase.cpp`` and the Db/Text databases): times
in ms after the card's time zero (the Timeline's: ``rankOffsetNs`` is 0), sizes
in MB, operator sizes in KB; the curve's points as the server's CurveContainer thins them (1,000
buckets, each column's minimum and maximum kept). The rows come from the warehouse's tables through
named queries (``insight_memory_*``); what they hold is laid out here as the server lays it out.
In compare mode (``isCompare``, a rank set as baseline with global/setBaseline) the curve, the
operator size bounds, the operator and component tables and a static graph's curve, bounds and
table pair the rank with the baseline rank (:mod:`memory_compare`).
"""

from __future__ import annotations

import math

from service.insight import memory_compare, parse_events, ranks, timeline
from service.insight.baseline import rank_baseline
from service.insight.protocol import InsightError, Params, one, rows

MEMORY_COMPLETED = "parse/memoryCompleted"
OVERALL, STREAM, COMPONENT = "Overall", "Stream", "Component"
#: components of memory_record (VirtualMemoryDataBase.h)
APP, GE, PTA, PTA_AND_GE, WORKSPACE, MINDSPORE_GE = "APP", "GE", "PTA", "PTA+GE", "WORKSPACE", "MindSpore+GE"
BASE_LEGENDS = ("Time (ms)", "Operators Allocated", "Operators Activated", "Operators Reserved")
WORKSPACE_LEGENDS = ("Workspace Allocated", "Workspace Reserved")
PTA_LEGENDS = ("PTA Allocated", "PTA Activated", "PTA Reserved")
GE_LEGENDS = ("GE Allocated", "GE Activated", "GE Reserved")
APP_LEGEND = "App Reserved"
STATIC_GRAPH_LEGENDS = ("Node Index", "Size", "Total Size")
#: buckets of a curve (CurveContainer::ComputeCurve numBuckets)
CURVE_BUCKETS = 1000
#: a static operator's node index meaning "to the graph's end" (maxUnsignedInt)
TO_THE_END = 4294967295
DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE = 10, 1000
#: the size column's slider bounds in the operator table's header (MemoryTableView.h)
DEFAULT_MIN_SIZE, DEFAULT_MAX_SIZE = -(1 << 31), (1 << 31) - 1
NAN = math.nan

#: the operator table (OperatorMemoryTableView::FIELD_FULL_COLUMNS): name, key, sortable, searchable,
#: range filterable, and the query column holding it
OPERATOR_COLUMNS = (
    ("Name", "name", True, True, False, "name"),
    ("Size(KB)", "size", True, False, True, "size"),
    ("Allocation Time(ms)", "allocationTime", True, False, True, "allocation_time"),
    ("Release Time(ms)", "releaseTime", True, False, True, "release_time"),
    ("Active Release Time(ms)", "activeReleaseTime", True, False, True, "active_release_time"),
    ("Duration(ms)", "duration", True, False, True, "duration"),
    ("Active Duration(ms)", "activeDuration", True, False, True, "active_duration"),
    ("Allocation Total Allocated(MB)", "allocationTotalAllocated", True, False, True, "allocation_allocated"),
    ("Allocation Total Reserved(MB)", "allocationTotalReserved", True, False, True, "allocation_reserved"),
    ("Allocation Total Active(MB)", "allocationTotalActive", True, False, True, "allocation_active"),
    ("Release Total Allocated(MB)", "releaseTotalAllocated", True, False, True, "release_allocated"),
    ("Release Total Reserved(MB)", "releaseTotalReserved", True, False, True, "release_reserved"),
    ("Release Total Active(MB)", "releaseTotalActive", True, False, True, "release_active"),
    ("Stream", "streamPtr", True, False, False, "stream"),
)
#: the static operator table (StaticOpTableView::FIELD_FULL_COLUMNS): name, key, query column
STATIC_COLUMNS = (
    ("Device ID", "deviceId", "device"), ("Name", "opName", "op_name"),
    ("Node Index Start", "nodeIndexStart", "node_index_start"), ("Node Index End", "nodeIndexEnd", "node_index_end"),
    ("Size(MB)", "size", "size_kb"),
)
#: the component table's columns (componentTableColumnAttr)
COMPONENT_COLUMNS = ({"name": "Component", "type": "string", "key": "component"},
                     {"name": "Peak Memory Reserved(MB)", "type": "number", "key": "totalReserved"},
                     {"name": "Timestamp(ms)", "type": "number", "key": "timestamp"})
#: the component table's sort keys and their query columns
COMPONENT_SORT = {"component": "component", "totalReserved": "total_reserved", "timestamp": "time_ms"}


# --- the event ---------------------------------------------------------------------------------

def memory_completed(conn, cards: list[ranks.RankCard]) -> list[dict]:
    """One ``parse/memoryCompleted`` per card of a rank holding memory data (memory records, operator
    memory or static graph memory), as the real server sends it once a rank's memory is parsed
    (DbMemoryDataBase::ParseCallBack, MemoryParse::ParseCallBack; shape: TimelineProtocolUtil.cpp
    ToEventJson<ParseMemoryCompletedEvent>). A database export's event says ``isCluster`` always, as
    DbMemoryDataBase's does; a text export's when its run has several ranks."""
    with_memory = {(row["run_id"], row["rank_id"]) for row in rows(conn, "insight_memory_ranks")}
    return [parse_events.envelope(MEMORY_COMPLETED, {
        "isCluster": card.is_db or card.run_ranks > 1,
        "memoryResult": [{"rankId": card.card_id, "hasMemory": True, "dbPath": card.path,
                          "rankInfo": card.rank_info()}],
        "dbPath": card.path}) for card in cards if (card.run_id, card.rank_id) in with_memory]


# --- the requests ------------------------------------------------------------------------------

def _card(conn, params: Params) -> ranks.RankCard:
    """The rank card the request names (:func:`ranks.asked`), not in comparison mode."""
    card = ranks.asked(conn, params)
    if params.values.get("isCompare") is True:
        raise InsightError("this memory view has no compare mode")
    return card


def _compared(conn, params: Params) -> tuple[ranks.RankCard, ranks.RankCard | None]:
    """(the rank card the request names, the baseline rank in compare mode, else None)."""
    return ranks.asked(conn, params), rank_baseline(conn, params)


def _zero(conn, card: ranks.RankCard) -> int:
    """The card's time zero (the Timeline's: its earliest slice or drawn counter sample), 0 when it has no
    timeline."""
    return timeline.zero_of(conn, {"source_id": card.timeline_ids[0]}) if card.timeline_ids else 0


def _group(params: Params, allowed: tuple[str, ...]) -> str:
    group = params.values.get("type")
    if group not in allowed:
        raise InsightError(f"Group By parameter should be {' or '.join(allowed)}.")
    return group


def _static_ops(conn, card: ranks.RankCard) -> list[dict]:
    return rows(conn, "insight_memory_static_ops", run_id=card.run_id, rank_id=card.rank_id)


def memory_type(conn, params: Params) -> dict:
    """``static`` with the graphs' ids when the rank holds static graph memory, else ``dynamic``
    (VirtualMemoryDataBase::ExecuteMemoryType)."""
    graphs = [str(row["graph_id"]) for row in _static_ops(conn, _card(conn, params))]
    return {"type": "static" if graphs else "dynamic", "graphId": list(dict.fromkeys(graphs))}


def resource_type(conn, params: Params) -> dict:
    """``Pytorch``, or ``MindSpore`` for a text export recording the MindSpore component
    (DbMemoryDataBase / TextMemoryDataBase::QueryMemoryResourceType)."""
    card = _card(conn, params)
    mindspore = not card.is_db and any(row["component"] == "MindSpore" for row in _records(conn, card))
    return {"type": "MindSpore" if mindspore else "Pytorch"}


def _records(conn, card: ranks.RankCard) -> list[dict]:
    return rows(conn, "insight_memory_records", run_id=card.run_id, rank_id=card.rank_id, zero_ns=_zero(conn, card))


def memory_usage(conn, params: Params) -> dict:
    """The memory curve of a rank grouped ``Overall``, by ``Stream`` or by ``Component``, between
    ``start`` and ``end`` (ms; the whole curve when both are 0 or absent), as
    QueryMemoryViewHandler answers: legends, points as text (``NULL`` where a series has none),
    the peaks as the title; in compare mode both ranks' series, no title (:mod:`memory_compare`)."""
    card, baseline = _compared(conn, params)
    group = _group(params, (OVERALL, STREAM, COMPONENT))
    legends, points, title = _curve(conn, card, group)
    if baseline is not None:
        base_legends, base_points, _ = _curve(conn, baseline, group)
        points = memory_compare.merged_lines(points, len(legends), base_points, len(base_legends), NAN, float)
        legends, title = memory_compare.curve_legends(legends, base_legends), ""
    return {"legends": legends, "lines": _thinned(points, len(legends), _number(params, "start"),
                                                  _number(params, "end")),
            "title": title, "rankOffsetNs": 0}


def _curve(conn, card: ranks.RankCard, group: str) -> tuple[list[str], list[tuple], str]:
    """A rank's curve grouped by ``group``: (legends, points of floats, the title)."""
    records = _records(conn, card)
    if group == OVERALL:
        records = [r for r in records if r["component"] != PTA]
    elif group == STREAM:
        records = [r for r in records if r["stream"] and r["component"] == PTA_AND_GE]
    streams = list(dict.fromkeys(r["stream"] for r in records if r["stream"]))
    build = {OVERALL: _overall, STREAM: _by_stream, COMPONENT: _by_component}[group]
    return build(records, streams)


def _number(params: Params, name: str) -> float:
    value = params.values.get(name)
    try:
        return float(value) if value not in (None, "") else 0.0
    except (TypeError, ValueError):
        raise InsightError(f"parameter {name}: {value!r} is not a number") from None


def _overall(records: list[dict], streams: list[str]) -> tuple[list[str], list[tuple], str]:
    """GetOverallLines: the framework's totals, the app's reserved memory, the workspace's."""
    inference = all(r["component"] == GE for r in records)
    framework = {PTA_AND_GE, MINDSPORE_GE} | ({GE} if inference else set())
    components = {r["component"] for r in records}
    has_framework, has_app, has_workspace = bool(components & framework), APP in components, WORKSPACE in components
    legends = [legend for legend in BASE_LEGENDS
               if not (legend in ("Operators Allocated", "Operators Reserved") and not has_framework)
               and not (legend == "Operators Activated" and not streams)]
    legends += [APP_LEGEND] * has_app + list(WORKSPACE_LEGENDS) * has_workspace
    framework_gap = (NAN,) * (has_framework + bool(streams) + has_framework)
    workspace_gap = (NAN,) * (len(WORKSPACE_LEGENDS) * has_workspace)
    points, peaks = [], {}
    for r in records:
        if r["component"] == APP:
            _peak(peaks, "APP Reserved", r["reserved_mb"])
            points.append((r["time_ms"], *framework_gap, r["reserved_mb"], *workspace_gap))
        elif r["component"] in framework:
            _peak(peaks, "Operator Allocated", r["allocated_mb"])
            _peak(peaks, "Operator Activated", r["active_mb"])
            _peak(peaks, "Operator Reserved", r["reserved_mb"])
            active = (r["active_mb"],) if streams else ()
            points.append((r["time_ms"], r["allocated_mb"], *active, r["reserved_mb"], *(NAN,) * has_app,
                           *workspace_gap))
        elif r["component"] == WORKSPACE:
            points.append((r["time_ms"], *framework_gap, *(NAN,) * has_app, r["allocated_mb"], r["reserved_mb"]))
    operators = ["Operator Allocated", *["Operator Activated"] * bool(streams), "Operator Reserved"]
    shown = operators * has_framework + ["APP Reserved"] * has_app
    return legends, points, _title(peaks, shown)


def _by_component(records: list[dict], streams: list[str]) -> tuple[list[str], list[tuple], str]:
    """GetComponentLines: PTA's and GE's totals apart, and the app's reserved memory."""
    components = {r["component"] for r in records}
    has_pta, has_ge, has_app = PTA in components, GE in components, APP in components
    legends = ["Time (ms)"] + list(PTA_LEGENDS) * has_pta + list(GE_LEGENDS) * has_ge + [APP_LEGEND] * has_app
    points, peaks = [], {}
    for r in records:
        sizes = (r["allocated_mb"], r["active_mb"], r["reserved_mb"])
        if r["component"] == PTA:
            for legend, size in zip(PTA_LEGENDS, sizes):
                _peak(peaks, legend, size)
            points.append((r["time_ms"], *sizes, *(NAN,) * (3 * has_ge), *(NAN,) * has_app))
        elif r["component"] == GE:
            for legend, size in zip(GE_LEGENDS, sizes):
                _peak(peaks, legend, size)
            points.append((r["time_ms"], *(NAN,) * (3 * has_pta), *sizes, *(NAN,) * has_app))
        elif r["component"] == APP:
            _peak(peaks, "APP Reserved", r["reserved_mb"])
            points.append((r["time_ms"], *(NAN,) * (3 * has_pta + 3 * has_ge), r["reserved_mb"]))
    shown = list(PTA_LEGENDS) * has_pta + list(GE_LEGENDS) * has_ge + ["APP Reserved"] * has_app
    return legends, points, _title(peaks, shown)


def _by_stream(records: list[dict], streams: list[str]) -> tuple[list[str], list[tuple], str]:
    """GetStreamLines: the framework's totals, one series of three per stream; no title."""
    legends = list(BASE_LEGENDS) if not records and not streams else ["Time (ms)"]
    for stream in streams:
        legends += [f"Allocated of {stream}", f"Activated of {stream}", f"Reserved of {stream}"]
    points = []
    for r in records:
        row = [r["time_ms"]]
        for stream in streams:
            row += [r["allocated_mb"], r["active_mb"], r["reserved_mb"]] if stream == r["stream"] else [NAN] * 3
        points.append(tuple(row))
    return legends, points, ""


def _peak(peaks: dict, legend: str, value: float) -> None:
    peaks[legend] = max(peaks.get(legend, 0.0), value)


def _title(peaks: dict, shown: list[str]) -> str:
    """GetPeakMemory: each peak with two decimals, cut (not rounded) as the server cuts std::to_string's six;
    PTA's first figure follows the prefix with no separator, as the server writes it."""
    parts = [f"{legend}: {f'{peaks.get(legend, 0.0):.6f}'[:-4]}MB" for legend in shown]
    text = "Peak Memory Usage: "
    for index, part in enumerate(parts):
        first = index == 0 and (part.startswith("Operator") or part.startswith("PTA"))
        text += part if first else " | " + part
    return text


def _thinned(points: list[tuple], width: int, start: float, end: float) -> list[list[str]]:
    """CurveContainer::ComputeCurve: the points between ``start`` and ``end`` (the whole curve when both
    are 0); above 1,000 of them, per bucket of ceil(n / 1000) only the points holding a column's minimum
    or maximum, in the order the columns find them."""
    if not points or width == 0:
        return []
    if start == end == 0:
        start, end = points[0][0], points[-1][0]
    inside = [p for p in points if start <= p[0] <= end]
    if len(inside) <= CURVE_BUCKETS:
        return [[_text(v) for v in p] for p in inside]
    size = math.ceil(len(inside) / CURVE_BUCKETS)
    kept = []
    for first in range(0, len(inside), size):
        bucket = range(first, min(first + size, len(inside)))
        chosen: list[int] = []
        for column in range(1, width):
            found = [i for i in bucket if not math.isnan(inside[i][column])]
            if not found:
                continue
            low = min(found, key=lambda i: inside[i][column])
            high = max(found, key=lambda i: inside[i][column])
            for index in sorted((low, high)):
                if index not in chosen:
                    chosen.append(index)
        kept += [[_text(v) for v in inside[i]] for i in chosen]
    return kept


def _text(value: float) -> str:
    """CurveContainer::DoubleToString: three decimals at most (half away from zero), trailing zeros
    dropped; NaN is ``NULL``. The server writes a negative value as empty: its time zero is the first
    timestamp of anything parsed, so none of its times is negative; the warehouse's zero is the card's
    Timeline's (its first slice or drawn counter sample), which a memory record may precede, so a negative value keeps its sign."""
    if math.isnan(value):
        return "NULL"
    sign, value = ("-", -value) if value < 0 else ("", value)
    whole = int(value)
    thousandths = math.floor((value - whole) * 1000 + 0.5)
    if thousandths == 1000:
        whole, thousandths = whole + 1, 0
    text = f"{whole}.{thousandths:03d}".rstrip("0") if thousandths else str(whole)
    return sign + text if text != "0" else text


# --- the operator table ------------------------------------------------------------------------

def _operators(conn, card: ranks.RankCard) -> list[dict]:
    return rows(conn, "insight_memory_operators", run_id=card.run_id, rank_id=card.rank_id, zero_ns=_zero(conn, card))


def operator_size(conn, params: Params) -> dict:
    """The smallest and largest operator block in KB (QueryOperatorSize), 0 and 0 with none; in
    compare mode the smallest and largest difference (:func:`memory_compare.size_bounds`); the smallest
    rounded down and the largest up, as QueryMemoryOperatorSizeHandler answers both."""
    card, baseline = _compared(conn, params)
    _group(params, (OVERALL, STREAM))
    low, high = _size_bounds(conn, card)
    if baseline is not None:
        low, high = memory_compare.size_bounds((low, high), _size_bounds(conn, baseline))
    return {"minSize": float(math.floor(low)), "maxSize": float(math.ceil(high))}


def _size_bounds(conn, card: ranks.RankCard) -> tuple[float, float]:
    sizes = [row["size"] for row in _operators(conn, card) if row["size"] is not None]
    return min(sizes, default=0.0), max(sizes, default=0.0)


def operators(conn, params: Params) -> dict:
    """A page of a rank's operator memory blocks (QueryMemoryOperatorHandler, AddOperatorSql): those
    on a stream when grouped by ``Stream``; those overlapping ``startTime``..``endTime`` (ms), or
    allocated or released in it with ``isOnlyShowAllocatedOrReleasedWithinInterval``; ``filters``
    (a searchable column containing a text, case-insensitive) and ``rangeFilters`` (a column between
    two numbers); sorted by ``orderBy`` (``order`` ascend/descend); paged by ``currentPage`` and
    ``pageSize``. ``totalNum`` is the rows matching, 0 when the page asked holds none (the server
    counts the rows it returns with COUNT(*) OVER()). In compare mode the blocks of both ranks paired
    (:func:`memory_compare.operator_table`)."""
    card, baseline = _compared(conn, params)
    group = _group(params, (OVERALL, STREAM))
    if baseline is not None:
        return _compared_operators(conn, card, baseline, params)
    found = _operators(conn, card)
    if group == STREAM:
        found = [row for row in found if row["stream"]]
    found = _in_time(found, params)
    columns = {key: (searchable, ranged, column) for _, key, _, searchable, ranged, column in OPERATOR_COLUMNS}
    for key, text in _mapping(params, "filters").items():
        if key not in columns or not columns[key][0] or not isinstance(text, str):
            raise InsightError(f"Invalid filter, detail: column {key!r} is not searchable")
        found = [row for row in found if text.lower() in (row[columns[key][2]] or "").lower()]
    for key, bounds in _mapping(params, "rangeFilters").items():
        if key not in columns or not columns[key][1] or not _is_range(bounds):
            raise InsightError(f"Invalid range filter, detail: column {key!r} is not range filterable")
        found = [row for row in found if row[columns[key][2]] is not None
                 and bounds[0] <= row[columns[key][2]] <= bounds[1]]
    found = _sorted(found, params)
    page = _page(found, params, lambda size: size <= 0)
    empty = {"name": "Unknown", "size": 0.0, "allocationTime": "", "releaseTime": "", "duration": 0.0,
             "allocationTotalAllocated": 0.0, "allocationTotalReserved": 0.0, "releaseTotalAllocated": 0.0,
             "releaseTotalReserved": 0.0, "activeReleaseTime": "", "activeDuration": 0.0,
             "allocationTotalActive": 0.0, "releaseTotalActive": 0.0, "streamPtr": "", "id": ""}
    return {"totalNum": len(found) if page else 0,
            "operatorDetail": [{"compare": _operator_json(row), "baseline": empty, "diff": empty} for row in page],
            "columnAttr": _operator_headers()}


def _compared_operators(conn, card: ranks.RankCard, baseline: ranks.RankCard, params: Params) -> dict:
    """Memory/view/operator in compare mode: the terms the real server reads then (MemoryProtocol.cpp
    ToMemoryOperatorRequest: ``searchName``, ``minSize``/``maxSize`` when given, ``startTime`` and
    ``endTime``, the order, the page)."""
    window = None
    if params.values.get("startTime") is not None and params.values.get("endTime") is not None:
        window = (_number(params, "startTime"), _number(params, "endTime"))
    sizes = _sizes_given(params)
    selection = {"search": params.text("searchName", required=False) or "", "sizes": sizes, "window": window,
                 "only_within": params.values.get("isOnlyShowAllocatedOrReleasedWithinInterval") is True}
    order_by = params.values.get("orderBy") or ""
    if order_by and not any(key == order_by and sortable for _, key, sortable, _, _, _ in OPERATOR_COLUMNS):
        raise InsightError(f"Failed to set orderBy param from param json object: Non-exist column {order_by}")
    total, shown = memory_compare.operator_table(
        *([_operator_json(row) for row in _operators(conn, rank)] for rank in (card, baseline)), selection,
        (order_by, _descending(params)), _compared_page(params))
    return {"totalNum": total, "operatorDetail": shown, "columnAttr": _operator_headers()}


def _sizes_given(params: Params) -> tuple[float | None, float | None]:
    """(``minSize``, ``maxSize``), each None when not given (the server then bounds nothing)."""
    low, high = (None if params.values.get(name) is None else _number(params, name) for name in ("minSize", "maxSize"))
    return low, high


def _compared_page(params: Params) -> tuple[int, int]:
    """(``currentPage``, ``pageSize``) as the compare handlers read them: 10 a page when not above 0."""
    size = params.integer("pageSize", required=False) or 0
    return params.integer("currentPage", required=False) or 0, DEFAULT_PAGE_SIZE if size <= 0 else size


def _operator_headers() -> list[dict]:
    return [_operator_header(name, key, sortable, searchable, ranged)
            for name, key, sortable, searchable, ranged, _ in OPERATOR_COLUMNS]


def _header(name: str, key: str, sortable: bool, searchable: bool, ranged: bool) -> dict:
    """TableViewColumn::ToTableHeaderJson."""
    return {"name": name, "key": key, "sortable": sortable, "searchable": searchable, "rangeFilterable": ranged}


def _operator_header(name: str, key: str, sortable: bool, searchable: bool, ranged: bool) -> dict:
    """The operator table's header: the size column carries its slider's bounds (ToResponseJson)."""
    header = _header(name, key, sortable, searchable, ranged)
    return header | {"min": DEFAULT_MIN_SIZE, "max": DEFAULT_MAX_SIZE} if key == "size" else header


def _mapping(params: Params, name: str) -> dict:
    value = params.values.get(name) or {}
    if not isinstance(value, dict):
        raise InsightError(f"parameter {name}: {value!r} is not an object")
    return value


def _is_range(bounds) -> bool:
    return (isinstance(bounds, list) and len(bounds) == 2
            and all(isinstance(b, (int, float)) and not isinstance(b, bool) for b in bounds))


def _in_time(found: list[dict], params: Params) -> list[dict]:
    """BuildQueryOperatorMemoryTimeCondition (only when both times are given)."""
    if params.values.get("startTime") is None or params.values.get("endTime") is None:
        return found
    start, end = _number(params, "startTime"), _number(params, "endTime")
    if start > end:
        raise InsightError("Start Time should be smaller or equal to End Time.")

    def within(value) -> bool:
        return value is not None and start <= value <= end

    if params.values.get("isOnlyShowAllocatedOrReleasedWithinInterval") is True:
        return [row for row in found if within(row["allocation_time"]) or within(row["release_time"])]
    return [row for row in found if (row["release_time"] is None or row["release_time"] >= start)
            and row["allocation_time"] is not None and row["allocation_time"] <= end]


def _sorted(found: list[dict], params: Params) -> list[dict]:
    """BuildQueryOrderByCondition: a block never released sorts after every time (first when
    descending); one with no allocation time before every time; NULL before any value (SQLite's)."""
    key = params.values.get("orderBy")
    if not key:
        return found
    column = next((c for _, k, sortable, _, _, c in OPERATOR_COLUMNS if k == key and sortable), None)
    if column is None:
        raise InsightError(f"Failed to set orderBy param from param json object: Non-exist column {key}")
    descending = _descending(params)
    unknown_last = column in ("release_time", "active_release_time")

    def rank(row):
        value = row[column]
        missing = value is None
        first = (1 if missing else 0) if unknown_last else (0 if missing else 1)
        return first, (value is not None, value if value is not None else 0)

    return sorted(found, key=rank, reverse=descending)


def _descending(params: Params) -> bool:
    """``order`` "descend", else ``desc`` true (SetOrderFromJson)."""
    if params.values.get("order"):
        return params.values.get("order") == "descend"
    return params.values.get("desc") is True


def _page(found: list, params: Params, default_when) -> list:
    size = params.integer("pageSize", required=False) or 0
    size = DEFAULT_PAGE_SIZE if default_when(size) else size
    if size > MAX_PAGE_SIZE or size < 0:
        raise InsightError(f"pageSize {size} is out of range (1..{MAX_PAGE_SIZE})")
    first = max((params.integer("currentPage", required=False) or 0) - 1, 0) * size
    return found[first:first + size]


def _time_text(value) -> str:
    """VirtualMemoryDataBase::ConvertTimestampStr: a time the block lacks, or a negative one, is N/A."""
    return "N/A" if value is None or value < 0 else repr(float(value))


def _operator_json(row: dict) -> dict:
    """ToMemoryOperatorJson: the keys in the server's order; a total the block lacks is 0."""
    def size(column):
        return row[column] if row[column] is not None else 0.0

    return {"id": str(row["id"]), "name": row["name"] or "Unknown", "size": size("size"),
            "allocationTime": _time_text(row["allocation_time"]), "releaseTime": _time_text(row["release_time"]),
            "duration": size("duration"), "allocationTotalAllocated": size("allocation_allocated"),
            "allocationTotalReserved": size("allocation_reserved"), "releaseTotalAllocated": size("release_allocated"),
            "releaseTotalReserved": size("release_reserved"),
            "activeReleaseTime": _time_text(row["active_release_time"]), "activeDuration": size("active_duration"),
            "allocationTotalActive": size("allocation_active"), "releaseTotalActive": size("release_active"),
            "streamPtr": row["stream"]}


# --- the components ------------------------------------------------------------------------------

def components(conn, params: Params) -> dict:
    """The rank's CANN components whose reserved memory peaked at 100 MB or more, paged and sorted by
    ``orderBy`` with ``order`` (QueryComponentDetail, QueryComponentsTotalNum): the peak in MB and when
    it was first reached (ms, as text). In compare mode both ranks' components paired
    (:func:`memory_compare.component_table`)."""
    card, baseline = _compared(conn, params)
    found = _components(conn, card)
    key, order = params.values.get("orderBy"), params.values.get("order")
    if key is not None and not isinstance(key, str):
        raise InsightError(f"parameter orderBy: {key!r} is not a column name")
    if order not in (None, "", "ascend", "descend"):
        raise InsightError(f"Order parameter is not legal: Order parameter is {order}, it should be ascend or descend.")
    if key and key not in COMPONENT_SORT:
        raise InsightError(f"Order By parameter is not legal: Order By parameter is {key}, "
                           f"it should be one of the column names")
    if baseline is not None:
        total, shown = memory_compare.component_table(
            *([_component_json(row) for row in _components(conn, rank)] for rank in (card, baseline)),
            (key or "", order or ""), _compared_page(params))
        return {"totalNum": total, "componentDetail": shown,
                "columnAttr": memory_compare.with_source(list(COMPONENT_COLUMNS))}
    if key and order:
        found = sorted(found, key=lambda row: row[COMPONENT_SORT[key]], reverse=order == "descend")
    page = _page(found, params, lambda size: size == 0)
    empty = {"component": "Unknown", "timestamp": "", "totalReserved": 0.0, "device": ""}
    return {"totalNum": len(found), "componentDetail": [
        {"compare": {**_component_json(row), "component": row["component"] or "Unknown"}, "baseline": empty,
         "diff": empty} for row in page], "columnAttr": list(COMPONENT_COLUMNS)}


def _components(conn, card: ranks.RankCard) -> list[dict]:
    return rows(conn, "insight_memory_components", run_id=card.run_id, rank_id=card.rank_id,
                zero_ns=_zero(conn, card))


def _component_json(row: dict) -> dict:
    """A component's peak as the server writes it (its name "" when it has none)."""
    return {"component": row["component"] or "", "timestamp": repr(float(row["time_ms"])),
            "totalReserved": row["total_reserved"], "device": ""}


# --- static graphs -------------------------------------------------------------------------------

def _of_graph(found: list[dict], params: Params) -> list[dict]:
    """The operators (the TOTAL rows left out) of ``graphId``, or of every graph when it is empty."""
    graph = params.text("graphId", required=False)
    return [row for row in found if row["op_name"] != "TOTAL" and (not graph or str(row["graph_id"]) == graph)]


def static_size(conn, params: Params) -> dict:
    """The smallest and largest static operator of a graph in KB (QueryStaticOperatorSize); in compare
    mode the smallest and largest difference (:func:`memory_compare.size_bounds`)."""
    card, baseline = _compared(conn, params)
    low, high = _static_bounds(conn, card, params)
    if baseline is not None:
        low, high = memory_compare.size_bounds((low, high), _static_bounds(conn, baseline, params))
    return {"minSize": low, "maxSize": high}


def _static_bounds(conn, card: ranks.RankCard, params: Params) -> tuple[float, float]:
    sizes = [row["size_kb"] for row in _of_graph(_static_ops(conn, card), params)]
    return min(sizes, default=0.0), max(sizes, default=0.0)


def _static_json(row: dict) -> dict:
    """A static operator as the table shows it (size in MB)."""
    return {"deviceId": row["device"] or "", "opName": row["op_name"], "nodeIndexStart": row["node_index_start"],
            "nodeIndexEnd": row["node_index_end"], "size": round(row["size_kb"] / 1024, 2)}


def _static_headers() -> list[dict]:
    return [_header(name, key, True, False, False) for name, key, _ in STATIC_COLUMNS]


def static_list(conn, params: Params) -> dict:
    """A page of a graph's static operators (QueryStaticOperatorList, AddStableOperatorSql): named
    like ``searchName``, holding memory at a node between ``startNodeIndex`` and ``endNodeIndex``,
    of ``minSize``..``maxSize`` KB, sorted by ``orderBy``; sizes shown in MB. In compare mode both
    ranks' operators paired (:func:`memory_compare.static_table`)."""
    card, baseline = _compared(conn, params)
    if baseline is not None:
        return _compared_static(conn, card, baseline, params)
    found = _of_graph(_static_ops(conn, card), params)
    search = (params.text("searchName", required=False) or "").lower()
    found = [row for row in found if search in (row["op_name"] or "").lower()]
    first, last = params.integer("startNodeIndex", required=False), params.integer("endNodeIndex", required=False)
    if first is not None and last is not None and 0 <= first <= last:
        found = [row for row in found if first <= row["node_index_start"] <= last
                 or first <= row["node_index_end"] <= last]
    # sizes in KB, fractional as staticOpMemorySize answers them (the server's int64 parameters drop a
    # fractional size, which then bounds the sizes to 0..0: the warehouse takes the number as given)
    low, high = _sizes_given(params)
    if low is not None and high is not None and low > high:
        raise InsightError("Min Size should be smaller or equal to Max Size.")
    found = [row for row in found
             if (low is None or row["size_kb"] >= low) and (high is None or row["size_kb"] <= high)]
    key = params.values.get("orderBy")
    if key:
        column = next((c for _, k, c in STATIC_COLUMNS if k == key), None)
        if column is None:
            raise InsightError(f"Failed to set orderBy param from param json object: Non-exist column {key}")
        found = sorted(found, key=lambda row: row[column], reverse=params.values.get("order") == "descend")
    page = _page(found, params, lambda size: size == 0)
    empty = {"deviceId": "", "opName": "", "nodeIndexStart": 0, "nodeIndexEnd": 0, "size": 0.0}
    return {"totalNum": len(found) if page else 0, "operatorDetail": [
        {"compare": _static_json(row), "baseline": empty, "diff": empty} for row in page],
        "columnAttr": _static_headers()}


def _compared_static(conn, card: ranks.RankCard, baseline: ranks.RankCard, params: Params) -> dict:
    """staticOpMemoryList in compare mode: the terms the real server reads then (``searchName``,
    ``minSize``/``maxSize`` and the node window when given, the order, the page)."""
    first, last = params.integer("startNodeIndex", required=False), params.integer("endNodeIndex", required=False)
    nodes = (first, last) if first is not None and last is not None and -1 not in (first, last) else None
    sizes = _sizes_given(params)
    selection = {"search": params.text("searchName", required=False) or "", "sizes": sizes, "nodes": nodes}
    order_by = params.values.get("orderBy") or ""
    if order_by and not any(key == order_by for _, key, _ in STATIC_COLUMNS):
        raise InsightError(f"Failed to set orderBy param from param json object: Non-exist column {order_by}")
    total, shown = memory_compare.static_table(
        *([_static_json(row) for row in _of_graph(_static_ops(conn, rank), params)] for rank in (card, baseline)),
        selection, (order_by, _descending(params)), _compared_page(params))
    return {"totalNum": total, "operatorDetail": shown, "columnAttr": _static_headers()}


def static_graph(conn, params: Params) -> dict:
    """A graph's memory over its node indexes (ExecuteStaticOperatorGraph): at each index an operator
    starts or ends at, the memory held (MB, the operators' sizes summed from their start to their
    end) and the graph's TOTAL; an index "to the end" (4294967295) is shown one past the largest.

    In compare mode both ranks' graphs, their lines merged by node index (:mod:`memory_compare`).

    :raises InsightError: if the graph has no TOTAL row (the server fails so)."""
    card, baseline = _compared(conn, params)
    legends, lines = _graph(conn, card, params)
    if baseline is not None:
        base_legends, base_lines = _graph(conn, baseline, params)
        lines = memory_compare.merged_lines(lines, len(legends), base_lines, len(base_legends), "NULL", int)
        legends = memory_compare.curve_legends(legends, base_legends)
    return {"legends": legends, "lines": lines}


def _graph(conn, card: ranks.RankCard, params: Params) -> tuple[list[str], list[list[str]]]:
    """A rank's static graph ``graphId``: (legends, lines)."""
    graph, model = params.text("graphId", required=False) or "", params.text("modelName", required=False) or ""
    found = [row for row in _static_ops(conn, card)
             if str(row["graph_id"]) == graph and (not model or row["model_name"] == model)]
    total = next((row["size_kb"] for row in found if row["op_name"] == "TOTAL"), None)
    if total is None:
        raise InsightError(f"graph {graph!r} of rank card {card.card_id!r} has no TOTAL row in static_op_mem.csv")
    held: dict[int, float] = {}
    largest = 0
    for row in found:
        if row["op_name"] == "TOTAL" or not row["size_kb"]:
            continue
        for index, sign in ((row["node_index_start"], 1), (row["node_index_end"], -1)):
            held[index] = held.get(index, 0.0) + sign * row["size_kb"]
            largest = TO_THE_END if index >= TO_THE_END else max(largest, index)
    lines, size = [], 0.0
    for index in sorted(held):
        size += held[index]
        lines.append([str(index if index < TO_THE_END else largest + 1), f"{size / 1024:.2f}", f"{total / 1024:.2f}"])
    return list(STATIC_GRAPH_LEGENDS) if held else [], lines


# --- to the Timeline -----------------------------------------------------------------------------

def find_slice(conn, params: Params) -> dict:
    """The Timeline slice an operator memory block (``id``, a row of Memory/view/operator) was
    allocated in: the slice named ``name`` covering its allocation time, the latest-starting one
    (FindSliceByAllocationTimeHandler); its lane as parse/success names it, times in ns after the
    card's zero."""
    card = _card(conn, params)
    block_id, name = params.text("id"), params.text("name", required=False) or ""
    block = next((row for row in _operators(conn, card) if str(row["id"]) == block_id), None)
    if block is None or block["allocation_ts"] is None:
        raise InsightError(f"no operator memory block {block_id!r} with an allocation time in rank card "
                           f"{card.card_id!r}")
    found = one(conn, "insight_memory_slice", run_id=card.run_id, rank_id=card.rank_id, slice_name=name,
                ts=block["allocation_ts"])
    if found is None:
        raise InsightError(f"no slice named {name!r} covers the allocation of block {block_id} in rank card "
                           f"{card.card_id!r}")
    return {"id": str(found["id"]), "rankId": card.card_id, "processId": str(found["process_id"]),
            "threadId": str(found["thread_id"]), "metaType": "PYTORCH_API" if card.is_db else "TEXT",
            "depth": found["depth"], "startTime": found["ts"] - _zero(conn, card), "duration": found["dur"]}
