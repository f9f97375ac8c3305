"""remote/reset and remote/delete: the page lets go of all its data, or of some cards.

The frontend sends ``remote/reset`` (no parameters) when it clears its workspace before a new
project is opened (Ascend/msinsight ``modules/framework/src/utils/Request.ts`` resetTimeline); the real
server then stops its parsers, closes every file it opened and drops the baseline, answering an empty
body (``server/src/modules/timeline/handler/ResetWindowHandler.cpp``; shape:
``protocol/TimelineProtocolUtil.cpp`` ToResponseJson<ResetWindowResponse>). The warehouse is shared by
every connection and served read-only, so nothing of it is deleted: what the connection chose is
forgotten (:class:`~service.insight.session.Session`: its current operator profile, baselines, parallel
strategies, expert model info, card aliases, removed cards), as a new connection starts.

The Timeline sends ``remote/delete`` when cards are removed from it, ``rankId`` the cards' ids and
``dbPaths`` their paths (``modules/timeline/src/connection/handler.ts`` remoteDeleteRequest). The real
server drops their parsed files, then sums the time extent of the cards still open: ``startTimeUpdated``
when one of them holds data, ``maxTimeStamp`` their duration, which the page takes as its time axis'
end (``handler/RemoteDeleteHandler.cpp`` GetUpdateTime; ToResponseJson<RemoteDeleteResponse>). Here
the cards are forgotten by the connection (their aliases, the rank baseline if it is one of them) and
kept off its Timeline until it imports them again; the extent is the longest of the warehouse's other
rank cards, as ``parse/success`` gives ``maxTimeStamp`` (each card its own axis from its time zero:
:mod:`service.insight.parse_events`). ``maxTimeStamp`` is 0 and ``startTimeUpdated`` false when no card
with a timeline is left, as the real server answers then.
"""

from __future__ import annotations

from service.insight import parse_events, ranks
from service.insight.protocol import InsightError, Params
from service.insight.session import Session


def reset(conn, params: Params) -> dict:
    """remote/reset: forget everything the connection chose (the warehouse is left as it is)."""
    session = params.session
    fresh = Session(push=session.push)
    for name in ("operator", "baseline", "baseline_rank", "baseline_cluster", "strategies", "expert_models",
                 "card_aliases", "removed_cards"):
        setattr(session, name, getattr(fresh, name))
    return {}


def delete(conn, params: Params) -> dict:
    """remote/delete: take the cards ``rankId`` names (a list of card ids) off the connection's Timeline,
    and answer the extent of the rank cards left."""
    removed = params.values.get("rankId", [])
    if not isinstance(removed, list) or not all(isinstance(card_id, str) for card_id in removed):
        raise InsightError(f"parameter rankId: {removed!r} is not a list of card ids")
    session = params.session
    session.removed_cards.update(removed)
    for card_id in removed:
        session.card_aliases.pop(card_id, None)
    if session.baseline_rank in session.removed_cards:
        session.baseline_rank = None
    left = [card for card in ranks.listing(conn) if card.card_id not in session.removed_cards]
    spans = [parse_events.span(conn, card) for card in left]
    return {"startTimeUpdated": any(spans), "maxTimeStamp": parse_events.longest(spans)}
