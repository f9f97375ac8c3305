"""timeline/rankOffset: align the other ranks' timelines on a slice chosen on one rank ("Time Alignment").

The frontend's Align Left / Align Right on a slice (Ascend/msinsight
``modules/timeline/src/actions/actionAlignByOperator.ts`` buildRequestParams, applyOffsetItems) sends the
slice (``sliceName``, ``startTime``: threadDetail's ``rawStartTime``, absolute ns; ``duration``), its card
(``rankId``, ``fileId``, ``pid``, ``metaType``) and ``alignType`` (``LEFT``: starts, ``RIGHT``: ends), and
shifts the processes of each rank listed by its offset. As the real server
(``server/src/modules/timeline/handler/RankOffsetHandler.cpp``, ``RankOffsetCalculator.h``): the chosen
slice is the n-th of its name on its card in time order; on every other rank card the n-th of that name
is aligned with it, the offset being the target's anchor less the base's; a rank without it is left out,
and the answer is refused when none has it. Shape: ``protocol/TimelineProtocolUtil.cpp``
ToResponseJson<RankOffsetResponse> (``{result: [{rankId, offset, processId: [...]}], baseOffset}``). Here
times are relative to each card's own zero (:mod:`service.insight.timeline`), so the anchors are too and
``baseOffset`` is 0; the warehouse does not split a card into host and device sides, so the slices of the
name are the whole card's (:func:`service.insight.search.named`), as the real server takes a text card's.
The failed ranks the real server adds as a top-level error beside a successful answer are left out.
"""

from __future__ import annotations

from service.insight import ranks, search, timeline
from service.insight.protocol import InsightError, Params

ALIGN_TYPES = ("LEFT", "RIGHT")


def _anchor(row: dict, align: str, zero: int) -> int:
    return row["ts"] - zero + (row["dur"] if align == "RIGHT" else 0)


def rank_offset(conn, params: Params) -> dict:
    """The offset of each other rank card that has the chosen slice's n-th namesake."""
    base = ranks.asked(conn, params)
    name, start, duration = params.text("sliceName"), params.integer("startTime"), params.integer("duration")
    align = params.text("alignType")
    if align not in ALIGN_TYPES:
        raise InsightError(f"alignType must be LEFT or RIGHT, not {align!r}")
    named = search.named(conn, base, name)
    index = next((i for i, row in enumerate(named) if row["ts"] == start and row["dur"] == duration), None)
    if index is None:
        raise InsightError(f"card {base.card_id!r} has no slice {name!r} starting at {start} lasting {duration} ns")
    base_anchor = _anchor(named[index], align, timeline.card_zero(conn, base))
    result, failed = [], []
    for card in ranks.listing(conn):
        if card.card_id == base.card_id or not card.timeline_ids:
            continue
        found = search.named(conn, card, name)
        if len(found) <= index:
            failed.append(f"{card.card_id} (has {len(found)}, needs {index + 1})")
            continue
        result.append({"rankId": card.card_id,
                       "offset": _anchor(found[index], align, timeline.card_zero(conn, card)) - base_anchor,
                       "processId": sorted({str(row["process_id"]) for row in found}, key=int)})
    if not result:
        raise InsightError(f"no other rank has slice {index + 1} named {name!r}: " + "; ".join(failed)
                           if failed else "no other rank card is loaded")
    return {"result": result, "baseOffset": 0}
