"""The cross-rank compute rules never judge a rank on kernels that fall short of the profiler's own
Computing (step_compute): where the profiler states a Computing for every rank of a step, that is
what they compare; a rank whose kernels are only part of what the profiler counted is not judged
on its kernels.

- The real server test ranks of MindStudio Insight carry only part of their kernels (17 and 20):
  their kernel sums, 27 ms and 2 ms, differ 13x while their step_trace_time.csv says both computed
  75 ms: no slow rank, no uneven data-parallel split.
- A 2-rank text export (tests/diagnosis/text_run.py, the StepTraceTime factory) whose
  kernel_details.csv holds only part of the kernels: without step_trace_time.csv the kernel sums
  are compared as before; with it stating equal Computing nothing is found; with it stating 1.5x
  the rank the profiler names is slow.
"""

import csv
import json

import pytest

from tests.diagnosis.text_run import K, Step, analysed, write_rank
from tests.factories.text_exports import StepTraceTimeFactory
from warehouse import db
from warehouse.analysis import findings
from warehouse.ingest import ingest_paths

SERVER = "msinsight/server_test_data"
CROSS_RANK = ("slow_rank_suspected", "dp_workload_imbalance", "pipeline_stage_imbalance",
              "ep_load_imbalance_suspected", "reduced_work_or_dummy_rank")


def profiler_computing_ns(path) -> dict[int, int]:
    """Step -> Computing in ns, as step_trace_time.csv states it (us)."""
    with open(path, newline="", encoding="utf-8") as handle:
        return {int(row["Step"]): round(float(row["Computing"]) * 1000) for row in csv.DictReader(handle)}


def test_the_server_test_ranks_are_compared_on_the_profiler_s_computing(realdata, tmp_path):
    conn = db.connect(tmp_path / "warehouse.db")
    ranks = {rank: realdata / SERVER / f"test_rank_{rank}" for rank in (0, 1)}
    assert [r.error for r in ingest_paths(conn, list(ranks.values())) if r.status != "ok"] == []
    [run_id] = [run for (run,) in conn.execute("SELECT run_id FROM run WHERE root = ?", (str(realdata / SERVER),))]
    stated = {rank: profiler_computing_ns(folder / "ASCEND_PROFILER_OUTPUT" / "step_trace_time.csv")[2]
              for rank, folder in ranks.items()}
    rows = {rank: (compute, by, kernel_ns, whole, kernels) for rank, compute, by, kernel_ns, whole, kernels in
            conn.execute("SELECT rank_id, compute_ns, measured_by, kernel_ns, kernels_whole, kernels FROM step_compute "
                         "WHERE run_id = ? AND step_id = 2", (run_id,))}
    assert sorted(rows) == [0, 1]
    for rank, (compute, by, kernel_ns, whole, kernels) in rows.items():
        # the profiler's Computing (75.17 and 75.42 ms) is the measure; the kernels are a third of it or less
        assert (by, whole) == ("profiler", 0) and compute == pytest.approx(stated[rank], abs=1)
        assert 70_000_000 < compute < 80_000_000 and kernel_ns < 0.4 * compute and kernels < 25
    # the kernel sums alone differ 13x (27.13 ms against 2.02 ms): what the rules compared before
    assert rows[0][2] > 13 * rows[1][2]
    findings.analyze(conn)
    found = conn.execute("SELECT finding_type FROM finding WHERE run_id = ? AND finding_type IN (%s)"
                         % ",".join("?" * len(CROSS_RANK)), (run_id, *CROSS_RANK)).fetchall()
    assert found == []
    conn.close()


#: rank 0 runs ten 100 us matmuls (1.0 ms), rank 1 three 700 us ones on other shapes (2.1 ms): 2.1x apart
KERNELS = {0: (K("MatMulV2", dur_us=100),) * 10, 1: (K("MatMulV2", dur_us=700, shapes="4096,1024;1024,1024"),) * 3}


def write_run(folder, computing_us: dict[int, float]):
    """The two ranks' text exports of one 20 ms step; step_trace_time.csv for the ranks ``computing_us`` names,
    stating that Computing (us)."""
    for rank, kernels in KERNELS.items():
        write_rank(folder, [Step(20_000, kernels)], rank=rank)
    for rank, computing in computing_us.items():
        rows = [dict(StepTraceTimeFactory.build(path=None).rows[0], Step="1", Computing=f"{computing}")]
        StepTraceTimeFactory(path=folder / f"rank{rank}_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / "step_trace_time.csv",
                             rows=rows)


