"""The timeline queries (queries/timeline/*.sql) on a few slices written by factories."""

from __future__ import annotations

import json

import pytest

from factories.warehouse_rows import FlowFactory, ProcessFactory, SliceFactory, ThreadFactory


@pytest.fixture
def timeline(rows):
    """Two processes; thread 'main' of rank 0 holds a nested stack, a long slice and an instant.

    main:  [parent 100..400 [child_a 120..180] [child_b 200..300 [grandchild 210..220]]]
           [long 1000..6000]   [instant at 7000]
    """
    p0 = ProcessFactory(rank_id=0, pid="100", name="python", sort_index=1)
    p1 = ProcessFactory(rank_id=1, pid="200", name="python")
    main = ThreadFactory(process=p0, tid="7", name="main")
    other = ThreadFactory(process=p0, tid="8", name="other")
    ThreadFactory(process=p1, tid="9", name="main")
    parent = SliceFactory(thread_id=main["id"], ts=100, dur=300, name="parent", args='{"seq": 1}', source_row=4)
    child_a = SliceFactory(thread_id=main["id"], ts=120, dur=60, name="child_a", depth=1, parent_id=parent["id"])
    child_b = SliceFactory(thread_id=main["id"], ts=200, dur=100, name="child_b", depth=1, parent_id=parent["id"])
    grandchild = SliceFactory(thread_id=main["id"], ts=210, dur=10, name="grandchild", depth=2,
                              parent_id=child_b["id"])
    long = SliceFactory(thread_id=main["id"], ts=1000, dur=5000, name="long")
    instant = SliceFactory(thread_id=main["id"], ts=7000, dur=0, name="instant", category="marker")
    device = SliceFactory(thread_id=other["id"], ts=150, dur=20, name="kernel", category="device")
    return {"p0": p0, "p1": p1, "main": main, "other": other, "parent": parent, "child_a": child_a,
            "child_b": child_b, "grandchild": grandchild, "long": long, "instant": instant, "device": device}


def test_timeline_processes(run, timeline):
    result = run("timeline_processes")
    assert [(r["run_id"], r["pid"], r["rank_id"], r["thread_count"]) for r in result] == [
        (1, "100", 0, 2), (1, "200", 1, 1)]
    assert [r["process_id"] for r in run("timeline_processes", rank_id=1)] == [timeline["p1"]["id"]]
    assert run("timeline_processes", run_id=2) == [] and len(run("timeline_threads", run_id=1)) == 3


def test_timeline_threads_span_and_max_dur(run, timeline):
    result = run("timeline_threads", process_id=timeline["p0"]["id"])
    main, other = result
    assert (main["tid"], main["max_dur"], main["start_ns"], main["end_ns"]) == ("7", 5000, 100, 7000)
    assert (other["tid"], other["start_ns"], other["end_ns"]) == ("8", 150, 170)
    # a thread without slices has no span
    lone = run("timeline_threads", process_id=timeline["p1"]["id"])
    assert (lone[0]["start_ns"], lone[0]["end_ns"]) == (None, None)


def test_timeline_threads_end_is_the_last_ending_not_the_last_starting(run, rows):
    thread = ThreadFactory()
    SliceFactory(thread_id=thread["id"], ts=0, dur=900, name="long")
    SliceFactory(thread_id=thread["id"], ts=500, dur=10, name="late short")
    assert run("timeline_threads", process_id=thread["process_id"])[0]["end_ns"] == 900


@pytest.mark.parametrize(
    "start,end,expected",
    (
        # the window starts inside 'long': found only because the search reaches back max_dur
        (2000, 3000, ["long"]),
        (150, 205, ["parent", "child_a", "child_b"]),
        # the instant sits exactly at the window's start
        (7000, 7001, ["instant"]),
        # half-open: a slice ending at the window's start is outside
        (400, 999, []),
        (0, 10_000, ["parent", "child_a", "child_b", "grandchild", "long", "instant"]),
    ),
)
def test_timeline_slices_window(run, timeline, start, end, expected):
    result = run("timeline_slices", thread_id=timeline["main"]["id"], start=start, end=end)
    assert [r["name"] for r in result] == expected


def test_timeline_slices_columns_and_min_dur(run, timeline):
    result = run("timeline_slices", thread_id=timeline["main"]["id"], start=0, end=10_000, min_dur=100)
    assert result[0] == {"id": timeline["parent"]["id"], "ts": 100, "dur": 300, "name": "parent",
                         "category": "cpu_op", "depth": 0, "parent_id": None}
    assert [r["name"] for r in result] == ["parent", "child_b", "long"]


def test_slice_detail(run, timeline):
    (detail,) = run("slice_detail", slice_id=timeline["child_b"]["id"])
    assert detail["end_ns"] == 300
    assert (detail["parent_id"], detail["parent_name"], detail["child_count"]) == (
        timeline["parent"]["id"], "parent", 1)
    assert (detail["tid"], detail["thread_name"], detail["pid"], detail["rank_id"]) == ("7", "main", "100", 0)
    (top,) = run("slice_detail", slice_id=timeline["parent"]["id"])
    assert json.loads(top["args"]) == {"seq": 1}
    assert (top["child_count"], top["source_row"]) == (2, 4)
    assert top["source_path"].startswith("/runs/")
    assert run("slice_detail", slice_id=999_999) == []


def test_slice_children(run, timeline):
    result = run("slice_children", slice_id=timeline["parent"]["id"])
    assert [(r["name"], r["depth"], r["child_count"]) for r in result] == [("child_a", 1, 0), ("child_b", 1, 1)]
    assert run("slice_children", slice_id=timeline["grandchild"]["id"]) == []


def test_slice_flows(run, timeline):
    FlowFactory(slice_out=timeline["child_a"]["id"], slice_in=timeline["device"]["id"], name="HostToDevice")
    FlowFactory(slice_out=timeline["long"]["id"], slice_in=timeline["child_a"]["id"], name="fwdbwd")
    result = run("slice_flows", slice_id=timeline["child_a"]["id"])
    assert [(r["direction"], r["name"], r["other_name"], r["other_ts"]) for r in result] == [
        ("out", "HostToDevice", "kernel", 150),
        ("in", "fwdbwd", "long", 1000),
    ]
    assert result[0]["other_thread_id"] == timeline["other"]["id"]
