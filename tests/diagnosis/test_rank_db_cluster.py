"""From input files to the report: eight rank dbs (tests/factories/rank_db.py) with a planted slow
rank and a planted slow collective, ingested, analysed, the evidence traced back to the files' rows."""

import sqlite3

from tests.factories.rank_db import RankDbFactory
from warehouse import db
from warehouse.cli import cli

TS0 = 1_736_410_576_000_000_000
SLOW_RANK, SLOW_COLLECTIVE_RANK = 3, 5


def write_cluster(folder, planted=True):
    """Eight ranks on one clock; rank 3's MatMul takes 1.5x, rank 5's allreduce ends 150 us late (unless not
    planted: over the rule's 100 us floor)."""
    paths = {}
    for rank in range(8):
        path = folder / f"rank{rank}_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / f"ascend_pytorch_profiler_{rank}.db"
        path.parent.mkdir(parents=True)
        RankDbFactory(path=path, rank_id=rank, ts0=TS0)
        paths[rank] = path
    if not planted:
        return paths
    with sqlite3.connect(paths[SLOW_RANK]) as conn:
        conn.execute("UPDATE TASK SET endNs = startNs + 3750 WHERE globalTaskId = 10")
    with sqlite3.connect(paths[SLOW_COLLECTIVE_RANK]) as conn:
        conn.execute("UPDATE COMMUNICATION_OP SET endNs = endNs + 150000")
    return paths


def test_planted_slow_rank_and_collective_from_rank_dbs(runner, tmp_path, warehouse_path):
    paths = write_cluster(tmp_path / "run")
    assert runner.invoke(cli, ["ingest", str(tmp_path / "run"), "--db", str(warehouse_path), "-q"]).exit_code == 0
    assert runner.invoke(cli, ["analyze", "--db", str(warehouse_path)]).exit_code == 0
    conn = db.connect_readonly(warehouse_path)
    high = conn.execute("SELECT id, finding_type, rank_id, step_id, confidence FROM finding "
                        "WHERE severity = 'high' ORDER BY id").fetchall()
    # every finding is about the one run the folder holds
    [(run_id,)] = conn.execute("SELECT run_id FROM run").fetchall()
    assert conn.execute("SELECT DISTINCT run_id FROM finding").fetchall() == [(run_id,)]
    assert [row[1:] for row in high] == [("communication_collective_slow", 5, 1, "high"),  # rules in file order
                                        ("slow_rank_suspected", 3, 1, "medium")]
    evidence = "SELECT s.path, e.table_name, e.source_row FROM finding_evidence AS e " \
               "JOIN source AS s ON s.id = e.input_source_id WHERE e.finding_id = ? ORDER BY e.position"
    # the slow kernel is row 1 of rank 3's TASK table; the slow allreduce row 1 of rank 5's COMMUNICATION_OP
    assert conn.execute(evidence, (high[1][0],)).fetchall() == [(str(paths[3]), "kernel", 1)]
    rows = conn.execute(evidence, (high[0][0],)).fetchall()
    assert rows[0] == (str(paths[5]), "communication_op", 1) and len(rows) == 8
    with sqlite3.connect(paths[5]) as raw:
        start, end = raw.execute("SELECT startNs, endNs FROM COMMUNICATION_OP WHERE rowid = 1").fetchone()
    assert end - start == 151_200
    out = tmp_path / "report.html"
    assert runner.invoke(cli, ["report", "--db", str(warehouse_path), "-o", str(out)]).exit_code == 0
    html = out.read_text(encoding="utf-8")
    assert "<td>slow rank</td><td>rank 3</td>" in html and "hcom_allReduce__1" in html


def test_two_runs_ingested_together_are_analysed_apart(runner, tmp_path, warehouse_path):
    # the same eight rank dbs twice (byte for byte, but for the planted run's two files): two runs, one folder each
    runs = tmp_path / "runs"
    healthy = write_cluster(runs / "healthy", planted=False)
    slow = write_cluster(runs / "slow")
    assert runner.invoke(cli, ["ingest", str(runs), "--db", str(warehouse_path), "-q"]).exit_code == 0
    assert runner.invoke(cli, ["analyze", "--db", str(warehouse_path)]).exit_code == 0
    conn = db.connect_readonly(warehouse_path)
    run_ids = dict(conn.execute("SELECT root, run_id FROM run"))
    slow_run, healthy_run = run_ids[str(runs / "slow")], run_ids[str(runs / "healthy")]
    high = conn.execute("SELECT id, run_id, finding_type, rank_id, step_id FROM finding "
                        "WHERE severity = 'high' ORDER BY id").fetchall()
    # and the slow run, slower than the healthy one before it, is a run regression of its own
    assert [row[1:] for row in high] == [(slow_run, "communication_collective_slow", 5, 1),  # rules in file order
                                        (slow_run, "run_regression", None, None),
                                        (slow_run, "slow_rank_suspected", 3, 1)]
    # the healthy run gets what both runs share (GC pauses the factory writes, hot spots), counted over its own ranks
    per_run = "SELECT finding_type, severity, rank_id, step_id FROM finding WHERE run_id = ? AND id NOT IN " \
              f"({', '.join(str(row[0]) for row in high)}) ORDER BY id"
    shared = conn.execute(per_run, (healthy_run,)).fetchall()
    assert shared == conn.execute(per_run, (slow_run,)).fetchall()
    assert {row[0] for row in shared} == {"gc_pauses", "kernel_hotspot"} and len(shared) == 9
    hot = "SELECT json_extract(numbers, '$.total_ns'), json_extract(numbers, '$.runs') FROM finding " \
          "WHERE finding_type = 'kernel_hotspot' AND run_id = ?"
    # eight 2.5 us MatMuls per run; the slow run's rank 3 ran its for 3.75 us
    assert [conn.execute(hot, (run,)).fetchone() for run in (healthy_run, slow_run)] == [(20_000, 8), (21_250, 8)]
    evidence = "SELECT DISTINCT s.path FROM finding_evidence AS e JOIN source AS s ON s.id = e.input_source_id " \
               "WHERE e.finding_id = ?"
    assert conn.execute(evidence, (high[2][0],)).fetchall() == [(str(slow[3]),)]
    assert {row[0] for row in conn.execute(evidence, (high[0][0],))} == {str(path) for path in slow.values()}
    # no evidence of a finding of one run is an input of the other
    crossed = ("SELECT COUNT(*) FROM finding_evidence AS e JOIN finding AS f ON f.id = e.finding_id "
               "JOIN source AS s ON s.id = e.input_source_id WHERE s.run_id IS NOT f.run_id")
    assert conn.execute(crossed).fetchone() == (0,)
    assert conn.execute("SELECT COUNT(*) FROM source WHERE run_id = ? AND path IN (%s)" % ", ".join("?" * 8),
                        (healthy_run, *map(str, healthy.values()))).fetchone() == (8,)
