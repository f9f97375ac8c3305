"""From text exports to the report: four ranks of an expert-parallel run as torch_npu writes them
(kernel_details.csv and trace_view.json, tests/factories/text_exports.py and trace_json.py), one
rank's experts routed twice the tokens; ingested, analysed, the evidence read back in the CSV."""

import csv
import json

from tests.factories.text_exports import KernelDetailsFactory, KernelRowFactory
from tests.factories.trace_json import EventFactory, TraceFileFactory
from warehouse import db
from warehouse.cli import cli

T0_US = 1_736_408_883_700_000
HEAVY_RANK = 2
GROUPED_MATMUL = "aclnnGroupedMatmulV4_GroupedMatmul_GroupedMatmul"


def moe_step(rank: int, heavy_rank) -> list[dict]:
    """Step 1 of one rank: a matmul, the MoE layer (dispatch, two grouped matmuls, combine), a matmul.

    The heavy rank's grouped matmuls run on twice the rows and take twice as long; the other
    ranks' combine waits for them meanwhile.
    """
    heavy = rank == heavy_rank
    extra_us = 2 * 100 if heavy_rank is not None else 0
    kernels = (
        ("aclnnMm_MatMulCommon_MatMulV2", "MatMulV2", "AI_CORE", 100, "2048,7168;7168,1024"),
        ("aclnnMoeDistributeDispatch_MoeDistributeDispatch", "MoeDistributeDispatch", "AI_VECTOR_CORE", 50,
         "2048,7168"),
        *[(GROUPED_MATMUL, "GroupedMatmul", "MIX_AIC", 200 if heavy else 100,
           "4096,7168;8,7168,1024" if heavy else "2048,7168;8,7168,1024")] * 2,
        ("aclnnMoeDistributeCombine_MoeDistributeCombine", "MoeDistributeCombine", "AI_VECTOR_CORE",
         50 if heavy else 50 + extra_us, "2048,7168"),
        ("aclnnMm_MatMulCommon_MatMulV2", "MatMulV2", "AI_CORE", 100, "2048,1024;1024,7168"),
    )
    rows, start = [], T0_US + 100
    for name, op_type, core, duration, shapes in kernels:
        rows.append(KernelRowFactory(step_id="1", name=name, type=op_type, core=core, start=f"{start}.000",
                                     duration=f"{duration}.000", input_shapes=shapes))
        start += duration + 5
    return rows


def write_run(folder, heavy_rank=None) -> dict:
    """Every rank's kernel_details.csv and trace_view.json (step 1: 10 ms); return the CSV paths by rank."""
    paths = {}
    for rank in range(4):
        output = folder / f"rank{rank}_ascend_pt" / "ASCEND_PROFILER_OUTPUT"
        paths[rank] = KernelDetailsFactory(path=output / "kernel_details.csv", rows=moe_step(rank, heavy_rank)).path
        TraceFileFactory(path=output / "trace_view.json", events=[
            EventFactory(name="ProfilerStep#1", cat="cpu_op", ts=f"{T0_US}.000", dur=10_000.0)])
    return paths


def analysed(runner, folder, warehouse_path):
    for command in (["ingest", str(folder), "--db", str(warehouse_path), "-q"],
                    ["analyze", "--db", str(warehouse_path)]):
        assert runner.invoke(cli, command).exit_code == 0
    return db.connect_readonly(warehouse_path)


def test_the_overloaded_expert_rank_of_a_text_export_is_found_with_its_csv_rows(runner, tmp_path, warehouse_path):
    paths = write_run(tmp_path / "run", heavy_rank=HEAVY_RANK)
    conn = analysed(runner, tmp_path / "run", warehouse_path)
    [(finding_id, rank, step, severity, confidence, numbers)] = conn.execute(
        "SELECT id, rank_id, step_id, severity, confidence, numbers FROM finding "
        "WHERE finding_type = 'ep_load_imbalance_suspected'").fetchall()
    assert (rank, step, severity, confidence) == (HEAVY_RANK, 1, "high", "high")
    # the others' combine waits for rank 2: every rank computes as long, it is the only problem found
    assert {t for (t,) in conn.execute("SELECT finding_type FROM finding")} == {"ep_load_imbalance_suspected",
                                                                              "kernel_hotspot"}
    assert json.loads(numbers) == {"expert_ns": 400_000, "median_ns": 200_000.0, "ratio": 2.0, "other_ns": 200_000,
                                   "other_median_ns": 200_000.0, "other_ratio": 1.0, "expert_kernels": 2,
                                   "own_shape_kernels": 2, "compared_with": "every rank"}
    evidence = conn.execute(
        "SELECT s.path, e.table_name, e.source_row FROM finding_evidence AS e "
        "JOIN source AS s ON s.id = e.input_source_id WHERE e.finding_id = ? ORDER BY e.position",
        (finding_id,)).fetchall()
    # records 3 and 4 of rank 2's kernel_details.csv (1 = the first after the header): its grouped matmuls
    assert evidence == [(str(paths[HEAVY_RANK]), "kernel", 3), (str(paths[HEAVY_RANK]), "kernel", 4)]
    with open(paths[HEAVY_RANK], newline="", encoding="utf-8") as file:
        records = list(csv.DictReader(file))
    assert [(records[row - 1]["Name"], records[row - 1]["Duration(us)"]) for _, _, row in evidence] == [
        (GROUPED_MATMUL, "200.000")] * 2
    out = tmp_path / "report.html"
    assert runner.invoke(cli, ["report", "--db", str(warehouse_path), "-o", str(out)]).exit_code == 0
    assert "ep_load_imbalance_suspected" in out.read_text(encoding="utf-8")


def test_a_balanced_expert_parallel_text_export_has_no_ep_finding(runner, tmp_path, warehouse_path):
    write_run(tmp_path / "run")
    conn = analysed(runner, tmp_path / "run", warehouse_path)
    # four ranks in step 1, each with its two grouped matmuls, all on the same rows for the same time
    assert conn.execute("SELECT count(DISTINCT rank_id), count(*), count(DISTINCT dur) FROM step_kernel "
                        "WHERE step_id = 1 AND category = 'moe.grouped_matmul'").fetchone() == (4, 8, 1)
    assert conn.execute("SELECT count(*) FROM finding WHERE finding_type = 'ep_load_imbalance_suspected'"
                        ).fetchone() == (0,)
