"""The Communication page's chart of each rank's operators, shifted as the real server shifts them.

``communication/operatorLists`` answers per rank its operators of a step and group as
``{operatorName, startTime, duration}`` in ns from the trace's start. Before answering, the real
server moves each rank's lane so that every lane shows on one screen and, for one operator, so that
that operator ends at the same time on every rank (``CommunicationProtocolResponse.h``
OperatorListsResponseBody::AdjustTime): the lanes' spans are merged where they overlap; a lane is
moved right by what separates the end of the merged span that holds it from the latest end of all;
then, for an operator asked by name, each lane is moved right by what separates that operator's end
from its latest end on any rank. Both moves are kept here as the real server makes them, so the
chart looks the same.
"""

from __future__ import annotations


def _end(item: dict) -> int:
    return item["startTime"] + item["duration"]


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The spans sorted, overlapping ones made one."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and merged[-1][1] >= start:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def _shift(lanes: list[list[dict]], offsets: list[int]) -> None:
    for lane, offset in zip(lanes, offsets):
        for item in lane:
            item["startTime"] += offset


def aligned(lanes: list[list[dict]], operator: str | None) -> tuple[int, int]:
    """Move the lanes (each sorted by start) in place as the real server does; the first start and last
    end after the moves ((0, 0) when no lane holds an operator)."""
    shown = [lane for lane in lanes if lane]
    if not shown:
        return 0, 0
    latest = max(_end(lane[-1]) for lane in shown)
    spans = _merged([(lane[0]["startTime"], _end(lane[-1])) for lane in shown])

    def offset(lane: list[dict]) -> int:
        start, end = lane[0]["startTime"], _end(lane[-1])
        for span_start, span_end in spans:
            if span_start <= start and span_end >= end:
                end = span_end
        return latest - end if end < latest else 0

    _shift(shown, [offset(lane) for lane in shown])
    if operator is not None:
        ends = [next((_end(item) for item in lane if item["operatorName"] == operator), None) for lane in shown]
        last = max((end for end in ends if end is not None), default=0)
        if last:
            _shift(shown, [last - end if end is not None else 0 for end in ends])
    return min(lane[0]["startTime"] for lane in shown), max(_end(lane[-1]) for lane in shown)
