"""The timeline's level of detail (service/insight/lod.py) on hand-made slices, with exact answers."""

from __future__ import annotations

import numpy as np
import pytest

from service.insight import lod

#: (id, ts, dur, depth) sorted by depth, ts; names and categories are their ids
SLICES = [
    (1, 0, 100, 0),    # A: wide at every tpp below 100
    (2, 100, 3, 0),    # B
    (3, 104, 2, 0),    # C: 1 ns after B
    (4, 120, 1, 0),    # D: 14 ns after C
    (5, 200, 100, 0),  # E
    (6, 0, 2, 1),      # a1
    (7, 3, 1, 1),      # a2: 1 ns after a1
    (8, 50, 40, 1),    # a3: 46 ns after a2
]


def thread(slices=SLICES) -> lod.ThreadLod:
    return lod.ThreadLod.from_rows([(i, ts, dur, depth, i, i, 0) for i, ts, dur, depth in slices])


def shown(lod_thread: lod.ThreadLod, items: lod.Items) -> list[tuple]:
    """(depth, start, end, id of the longest slice, slices merged) per item."""
    return list(zip(items.depth.tolist(), items.start.tolist(), items.end.tolist(),
                    lod_thread.ids[items.longest].tolist(), items.count.tolist()))


@pytest.mark.parametrize(
    "tpp,expected",
    (
        # below every duration but the instants: nothing merges
        (0.5, [(0, 0, 100, 1, 1), (0, 100, 103, 2, 1), (0, 104, 106, 3, 1), (0, 120, 121, 4, 1),
               (0, 200, 300, 5, 1), (1, 0, 2, 6, 1), (1, 3, 4, 7, 1), (1, 50, 90, 8, 1)]),
        # B and C (1 ns apart) merge under B, the longer; D is 14 ns after them: alone
        (10, [(0, 0, 100, 1, 1), (0, 100, 106, 2, 2), (0, 120, 121, 4, 1), (0, 200, 300, 5, 1),
              (1, 0, 4, 6, 2), (1, 50, 90, 8, 1)]),
        # D is now less than a pixel after C: joins; a3 (40 ns) is still wide
        (20, [(0, 0, 100, 1, 1), (0, 100, 121, 2, 3), (0, 200, 300, 5, 1), (1, 0, 4, 6, 2), (1, 50, 90, 8, 1)]),
        # a3 is narrow and 46 ns after a1+a2: one run named by a3, the longest; A and E stay wide
        (64, [(0, 0, 100, 1, 1), (0, 100, 121, 2, 3), (0, 200, 300, 5, 1), (1, 0, 90, 8, 3)]),
        # everything is narrow: depth 0 is one run (gaps 0, 1, 14, 79), still named by A (first of the longest)
        (101, [(0, 0, 300, 1, 5), (1, 0, 90, 8, 3)]),
    ),
)
def test_merge_rule_at_each_resolution(tpp, expected):
    t = thread()
    assert shown(t, t.screen(0, 1000, tpp, 100)) == expected


def test_a_window_keeps_what_overlaps_it():
    t = thread()
    # [110, 250): B+C end at 106, before it; D and E overlap it; depth 1 ends at 90
    assert shown(t, t.screen(110, 250, 10, 100)) == [(0, 120, 121, 4, 1), (0, 200, 300, 5, 1)]
    # a slice starting before the window and ending inside it is kept whole
    assert shown(t, t.screen(60, 101, 0.5, 100)) == [(0, 0, 100, 1, 1), (0, 100, 103, 2, 1), (1, 50, 90, 8, 1)]


def test_equal_durations_name_the_run_by_its_first_slice():
    t = thread([(1, 0, 2, 0), (2, 3, 2, 0), (3, 6, 2, 0)])
    assert shown(t, t.screen(0, 10, 5, 100)) == [(0, 0, 8, 1, 3)]


def test_instants_merge_only_when_close():
    t = thread([(1, 10, 0, 0), (2, 10, 0, 0), (3, 12, 0, 0), (4, 40, 0, 0)])
    assert shown(t, t.screen(0, 100, 1, 100)) == [(0, 10, 10, 1, 2), (0, 12, 12, 3, 1), (0, 40, 40, 4, 1)]
    assert shown(t, t.screen(0, 100, 4, 100)) == [(0, 10, 12, 1, 3), (0, 40, 40, 4, 1)]


@pytest.mark.parametrize(
    "max_items,expected_depths,expected_count",
    (
        (6, [0, 0, 0, 0, 1, 1], 6),  # everything fits
        (5, [0, 0, 0, 0], 4),        # depth 1 does not fit whole: left out
        (3, [0, 0, 0], 3),           # depth 0 alone is over the bound: its first items
    ),
)
def test_rows_per_answer_are_bounded_by_whole_depths(max_items, expected_depths, expected_count):
    t = thread()
    items = t.screen(0, 1000, 10, max_items)
    assert items.depth.tolist() == expected_depths and len(items) == expected_count


