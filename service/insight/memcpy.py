"""The System View's "Memcpy Overall": memcpy/total/list (a card's memory copies per lane and direction) and
memcpy/detail/list (the copies of one row).

The frontend's MemcpyOverallMetrics asks ``memcpy/total/list`` with the card's ``rankId``/``dbPath``, a
page (``current``, ``pageSize``) and the analysed range (``startTime``/``endTime``, relative ns; equal: the
whole card), names each row by its ``key`` and its children's (``categoryList``: the lane, then the
direction), and on a click asks ``memcpy/detail/list`` with that ``categoryList``, ``orderBy``/``order``
(``duration`` descending first) and a page; a detail row clicked is found on the Timeline by its name,
``timestamp`` and ``duration`` (``unit/one/kernelDetail``) (Ascend/msinsight
``modules/timeline/src/components/detailViews/MemcpyOverallMetrics.tsx``; ``api/request.ts``
getMemcpyOverallMetrics, getMemcpyOverallMetricsMoreList).

The real server reads a rank db's TASK rows that MEMCPY_INFO describes, with ENUM_MEMCPY_OPERATION's
direction, on the lane ``Stream <id>``; a text card's slices named MEMCPY_ASYNC with the ``operation`` and
``size(B)`` their args give (none in torch_npu's level 0 and 1 exports: the direction "" and 0 bytes); the
tasks lying inside the range (``server/src/modules/timeline/core/systemView/MemcpyOverallDatabaseAccesser.cpp``).
The total list sums them per lane (``level`` 1, ``key`` the lane's thread id, lanes in text order), and per
direction below it (``level`` 2): bytes and ns in all, count, mean (2 decimals), least and most
(``handler/QueryMemcpyOverallHandler.cpp`` BuildMemcpyOverallResult, StatsAccumulator), a page of lanes;
the detail list pages a row's copies, ``timestamp`` relative ns, ``duration`` ns, ``size`` bytes, ``id``
(``handler/QueryMemcpyDetailHandler.cpp``). Shapes: ``protocol/TimelineProtocolUtil.cpp``
ToResponseJson<MemcpyOverallResponse> (MemcpyOverallResToJson), ToResponseJson<MemcpyDetailResponse>.

The warehouse reads MEMCPY_INFO into ``memcpy_task`` (torch_npu writes it at profiler level 2 only: a level
0 or 1 db has none, and its copies are answered as the real server answers them then, no row); the named
query ``insight_memcpy_tasks`` lists a card input's copies. A detail row's ``id`` is the copy's slice
(what ``unit/threadTraces`` calls it; the real server's is its global task id for a db). The real server
answers nothing (the total list) or refuses (the details) for a card whose device it could not tell; the
warehouse answers every card from the copies its lanes hold.
"""

from __future__ import annotations

from service.insight import paging, ranks
from service.insight.protocol import InsightError, Params, reserved, rows
from service.insight.timeline import card_range, card_zero

#: the detail list's sortable columns, by the column's key (the text path's ParseSortParams: time order
#: otherwise; descending unless ``order`` is "ascend", as OrderParam::GetNormalizeOrderType reads it)
DETAIL_ORDER = {"size": "size", "duration": "duration", "timestamp": "timestamp", "startTime": "timestamp"}


def _copies(conn, card: ranks.RankCard, params: Params) -> list[dict]:
    """The card's copies inside the range asked, over its timeline inputs."""
    window = card_range(conn, card, params)
    return [row for source_id in card.timeline_ids
            for row in rows(conn, "insight_memcpy_tasks", source_id=source_id, **window)]


def _figures(key: str, name: str, level: int, copies: list[dict]) -> dict:
    """A row of the total list: the copies' bytes and ns summed, counted, averaged, least and most."""
    sizes, times = [row["size_bytes"] for row in copies], [float(row["dur"]) for row in copies]
    return {"key": key, "name": name, "totalSize": sum(sizes), "totalTime": sum(times), "number": len(copies),
            "avgSize": reserved(sum(sizes) / len(copies), 2), "minSize": min(sizes), "maxSize": max(sizes),
            "avgTime": reserved(sum(times) / len(copies), 2), "minTime": min(times), "maxTime": max(times),
            "level": level}


def total_list(conn, params: Params) -> dict:
    """memcpy/total/list: a page of the card's lanes with copies, each with its directions as children."""
    card = ranks.asked(conn, params)
    lanes: dict[str, list[dict]] = {}
    for row in _copies(conn, card, params):
        lanes.setdefault(row["thread_key"], []).append(row)
    listed = []
    for key in sorted(lanes):
        directions: dict[str, list[dict]] = {}
        for row in lanes[key]:
            directions.setdefault(row["operation"], []).append(row)
        lane = _figures(key, lanes[key][-1]["thread_name"], 1, lanes[key])
        lane["children"] = [_figures(kind, kind, 2, directions[kind]) for kind in sorted(directions)]
        listed.append(lane)
    current, page_size = paging.asked(params)
    return {"data": paging.page(listed, params), "count": len(listed), "pageSize": page_size, "current": current,
            "isLoading": False}


def detail_list(conn, params: Params) -> dict:
    """memcpy/detail/list: a page of the copies of the row ``categoryList`` names (a lane, then a direction)."""
    card = ranks.asked(conn, params)
    categories = params.values.get("categoryList") or []
    if not isinstance(categories, list) or not categories or not all(isinstance(name, str) for name in categories):
        raise InsightError(f"parameter categoryList: {categories!r} is not a lane's key and a direction")
    lane, direction = categories[0], (categories[1] if len(categories) > 1 else None)
    zero = card_zero(conn, card)
    found = [{"timestamp": row["ts"] - zero, "duration": row["dur"], "size": row["size_bytes"],
              "id": str(row["slice_id"]), "name": row["name"]}
             for row in _copies(conn, card, params)
             if (not lane or row["thread_key"] == lane) and (direction is None or row["operation"] == direction)]
    column = DETAIL_ORDER.get(params.text("orderBy", required=False) or "", "timestamp")
    found.sort(key=lambda row: row[column], reverse=params.text("order", required=False) != "ascend")
    current, page_size = paging.asked(params)
    return {"sameOperatorsDetails": paging.page(found, params), "count": len(found), "pageSize": page_size,
            "currentPage": current}
