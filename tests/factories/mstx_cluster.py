"""A cluster folder of rank dbs whose program marked mstx ranges and marks in two steps.

``write_cluster(folder)`` writes ``rank{r}_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_{r}.db``
for ranks 0 and 1 (RankDbFactory: step 1 from 0 to 8500 ns after the rank's ts0, step 2 from 8500
to 20000) with RANK_EVENTS' MSTX_EVENTS: start/end ranges, one holding two others, a name
ranged twice in one step, and marks ``<name>_start`` / ``<name>_stop`` on two threads (nested on
one, a stop with no start open on the other, a pair that ends in the next step). Every event has
a connection id, as msprof-analyze's mstx_sum wants of a range (and of a mark, whose framework
time it reads), and the framework's record of it (a PYTORCH_API row of type mstx).
"""

from __future__ import annotations

from pathlib import Path

from tests.factories.rank_db import RankDbFactory

#: (message, kind, start, end, thread, connection id) per rank, times from the rank's ts0
RANK_EVENTS = {
    0: (
        ("step", "start/end", 100, 8_000, 101, 10_001),
        ("forward", "start/end", 200, 3_000, 101, 10_002),
        ("backward", "start/end", 3_200, 7_000, 101, 10_003),
        ("sync_start", "marker_ex", 500, 500, 101, 10_004),
        ("sync_start", "marker_ex", 600, 600, 101, 10_005),
        ("sync_stop", "marker_ex", 700, 700, 102, 10_006),  # no sync_start open on thread 102
        ("load_start", "marker_ex", 800, 800, 102, 10_007),
        ("sync_stop", "marker_ex", 900, 900, 101, 10_008),  # closes the latest: 600
        ("sync_stop", "marker_ex", 2_000, 2_000, 101, 10_009),  # closes 500
        ("forward", "start/end", 9_000, 11_000, 101, 10_010),
        ("load_stop", "marker_ex", 9_500, 9_500, 102, 10_011),  # in step 2, closing a start of step 1
        ("forward", "start/end", 12_000, 12_500, 101, 10_012),
    ),
    1: (
        ("step", "start/end", 150, 8_200, 101, 10_001),
        ("forward", "start/end", 300, 3_500, 101, 10_002),
        ("backward", "start/end", 3_600, 7_900, 101, 10_003),
        ("sync_start", "marker_ex", 400, 400, 101, 10_004),
        ("sync_start", "marker_ex", 450, 450, 101, 10_005),
        ("load_start", "marker_ex", 700, 700, 102, 10_006),
        ("sync_stop", "marker_ex", 1_000, 1_000, 101, 10_007),
        ("sync_stop", "marker_ex", 2_600, 2_600, 101, 10_008),
        ("forward", "start/end", 9_100, 11_900, 101, 10_009),
        ("load_stop", "marker_ex", 9_900, 9_900, 102, 10_010),
        ("forward", "start/end", 12_100, 12_300, 101, 10_011),
    ),
}


def rank_db_path(folder: Path, rank: int) -> Path:
    return folder / f"rank{rank}_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / f"ascend_pytorch_profiler_{rank}.db"


def write_cluster(folder: Path, extra: dict | None = None, omit: tuple = ("ACC_PMU",)) -> dict:
    """Write the cluster under ``folder``; ``extra`` adds events per rank, ``omit`` leaves tables
    out (RankDbFactory's). Returns rank -> RankDb."""
    return {rank: RankDbFactory(path=rank_db_path(folder, rank), rank_id=rank, omit=omit,
                                mstx=events + tuple((extra or {}).get(rank, ())))
            for rank, events in RANK_EVENTS.items()}