def random_thread(seed: int, tops: int = 400) -> lod.ThreadLod:
    """Properly nested slices: top slices with up to 3 children each, random gaps and durations."""
    rng = np.random.default_rng(seed)
    rows, ts, next_id = [], 0, 1
    for _ in range(tops):
        ts += int(rng.integers(0, 50))
        dur = int(rng.integers(0, 200))
        rows.append((next_id, ts, dur, 0))
        next_id += 1
        child_ts = ts
        for _ in range(int(rng.integers(0, 4))):
            child_dur = int(rng.integers(0, max(1, (ts + dur - child_ts) // 2)))
            if child_ts + child_dur > ts + dur:
                break
            rows.append((next_id, child_ts, child_dur, 1))
            next_id += 1
            child_ts += child_dur + int(rng.integers(0, 5))
        ts += dur
    rows.sort(key=lambda r: (r[3], r[1]))
    return thread(rows)


@pytest.mark.parametrize("seed", (1, 2, 3))
@pytest.mark.parametrize("tpp", (1, 3, 7.5, 16, 100, 1000, 5000))
def test_levels_give_the_same_answer_as_merging_the_slices(seed, tpp):
    """Level floor(log2(tpp)) merged again at tpp == the slices merged at tpp directly."""
    t = random_thread(seed)
    direct = lod.merge(t.raw.items, tpp, t.dur)
    assert shown(t, t.screen(-10, 10**9, tpp, 10**6)) == shown(t, direct)


def test_busy_is_the_union_of_depth_0_with_gaps_below_a_bucket_merged():
    first = thread([(1, 0, 10, 0), (2, 12, 8, 0), (3, 100, 50, 0), (4, 1, 2, 1)])
    second = thread([(5, 15, 15, 0), (6, 40, 1, 0)])
    width = lod.bucket_width(12.5)
    assert width == 8
    parts = [t.busy(0, 200, width) for t in (first, second)]
    starts, ends = lod.union([p[0] for p in parts], [p[1] for p in parts], width)
    # 0-10 and 12-20 are 2 ns apart, 15-30 overlaps; 40-41 is 10 ns after 30; 100-150 alone
    assert list(zip(starts.tolist(), ends.tolist())) == [(0, 30), (40, 41), (100, 150)]


@pytest.mark.parametrize("tpp,width", ((0.3, 1), (1, 1), (335.6, 256), (512, 512), (1023.9, 512)))
def test_bucket_width_is_the_power_of_two_not_above_the_pixel(tpp, width):
    assert lod.bucket_width(tpp) == width


def test_an_empty_thread_shows_nothing():
    t = lod.ThreadLod.from_rows([])
    assert len(t.screen(0, 100, 1, 10)) == 0
    assert [a.tolist() for a in t.busy(0, 100, 4)] == [[], []]


def test_a_level_that_saves_little_is_not_stored():
    t = thread()
    assert t.level(2) is t.raw  # nothing merges at 2 ns
    assert len(t.level(4).items) == 6  # B+C and a1+a2: 6 items of 8, a level of its own
    # at 16 ns only D joins B+C: 5 items of 6 is over 3/4, so level 4 serves, merged again at 16
    assert t.level(16) is t.level(4)
    assert shown(t, t.screen(0, 1000, 16, 100)) == shown(t, lod.merge(t.raw.items, 16, t.dur)) == [
        (0, 0, 100, 1, 1), (0, 100, 121, 2, 3), (0, 200, 300, 5, 1), (1, 0, 4, 6, 2), (1, 50, 90, 8, 1)]


def test_screen_rows_one_list_per_depth_in_order():
    """unit/threadTraces' rows (service/insight/timeline.py): a list per depth, empty for a depth with
    no item, each depth's items in the order they come, times relative to zero, names by string id."""
    from service.insight.timeline import screen_rows

    t = lod.ThreadLod.from_rows([(10, 1_000, 50, 0, 1, 0, 0), (11, 1_100, 5, 0, 2, 0, 3),
                                 (12, 1_010, 4, 2, 2, 0, 0), (13, 1_020, 4, 2, 1, 0, 0)])
    items = t.screen(0, 2_000, 0.5, 100)
    data = screen_rows(t, items, "7", {0: "", 1: "matmul", 2: "add", 3: "good"}.__getitem__, zero=1_000)
    as_tuples = [[(r.name, r.duration, r.startTime, r.endTime, r.depth, r.threadId, r.cname, r.id) for r in depth]
                 for depth in data]
    assert as_tuples == [
        [("matmul", 50, 0, 50, 0, "7", "", "10"), ("add", 5, 100, 105, 0, "7", "good", "11")],
        [],
        [("add", 4, 10, 14, 2, "7", "", "12"), ("matmul", 4, 20, 24, 2, "7", "", "13")],
    ]
    assert screen_rows(t, t.screen(5_000, 6_000, 0.5, 100), "7", str) == []
