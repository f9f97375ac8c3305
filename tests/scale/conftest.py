"""Fixtures of the scale-out tests: one rich factory warehouse, its Parquet export, the engines.

The warehouse is built once per test session: the diagnosis tests' synthetic cluster with
problems planted (tests/diagnosis/cluster.py, so the diagnosis rules find something), then
the input factories (two rank dbs, an operator profile, a trace JSON, every text export of a
rank and the cluster analysis files) ingested as a user would, a few rows for the rules the
cluster cannot plant, an MoE inference run of two ranks, then a diagnosis run (``findings.analyze``):
every table the named queries read has rows. Spark starts once per session (local[2,4]: two cores, a
failed task tried up to 4 times as the product's default and a cluster do; two shuffle partitions, the
JVM options of short jobs).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from factories import minddata, mindspore, mindspore_parallel, mindspore_summaries, text_exports, warehouse_rows
from factories.op_profile import OpProfileFactory
from factories.rank_db import RankDbFactory
from warehouse import db, export, ingest
from warehouse.analysis import findings
from warehouse.ingest.staged import first
from tests.diagnosis import cluster as diagnosis_cluster
from tests.scale.spark_jvm import JVM_OPTIONS
from warehouse.synth.trace_json import write_trace

#: the text exports of one rank: factory -> file name under ASCEND_PROFILER_OUTPUT/
RANK_EXPORTS = {
    "KernelDetailsFactory": "kernel_details.csv",
    "OpStatisticFactory": "op_statistic.csv",
    "OperatorDetailsFactory": "operator_details.csv",
    "StepTraceTimeFactory": "step_trace_time.csv",
    "MemoryRecordFactory": "memory_record.csv",
    "OperatorMemoryFactory": "operator_memory.csv",
    "ApiStatisticFactory": "api_statistic.csv",
    "NpuModuleMemFactory": "npu_module_mem.csv",
    "L2CacheFactory": "l2_cache.csv",
    "StaticOpMemFactory": "static_op_mem.csv",
    "CommunicationJsonFactory": "communication.json",
    "CommunicationMatrixFactory": "communication_matrix.json",
    "ProfilerMetadataFactory": "profiler_metadata.json",
}
#: each rank db's mstx events (mstx_sum): a range holding another, on two ranks, and a pair of marks
MSTX = (("prefill", "start/end", 500, 4_000), ("attention", "start/end", 1_000, 2_000),
        ("sync_start", "marker_ex", 600, 600), ("sync_stop", "marker_ex", 900, 900))
#: rank 0's memory copies (MEMCPY_INFO, profiler level 2): (start, end, stream, bytes, direction) from ts0
MEMCPY = ((20_000, 20_400, 5, 4096, "host to device"), (21_000, 21_100, 5, 1024, "device to host"))
#: the cluster analysis outputs: factory -> file name under cluster_analysis_output/
CLUSTER_EXPORTS = {
    "ClusterStepTraceTimeFactory": "cluster_step_trace_time.csv",
    "ClusterCommunicationFactory": "cluster_communication.json",
    "ClusterCommunicationMatrixFactory": "cluster_communication_matrix.json",
    "CommunicationGroupFactory": "communication_group.json",
}


def write_inputs(folder: Path) -> Path:
    """Every input format the warehouse reads, written by its factory under ``folder``."""
    for rank, tiling in ((0, "host"), (1, "sunk")):  # seed 002: host tiling every step on rank 0, sunk on rank 1
        RankDbFactory(path=folder / f"ascend_pytorch_profiler_{rank}.db", rank_id=rank, tiling=tiling, mstx=MSTX,
                      memcpy=MEMCPY if rank == 0 else ())
    OpProfileFactory(path=folder / "visualize_data.bin")
    # 500 events: the first step whole, its counters (C events) included
    write_trace(folder / "trace_view.json", 500, seed=1, rank=0)
    rank_folder = folder / "rank2_ascend_pt"
    text_exports.ProfilerInfoFactory(path=rank_folder / "profiler_info_2.json")
    for name, file_name in RANK_EXPORTS.items():
        getattr(text_exports, name)(path=rank_folder / "ASCEND_PROFILER_OUTPUT" / file_name)
    for name, file_name in CLUSTER_EXPORTS.items():
        getattr(text_exports, name)(path=folder / "cluster_analysis_output" / file_name)
    write_mindspore_profiler(folder / "mindspore_profiler")
    return folder


def write_mindspore_profiler(folder: Path) -> None:
    """A MindSpore profiler folder of device 0: its data pipeline (two empty steps of four: the
    minddata rule fires), step trace with MindSpore's phases, AI Core and AI CPU operators, a 4-rank
    pipeline's cluster analysis, dynamic shapes, HCCL, FLOPs (per scope too) and timeline summaries, its
    parallel strategy, a marey graph and its scope map; and the pipeline's other ranks' step traces and
    HCCL, their iteration intervals shorter and rank 3's link slower (the step interval and slow link rules fire)."""
    minddata.DeviceQueueFactory(path=folder / "device_queue_profiling_0.txt")
    minddata.PipelineProfilingFactory(path=folder / "pipeline_profiling_0.json")
    minddata.CpuUtilizationFactory(path=folder / "minddata_cpu_utilization_0.json")
    mindspore.StepTraceRawFactory(path=folder / "step_trace_raw_0_detail_time.csv")
    mindspore.AicoreDetailFactory(path=folder / "aicore_intermediate_0_detail.csv")
    mindspore.AicpuRawFactory(path=folder / "DATA_PREPROCESS.dev.AICPU.0.slice_0")
    for rank in range(4):  # a pipeline of 2 stages of 2 ranks: the parallel strategy rule's files
        mindspore_summaries.ClusterAnalyseFactory(path=folder / f"ascend_cluster_analyse_pipeline-parallel_2_4_{rank}.csv")
    mindspore_summaries.DynamicShapeFactory(path=folder / "dynamic_shape_info_0.json")
    mindspore_summaries.HcclRawFactory(path=folder / "hccl_raw_0.csv")
    for rank in range(1, 4):
        mindspore.StepTraceRawFactory(path=folder / f"step_trace_raw_{rank}_detail_time.csv",
                                      phases=tuple((interval // 2, *rest) for interval, *rest in mindspore.STEPS["phases"]))
        mindspore_summaries.HcclRawFactory(path=folder / f"hccl_raw_{rank}.csv", steps=[mindspore_summaries.hccl_step(
            1, 1.0, 2.0, {"0-1": {"SDMA": [5.0, 95579.136, 900000000.0 / rank]}}, {})])
    mindspore_summaries.FlopsFactory(path=folder / "flops_0.txt")
    mindspore_summaries.FlopsSummaryFactory(path=folder / "flops_summary_0.json")
    mindspore_summaries.FlopsScopeFactory(path=folder / "flops_scope_0.json")
    mindspore_summaries.TimelineSummaryFactory(path=folder / "ascend_timeline_summary_0.json")
    mindspore_parallel.ParallelStrategyFactory(path=folder / "parallel_strategy_0.json")
    mindspore_parallel.MareyTimelineFactory(path=folder / "ascend_marey_timeline_1.json")
    mindspore_parallel.ScopeMapFactory(path=folder / "scope_map_1.json")


def plant_rule_inputs(conn) -> None:
    """Rows that trip the diagnosis rules the synthetic cluster has no option for: an AI CPU
    kernel and three host synchronisations in the cluster's longest step window (the cluster's run: the
    first; the factory rows join it)."""
    rank_id, start_ns = conn.execute("SELECT rank_id, start_ns FROM step_window WHERE rank_id IS NOT NULL "
                                     "AND run_id = (SELECT min(run_id) FROM step_window) "
                                     "ORDER BY end_ns - start_ns DESC, rank_id, step_id LIMIT 1").fetchone()
    with warehouse_rows.bound(conn):
        warehouse_rows.KernelFactory(rank_id=rank_id, ts=start_ns + 1_000, dur=1_000_000, name="AICPU_Cast",
                                     op_type="Cast", task_type="AI_CPU", accelerator_core="AI_CPU", op_class="aicpu")
        for i in range(3):
            warehouse_rows.CannApiFactory(rank_id=rank_id, ts=start_ns + 10_000 * (i + 1), dur=2_000 + i,
                                          name="aclrtSynchronizeStream")


def plant_advice_inputs(conn) -> None:
    """Rows for the Communication page's advice the inputs hold nothing for: a rank db's allReduce copying 1000
    bytes over SDMA (unaligned to 512), and on the text export's rank, whose summary moves data over HCCS and
    RDMA only, its first operator's SDMA transfer at 10 GB/s beside a MatMul kernel and an RDMA send of 2 ms, 1.5
    ms of them in transit (the retransmission advice with PARAMS' 1 ms: the server's 4 s passes 2**31 ns, past a
    32-bit integer some engines cast sums to)."""
    source_id, rank_id = conn.execute("SELECT source_id, rank_id FROM communication_op WHERE name = 'hcom_allReduce__1' "
                                      "ORDER BY source_id LIMIT 1").fetchone()
    time = conn.execute("SELECT * FROM communication_time WHERE op_name <> 'Total Op Info' AND source_id IN "
                        "(SELECT id FROM source WHERE kind = 'communication_json') ORDER BY source_row LIMIT 1").fetchone()
    columns = [c[1] for c in conn.execute("PRAGMA table_info(communication_time)")]
    time = dict(zip(columns, time))
    kernel_source = conn.execute("SELECT a.source_id FROM answer_source AS a JOIN source AS s ON s.run_id = a.run_id "
                                 "WHERE s.id = ? AND a.rank_id = ? AND a.fact = 'kernel'",
                                 (time["source_id"], time["rank_id"])).fetchone()[0]
    keys = {name: time[name] for name in ("source_id", "rank_id", "step_id", "comm_type", "group_name")}
    with warehouse_rows.bound(conn):
        warehouse_rows.CommunicationTaskFactory(source_id=source_id, rank_id=rank_id, name="hcom_allReduce__1",
                                                size_bytes=1000)
        warehouse_rows.KernelFactory(source_id=kernel_source, rank_id=time["rank_id"], name="MatMul_advice",
                                     ts=time["ts"] + 1_000, dur=1_000)
        warehouse_rows.insert("communication_bandwidth", {
            **keys, "source_row": 1_000, "op_name": time["op_name"], "transport_type": "SDMA",
            "transit_bytes": 500_000, "transit_ns": 50_000, "bandwidth_bytes_per_s": 10_000_000_000})
        warehouse_rows.insert("communication_time", {
            **keys, "source_row": 1_000, "op_name": "hcom_send__advice", "ts": time["ts"],
            "elapse_ns": 2_000_000, "transit_ns": 1_500_000})
        warehouse_rows.insert("communication_bandwidth", {
            **keys, "source_row": 1_001, "op_name": "hcom_send__advice", "transport_type": "RDMA",
            "transit_bytes": 500_000, "transit_ns": 1_500_000, "bandwidth_bytes_per_s": 333_333_333})


def plant_insight_inputs(conn) -> None:
    """Rows for the Insight views the inputs hold nothing for, on rank 0 of the Operator page's run (the first with
    rank db kernels of rank 0, test_scale_engines.py KERNEL_RUN; its timeline input):
    two run-time operator compilations (aclopCompileAndExecute), a forward operator linked to its backward
    one, a send and a receive; and a project explorer the page renamed and took a path out of."""
    run_id = conn.execute("SELECT min(s.run_id) FROM kernel AS k JOIN source AS s ON s.id = k.source_id "
                          "WHERE k.rank_id = 0 AND k.origin = 'rank_db'").fetchone()[0]
    source_id = conn.execute("SELECT source_id FROM answer_source WHERE fact = 'timeline' AND rank_id = 0 "
                             "AND run_id = ?", (run_id,)).fetchone()[0]
    start_ns = conn.execute("SELECT min(start_ns) FROM step_window WHERE run_id = ? AND rank_id = 0",
                            (run_id,)).fetchone()[0]
    with warehouse_rows.bound(conn):
        for i in range(2):
            warehouse_rows.CannApiFactory(source_id=source_id, rank_id=0, ts=start_ns + 20_000 * (i + 1), dur=5_000,
                                          name="aclopCompileAndExecute")
        thread = warehouse_rows.ThreadFactory(process=warehouse_rows.ProcessFactory(source_id=source_id, rank_id=0),
                                              source_id=source_id)
        linked = []
        for offset, name in ((1_000, "aten::mm"), (50_000, "MmBackward0")):
            row = warehouse_rows.SliceFactory(thread_id=thread["id"], ts=start_ns + offset, dur=10_000, name=name)
            warehouse_rows.PytorchApiFactory(source_id=source_id, rank_id=0, ts=row["ts"], dur=10_000, name=name,
                                             type="op", slice_id=row["id"])
            linked.append(row["id"])
        warehouse_rows.FlowFactory(source_id=source_id, slice_out=linked[0], slice_in=linked[1], name="framework",
                                   category="CONNECTION_IDS")
        for i, kind in enumerate(("send", "receive")):
            warehouse_rows.CommunicationOpFactory(source_id=source_id, rank_id=0, name=f"hcom_{kind}__{i}_0_1",
                                                  op_type=f"hcom_{kind}_", ts=start_ns + 70_000 + 10_000 * i, dur=5_000)
        warehouse_rows.insert("insight_project_import", {"project": "scale", "path": "/runs"})
        warehouse_rows.insert("insight_project_removed", {"project": "scale", "path": "/runs/removed"})


def plant_comparable_runs(conn) -> None:
    """Two one-rank runs of one model, the second's step 1.5x the first's: run_regression compares a
    run with the last comparable run before it only, and the runs above are each of another setup."""
    with warehouse_rows.bound(conn):
        for name, step_ns in (("model_a", 2_000), ("model_a_slower", 3_000)):
            source = warehouse_rows.rank_source(0, run=name)
            warehouse_rows.StepFactory(rank_id=0, step_id=1, start_ns=0, end_ns=step_ns, source_id=source)
            warehouse_rows.KernelFactory(rank_id=0, source_id=source, name="MatMul", op_type="MatMul", ts=0,
                                         dur=step_ns)


#: the pipelined runs: name -> their data-parallel and pipeline groups (the second numbers the ranks of
#: the same shape otherwise: its rank 1 sits where the first has rank 2)
PIPELINED = {"pipelined": {"dp": [[0, 1], [2, 3]], "pp": [[0, 2], [1, 3]]},
             "pipelined_renumbered": {"dp": [[0, 2], [1, 3]], "pp": [[0, 1], [2, 3]]}}


def plant_pipelined_runs(conn) -> None:
    """Two runs of known shape, pipeline 2 x data-parallel 2 in one step, their second stage 1.27x the
    first: the rules that read the cluster's shape (pipeline_stage_imbalance) answer too, and compare
    pairs the two runs' ranks by place."""
    for run, groups in PIPELINED.items():
        built = diagnosis_cluster.build(conn, ranks=4, steps=(1,), run=run,
                                        compute_scale={last: 1.27 for _, last in groups["pp"]},
                                        collective_groups=groups["dp"])
        diagnosis_cluster.place(conn, built, groups)


@pytest.fixture(scope="session")
def factory_warehouse(tmp_path_factory) -> Path:
    """The rich warehouse file (read it, never write it: tests share it)."""
    return build_warehouse(tmp_path_factory.mktemp("scale"))


def build_warehouse(folder: Path) -> Path:
    """The rich warehouse (module docstring) at ``folder/warehouse.db``, its inputs beside it."""
    path = folder / "warehouse.db"
    conn = db.connect(path)
    diagnosis_cluster.build(conn, ranks=4, steps=(1, 2), slow_collective=(2, 1), host_gap_rank=2, dp_rank=3)
    results = ingest.ingest_paths(conn, [write_inputs(folder / "inputs")], force=True)
    assert [r.error for r in results if r.status != "ok"] == []
    plant_rule_inputs(conn)
    plant_advice_inputs(conn)
    plant_insight_inputs(conn)
    plant_comparable_runs(conn)
    plant_pipelined_runs(conn)
    stage_a_run(conn, folder / "staged")
    ingest_moe_run(conn, folder / "moe")
    findings.analyze(conn)  # what `warehouse analyze` stores: the finding tables
    conn.close()
    return path


def ingest_moe_run(conn, folder: Path) -> None:
    """A run of two ranks of an MoE inference service (their layer APIs and grouped-matmul kernels): the
    expert hotspot queries answer too."""
    for rank in (0, 1):
        text_exports.write_moe_rank(folder / f"rank{rank}_ascend_pt", rank, [1.0 + rank, 2.0, 3.0, 4.0, 5.0, 6.0])
    results = ingest.ingest_paths(conn, [folder], force=True)
    assert [r.error for r in results if r.status != "ok"] == []


def stage_a_run(conn, folder: Path) -> None:
    """A second run of two rank dbs with its first answers only (stage 1 of ``ingest --answers-first``,
    its second stage not run): the staged answers and ``ingest_progress`` answer on every engine too."""
    for rank in range(2):
        RankDbFactory(path=folder / f"rank{rank}_ascend_pt" / f"ascend_pytorch_profiler_{rank}.db", rank_id=rank)
    results = first.stage_paths(conn, list(ingest.discover([folder])))
    assert [r.status for r in results] == ["staged", "staged"]


@pytest.fixture(scope="session")
def exported(factory_warehouse, tmp_path_factory) -> Path:
    """The rich warehouse exported to Parquet."""
    out = tmp_path_factory.mktemp("export") / "parquet"
    export.export_parquet(factory_warehouse, out)
    return out


@pytest.fixture(scope="session")
def spark_session():
    """One local Spark for the whole test session, small: 2 cores, 2 shuffle partitions, the JVM
    options of short jobs (tests/scale/spark_jvm.py)."""
    from warehouse.engines import spark

    session = spark.session("local[2,4]", {"spark.sql.shuffle.partitions": "2",
                                           "spark.default.parallelism": "2",
                                           "spark.driver.extraJavaOptions": JVM_OPTIONS})
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
