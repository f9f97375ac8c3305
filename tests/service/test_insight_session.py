"""The session as MindStudio Insight's server keeps it (issue 38 item 1): the frontend names no card in
its operator views (modules/compute RequestUtils.ts), so each WebSocket connection answers about the
profile its last import/action made current, and compares with the baseline its global/setBaseline
chose (SetBaselineHandler.cpp) until global/cancelBaseline. POST /insight stays stateless."""

from __future__ import annotations

import pytest
from websockets.sync.client import connect

from factories.op_profile import BaseInfoFactory, OpProfileFactory, json_block
from service import create_app
from test_insight_ws import Page, serving
from warehouse import db

CANNOT_ANSWER = 1003


@pytest.fixture
def two_profiles(tmp_path):
    """root/a and root/b: two profiles of one operator, 13.5 us and 12.25 us long; an empty warehouse."""
    root = tmp_path / "root"
    for name, duration in (("a", 13.5), ("b", 12.25)):
        (root / name).mkdir(parents=True)
        OpProfileFactory(path=root / name / "visualize_data.bin",
                         blocks=[json_block(0x05, BaseInfoFactory(duration=duration))])
    database = tmp_path / "warehouse.db"
    db.connect(database).close()
    return database, root


def imported(page: Page, root, name: str) -> str:
    """import/action of root/NAME as the frontend sends it; the card's rankId."""
    body = page.body("timeline", "import/action", {"projectName": "p", "path": [str(root / name)],
                                                   "projectAction": 0, "isConflict": False})
    assert [card["result"] for card in body["result"]] in ([True], [])  # [] when it was imported before
    return str((root / name / "visualize_data.bin").resolve())


def duration(page: Page, **params) -> str:
    return page.body("source", "source/details/baseInfo", params)["compare"]["duration"]


def test_each_connection_answers_about_its_own_last_import(two_profiles):
    database, root = two_profiles
    with serving(database, root) as (url, rest), connect(url) as first, connect(url) as second:
        one, two = Page(first), Page(second)
        imported(one, root, "a")
        assert duration(one) == "13.5"
        imported(one, root, "b")  # the second profile: the page shows it, not a refusal
        assert duration(one) == "12.25"
        imported(two, root, "a")  # already in the warehouse: made current all the same
        assert (duration(two), duration(one)) == ("13.5", "12.25")
        # a card named explicitly still wins over the session's
        assert duration(one, cardId=str((root / "a" / "visualize_data.bin").resolve())) == "13.5"


def test_set_baseline_then_compare_then_cancel(two_profiles):
    database, root = two_profiles
    with serving(database, root) as (url, rest), connect(url) as socket:
        page = Page(socket)
        baseline = imported(page, root, "b")
        imported(page, root, "a")
        chosen = page.body("global", "global/setBaseline", {"projectName": "p", "filePath": baseline})
        # ToResponseJson<BaselineSettingResponse> (GlobalProtocolUtil.cpp)
        assert chosen == {"rankId": baseline, "host": "", "cardName": "add_custom", "isCluster": False,
                          "errorMessage": "", "dbPath": baseline, "isFtrace": False}
        # the page adds the baseline's card and shows it parsing until a parse/success names it
        # (handler.ts createBaselineCard), then allPagesSuccess (SetBaselineHandler.cpp)
        told = len(page.events)
        assert page.body("global", "heartCheck", {}) == {}
        success, all_pages = page.events[told:]
        assert (success["event"], success["body"]["unit"]["metadata"]["cardId"], all_pages["event"]) == (
            "parse/success", baseline, "allPagesSuccess")
        both = page.body("source", "source/details/baseInfo", {"isCompared": True})
        assert (both["compare"]["duration"], both["baseline"]["duration"]) == ("13.5", "12.25")
        assert page.body("global", "global/cancelBaseline", {"projectName": "p", "filePath": baseline}) == {}
        refused = page.send("source", "source/details/baseInfo", {"isCompared": True})
        assert (refused["result"], refused["error"]) == (
            False, {"code": CANNOT_ANSWER, "message": "missing parameter baselineRankId"})
        empty = page.send("global", "global/setBaseline", {"projectName": "", "filePath": baseline})
        assert empty["error"]["message"] == "Set baseline failed, project name or filepath can't be empty!"


def test_rest_is_stateless_a_card_is_named_where_there_are_several(two_profiles):
    database, root = two_profiles
    client = create_app({"TESTING": True, "DATABASE": str(database), "IMPORT_ROOT": str(root)}).test_client()

    def ask(command, params):
        answer = client.post("/api/v1/insight", json={"id": 1, "moduleName": "source", "type": "request",
                                                      "command": command, "params": params}).get_json()
        return answer

    assert ask("import/action", {"path": ["a", "b"]})["result"] is True
    refused = ask("source/details/baseInfo", {})
    assert (refused["result"], refused["error"]["code"]) == (False, CANNOT_ANSWER)
    assert refused["error"]["message"] == "2 operator profiles in the warehouse: name one with cardId"
    named = ask("source/details/baseInfo", {"cardId": str((root / "b" / "visualize_data.bin").resolve())})
    assert named["body"]["compare"]["duration"] == "12.25"
