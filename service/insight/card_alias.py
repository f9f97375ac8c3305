"""unit/setCardAlias: a name the user gives a card on the Timeline.

The frontend's SetAlias dialog (Ascend/msinsight ``modules/timeline/src/components/SetAlias.tsx``
handleConfirmSetAlias, ``api/request.ts`` setCardAliasReq) sends ``rankId``, ``dbPath`` and
``cardAlias``, then labels the card itself; the real server keeps the alias in the card's own trace
database and gives it back as ``cardAlias`` in the card's next parse/success
(``server/src/modules/timeline/handler/SetCardAliasHandler.cpp``, ``core/database/TextTraceDatabase.cpp``
SetCardAlias, QueryCardAlias; answer: ToResponseJson<SetCardAliasResponse>, an empty body). The warehouse
is served read-only, so the alias is kept for the client's session (:class:`service.insight.session.Session`):
its later imports of the card carry it; another client, or a new connection, sees none.
"""

from __future__ import annotations

from service.insight import ranks
from service.insight.protocol import InsightError, Params


def set_card_alias(conn, params: Params) -> dict:
    """Remember ``cardAlias`` (a string; empty: no alias) for the card ``rankId`` names."""
    card = ranks.asked(conn, params)
    alias = params.values.get("cardAlias", "")
    if not isinstance(alias, str):
        raise InsightError(f"parameter cardAlias: {alias!r} is not a string")
    params.session.card_aliases[card.card_id] = alias
    return {}
