"""Comparable runs (issue 35): the run_signature and run_comparable views on factory runs, run_regression
comparing a run with the last comparable run before it only; compare_kernels matching a kernel renamed by
another CANN by what it computes, compare_communication a group renamed by another capture by its ranks."""

from __future__ import annotations

import json

from factories.trace_json import EventFactory, TraceFileFactory
from factories.warehouse_rows import (CommunicationOpFactory, KernelFactory, RunMetadataFactory, StepFactory, rank_source,
                                      run_id)
from warehouse.analysis import findings
from warehouse.ingest import ingest_paths
from warehouse.labels import set_labels


def npu_run(conn, name: str, start_ns: int, ranks: int, step_ns: int, kernels=("MatMul", "Add")) -> int:
    """A run of ``ranks`` NPU ranks (rank dbs), two steps of ``step_ns`` each, filled by ``kernels`` end to end."""
    rid = run_id(name)
    share = step_ns // len(kernels)
    for rank in range(ranks):
        source = rank_source(rank, run=name)
        for index in range(2):
            t0 = start_ns + index * step_ns
            StepFactory(rank_id=rank, step_id=index + 1, start_ns=t0, end_ns=t0 + step_ns, source_id=source)
            for position, kernel in enumerate(kernels):
                KernelFactory(rank_id=rank, source_id=source, name=kernel, op_type=kernel, input_shapes="8,8",
                              ts=t0 + position * share, dur=share)
    conn.execute("UPDATE run SET start_ns = ? WHERE run_id = ?", (start_ns, rid))
    return rid


def gpu_run(conn, folder, start_ns: int) -> int:
    """A one-rank kineto trace of an A100 (its deviceProperties), one 10 us step filled by one kernel,
    ingested as a run started at ``start_ns``."""
    events = [EventFactory(name="ProfilerStep#1", cat="user_annotation", ts="1000.000", dur=10.0),
              EventFactory(name="ampere_sgemm", cat="kernel", pid=0, tid=7, ts="1000.000", dur=10.0)]
    trace = TraceFileFactory(path=folder / "gpu" / "worker0.pt.trace.json", events=events, shape="kineto", top={
        "deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-80GB"}],
        "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 1}})
    ingest_paths(conn, [trace], run_name="gpu")
    rid = run_id("gpu")
    conn.execute("UPDATE run SET start_ns = ? WHERE run_id = ?", (start_ns, rid))
    return rid


def regressions(conn) -> list[tuple]:
    return [(f.values["run_id"], json.loads(f.values["numbers"])["previous_run_id"], f.values["severity"])
            for f in findings.evaluate(conn, "run_regression")]


def reason(conn, run, other) -> str:
    return conn.execute("SELECT reason FROM run_comparable WHERE run_id = ? AND other_run_id = ?",
                        (run, other)).fetchone()[0]


def test_a_run_regresses_against_the_last_comparable_run_before_it(rows, tmp_path):
    base = npu_run(rows, "base", 1_000_000, 2, 2000)
    gpu = gpu_run(rows, tmp_path, 2_000_000)  # 5x base's step, on a GPU
    wide = npu_run(rows, "wide", 3_000_000, 4, 6000)  # 3x, on 4 ranks
    slow = npu_run(rows, "slow", 4_000_000, 2, 3000)
    signatures = rows.execute("SELECT run_id, device_kind, device_type, cluster_size, export_kind, kernel_names "
                              "FROM run_signature ORDER BY run_id").fetchall()
    assert signatures == [(base, "NPU", None, 2, "db", 2), (gpu, "GPU", "NVIDIA A100-SXM4-80GB", 1, "kineto", 1),
                          (wide, "NPU", None, 4, "db", 2), (slow, "NPU", None, 2, "db", 2)]
    # the GPU run and the 4-rank run have no comparable run before them: no finding, however slower;
    # the slow run is compared with base, not with the 4-rank run just before it (which it beats)
    assert regressions(rows) == [(slow, base, "high")]
    found, = findings.evaluate(rows, "run_regression")
    assert found.values["message"] == (
        "Run slow takes 1.5x the mean step of run base, the last comparable run before it (3.000 us against "
        "2.000 us; comparable: the same NPU, 2 ranks, 100 % of kernel names shared): compare them with "
        f"`warehouse compare {base} {slow}`.")
    assert reason(rows, gpu, base) == "not comparable: the device kind differs (GPU / NPU)"
    assert reason(rows, slow, wide) == "not comparable: the cluster size differs (2 / 4 ranks)"


