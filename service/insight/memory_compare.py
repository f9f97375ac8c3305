"""Compare mode of the Memory module: a rank's memory views paired with the baseline rank's.

With a rank set as baseline the Memory page asks every view with ``isCompare`` (Ascend/msinsight
``modules/memory/src/components/DynamicLineChart.tsx``, ``StaticLineChart.tsx``,
``MemoryDetailTable.tsx`` buildDynamicSearchParam, buildStaticSearchParam, buildSearchSizeParam,
``AntTableChart.tsx``) and reads each table row as ``{compare, baseline, diff}``
(handleOperatorDetails). The real server reads both ranks' memory each on
its own time zero and merges them (``server/src/modules/memory/handler/``):

- the curve (QueryMemoryViewHandler.cpp GetCompareGraphLegends, GetCompareGraphLines): the rank's
  legends " of Compare", then the baseline's, time excepted, " of Baseline"; the points merged in
  time order, a time both have on one row, a side with no point at a time NaN (``NULL``); no title;
- the bounds (QueryMemoryOperatorSizeHandler.cpp ExecuteComparisonAlgorithm): the smallest
  difference a pair of blocks can show (the rank's smallest less the baseline's largest) and the
  largest (the rank's largest less the baseline's smallest);
- the operator table (QueryMemoryOperatorHandler.cpp GetOperatorDiff, VectorMerge, Subtract,
  IsSelected, SortResult, SelectDiffResult): every block of both ranks, those of one name paired in
  the order the ranks list them (names in order), a block without a counterpart beside the server's
  empty one (times "NA", figures 0); the diff's figures subtracted and rounded to 3 decimals, its times
  as NumberUtil::StringDoubleMinus writes them; then kept by the diff's name (``searchName``) and
  size (``minSize``..``maxSize``) and, given a window, by both blocks' times; sorted on the diff's
  ``orderBy`` column; paged (past the end: none, and a total of 0);
- the component table (QueryMemoryComponentHandler.cpp GetComponentDiff, Merge, SelectResult): the
  components of both ranks by name, in name order, one without a counterpart beside the server's
  empty one (time "NA", 0 MB); the diff's peak subtracted and rounded to 3 decimals, its time as
  text; sorted on the diff's column when ``orderBy`` and ``order`` are given; paged (past the end:
  none); ``totalNum`` every component; a "Source" column after "Component";
- a static graph (QueryMemoryStaticOperatorGraphHandler.cpp, ...SizeHandler.cpp, ...ListHandler.cpp):
  its curve as the dynamic one (legends by side, lines merged by node index), its size bounds as the
  operators', its operator table as theirs, paired by name (node indexes and sizes subtracted).
"""

from __future__ import annotations

import math

from service.insight.compare import fixed_minus
from service.insight.protocol import reserved

COMPARE, BASELINE = " of Compare", " of Baseline"


def curve_legends(compare: list[str], baseline: list[str]) -> list[str]:
    """GetCompareGraphLegends: the time column once, then each side's series named by side."""
    return compare[:1] + [legend + COMPARE for legend in compare[1:]] + [legend + BASELINE for legend in baseline[1:]]


def merged_lines(compare: list, compare_width: int, baseline: list, baseline_width: int, gap, key) -> list[list]:
    """GetCompareGraphLines (the curve's and a static graph's): rows of (x, the rank's series, the
    baseline's series) by ``key`` of x (time, node index), a side with no row at an x ``gap``."""
    mine_gap, base_gap = [gap] * max(compare_width - 1, 0), [gap] * max(baseline_width - 1, 0)
    merged, i, j = [], 0, 0
    while i < len(compare) or j < len(baseline):
        if j >= len(baseline) or (i < len(compare) and key(compare[i][0]) < key(baseline[j][0])):
            merged.append([*compare[i], *base_gap])
            i += 1
        elif i >= len(compare) or key(compare[i][0]) > key(baseline[j][0]):
            merged.append([baseline[j][0], *mine_gap, *baseline[j][1:]])
            j += 1
        else:
            merged.append([*compare[i], *baseline[j][1:]])
            i, j = i + 1, j + 1
    return merged


def size_bounds(compare: tuple[float, float], baseline: tuple[float, float]) -> tuple[float, float]:
    """ExecuteComparisonAlgorithm: (smallest, largest) difference of a block's size between the ranks."""
    return compare[0] - baseline[1], compare[1] - baseline[0]


#: the server's empty block (QueryMemoryOperatorHandler::VectorMerge emptyOperator), in the protocol's keys
EMPTY_BLOCK = {"id": "", "name": "", "size": 0.0, "allocationTime": "NA", "releaseTime": "NA", "duration": 0.0,
               "allocationTotalAllocated": 0.0, "allocationTotalReserved": 0.0, "releaseTotalAllocated": 0.0,
               "releaseTotalReserved": 0.0, "activeReleaseTime": "NA", "activeDuration": 0.0,
               "allocationTotalActive": 0.0, "releaseTotalActive": 0.0, "streamPtr": ""}