def cross_rank(conn) -> dict[str, tuple]:
    return {kind: (rank, json.loads(numbers)) for kind, rank, numbers in conn.execute(
        "SELECT finding_type, rank_id, numbers FROM finding WHERE finding_type IN (%s)" % ",".join("?" * len(CROSS_RANK)),
        CROSS_RANK)}


def test_without_the_profiler_s_computing_the_kernel_sums_are_compared(runner, tmp_path, warehouse_path):
    write_run(tmp_path / "run", {})
    conn = analysed(runner, tmp_path / "run", warehouse_path)
    found = cross_rank(conn)
    # rank 1's kernels take 2.1x rank 0's, on other shapes and three of them against ten
    assert {kind: rank for kind, (rank, _) in found.items()} == {
        "slow_rank_suspected": 1, "dp_workload_imbalance": 1, "reduced_work_or_dummy_rank": 1}
    slow = found["slow_rank_suspected"][1]
    assert (slow["compute_ns"], slow["median_ns"], slow["measured_by"]) == (2_100_000, 1_000_000.0, "kernels")
    # rank 1 runs every name rank 0 runs, fewer times: its evidence is its own first run of that name
    assert conn.execute("SELECT f.confidence, e.source_row, e.note FROM finding AS f "
                        "JOIN finding_evidence AS e ON e.finding_id = f.id "
                        "WHERE f.finding_type = 'reduced_work_or_dummy_rank'").fetchall() == [
        ("medium", 1, "MatMulV2 ran 3 times on rank 1 and 10 times on rank 0 in step 1")]


def test_a_partial_export_whose_profiler_states_equal_computing_gives_no_finding(runner, tmp_path, warehouse_path):
    write_run(tmp_path / "run", {0: 10_000.0, 1: 10_000.0})
    conn = analysed(runner, tmp_path / "run", warehouse_path)
    assert conn.execute("SELECT rank_id, compute_ns, measured_by, kernel_ns, kernels_whole FROM step_compute "
                        "ORDER BY rank_id").fetchall() == [
        (0, 10_000_000, "profiler", 1_000_000, 0), (1, 10_000_000, "profiler", 2_100_000, 0)]
    # the kernel counts are not the ranks' whole work either: no reduced work
    assert cross_rank(conn) == {}


def test_the_profiler_s_computing_1_5x_apart_names_its_slow_rank(runner, tmp_path, warehouse_path):
    # rank 0 has the smaller kernel sum, but the profiler says it computed 1.5x rank 1
    write_run(tmp_path / "run", {0: 15_000.0, 1: 10_000.0})
    conn = analysed(runner, tmp_path / "run", warehouse_path)
    found = cross_rank(conn)
    assert {kind: rank for kind, (rank, _) in found.items()} == {"slow_rank_suspected": 0, "dp_workload_imbalance": 0}
    slow = found["slow_rank_suspected"][1]
    assert (slow["compute_ns"], slow["median_ns"], slow["measured_by"], slow["ratio"]) == (
        15_000_000, 10_000_000.0, "profiler", 1.5)
    [message] = [m for (m,) in conn.execute("SELECT message FROM finding WHERE finding_type = 'slow_rank_suspected'")]
    assert "(15.000 ms against 10.000 ms, the profiler's Computing)" in message
    spread = found["dp_workload_imbalance"][1]
    assert (spread["min_ns"], spread["max_ns"], spread["measured_by"]) == (10_000_000, 15_000_000, "profiler")


def test_a_rank_short_of_its_own_profiler_figure_is_left_out_where_kernels_are_compared(runner, tmp_path,
                                                                                       warehouse_path):
    # only rank 1 states a Computing (10 ms), which its kernels (2.1 ms) fall far short of: the step is
    # measured by kernels and rank 1 is not judged on them, nor compared with
    write_run(tmp_path / "run", {1: 10_000.0})
    conn = analysed(runner, tmp_path / "run", warehouse_path)
    assert conn.execute("SELECT rank_id, compute_ns, measured_by, ranks FROM step_compute").fetchall() == [
        (0, 1_000_000, "kernels", 1)]
    assert cross_rank(conn) == {}
