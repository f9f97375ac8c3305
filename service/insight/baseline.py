"""global/setBaseline and global/cancelBaseline: the operator profile a client compares with.

Shapes from the real server (Ascend/msinsight ``server/src/modules/global/``:
``handler/SetBaselineHandler.cpp``, ``handler/CancelBaselineHandler.cpp``,
``protocol/GlobalProtocol.cpp`` ToSetBaselineRequest, ``protocol/GlobalProtocolUtil.cpp``
ToResponseJson<BaselineSettingResponse>). The frontend's "Set as Baseline Data"
(modules/framework ``src/utils/Compare.tsx``) sends ``projectName`` and the card's ``filePath``;
the choice lasts for the client's session (:mod:`~service.insight.session`), and the detail views
asked ``isCompared`` compare with it (:func:`~service.insight.compare.baseline_source`).
"""

from __future__ import annotations

from service.insight import cards
from service.insight.protocol import InsightError, Params


def set_baseline(conn, params: Params) -> dict:
    """Make the operator profile at ``filePath`` (a card's path, or ``rankId``) the session's baseline."""
    if not params.text("projectName", required=False):
        # the real server's words (SetBaselineHandler.cpp)
        raise InsightError("Set baseline failed, project name or filepath can't be empty!")
    card_id = params.text("filePath", required=False, aliases=("rankId",))
    if card_id is None:
        raise InsightError("Set baseline failed, project name or filepath can't be empty!")
    card = cards.named(conn, card_id, kind=cards.OPERATOR_KIND)
    params.session.baseline = card["sourceId"]
    return {"rankId": card["rankId"], "host": "", "cardName": card["cardName"], "isCluster": False,
            "errorMessage": "", "dbPath": card["cardPath"], "isFtrace": False}


def cancel_baseline(conn, params: Params) -> dict:
    """Leave compare mode: the session has no baseline any more (an empty body, as the real server's)."""
    params.session.baseline = None
    return {}
