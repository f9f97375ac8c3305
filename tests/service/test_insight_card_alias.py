"""unit/setCardAlias through ``warehouse serve --insight-port``: the alias comes back in the card's next
parse/success on that connection.

The real text export and rank db of test_insight_search.py are imported over a real WebSocket; an alias
is set as the frontend's SetAlias dialog sets it (Ascend/msinsight ``modules/timeline/src/components/
SetAlias.tsx``), answered with the empty body of ``server/src/modules/timeline/protocol/
TimelineProtocolUtil.cpp`` ToResponseJson<SetCardAliasResponse>; importing the card again gives it as the
card's ``cardAlias`` (``TextTraceDatabase.cpp`` QueryCardAlias), the other card keeping none.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from websockets.sync.client import connect

from test_insight_search import served_cards  # noqa: F401 - a fixture
from test_insight_timeline import imported
from test_insight_ws import Page

pytestmark = pytest.mark.slow

ALIAS = "rank 0, text (warmup)"


def aliases(page: Page) -> dict[str, str]:
    """card id -> cardAlias of the parse/success events received since the last call."""
    found = {event["body"]["unit"]["metadata"]["cardId"]: event["body"]["unit"]["metadata"]["cardAlias"]
             for event in page.events if event["event"] == "parse/success"}
    page.events.clear()
    return found


def test_an_alias_comes_back_when_the_card_is_imported_again(served_cards):
    page, _, cards = served_cards
    text_card, db_card = cards
    folders = [Path(card["dbPath"]).parents[2] for card in cards]
    assert page.body("timeline", "unit/setCardAlias", {"rankId": text_card["rankId"], "dbPath": text_card["dbPath"],
                                                       "cardAlias": ALIAS}) == {}
    for folder in folders:
        imported(page, folder)
    assert aliases(page) == {text_card["rankId"]: ALIAS, db_card["rankId"]: ""}
    # an empty alias clears it
    page.body("timeline", "unit/setCardAlias", {"rankId": text_card["rankId"], "cardAlias": ""})
    imported(page, folders[0])
    assert aliases(page) == {text_card["rankId"]: ""}


def test_an_alias_is_the_connections_own(served_cards):
    page, _, cards = served_cards
    text_card = cards[0]
    page.body("timeline", "unit/setCardAlias", {"rankId": text_card["rankId"], "cardAlias": ALIAS})
    # a second page on the same server: its import shows no alias
    url = page.socket.request.headers["Host"]
    with connect(f"ws://{url}/") as socket:
        other = Page(socket)
        imported(other, Path(text_card["dbPath"]).parents[2])
        assert aliases(other) == {text_card["rankId"]: ""}


def test_a_bad_alias_or_card_is_refused(served_cards):
    page, _, cards = served_cards
    answer = page.send("timeline", "unit/setCardAlias", {"rankId": cards[0]["rankId"], "cardAlias": 7})
    assert answer["result"] is False and "cardAlias" in answer["error"]["message"]
    answer = page.send("timeline", "unit/setCardAlias", {"rankId": "no-such-card", "cardAlias": "x"})
    assert answer["result"] is False and "no-such-card" in answer["error"]["message"]
