"""global/setBaseline and global/cancelBaseline: the operator profile or the rank a client compares with.

Shapes from the real server (Ascend/msinsight ``server/src/modules/global/``:
``handler/SetBaselineHandler.cpp``, ``handler/CancelBaselineHandler.cpp``,
``protocol/GlobalProtocol.cpp`` ToSetBaselineRequest, ``protocol/GlobalProtocolUtil.cpp``
ToResponseJson<BaselineSettingResponse>). The frontend's "Set as Baseline Data"
(modules/framework ``src/utils/Compare.tsx`` setBaselineData) sends ``projectName`` and the card's
``filePath``; the choice lasts for the client's session (:mod:`~service.insight.session`).

An operator profile's card: the detail views asked ``isCompared`` compare with it
(:func:`~service.insight.compare.baseline_source`). A rank card of a training run (its ``filePath``
in the project tree, :meth:`~service.insight.ranks.RankCard.tree_node`): the rank's views asked
``isCompare`` pair their rank with it (:func:`rank_baseline`). As the real server answers a rank of a
db or text project (``full_db/ProjectParse/ProjectParserDb.cpp`` and ``ProjectParserJson.cpp``
ParserBaseline): the card's ``rankId`` (host and rank: the warehouse's card id, host ""),
``cardName`` "Baseline_" and the rank's name, ``dbPath`` the rank's file, ``isCluster`` false (a rank,
not a cluster folder). Compare.tsx then adds the baseline card to the Timeline
(``modules/timeline/src/connection/baseline.ts`` buildBaselineCardMetadata).
"""

from __future__ import annotations

from service.insight import cards, ranks
from service.insight.protocol import InsightError, Params

#: the real server's words (SetBaselineHandler.cpp)
EMPTY_REQUEST = "Set baseline failed, project name or filepath can't be empty!"


def set_baseline(conn, params: Params) -> dict:
    """Make the rank card or operator profile at ``filePath`` (a card's path, or ``rankId``) the session's baseline."""
    card_id = params.text("filePath", required=False, aliases=("rankId",))
    if not params.text("projectName", required=False) or card_id is None:
        raise InsightError(EMPTY_REQUEST)
    rank = ranks.named(conn, card_id)
    if rank is not None:
        params.session.baseline, params.session.baseline_rank = None, rank.card_id
        return {"rankId": rank.card_id, "host": "", "cardName": f"Baseline_{rank.name}", "isCluster": False,
                "errorMessage": "", "dbPath": rank.path, "isFtrace": False}
    card = cards.named(conn, card_id, kind=cards.OPERATOR_KIND)
    params.session.baseline, params.session.baseline_rank = card["sourceId"], None
    return {"rankId": card["rankId"], "host": "", "cardName": card["cardName"], "isCluster": False,
            "errorMessage": "", "dbPath": card["cardPath"], "isFtrace": False}


def cancel_baseline(conn, params: Params) -> dict:
    """Leave compare mode: the session has no baseline any more (an empty body, as the real server's)."""
    params.session.baseline = params.session.baseline_rank = None
    return {}


def rank_baseline(conn, params: Params) -> ranks.RankCard | None:
    """The rank to pair a rank's answer with when the request is in compare mode (``isCompare``
    true), else None: the card ``baselineRankId`` names (``POST /insight`` keeps no session), else the
    one the client's global/setBaseline chose.

    :raises InsightError: on an ``isCompare`` that is not a boolean, or in compare mode with no rank
        baseline (the real server's GET_BASELINE_ID_FAILED) or an unknown one.
    """
    flag = params.values.get("isCompare", False)
    if not isinstance(flag, bool):
        raise InsightError(f"parameter isCompare: {flag!r} is not a boolean")
    if not flag:
        return None
    card_id = params.text("baselineRankId", required=False) or params.session.baseline_rank
    if card_id is None:
        raise InsightError("compare mode needs a baseline rank: set one with global/setBaseline (a rank's card)")
    rank = ranks.named(conn, card_id)
    if rank is None:
        raise InsightError(f"unknown baseline card {card_id!r}", cards=[card.card_id for card in ranks.listing(conn)])
    return rank
