"""A rank db's MSTX_EVENTS (user ranges, summed by mstx_sum) and OVERLAP_ANALYSIS (the profiler's
overlap intervals, reconciled per step with the derived breakdown by audit overlap_analysis_agrees)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.factories.rank_db import RankDbFactory
from warehouse import audits, db, queries
from warehouse.ingest import ingest_file

# Times from the factory db's ts0. Its step 1 (0 to 8500) runs a kernel from 5000 to 7500 and an
# HCCL operator from 7900 to 9100: derived computing 2500, communication 1200 (none of it
# overlapped), free 400 (7500 to 7900). Step 2 has no device rows.
MSTX = (("prefill", "start/end", 500, 4_000), ("decode", "push/pop", 9_000, 12_000),
        ("decode", "push/pop", 13_000, 14_000), ("tick", "marker", 9_500, 9_500))
OVERLAP = (
    ("free", 2_000, 5_000),  # before the step's first device activity: outside its window
    ("computing", 3_000, 7_500),  # crosses the window's start: 2500 of it inside
    ("free", 7_500, 7_900),
    ("communication", 7_900, 8_500), ("communication", 8_500, 9_100),
    ("communication_not_overlapped", 7_900, 9_100),
    ("free", 9_100, 30_000),  # after the step's last device activity: outside
)


def ingest(path: Path, **factory) -> tuple:
    """A fresh warehouse holding one factory rank db (rank 0) written with ``factory``'s arguments."""
    rank = RankDbFactory(path=path / "ascend_pytorch_profiler_0.db", rank_id=0, **factory)
    conn = db.connect(path / "warehouse.db")
    result = ingest_file(conn, rank.path)
    assert result.status == "ok", result.error
    return conn, rank


def overlap_audit(conn) -> tuple[list[str], list[tuple]]:
    audit = next(a for a in audits.load_audits() if a.name == "overlap_analysis_agrees")
    cursor = conn.execute(audit.statement(conn))
    return [d[0] for d in cursor.description], cursor.fetchall()


def mstx_sum(conn) -> list[tuple]:
    _, result = queries.get("mstx_sum").run(conn, {})
    return [(step, name, count, total, low, high) for _, step, _, name, count, total, _, _, low, _, _, _, high in result]


@pytest.fixture(scope="module")
def marked(tmp_path_factory):
    """A rank db with user ranges and an overlap analysis that matches the derived breakdown."""
    conn, rank = ingest(tmp_path_factory.mktemp("marked"), mstx=MSTX, overlap=OVERLAP)
    yield conn, rank
    conn.close()


def test_mstx_events_become_user_ranges(marked):
    conn, rank = marked
    t, main = rank.ts0, (100 << 32) | 101
    got = conn.execute("SELECT source_row, rank_id, ts - ?, dur, name, kind, range_id, domain, global_tid, "
                       "connection_id FROM user_range ORDER BY source_row", (t,)).fetchall()
    assert got == [
        (1, 0, 500, 3_500, "prefill", "start/end", 1, "default", main, None),
        (2, 0, 9_000, 3_000, "decode", "push/pop", 2, "default", main, None),
        (3, 0, 13_000, 1_000, "decode", "push/pop", 3, "default", main, None),
        (4, 0, 9_500, 0, "tick", "marker", 4, "default", main, None),
    ]


def test_mstx_sum_reads_the_user_ranges(marked):
    conn, _ = marked
    # ranges only, per step (a mark not named <name>_start or <name>_stop is left out), and
    # MSTX_EVENTS answers for the input: the framework's own mstx row ('mark') is not counted
    assert mstx_sum(conn) == [(1, "prefill", 1, 3_500, 3_500, 3_500), (2, "decode", 2, 4_000, 1_000, 3_000)]


def test_mstx_sum_reads_framework_rows_without_mstx_events(tmp_path):
    conn, _ = ingest(tmp_path)
    assert conn.execute("SELECT count(*) FROM user_range").fetchone() == (0,)
    # the framework's one mstx row is a lone mark, 'mark': no range
    assert conn.execute("SELECT name, dur FROM pytorch_api WHERE type = 'mstx'").fetchall() == [("mark", 0)]
    assert mstx_sum(conn) == []
    conn.close()


def test_overlap_intervals_are_stored_with_their_types(marked):
    conn, _ = marked
    got = conn.execute("SELECT type, count(*), sum(dur), min(device_id) FROM overlap_interval GROUP BY type "
                       "ORDER BY type").fetchall()
    assert got == [("communication", 2, 1_200, 0), ("communication_not_overlapped", 1, 1_200, 0),
                   ("computing", 1, 4_500, 0), ("free", 3, 24_300, 0)]


def test_overlap_audit_passes_when_the_intervals_match(marked):
    conn, _ = marked
    assert conn.execute("SELECT computing_ns, communication_ns, communication_not_overlapped_ns, free_ns "
                        "FROM step_breakdown WHERE step_id = 1").fetchone() == (2_500, 1_200, 1_200, 400)
    assert overlap_audit(conn)[1] == []


def test_overlap_audit_names_the_step_that_differs(tmp_path):
    # the profiler's communication not overlapped covers 100 ns of the derived 1200
    differing = tuple(("communication_not_overlapped", 7_900, 8_000) if kind == "communication_not_overlapped"
                      else (kind, start, end) for kind, start, end in OVERLAP)
    conn, _ = ingest(tmp_path, overlap=differing)
    columns, found = overlap_audit(conn)
    assert [dict(zip(columns, row)) for row in found] == [{
        "run_id": 1, "rank_id": 0, "step_id": 1, "source_id": 1, "figure": "communication_not_overlapped_ns",
        "profiler_value": 100, "derived_value": 1_200, "differs_pct": 1100.0}]
    conn.close()


def test_overlap_audit_on_the_real_sample(realdata, tmp_path):
    # MindStudio Insight added OVERLAP_ANALYSIS to this db export: it agrees with the derived
    # breakdown of the rank's one step to the nanosecond
    path = realdata / "msinsight/pytorch/db/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db"
    conn = db.connect(tmp_path / "warehouse.db")
    assert ingest_file(conn, path).status == "ok"
    stored = conn.execute("SELECT type, count(*), sum(dur) FROM overlap_interval GROUP BY type ORDER BY type")
    assert stored.fetchall() == [("communication", 4, 102_108_100), ("communication_not_overlapped", 101, 98_071_947),
                                 ("computing", 187, 8_903_431), ("free", 90, 25_258_144)]
    assert conn.execute("SELECT step_id, computing_ns, communication_ns, communication_not_overlapped_ns, free_ns "
                        "FROM step_breakdown").fetchall() == [(50, 8_903_431, 102_108_100, 98_071_947, 25_258_144)]
    assert overlap_audit(conn)[1] == []
    conn.close()


def test_each_user_range_is_in_the_step_whose_span_holds_its_start(marked):
    """View user_range_step: the one step rule (step 1 spans 0 to 8500, step 2 from 8500 on), so a
    range started in step 1 and ended in step 2 is step 1's."""
    conn, rank = marked
    got = conn.execute("SELECT name, ts - ?, step_id FROM user_range_step ORDER BY ts", (rank.ts0,)).fetchall()
    spans = conn.execute("SELECT step_id, start_ns - ? FROM step_span ORDER BY start_ns", (rank.ts0,)).fetchall()
    assert spans == [(1, 0), (2, 8_500)]
    assert got == [("prefill", 500, 1), ("decode", 9_000, 2), ("tick", 9_500, 2), ("decode", 13_000, 2)]