BLOCK_TIMES = ("allocationTime", "releaseTime", "activeReleaseTime")
BLOCK_FIGURES = ("size", "duration", "activeDuration", "allocationTotalAllocated", "allocationTotalReserved",
                 "allocationTotalActive", "releaseTotalAllocated", "releaseTotalReserved", "releaseTotalActive")
#: release times: a block never released ("N/A") sorts after every other (DefaultReleaseTimeComparator)
RELEASE_TIMES = ("releaseTime", "activeReleaseTime")


def _rounded(value: float) -> float:
    """NumberUtil::DoubleReservedNDigits(value, 3): half away from zero."""
    return reserved(value, 3)


def _leading_number(text: str) -> float:
    """NumberUtil::StringToDouble as the table reads a time: its number, 0 when it is none ("NA", "N/A")."""
    try:
        return float(text)
    except ValueError:
        return 0.0


def _block_diff(compare: dict, baseline: dict) -> dict:
    """Subtract: the name of either, figures subtracted, times as text; no stream, no id."""
    diff = {**EMPTY_BLOCK, "name": compare["name"] or baseline["name"]}
    diff.update({key: _rounded(compare[key] - baseline[key]) for key in BLOCK_FIGURES})
    diff.update({key: fixed_minus(compare[key], baseline[key]) for key in BLOCK_TIMES})
    return diff


def _page(items: list, page: tuple[int, int]) -> list:
    """SelectDiffResult's page (from 1; before the first: the first): none past the end."""
    offset = max(page[0] - 1, 0) * page[1]
    return [] if offset and offset >= len(items) else items[offset:offset + page[1]]


def _named(pair: dict, key: str) -> dict:
    """A pair as the server writes it: an empty name is "Unknown" (ToMemoryOperatorJson and its component twin)."""
    return {side: {**pair[side], key: pair[side][key] or "Unknown"} for side in ("compare", "baseline", "diff")}


def _paired(compare: list[dict], baseline: list[dict], key: str, empty: dict, subtract) -> list[dict]:
    """GetOperatorDiff, VectorMerge (both tables): per name (``key``), in name order, the n-th row of
    one rank with the other's n-th, a row without a counterpart beside ``empty``; ``subtract`` gives
    the diff."""
    by_name: dict[str, tuple[list, list]] = {}
    for side, found in enumerate((compare, baseline)):
        for row in found:
            by_name.setdefault(row[key], ([], []))[side].append(row)
    pairs = []
    for name in sorted(by_name):
        mine, theirs = by_name[name]
        for index in range(max(len(mine), len(theirs))):
            one = mine[index] if index < len(mine) else empty
            other = theirs[index] if index < len(theirs) else empty
            pairs.append({"compare": one, "baseline": other, "diff": subtract(one, other)})
    return pairs


def _sort_key(column: str):
    if column in RELEASE_TIMES:
        return lambda item: math.inf if item["diff"][column] == "N/A" else _leading_number(item["diff"][column])
    if column == "allocationTime":
        return lambda item: _leading_number(item["diff"][column])
    if column in BLOCK_FIGURES:
        return lambda item: item["diff"][column]
    return lambda item: item["diff"]["name"]


def _within(value: float, window: tuple[float, float]) -> bool:
    return window[0] <= value <= window[1]


def _selected(pair: dict, search: str, sizes: tuple[float | None, float | None],
              window: tuple[float, float] | None, only_within: bool) -> bool:
    """IsSelected: the diff's name holds ``search``, its size is within the bounds given, and with a
    window both blocks were allocated or released in it (``only_within``) or lived in it."""
    diff = pair["diff"]
    if search not in diff["name"] or (sizes[0] is not None and diff["size"] < sizes[0]) or (
            sizes[1] is not None and diff["size"] > sizes[1]):
        return False
    if window is None:
        return True
    for block in (pair["compare"], pair["baseline"]):
        allocated, released = (_leading_number(block[key]) for key in ("allocationTime", "releaseTime"))
        if only_within and not (_within(allocated, window) or _within(released, window)):
            return False
        if not only_within and not ((released == 0 or released >= window[0]) and allocated <= window[1]):
            return False
    return True


def operator_table(compare: list[dict], baseline: list[dict], selection: dict, order: tuple[str, bool],
                   page: tuple[int, int]) -> tuple[int, list[dict]]:
    """(the rows kept, the page asked) of the operator table in compare mode: ``compare`` and
    ``baseline`` are the ranks' blocks as protocol rows; ``selection`` IsSelected's terms (``search``,
    ``sizes``, ``window``, ``only_within``); ``order`` (orderBy, descending); ``page`` (from 1, size)."""
    kept = [pair for pair in _paired(compare, baseline, "name", EMPTY_BLOCK, _block_diff)
            if _selected(pair, **selection)]
    if order[0]:
        kept.sort(key=_sort_key(order[0]), reverse=order[1])
    shown = _page(kept, page)
    return (len(kept) if shown else 0), [_named(pair, "name") for pair in shown]


