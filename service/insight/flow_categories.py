"""Arrows by category on the Timeline: flow/categoryList and flow/categoryEvents.

The frontend's arrow filter (Ascend/msinsight ``modules/timeline/src/components/FilterLinkLine.tsx``
useGetCategories, fetchLinkLineForCard) asks each card for its arrow categories (``rankId``,
``dbPath``), then, for each category shown, the arrows in the visible window (``startTime``/``endTime``
relative, ``timePerPx``; with locked lanes ``metadataList: [{tid, pid, ...}]`` and ``lockStartTime``/
``lockEndTime``). As the real server (``server/src/modules/timeline/handler/QueryFlowCategoryListHandler.cpp``,
``QueryFlowCategoryEventsHandler.cpp``, ``RenderEngine.cpp`` QueryFlowCategoryEvents and
ComputeLockRangePoints) in the shapes of ``protocol/TimelineProtocolUtil.cpp``
ToResponseJson<FlowCategoryListResponse> and <FlowCategoryEventsResponse>: ``{category: [...]}`` and
``{flowDetailList: [{category, from: {pid, tid, timestamp, depth, rankId}, to: {...}}]}``; with locked
lanes (:mod:`service.insight.locked`) only the arrows with an end on one of them inside the locked
range. The arrows are the named query ``insight_category_flows``'s (an end inside the window); as the
real server samples them on 1000 steps of the window (FlowAnalyzer.cpp ComputeScreenFlowPoint), one
arrow is drawn per step of its start and pair of lanes (the first). Times relative to the card's zero,
ids the warehouse's (:mod:`service.insight.timeline`).
"""

from __future__ import annotations

from service.insight import locked, ranks, timeline
from service.insight.protocol import Params, rows

#: steps of the window an arrow's start is sampled on
SAMPLE_STEPS = 1000


def category_list(conn, params: Params) -> dict:
    """flow/categoryList: the card's arrow categories."""
    card = ranks.asked(conn, params)
    found = {row["category"] for source_id in card.timeline_ids
             for row in rows(conn, "insight_flow_categories", source_id=source_id)}
    return {"category": sorted(found)}


def category_events(conn, params: Params) -> dict:
    """flow/categoryEvents: the arrows of ``category`` with an end in the window, sampled as drawn."""
    card = ranks.asked(conn, params)
    category = params.text("category")
    zero = timeline.card_zero(conn, card)
    start, end, _ = timeline.window(params, zero, tpp_required=False)
    found = locked.lanes(conn, params, card)
    threads = None if found is None else {thread["thread_id"] for thread, _ in found}
    lock_start = (params.integer("lockStartTime", required=False) or 0) + zero
    lock_end = (params.integer("lockEndTime", required=False) or 0) + zero
    step = max(1, (end - start) // SAMPLE_STEPS)
    drawn, seen = [], set()
    for source_id in card.timeline_ids:
        for row in rows(conn, "insight_category_flows", source_id=source_id, category=category, start_ns=start,
                        end_ns=end):
            if threads is not None and not any(
                    row[f"{side}_thread_id"] in threads and lock_start <= row[f"{side}_ts"] <= lock_end
                    for side in ("from", "to")):
                continue
            key = (row["from_thread_id"], row["to_thread_id"], (row["from_ts"] - start) // step)
            if key in seen:
                continue
            seen.add(key)
            drawn.append({"category": category, **{side: {
                "pid": str(row[f"{side}_process_id"]), "tid": str(row[f"{side}_thread_id"]),
                "timestamp": row[f"{side}_ts"] - zero, "depth": row[f"{side}_depth"], "rankId": card.card_id}
                for side in ("from", "to")}})
    return {"flowDetailList": drawn}
