"""The clock every synthetic rank of a cluster follows, whichever export writes it.

A data-parallel training loop, one plan for the rank db generator (``rank_db.py``) and the
text-export writers (``trace_json.py``, ``kernel_details.py``), so that their kernels, steps
and collectives line up across ranks and exports as a real cluster's do:

- every step starts on all ranks together (the data loader's host-side barrier), STEP_NS apart;
- a step runs UNITS_PER_STEP operators ("units"), one kernel each, UNIT_NS apart on a healthy
  rank (the matrix multiplications and the attention take 8.5 us, the vector kernels 4-5 us);
  the slow rank's device runs each 1.5x longer, so its units are 1.5x further apart;
- after COLLECTIVE_AT units every rank starts the step's allReduce; it ends on every rank
  SYNC_NS + TRANSFER_NS after the slow rank arrived: the healthy ranks wait for it (their
  Notify Wait), then the rest of the step runs; so the slow rank ends its step last;
- on HOST_GAP_RANK in HOST_GAP_STEP the host launches nothing for HOST_GAP_NS before unit
  HOST_GAP_UNIT (host-bound): that rank then waits less in the allReduce, its step ends on time.

Nothing here is random: the same call gives the same plan.
"""

from __future__ import annotations

from dataclasses import dataclass

T0 = 1_736_410_576_000_000_000
UNIT_NS = 10_000
UNITS_PER_STEP = 125
STEP_NS = 2_000_000
COLLECTIVE_AT = 32
SYNC_NS = 2_000
TRANSFER_NS = 50_000
#: the first unit after the allReduce starts this long after it ended (the host's launch)
RESUME_NS = 2_000
#: a unit's kernel starts this long after the unit (the host's dispatch and launch)
KERNEL_OFFSET_NS = 2_500
SLOW_RANK = 3
SLOWDOWN = 1.5
HOST_GAP_RANK, HOST_GAP_STEP, HOST_GAP_UNIT, HOST_GAP_NS = 1, 5, 16, 120_000
#: (framework op, kernel op type): one per unit in turn
OPS = [
    ("aten::mm", "MatMulV2"), ("aten::add", "Add"), ("aten::mul", "Mul"), ("aten::softmax", "SoftmaxV2"),
    ("aten::layer_norm", "LayerNormV3"), ("aten::gelu", "Gelu"), ("aten::copy_", "TransData"),
    ("aten::bmm", "BatchMatMulV2"), ("npu_fusion_attention", "FlashAttentionScore"), ("aten::silu", "Swish"),
    ("aten::cat", "ConcatD"), ("aten::transpose", "Transpose"), ("aten::sum", "ReduceSum"), ("aten::div", "RealDiv"),
    ("aten::rsqrt", "Rsqrt"), ("aten::embedding", "GatherV2"), ("npu_rms_norm", "RmsNorm"),
    ("npu_rotary_mul", "RotaryMul"), ("aten::sub", "Sub"), ("aten::index", "Index"),
]

#: the matrix unit's kernels (AI Core): the longest; the others run on the vector cores
CUBE_OPS = ("MatMulV2", "BatchMatMulV2", "FlashAttentionScore")


@dataclass(frozen=True)
class Unit:
    """One operator of the loop: host call at ``start_ns``, its kernel at ``kernel_start_ns``."""

    index: int
    step_id: int
    position: int
    start_ns: int
    op: int
    vector: bool
    kernel_ns: int

    @property
    def kernel_start_ns(self) -> int:
        return self.start_ns + KERNEL_OFFSET_NS

    @property
    def kernel_name(self) -> str:
        return f"{OPS[self.op][1]}_{self.op}"


@dataclass(frozen=True)
class Step:
    """One step of a rank: its window and its allReduce (arrive, wait until wait_end_ns, transfer)."""

    step_id: int
    start_ns: int
    end_ns: int
    collective_start_ns: int
    wait_end_ns: int
    collective_end_ns: int

    @property
    def collective_name(self) -> str:
        """The same on every rank, as HCCL names one instance (hcom_allReduce__<n>_0_1)."""
        return f"hcom_allReduce__{400 + self.step_id}_0_1"


def slowdown(rank: int) -> float:
    """How much longer this rank's kernels run than a healthy rank's."""
    return SLOWDOWN if rank == SLOW_RANK else 1.0


def host_gap_ns(rank: int, step_id: int) -> int:
    """The host-bound idle time before unit HOST_GAP_UNIT of this rank's step (0 but once)."""
    return HOST_GAP_NS if (rank, step_id) == (HOST_GAP_RANK, HOST_GAP_STEP) else 0


def rank_plan(rank: int, units: int) -> tuple[list[Step], list[Unit]]:
    """The steps and units of ``rank`` running ``units`` operators (the last step may be short)."""
    slow = slowdown(rank)
    unit_ns = round(UNIT_NS * slow)
    steps: list[Step] = []
    plan: list[Unit] = []
    for index in range(units):
        step_index, position = divmod(index, UNITS_PER_STEP)
        step_id = step_index + 1
        start = T0 + step_index * STEP_NS
        if position == 0:
            arrive = start + COLLECTIVE_AT * unit_ns + host_gap_ns(rank, step_id)
            # the slow rank arrives last: the allReduce ends on every rank after it arrived
            wait_end = start + round(COLLECTIVE_AT * UNIT_NS * SLOWDOWN) + SYNC_NS
            steps.append(Step(step_id, start, start + STEP_NS, arrive, wait_end, wait_end + TRANSFER_NS))
        step = steps[-1]
        if position < COLLECTIVE_AT:
            offset = position * unit_ns + (host_gap_ns(rank, step_id) if position >= HOST_GAP_UNIT else 0)
            unit_start = start + offset
        else:
            unit_start = step.collective_end_ns + RESUME_NS + (position - COLLECTIVE_AT) * unit_ns
        op = index % len(OPS)
        cube = OPS[op][1] in CUBE_OPS
        base_ns = 8500 if cube else 4000 + op * 37 % 1000
        plan.append(Unit(index, step_id, position, unit_start, op, not cube, round((base_ns + index % 5 * 100) * slow)))
    return steps, plan
