"""A synthetic cluster written row by row with the warehouse_rows factories, problems planted.

Each rank runs, per step, two dense transformer layers of eight kernels (100 us each, 5 us
apart, each launched by a CANN call 30 us ahead), then one allreduce that every rank ends
together 200 us after the last rank arrived (a Notify Wait task holds each rank's wait).
Healthy, that shows no problem. Options plant one problem each and the tests check that
exactly that finding appears, with evidence pointing at the planted rows:

- ``slow_rank``: every kernel of that rank takes 1.5x;
- ``slow_collective`` = (step, rank): that rank's allreduce of that step ends 1 ms late
  after all ranks arrived (a slow link: it waits least);
- ``host_gap_rank``: the device idles 500 us before each attention kernel of that rank while
  the host launches it (FusedInferAttentionScore is tiling-dependent);
- ``dummy_rank``: that rank only runs its norms;
- ``dp_rank``: that rank's matmuls run on twice the rows and take 1.25x;
- ``memory_rank``: that rank reserves 60 GiB at its peak (others 20 GiB);
- ``moe``: every rank also runs one MoE layer per step (dispatch, two grouped matmuls,
  combine), all ranks routed the same tokens: an expert-parallel run in balance;
- ``ep_rank``: an MoE run whose router sends that rank's experts EP_TOKENS times the tokens:
  its grouped matmuls run on that many more rows and take that much longer, and every other
  rank's combine waits for it (so all ranks still reach the allreduce together);
- ``compute_scale`` = {rank: factor}: every kernel of that rank takes factor times as long (a
  pipeline stage running more layers, or a rank slower than its data-parallel peer);
- ``collective_groups`` = [[ranks], ...]: each list runs its own allreduce (its own HCCL group,
  ``group_<first rank>``), ending after its own last arrival, as the data-parallel groups of a
  pipeline-parallel run do; by default every rank is in one group, ``group_a``.

:func:`place` gives the cluster a shape: the parallel groups a profiler_metadata.json of each
rank names.

Every rank is one rank-db input of the run ``run`` (build twice with two names for two runs
in one warehouse). ``text_export`` also gives every rank the text export of the same capture
(kernel_details.csv: the same kernels and the allreduce as an HCCL kernel row; trace_view.json:
the same steps), which the rank db outranks (fact_precedence): the answers must not change.
``rank_db=False`` leaves the rank dbs out: the text export alone answers (no CANN calls, no
Notify Wait tasks, no memory records: those only a rank db holds).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from tests.factories import warehouse_rows as rows
from warehouse.synth.parallel_groups import parallel_group_info

STEP_NS = 10_000_000
KERNEL_NS = 100_000
SPACING_NS = 5_000
HEAD_NS = 100_000
TRANSFER_NS = 200_000
GAP_NS = 500_000
LATE_NS = 1_000_000
GIB = 2**30
#: tokens (and time) of the overloaded expert rank's grouped matmuls, against the others'
EP_TOKENS = 1.75
#: one dense layer: (name, op_type, op_class, category, bound_family)
LAYER = (
    ("RmsNorm", "RmsNorm", "aiv", "compute.norm", "aiv_mte"),
    ("MatMul_qkv", "MatMulV2", "aic", "compute.matmul", "cube"),
    ("FusedInferAttentionScore", "FusedInferAttentionScore", "mix_cv", "attention.flash_score", "vector"),
    ("MatMul_o", "MatMulV2", "aic", "compute.matmul", "cube"),
    ("RmsNorm", "RmsNorm", "aiv", "compute.norm", "aiv_mte"),
    ("MatMul_up", "MatMulV2", "aic", "compute.matmul", "cube"),
    ("Swiglu", "SwiGlu", "aiv", "compute.activation", "vector"),
    ("MatMul_down", "MatMulV2", "aic", "compute.matmul", "cube"),
)
LAYERS = 2
#: one MoE layer of an expert-parallel run, in the same shape as LAYER
MOE_LAYER = (
    ("MoeDistributeDispatch", "MoeDistributeDispatch", "aiv", "moe.dispatch", "aiv_mte"),
    ("GroupedMatmul_up", "GroupedMatmul", "mix_cv", "moe.grouped_matmul", "cube"),
    ("GroupedMatmul_down", "GroupedMatmul", "mix_cv", "moe.grouped_matmul", "cube"),
    ("MoeDistributeCombine", "MoeDistributeCombine", "aiv", "moe.combine", "aiv_mte"),
)


@dataclass
class Cluster:
    """What was written: per (rank, step) the kernels and the allreduce, per rank the source."""

    ranks: int
    steps: tuple[int, ...]
    run: str = "run"
    run_id: int | None = None
    #: per rank, the input that answers its kernels (the rank db, else kernel_details.csv)
    sources: dict[int, int] = field(default_factory=dict)
    #: per rank, the text export's inputs (kernel_details_csv, trace_json) when built with text_export
    text_sources: dict[int, dict[str, int]] = field(default_factory=dict)
    kernels: dict[tuple[int, int], list[dict]] = field(default_factory=dict)
    #: per (rank, step) the allreduce that answers: the COMMUNICATION_OP row, else the HCCL kernel row
    ops: dict[tuple[int, int], dict] = field(default_factory=dict)
    launches: dict[tuple[int, int], list[dict]] = field(default_factory=dict)
    peaks: dict[int, dict] = field(default_factory=dict)
    allocations: dict[int, dict] = field(default_factory=dict)


def build(conn, ranks: int = 8, steps: tuple[int, ...] = (1, 2), *, run: str = "run", rank_db: bool = True,
          text_export: bool = False, slow_rank=None, slow_collective=None, host_gap_rank=None, dummy_rank=None,
          dp_rank=None, memory_rank=None, moe=False, ep_rank=None, compute_scale=None,
          collective_groups=None) -> Cluster:
    """Write the cluster into ``conn`` (a migrated warehouse) as run ``run``; return what was written."""
    assert rank_db or text_export, "a rank needs an input"
    cluster = Cluster(ranks, steps, run)
    with rows.bound(conn):
        cluster.run_id = rows.run_id(run)
        for rank in range(ranks):
            if rank_db:
                cluster.sources[rank] = rows.SourceFactory(
                    kind="rank_db", rank_id=rank, device_id=rank, host_name="node0", run_id=cluster.run_id,
                    path=f"/{run}/rank{rank}/profiler_{rank}.db")["id"]
            if text_export:
                cluster.text_sources[rank] = {
                    kind: rows.SourceFactory(kind=kind, rank_id=rank, run_id=cluster.run_id,
                                             path=f"/{run}/rank{rank}/ASCEND_PROFILER_OUTPUT/{name}")["id"]
                    for kind, name in (("kernel_details_csv", "kernel_details.csv"),
                                       ("trace_json", "trace_view.json"))}
                cluster.sources.setdefault(rank, cluster.text_sources[rank]["kernel_details_csv"])
        for step in steps:
            arrivals = {rank: _compute(cluster, rank, step, slow_rank, host_gap_rank, dummy_rank, dp_rank, rank_db,
                                       moe or ep_rank is not None, ep_rank, (compute_scale or {}).get(rank, 1.0))
                        for rank in range(ranks)}
            for members in collective_groups or [list(range(ranks))]:
                _allreduce(cluster, step, {rank: arrivals[rank] for rank in members}, slow_collective, rank_db,
                           f"group_{members[0]}" if collective_groups else "group_a")
        if rank_db:
            for rank in range(ranks):
                _memory(cluster, rank, 60 * GIB if rank == memory_rank else 20 * GIB)
    return cluster


def _compute(cluster: Cluster, rank: int, step: int, slow_rank, host_gap_rank, dummy_rank, dp_rank,
             rank_db: bool, moe: bool, ep_rank, scale: float = 1.0) -> int:
    """The step's kernels of one rank, each with its launch; return when the rank is done."""
    start = step * STEP_NS
    text = cluster.text_sources.get(rank)
    # the step rows: the rank db's, and the trace's of the text export
    timelines = ([cluster.sources[rank]] if rank_db else []) + ([text["trace_json"]] if text else [])
    for source_id in timelines:
        rows.StepFactory(rank_id=rank, step_id=step, start_ns=start, end_ns=start + STEP_NS, source_id=source_id)
    ts = start + HEAD_NS
    kernels, launches = [], []
    for name, op_type, op_class, category, family in LAYER * LAYERS + (MOE_LAYER if moe else ()):
        if rank == dummy_rank and category != "compute.norm":
            continue
        dur = KERNEL_NS * (1.5 if rank == slow_rank else 1.0) * scale
        shapes = "2048,1024;1024,1024"
        if op_type == "MatMulV2" and rank == dp_rank:
            dur, shapes = dur * 1.25, "4096,1024;1024,1024"
        if op_type == "GroupedMatmul" and rank == ep_rank:
            dur, shapes = dur * EP_TOKENS, f"{int(2048 * EP_TOKENS)},1024;1024,1024"
        if op_type == "MoeDistributeCombine" and ep_rank not in (None, rank):
            dur += 2 * KERNEL_NS * (EP_TOKENS - 1)  # waits for the overloaded rank's two grouped matmuls
        launch_ts = ts - 30_000
        if rank == host_gap_rank and category.startswith("attention"):
            launch_ts = ts + 10_000  # the host launches only once the device has gone idle
            ts += GAP_NS
        if rank_db:
            launches.append(rows.CannApiFactory(rank_id=rank, source_id=cluster.sources[rank], ts=launch_ts,
                                                dur=10_000, name=f"aclnn{op_type}", type="acl"))
        kernel = dict(rank_id=rank, device_id=rank, name=name, op_type=op_type, op_class=op_class, category=category,
                      bound_family=family, bound_stage="mac" if family == "cube" else "vec", ts=ts, dur=int(dur),
                      input_shapes=shapes)
        written = rows.KernelFactory(source_id=cluster.sources[rank], **kernel)
        if rank_db and text:  # the same kernel in kernel_details.csv, outranked by the rank db
            rows.KernelFactory(source_id=text["kernel_details_csv"], **kernel)
        kernels.append(written)
        ts += int(dur) + SPACING_NS
    cluster.kernels[rank, step] = kernels
    cluster.launches[rank, step] = launches
    return ts


