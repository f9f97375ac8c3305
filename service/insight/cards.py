"""Cards: the ingested profiles a client names with ``cardId`` / ``rankId``.

A card is a source with a ``card`` (an operator profile's operator name); a training run's cards
are its ranks (:mod:`service.insight.ranks`). Its id in the protocol (``rankId``) is the input's
path, as the MindStudio Insight server's is: it does not change when other profiles are imported.
The card name (when no other card has it) and the source id as text are accepted too.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from service.insight import ranks
from service.insight.protocol import InsightError, Params, one, rows

OPERATOR_KIND = "op_profile"


def listing(conn) -> list[dict]:
    """Every card, as import/action lists them: ``{cardName, rankId, cardPath, sourceId, kind}``, with its
    run's root (``runRoot``: the folder imported, or the file itself when it has no run)."""
    found = rows(conn, "insight_cards")
    names = Counter(row["card"] for row in found)
    return [{"cardName": row["card"], "rankId": row["path"], "cardPath": row["path"], "sourceId": row["source_id"],
             "kind": row["kind"], "unique": names[row["card"]] == 1, "runRoot": row["run_root"] or row["path"]}
            for row in found]


def tree_node(card: dict) -> dict:
    """An operator profile's card as a node of the project tree (Ascend/msinsight
    ParseFileInfo::SerializeToJson, ParseFileType COMPUTE; a rank's is :meth:`ranks.RankCard.tree_node`)."""
    return {"clusterPath": "", "rankId": card["rankId"], "host": "", "filePath": card["cardPath"],
            "type": "COMPUTE", "deviceId": "",
            "fileDir": Path(card["cardPath"]).parent.name, "children": []}


def _public(cards: list[dict]) -> list[dict]:
    return [{key: card[key] for key in ("cardName", "rankId", "cardPath")} for card in cards]


def named(conn, card_id: str, *, kind: str | None = None) -> dict:
    """The card ``card_id`` names (its id, or its source id as text).

    :raises InsightError: with the list of cards, when none has that id.
    """
    cards = [c for c in listing(conn) if kind is None or c["kind"] == kind]
    for card in cards:
        if card_id in (card["rankId"], str(card["sourceId"])) or (card["unique"] and card_id == card["cardName"]):
            return card
    raise InsightError(f"unknown card {card_id!r}", cards=_public(cards))


def operator(conn, params: Params) -> int:
    """The source id of the operator profile a ``source/...`` command is about.

    ``cardId`` (or ``rankId``) names it; without one, the profile the client's last import made
    current (its session), else the only operator profile.

    :raises InsightError: if the card is unknown, or there are several, none is named and none is current
        (with the list).
    """
    card_id = params.text("cardId", required=False, aliases=("rankId",))
    if card_id is not None:
        return named(conn, card_id, kind=OPERATOR_KIND)["sourceId"]
    cards = [c for c in listing(conn) if c["kind"] == OPERATOR_KIND]
    current = params.session.operator
    if current is not None and any(c["sourceId"] == current for c in cards):
        return current
    if len(cards) == 1:
        return cards[0]["sourceId"]
    if not cards:
        raise InsightError("no operator profile in the warehouse (import a visualize_data.bin first)", cards=[])
    raise InsightError(f"{len(cards)} operator profiles in the warehouse: name one with cardId", cards=_public(cards))


def check_source(conn, params: Params, source_id: int, what: str) -> None:
    """When the request names a card, ``what`` (a process or thread of ``source_id``) must belong to it.

    :raises InsightError: on an unknown card or one ``what`` is not part of.
    """
    card_id = params.text("cardId", required=False, aliases=("rankId",))
    if card_id is None:
        return
    # any input is named by its path (import/action's rankId), operator profiles by their card too
    source = one(conn, "insight_source", source_id=source_id)
    if source is not None and card_id in (source["path"], str(source_id)):
        return
    rank = ranks.named(conn, card_id)  # a rank card: any of the rank's inputs
    if rank is not None:
        if source_id not in rank.source_ids:
            raise InsightError(f"{what} is not part of card {card_id!r}")
        return
    card = named(conn, card_id)
    if card["sourceId"] != source_id:
        raise InsightError(f"{what} is not part of card {card_id!r}")