def test_the_model_label_decides_over_the_kernels(rows):
    base = npu_run(rows, "base", 1_000_000, 2, 2000, kernels=("MatMul", "Add"))
    slow = npu_run(rows, "slow", 2_000_000, 2, 3000, kernels=("MatMul", "Gelu", "Cast"))
    # one kernel of four shared: another model
    assert reason(rows, slow, base) == "not comparable: the kernels differ (25 % of kernel names shared, " \
                                      "25 % of operator types, under 50 %)"
    assert regressions(rows) == []
    set_labels(rows, base, {"model": "llama"})
    set_labels(rows, slow, {"model": "llama"})
    assert reason(rows, slow, base) == "comparable: the same NPU, 2 ranks, the same model label (llama)"
    assert regressions(rows) == [(slow, base, "high")]
    set_labels(rows, slow, {"model": "qwen"})
    assert reason(rows, slow, base) == "not comparable: the model label differs (qwen / llama)"
    assert regressions(rows) == []


def test_runs_of_another_cluster_shape_are_not_comparable(rows):
    """Four ranks as pipeline 2 x data-parallel 2 and four ranks as data-parallel 4: one model, two
    parallelisms; a third run that says no shape is not told apart by it."""
    shapes = {"pp2": {"pipeline_model_parallel_size": 2, "data_parallel_size": 2},
              "dp4": {"pipeline_model_parallel_size": 1, "data_parallel_size": 4}}
    runs = {name: npu_run(rows, name, 1_000_000 * (position + 1), 4, 2000)
            for position, name in enumerate(("pp2", "dp4", "unsaid"))}
    for name, sizes in shapes.items():
        for rank in range(4):
            RunMetadataFactory(source_id=rank_source(rank, run=name), rank_id=rank, name="distributed_args",
                               value=json.dumps({**sizes, "tensor_model_parallel_size": 1, "world_size": 4}))
    assert reason(rows, runs["dp4"], runs["pp2"]) == \
        "not comparable: the cluster shape differs (DP 4 TP 1 PP 1 / DP 2 TP 1 PP 2)"
    assert reason(rows, runs["unsaid"], runs["pp2"]).startswith("comparable: the same NPU, 4 ranks")
    # dp4 is 1x pp2's step: no regression either way; unsaid compares with dp4, the last comparable run
    assert regressions(rows) == []


def test_compare_kernels_matches_a_renamed_kernel_by_its_type_and_shapes(rows, run):
    base, after = run_id("base"), run_id("after")
    for name, kernels in (("base", (("aclnnMatmul_MatMulV2", "MatMul", 100), ("Gone", None, 30))),
                          ("after", (("aclnnMatmul_MatMulV3", "MatMul", 150), ("New", None, 40)))):
        for kernel, op_type, dur in kernels:
            KernelFactory(rank_id=0, source_id=rank_source(0, run=name), name=kernel, op_type=op_type,
                          input_shapes="8,8", dur=dur)
    result = run("compare_kernels", base_run_id=base, run_id=after)
    assert [(r["name"], r["base_name"], r["matched_by"], r["base_total_ns"], r["run_total_ns"], r["ratio"])
            for r in result] == [
        ("aclnnMatmul_MatMulV3", "aclnnMatmul_MatMulV2", "op_type, input_shapes", 100, 150, 1.5),
        # without a type nothing says what a kernel computes: by name only
        ("New", None, "run only", 0, 40, None),
        ("Gone", None, "base only", 30, 0, None),
    ]


def test_compare_communication_matches_a_group_by_its_ranks(rows, run):
    """HCCL names a group after its host, port and creation time: two captures of one model never share
    the name; the group's ranks are what tells it apart."""
    base, after = run_id("base"), run_id("after")
    for name, dur in (("base", 400), ("after", 500)):
        for rank in (0, 1):
            CommunicationOpFactory(rank_id=rank, source_id=rank_source(rank, run=name), name="hcom_allReduce__7_0_1",
                                   op_type="hcom_allReduce_", group_name=f"10.0.0.1%eth0_60000_0_{name}", dur=dur)
    result = run("compare_communication", base_run_id=base, run_id=after)
    assert {(r["group_ranks"], r["base_group_name"], r["run_group_name"]) for r in result} == {
        ("0,1", "10.0.0.1%eth0_60000_0_base", "10.0.0.1%eth0_60000_0_after")}
    assert [(r["scope"], r["rank_id"], r["metric"], r["base_value"], r["run_value"]) for r in result] == [
        ("overall", None, "mean_time_ns", 400.0, 500.0),
        ("rank", 0, "mean_time_ns", 400.0, 500.0),
        ("rank", 1, "mean_time_ns", 400.0, 500.0),
        ("overall", None, "count", 2.0, 2.0),
        ("rank", 0, "count", 1.0, 1.0),
        ("rank", 1, "count", 1.0, 1.0),
    ]