def _allreduce(cluster: Cluster, step: int, arrivals: dict[int, int], slow_collective, rank_db: bool,
               group_name: str) -> None:
    """One allreduce per rank of a group: every rank ends TRANSFER_NS after the group's last arrival (plus a
    planted delay)."""
    last = max(arrivals.values())
    for rank, arrival in arrivals.items():
        late = LATE_NS if slow_collective == (step, rank) else 0
        end = last + TRANSFER_NS + late
        name = f"hcom_allReduce__{step}_0_1"
        text = cluster.text_sources.get(rank)
        if text:  # kernel_details.csv lists the HCCL operator as a kernel row
            cluster.ops[rank, step] = rows.KernelFactory(
                rank_id=rank, device_id=rank, source_id=text["kernel_details_csv"], name=name,
                op_type="hcom_allReduce_", op_class="communication", category="communication", task_type="HCCL",
                accelerator_core="HCCL", ts=arrival, dur=end - arrival)
        if not rank_db:
            continue
        source_id = cluster.sources[rank]
        op = rows.CommunicationOpFactory(
            rank_id=rank, source_id=source_id, name=name, op_type="hcom_allReduce_",
            ts=arrival, dur=end - arrival, op_id=step, rank_size=len(arrivals), group_name=group_name,
        )
        thread = rows.ThreadFactory(process=rows.ProcessFactory(source_id=source_id, rank_id=rank),
                                    name=f"Stream {100 + step}")
        wait = rows.SliceFactory(thread_id=thread["id"], ts=arrival, dur=last - arrival + 10_000, name="Notify_Wait",
                                 category="hccl", source_id=source_id)
        rows.CommunicationTaskFactory(rank_id=rank, source_id=source_id, name=op["name"], op_id=step,
                                      task_type="Notify_Wait", slice_id=wait["id"], group_name=group_name)
        cluster.ops[rank, step] = op


