"""timeline/rankOffset (Time Alignment on a slice) through ``warehouse serve --insight-port``.

On the real 2-rank db export and the lone text rank of test_insight_communication_kernel.py, a slice of
rank 0 is aligned as the frontend's Align Left / Align Right asks (Ascend/msinsight
``modules/timeline/src/actions/actionAlignByOperator.ts`` buildRequestParams: the slice's name, its
``rawStartTime`` and duration, its card and process), answered in the shape of
``server/src/modules/timeline/protocol/TimelineProtocolUtil.cpp`` ToResponseJson<RankOffsetResponse>; each
other card's offset is checked against SQL on the warehouse's slice view (the n-th slice of the name on
each card, times from each card's time zero, as RankOffsetCalculator.h computes them).
"""

from __future__ import annotations

import pytest

from test_insight_communication_kernel import cluster  # noqa: F401 - a fixture
from test_insight_timeline import TIMELINE_INPUTS, extent_in_sql, sql

pytestmark = pytest.mark.slow

NAME = "aclnnMm_MatMulCommon_MatMulV2"


def named_in_sql(database, card: dict, name: str) -> tuple[int, list[tuple]]:
    """(the card's time zero, its slices named ``name`` as (ts, dur, process) in time order)."""
    zero = extent_in_sql(database, card["dbPath"])[0]
    found = sql(database, "SELECT sl.ts, sl.dur, t.process_id FROM slice AS sl JOIN thread AS t "
                          f"ON t.id = sl.thread_id WHERE t.source_id IN ({TIMELINE_INPUTS}) AND sl.name = ? "
                          "ORDER BY sl.ts, sl.thread_id, sl.id", card["dbPath"], name)
    return zero, found


def align(page, card: dict, name: str, ts: int, dur: int, align_type: str) -> dict:
    return page.send("timeline", "timeline/rankOffset", {
        "sliceName": name, "rankId": card["rankId"], "fileId": card["dbPath"], "pid": "1", "metaType": "",
        "startTime": str(ts), "duration": dur, "alignType": align_type})


@pytest.mark.parametrize("align_type, end", (("LEFT", 0), ("RIGHT", 1)))
def test_every_other_card_aligns_its_nth_namesake(cluster, align_type, end):
    page, database, run, lone = cluster
    base_zero, base = named_in_sql(database, run[0], NAME)
    index = 3
    ts, dur, _ = base[index]
    answer = align(page, run[0], NAME, ts, dur, align_type)
    assert answer["result"] is True, answer
    expected = []
    for card in (run[1], lone):
        zero, found = named_in_sql(database, card, NAME)
        assert len(found) > index
        target_ts, target_dur, _ = found[index]
        expected.append({"rankId": card["rankId"],
                         "offset": (target_ts - zero + end * target_dur) - (ts - base_zero + end * dur),
                         "processId": sorted({str(p) for _, _, p in found}, key=int)})
    assert answer["body"] == {"result": expected, "baseOffset": 0}
    assert len({item["offset"] for item in expected}) == 2


def test_a_slice_not_on_the_card_or_a_bad_alignment_is_refused(cluster):
    page, database, run, lone = cluster
    _, base = named_in_sql(database, run[0], NAME)
    ts, dur, _ = base[0]
    answer = align(page, run[0], NAME, ts + 1, dur, "LEFT")
    assert answer["result"] is False and "has no slice" in answer["error"]["message"]
    answer = align(page, run[0], NAME, ts, dur, "MIDDLE")
    assert answer["result"] is False and "alignType" in answer["error"]["message"]
    # the last of a name only rank 0 has that many of: no other card can align
    per_name = ("SELECT sl.name, count(*) FROM slice AS sl JOIN thread AS t ON t.id = sl.thread_id "
                f"WHERE t.source_id IN ({TIMELINE_INPUTS}) GROUP BY sl.name")
    others = [dict(sql(database, per_name, card["dbPath"])) for card in (run[1], lone)]
    name, count = next((name, count) for name, count in sql(database, per_name, run[0]["dbPath"])
                       if all(other.get(name, 0) < count for other in others))
    last_ts, last_dur, _ = named_in_sql(database, run[0], name)[1][count - 1]
    answer = align(page, run[0], name, last_ts, last_dur, "LEFT")
    assert answer["result"] is False and "no other rank has slice" in answer["error"]["message"]
