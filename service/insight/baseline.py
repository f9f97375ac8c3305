"""global/setBaseline and global/cancelBaseline: the operator profile, rank or cluster a client compares with.

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

A cluster: the context menu of a cluster (``RemoteManager/ProjectContents/ContextMenu.tsx``) sends its folder as
``filePath`` (the ``clusterPath`` of parse/clusterCompleted; a rank's ``filePath`` is its file, never a
folder). As the real server (``core/BaselineManagerService.cpp`` IsClusterBaseline: a folder of a cluster of
the project; ``ProjectParserDb.cpp`` ParseBaselineClusterInfo) the answer says ``isCluster`` true and
names no card (``rankId``, ``cardName``, ``dbPath`` empty); Compare.tsx handleClusterCompare then puts the
Summary and Communication pages in compare mode: their requests carry ``isCompare`` true and the answers pair
the open cluster with this one (:func:`cluster_baseline`; :mod:`summary`, :mod:`parallelism`, :mod:`communication`).
"""

from __future__ import annotations

from service.insight import cards, parse_events, ranks
from service.insight.protocol import InsightError, Params

#: the real server's words (SetBaselineHandler.cpp)
EMPTY_REQUEST = "Set baseline failed, project name or filepath can't be empty!"


def set_baseline(conn, params: Params) -> dict:
    """Make the cluster folder, rank card or operator profile at ``filePath`` (a cluster's folder, a card's path, or
    ``rankId``) the session's baseline. A card's parse/success follows the answer: the page adds the baseline as a
    card of its own and shows it parsing until one names it (Ascend/msinsight
    ``modules/timeline/src/connection/handler.ts`` createBaselineCard), as the real server's ParserBaseline parses
    it; then allPagesSuccess over the warehouse's rank cards, refused or not, as SetBaselineHandler.cpp sends it
    after its response (:func:`parse_events.all_pages_success`)."""
    told = []
    try:
        body, card = _set(conn, params)
        if card is not None:
            told = parse_events.parse_success(conn, [card], params.session.card_aliases)
        return body
    finally:
        params.session.events.extend(told + [parse_events.all_pages_success(conn, ranks.listing(conn))])


def _set(conn, params: Params) -> tuple[dict, ranks.RankCard | None]:
    """The baseline chosen: (the answer, the card the page adds for it, None for a cluster)."""
    card_id = params.text("filePath", required=False, aliases=("rankId",))
    if not params.text("projectName", required=False) or card_id is None:
        raise InsightError(EMPTY_REQUEST)
    if any(card.run_ranks > 1 for card in ranks.listing(conn) if card.run_root == card_id):
        _choose(params, cluster=card_id)
        return {"rankId": "", "host": "", "cardName": "", "isCluster": True, "errorMessage": "", "dbPath": "",
                "isFtrace": False}, None
    rank = ranks.named(conn, card_id)
    if rank is not None:
        _choose(params, rank=rank.card_id)
        return {"rankId": rank.card_id, "host": "", "cardName": f"Baseline_{rank.name}", "isCluster": False,
                "errorMessage": "", "dbPath": rank.path, "isFtrace": False}, rank
    card = cards.named(conn, card_id, kind=cards.OPERATOR_KIND)
    _choose(params, operator=card["sourceId"])
    return {"rankId": card["rankId"], "host": "", "cardName": card["cardName"], "isCluster": False,
            "errorMessage": "", "dbPath": card["cardPath"], "isFtrace": False}, ranks.of_operator_profile(card)


def _choose(params: Params, *, operator: int | None = None, rank: str | None = None,
            cluster: str | None = None) -> None:
    """Make one baseline the session's, forgetting any other (the real server keeps one)."""
    session = params.session
    session.baseline, session.baseline_rank, session.baseline_cluster = operator, rank, cluster


def cancel_baseline(conn, params: Params) -> dict:
    """Leave compare mode: the session has no baseline any more (an empty body, as the real server's)."""
    _choose(params)
    return {}


def _compare_mode(params: Params) -> bool:
    """The request's ``isCompare`` (absent: false).

    :raises InsightError: if it is not a boolean.
    """
    flag = params.values.get("isCompare", False)
    if not isinstance(flag, bool):
        raise InsightError(f"parameter isCompare: {flag!r} is not a boolean")
    return flag


def cluster_baseline(conn, params: Params) -> list[ranks.RankCard] | None:
    """The rank cards of the cluster to pair a cluster's answer with when the request is in compare mode
    (``isCompare`` true), else None: the folder ``baselineClusterPath`` names (``POST /insight`` keeps no
    session), else the one the client's global/setBaseline chose (the real server's
    BaselineManager::GetBaseLineClusterPath).

    :raises InsightError: on an ``isCompare`` that is not a boolean, or in compare mode with no cluster
        baseline or a folder that is no cluster.
    """
    if not _compare_mode(params):
        return None
    folder = params.text("baselineClusterPath", required=False) or params.session.baseline_cluster
    if folder is None:
        raise InsightError("compare mode needs a baseline cluster: set one with global/setBaseline (a cluster)")
    return ranks.of_cluster(conn, folder)


def rank_baseline(conn, params: Params) -> ranks.RankCard | None:
    """The rank to pair a rank's answer with when the request is in compare mode (``isCompare``
    true), else None: the card ``baselineRankId`` names (``POST /insight`` keeps no session), else the
    one the client's global/setBaseline chose.

    :raises InsightError: on an ``isCompare`` that is not a boolean, or in compare mode with no rank
        baseline (the real server's GET_BASELINE_ID_FAILED) or an unknown one.
    """
    if not _compare_mode(params):
        return None
    card_id = params.text("baselineRankId", required=False) or params.session.baseline_rank
    if card_id is None:
        raise InsightError("compare mode needs a baseline rank: set one with global/setBaseline (a rank's card)")
    rank = ranks.named(conn, card_id)
    if rank is None:
        raise InsightError(f"unknown baseline card {card_id!r}", cards=[card.card_id for card in ranks.listing(conn)])
    return rank
