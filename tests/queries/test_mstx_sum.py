"""mstx_sum groups and pairs as msprof-analyze's mstx_sum does, on a factory cluster of rank dbs.

msprof-analyze (cluster_analyse/recipes/mstx_sum/mstx_sum.py) reads each rank db's MSTX_EVENTS:
ranges by their message (a range inside another named outer::inner), marks <name>_start and
<name>_stop paired on their thread (a stop closes the latest open start); each in the step that
holds its start; over all ranks per step and name, the i-th of several of one name in a rank's
step named <name>_i; pandas' describe of the durations. The expected groups below are written out
by hand from the factory's events (tests/factories/mstx_cluster.py) and described with numpy.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.factories.mstx_cluster import write_cluster
from warehouse import db, ingest, queries

#: events only the warehouse counts: a push/pop range, a start/end range without a device task;
#: a lone mark, which no one counts
EXTRA = {0: (("decode", "push/pop", 13_000, 14_000, 101), ("host", "start/end", 14_500, 15_000, 103),
             ("tick", "marker", 1_000, 1_000))}
#: (step, rank) -> name -> durations, read off the events
PER_RANK = {
    (1, 0): {"step": [7_900], "step::forward": [2_800], "step::backward": [3_800], "sync": [300, 1_500],
             "load": [8_700]},
    (2, 0): {"forward": [2_000, 500], "decode": [1_000], "host": [500]},
    (1, 1): {"step": [8_050], "step::forward": [3_200], "step::backward": [4_300], "sync": [550, 2_200],
             "load": [9_200]},
    (2, 1): {"forward": [2_800, 200]},
}
#: step -> name -> durations over the ranks: several of one name in a rank's step are numbered,
#: closed marks by their stop (600-900 before 500-2000), then ranges by their start
ALL_RANKS = {
    1: {"step": [7_900, 8_050], "step::forward": [2_800, 3_200], "step::backward": [3_800, 4_300],
        "sync_0": [300, 550], "sync_1": [1_500, 2_200], "load": [8_700, 9_200]},
    2: {"forward_0": [2_000, 2_800], "forward_1": [500, 200], "decode": [1_000], "host": [500]},
}
EXACT = ("count", "total_ns", "min_ns", "q1_ns", "median_ns", "q3_ns", "max_ns")


def describe(durations: list[int]) -> dict:
    """pandas' describe (as msprof-analyze takes it) of ``durations``, with numpy."""
    values = np.array(durations, dtype=np.float64)
    q1, median, q3 = np.quantile(values, (0.25, 0.5, 0.75), method="linear")
    return {"count": len(values), "total_ns": values.sum(), "mean_ns": values.mean(),
            "std_ns": values.std(ddof=1) if len(values) > 1 else None, "min_ns": values.min(),
            "q1_ns": q1, "median_ns": median, "q3_ns": q3, "max_ns": values.max()}


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory):
    folder = tmp_path_factory.mktemp("mstx")
    write_cluster(folder / "cluster", EXTRA)
    conn = db.connect(folder / "warehouse.db")
    results = ingest.ingest_paths(conn, [folder / "cluster"], run_name="marked")
    assert [(r.status, r.error) for r in results if r.status != "ok"] == []
    yield conn
    conn.close()


def answer(conn, **params) -> dict[tuple, dict]:
    columns, rows = queries.get("mstx_sum").run(conn, {k: str(v) for k, v in params.items()})
    return {(r["step_id"], r["rank_id"], r["name"]): r for r in (dict(zip(columns, row)) for row in rows)}


def assert_described(got: dict, expected: dict) -> None:
    assert set(got) == set(expected)
    for key, durations in expected.items():
        stats, row = describe(durations), got[key]
        assert {k: row[k] for k in EXACT} == {k: stats[k] for k in EXACT}, key
        assert row["mean_ns"] == pytest.approx(stats["mean_ns"], rel=1e-12), key
        std = stats["std_ns"]
        assert row["std_ns"] == (None if std is None else pytest.approx(std, rel=1e-12)), key


def test_per_rank_step_and_name(warehouse):
    expected = {(step, rank, name): durations
                for (step, rank), names in PER_RANK.items() for name, durations in names.items()}
    assert_described(answer(warehouse), expected)


def test_over_all_ranks_per_step_and_numbered_name(warehouse):
    expected = {(step, None, name): durations for step, names in ALL_RANKS.items() for name, durations in names.items()}
    assert_described(answer(warehouse, per_rank="false"), expected)


def test_rows_in_step_order_then_longest_first(warehouse):
    columns, rows = queries.get("mstx_sum").run(warehouse, {"per_rank": "false"})
    assert [(row[1], row[3]) for row in rows] == [
        (1, "load"), (1, "step"), (1, "step::backward"), (1, "step::forward"), (1, "sync_1"), (1, "sync_0"),
        (2, "forward_0"), (2, "decode"), (2, "forward_1"), (2, "host")]
    assert columns[:4] == ["run_id", "step_id", "rank_id", "name"]


def test_the_framework_records_of_the_events_are_not_counted_again(warehouse):
    # each event is also a PYTORCH_API row of type mstx: MSTX_EVENTS answers for the input
    assert warehouse.execute("SELECT count(*) FROM pytorch_api WHERE type = 'mstx' AND name = 'step'").fetchone() == (2,)
    assert answer(warehouse)[(1, 0, "step")]["count"] == 1
