"""The locked lanes a Timeline request names: ``metadataList``, the threads of the frontend's ``session.lockUnit``.

The search box and the arrows limit themselves to the lanes the user locked (Ascend/msinsight
``modules/timeline/src/components/CategorySearch.tsx`` and ``FilterLinkLine.tsx`` getLockRangeMetaList:
``[{tid, pid, metaType, rankId, lockStartTime?, lockEndTime?}]``). As the real server looks each up on the
card asked (``TrackInfoManager::GetTrackId(rankId, pid, tid)``), a lane of another card, or one naming a
thread the card does not hold, limits the answer to nothing rather than failing it.
"""

from __future__ import annotations

from service.insight import ranks
from service.insight.protocol import InsightError, Params, one


def lanes(conn, params: Params, card: ranks.RankCard) -> list[tuple[dict, Params]] | None:
    """(thread row, the lane's own params) of each locked lane on ``card``; None when no lane is locked."""
    listed = params.values.get("metadataList") or []
    if not isinstance(listed, list) or not all(isinstance(item, dict) for item in listed):
        raise InsightError(f"parameter metadataList: expected a list of {{tid, pid, rankId, ...}}, got {listed!r}")
    given = [Params(item) for item in listed]
    given = [lane for lane in given if lane.text("tid", required=False) and lane.text("pid", required=False)]
    if not given:
        return None
    found = []
    for lane in given:
        if lane.text("rankId", required=False, aliases=("cardId", "dbPath")) not in (None, card.card_id):
            continue
        thread = one(conn, "insight_thread", thread_id=lane.integer("tid"))
        if thread is not None and thread["source_id"] in card.source_ids and \
                thread["process_id"] == lane.integer("pid"):
            found.append((thread, lane))
    return found
