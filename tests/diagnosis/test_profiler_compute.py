"""A 2-rank text export (tests/diagnosis/text_run.py) whose ranks run the same kernel name, one rank
fewer times and longer: each cross-rank rule compares the two ranks' kernels."""

import json

from tests.diagnosis.text_run import K, Step, analysed, write_rank

CROSS_RANK = ("slow_rank_suspected", "dp_workload_imbalance", "pipeline_stage_imbalance",
              "ep_load_imbalance_suspected", "reduced_work_or_dummy_rank")


#: rank 0 runs ten 100 us matmuls (1.0 ms), rank 1 three 700 us ones on other shapes (2.1 ms): 2.1x apart
KERNELS = {0: (K("MatMulV2", dur_us=100),) * 10, 1: (K("MatMulV2", dur_us=700, shapes="4096,1024;1024,1024"),) * 3}


def write_run(folder):
    """The two ranks' text exports of one 20 ms step."""
    for rank, kernels in KERNELS.items():
        write_rank(folder, [Step(20_000, kernels)], rank=rank)


def cross_rank(conn) -> dict[str, tuple]:
    return {kind: (rank, json.loads(numbers)) for kind, rank, numbers in conn.execute(
        "SELECT finding_type, rank_id, numbers FROM finding WHERE finding_type IN (%s)" % ",".join("?" * len(CROSS_RANK)),
        CROSS_RANK)}


def test_the_kernel_sums_and_counts_are_compared(runner, tmp_path, warehouse_path):
    write_run(tmp_path / "run")
    conn = analysed(runner, tmp_path / "run", warehouse_path)
    found = cross_rank(conn)
    # rank 1's kernels take 2.1x rank 0's, on other shapes and three of them against ten
    assert {kind: rank for kind, (rank, _) in found.items()} == {
        "slow_rank_suspected": 1, "dp_workload_imbalance": 1, "reduced_work_or_dummy_rank": 1}
    slow = found["slow_rank_suspected"][1]
    assert (slow["compute_ns"], slow["median_ns"]) == (2_100_000, 1_000_000.0)
    # rank 1 runs every name rank 0 runs, fewer times: its evidence is its own first run of that name
    assert conn.execute("SELECT f.confidence, e.source_row, e.note FROM finding AS f "
                        "JOIN finding_evidence AS e ON e.finding_id = f.id "
                        "WHERE f.finding_type = 'reduced_work_or_dummy_rank'").fetchall() == [
        ("medium", 1, "MatMulV2 ran 3 times on rank 1 and 10 times on rank 0 in step 1")]
