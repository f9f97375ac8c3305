"""The Timeline's search box: search/count, search/slice and search/all/slices.

The frontend counts the matches on each card (``search/count``), steps to the n-th one
(``search/slice``, ``index`` from 1 across the card's matches) and lists them in its Find window
(``search/all/slices``, a table page) (Ascend/msinsight ``modules/timeline/src/components/CategorySearch.tsx``
queryDataCount and jumpSlice; ``components/detailViews/FindInWindow.tsx`` searchData and ``Common.tsx``
searchAllSlices). Each request names the card (``rankId``, ``dbPath``), the text (``searchContent``,
``isMatchCase``, ``isMatchExact``) and the locked lanes (``metadataList: [{tid, pid, metaType, rankId,
lockStartTime, lockEndTime}]``, the threads of ``session.lockUnit`` and the locked range, relative).

As the real server (``server/src/modules/timeline/handler/SearchCountHandler.cpp``, ``SearchSliceHandler.cpp``,
``SearchAllSlicesHandler.cpp``; ``core/database/TextTraceDatabase.cpp`` and ``TextSqlConstant.h``): without
locked lanes every slice of the card is searched, in time order; with some, only the slices of those on
this card lying wholly inside the locked range, and none when no locked lane is on this card. Shapes:
``protocol/TimelineProtocolUtil.cpp`` ToResponseJson<SearchCountResponse>, <SearchSliceResponse>,
<SearchAllSlicesResponse>. Matching and order are the named query ``insight_search_slices``'s; times are
relative to the card's time zero (:mod:`service.insight.timeline`), ids the warehouse's.
"""

from __future__ import annotations

import heapq

from service.insight import locked, paging, parse_events, ranks, timeline
from service.insight.protocol import InsightError, Params, rows
from service.insight.protocol import count as counted

#: the Find window's sortable columns (FindInWindow.tsx: startTime is asked as timestamp)
SORT_COLUMNS = {"name": "name", "timestamp": "timestamp", "duration": "duration"}


def _locked(conn, params: Params, card: ranks.RankCard, zero: int) -> list[dict] | None:
    """The named query's filters of each locked lane on the card (its own locked range); None when no lane
    is locked."""
    found = locked.lanes(conn, params, card)
    if found is None:
        return None
    filters = []
    for thread, lane in found:
        start = lane.integer("lockStartTime", required=False) or 0
        end = lane.integer("lockEndTime", required=False) or 0
        if end < start:
            raise InsightError(f"metadataList: lockEndTime {end} is before lockStartTime {start}")
        filters.append({"source_id": thread["source_id"], "thread_id": thread["thread_id"], "start_ns": start + zero,
                        "end_ns": end + zero})
    return filters


def _searches(conn, params: Params) -> tuple[ranks.RankCard, int, list[dict]]:
    """The card asked, its time zero and the parameters of ``insight_search_slices`` for each part of
    the card searched (each input, or each locked lane); none when the search text is empty."""
    card = ranks.asked(conn, params)
    zero = timeline.card_zero(conn, card)
    text = params.text("searchContent", required=False) or ""
    lanes = _locked(conn, params, card, zero)
    if not text:
        return card, zero, []
    filters = [{"source_id": source_id} for source_id in card.timeline_ids] if lanes is None else lanes
    match = {"text": text, "match_case": params.flag("isMatchCase"), "match_exact": params.flag("isMatchExact"),
             "name_filter": params.text("nameFilter", required=False)}
    return card, zero, [{**match, **where} for where in filters]


def _found(conn, params: Params) -> tuple[ranks.RankCard, int, list[dict]]:
    """The card asked, its time zero and the slices matching the search, in time order."""
    card, zero, searches = _searches(conn, params)
    parts = [rows(conn, "insight_search_slices", **search) for search in searches]
    return card, zero, list(heapq.merge(*parts, key=_time_order))


def named(conn, card: ranks.RankCard, name: str) -> list[dict]:
    """The card's slices named ``name`` (whole name, its case), in time order: the rows of
    ``insight_search_slices``."""
    parts = [rows(conn, "insight_search_slices", source_id=source_id, text=name, match_case=True, match_exact=True)
             for source_id in card.timeline_ids]
    return list(heapq.merge(*parts, key=_time_order))


def _time_order(row: dict) -> tuple[int, int, int]:
    return row["ts"], row["thread_id"], row["id"]


def count(conn, params: Params) -> dict:
    """search/count: how many slices of the card match, as one count per card (counted in SQL)."""
    card, _, searches = _searches(conn, params)
    total = sum(counted(conn, "insight_search_slices", **search) for search in searches)
    return {"totalCount": total, "countList": [{"rankId": card.card_id, "dbPath": card.path, "count": total}]}


def slice_at(conn, params: Params) -> dict:
    """search/slice: the ``index``-th match (from 1) in time order, where the timeline jumps to."""
    index = params.integer("index")
    if index < 1:
        raise InsightError(f"parameter index must be at least 1, not {index}")
    card, zero, found = _found(conn, params)
    if index > len(found):
        raise InsightError(f"no match {index}: card {card.card_id!r} has {len(found)}")
    row = found[index - 1]
    return {"rankId": card.card_id, "pid": str(row["process_id"]), "tid": str(row["thread_id"]), "id": str(row["id"]),
            "dbPath": card.path, "startTime": row["ts"] - zero, "duration": row["dur"], "depth": row["depth"],
            "metaType": parse_events.meta_type(card)}


def all_slices(conn, params: Params) -> dict:
    """search/all/slices: one page of the matches in the asked order (``orderBy`` name, timestamp or
    duration), each with its lane; ``count`` is all the matches."""
    card, zero, found = _found(conn, params)
    meta_type = parse_events.meta_type(card)
    items = [{"name": row["name"] or "", "timestamp": row["ts"] - zero, "duration": row["dur"], "depth": row["depth"],
              "id": str(row["id"]), "tid": str(row["thread_id"]), "pid": str(row["process_id"]),
              "rankId": card.card_id, "deviceId": card.card_id, "dbPath": card.path, "metaType": meta_type}
             for row in found]
    shown = paging.page(paging.ordered(items, params, SORT_COLUMNS), params)
    return {"searchAllSlicesDetails": shown, "count": len(items), "dbPath": card.path,
            "pageSize": params.integer("pageSize", required=False) or 10,
            "currentPage": params.integer("current", required=False) or 1}