#: the server's empty component (QueryMemoryComponentHandler::GetComponentDiff)
EMPTY_COMPONENT = {"component": "", "timestamp": "NA", "totalReserved": 0.0, "device": ""}
#: the component table's sort keys: the diff's value each compares (SortAscend, SortDescend)
COMPONENT_ORDER = {"component": lambda diff: diff["component"],
                   "timestamp": lambda diff: _leading_number(diff["timestamp"]),
                   "totalReserved": lambda diff: diff["totalReserved"]}
SOURCE_COLUMN = {"name": "Source", "type": "string", "key": "source"}


def component_table(compare: list[dict], baseline: list[dict], order: tuple[str, str],
                    page: tuple[int, int]) -> tuple[int, list[dict]]:
    """(every component, the page asked) of the component table in compare mode: ``compare`` and
    ``baseline`` the ranks' components as protocol rows (an unnamed one ""); ``order`` (orderBy, order)."""
    sides = [{row["component"]: row for row in rows} for rows in (compare, baseline)]
    pairs = []
    for name in sorted(sides[0].keys() | sides[1].keys()):
        mine, theirs = (side.get(name, EMPTY_COMPONENT) for side in sides)
        pairs.append({"compare": mine, "baseline": theirs, "diff": {
            "component": mine["component"] or theirs["component"],
            "timestamp": fixed_minus(mine["timestamp"], theirs["timestamp"]),
            "totalReserved": _rounded(mine["totalReserved"] - theirs["totalReserved"]), "device": ""}})
    if order[0] in COMPONENT_ORDER and order[1]:
        pairs.sort(key=lambda pair: COMPONENT_ORDER[order[0]](pair["diff"]), reverse=order[1] != "ascend")
    return len(pairs), [_named(pair, "component") for pair in _page(pairs, page)]


def with_source(columns: list[dict]) -> list[dict]:
    """The component table's columns in compare mode: "Source" after "Component"."""
    return [shown for column in columns for shown in ([column, SOURCE_COLUMN] if column["name"] == "Component"
                                                       else [column])]


#: the server's empty static operator (QueryMemoryStaticOperatorListHandler::VectorMerge emptyStaticOp)
EMPTY_STATIC = {"deviceId": "", "opName": "", "nodeIndexStart": 0, "nodeIndexEnd": 0, "size": 0.0}
STATIC_TEXT, STATIC_NUMBERS = ("deviceId", "opName"), ("nodeIndexStart", "nodeIndexEnd", "size")


def _static_diff(compare: dict, baseline: dict) -> dict:
    """QueryMemoryStaticOperatorListHandler::Subtract: the compare rank's device, the name of either,
    node indexes subtracted, the size subtracted and rounded to 3 decimals."""
    return {"deviceId": compare["deviceId"], "opName": compare["opName"] or baseline["opName"],
            "nodeIndexStart": compare["nodeIndexStart"] - baseline["nodeIndexStart"],
            "nodeIndexEnd": compare["nodeIndexEnd"] - baseline["nodeIndexEnd"],
            "size": _rounded(compare["size"] - baseline["size"])}


def _static_selected(pair: dict, search: str, sizes: tuple[float | None, float | None],
                     nodes: tuple[int, int] | None) -> bool:
    """IsSelected: the diff's name holds ``search``, its size is within the bounds given, and with a
    node window both operators start or end in it."""
    diff = pair["diff"]
    if search not in diff["opName"] or (sizes[0] is not None and diff["size"] < sizes[0]) or (
            sizes[1] is not None and diff["size"] > sizes[1]):
        return False
    return nodes is None or all(
        nodes[0] <= pair[side]["nodeIndexStart"] <= nodes[1] or nodes[0] <= pair[side]["nodeIndexEnd"] <= nodes[1]
        for side in ("compare", "baseline"))


def static_table(compare: list[dict], baseline: list[dict], selection: dict, order: tuple[str, bool],
                 page: tuple[int, int]) -> tuple[int, list[dict]]:
    """(the rows kept, the page asked) of a static graph's operator table in compare mode
    (QueryMemoryStaticOperatorListHandler GetOperatorDiff, SelectDiffResult): as
    :func:`operator_table`, paired by ``opName``; ``selection``: ``search``, ``sizes``, ``nodes``."""
    kept = [pair for pair in _paired(compare, baseline, "opName", EMPTY_STATIC, _static_diff)
            if _static_selected(pair, **selection)]
    if order[0] in STATIC_TEXT + STATIC_NUMBERS:
        kept.sort(key=lambda pair: pair["diff"][order[0]], reverse=order[1])
    shown = _page(kept, page)
    return (len(kept) if shown else 0), shown