def place(conn, cluster: Cluster, groups: dict[str, list[list[int]]]) -> None:
    """Give every rank of ``cluster`` the profiler_metadata.json input torch_npu writes beside it,
    its ``parallel_group_info`` naming each group of ``groups`` (name -> the groups' global
    ranks) the rank belongs to, keyed by a communicator name as torch_npu keys them."""
    with rows.bound(conn):
        for rank in range(cluster.ranks):
            info = parallel_group_info(rank, groups)
            source_id = rows.SourceFactory(kind="profiler_metadata_json", rank_id=rank, run_id=cluster.run_id,
                                           path=f"/{cluster.run}/rank{rank}/profiler_metadata.json")["id"]
            rows.RunMetadataFactory(source_id=source_id, rank_id=rank, name="parallel_group_info",
                                    value=json.dumps(info))


def _memory(cluster: Cluster, rank: int, peak: int) -> None:
    """Three reserved-memory samples per rank, the middle one the peak, and what is alive there."""
    source_id = cluster.sources[rank]
    base = cluster.steps[0] * STEP_NS
    for offset, reserved in ((0, 10 * GIB), (1_000_000, peak), (2_000_000, 12 * GIB)):
        sample = rows.MemoryRecordFactory(rank_id=rank, source_id=source_id, ts=base + offset,
                                          total_reserved_bytes=reserved, total_allocated_bytes=reserved - GIB)
        if reserved == peak:
            cluster.peaks[rank] = sample
    cluster.allocations[rank] = rows.OpMemoryFactory(
        rank_id=rank, source_id=source_id, name="aten::empty", size_bytes=8 * GIB, allocation_ts=base + 500_000,
        release_ts=base + 1_500_000, dur=1_000_000)
