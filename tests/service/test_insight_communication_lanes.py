"""The Communication chart's lanes moved as MindStudio Insight's server moves them
(``server/src/modules/communication/protocol/CommunicationProtocolResponse.h``
OperatorListsResponseBody::AdjustTime), on lanes whose moves can be worked out by hand."""

from __future__ import annotations

from service.insight.communication_lanes import aligned


def lane(*items: tuple[str, int, int]) -> list[dict]:
    return [{"operatorName": name, "startTime": start, "duration": duration} for name, start, duration in items]


def starts(lanes: list[list[dict]]) -> list[list[int]]:
    return [[item["startTime"] for item in one] for one in lanes]


def test_overlapping_lanes_stay_where_they_are():
    lanes = [lane(("a", 0, 10), ("b", 20, 10)), lane(("a", 5, 10))]
    assert aligned(lanes, None) == (0, 30)
    assert starts(lanes) == [[0, 20], [5]]


def test_a_lane_apart_from_the_others_moves_to_end_with_the_latest():
    # rank 0 spans 0..10, rank 1 100..110: rank 0 moves right by 100 so that both end at 110
    lanes = [lane(("a", 0, 10)), lane(("a", 100, 10))]
    assert aligned(lanes, None) == (100, 110)
    assert starts(lanes) == [[100], [100]]


def test_one_operator_ends_together_on_every_rank():
    # spans overlap (no first move); the operator ends at 10 on rank 0 and at 8 on rank 1: rank 1 moves by 2
    lanes = [lane(("x", 0, 10)), lane(("x", 3, 5))]
    assert aligned(lanes, "x") == (0, 10)
    assert starts(lanes) == [[0], [5]]


def test_an_operator_on_no_rank_and_empty_lanes_move_nothing():
    lanes = [lane(("a", 0, 10)), []]
    assert aligned(lanes, "missing") == (0, 10)
    assert starts(lanes) == [[0], []]
    assert aligned([[], []], None) == (0, 0)
