"""The step breakdown per rank and step: the profiler's buckets from step_time, layers from the kernels."""

from tests.diagnosis import cluster as synth
from warehouse.model.classify import load_rules
from warehouse.analysis.steps import step_breakdown


def test_step_breakdown_of_a_synthetic_rank(warehouse_db):
    load_rules(warehouse_db)  # the kernel signatures give the roles the segmentation reads
    synth.build(warehouse_db, ranks=2, steps=(1,), slow_rank=1)
    fast, slow = step_breakdown(warehouse_db)
    kernels = 16 * synth.KERNEL_NS
    busy = kernels + 15 * synth.SPACING_NS
    assert (fast.rank_id, fast.step_id, fast.computing_ns, fast.basis) == (0, 1, kernels, "derived")
    # rank 0 waits for rank 1 in the allreduce: from its arrival to 200 us after rank 1's
    allreduce = (slow.computing_ns + 15 * synth.SPACING_NS - busy) + synth.TRANSFER_NS
    assert (fast.communication_not_overlapped_ns, fast.overlapped_ns, fast.communication_ns) == (allreduce, 0, allreduce)
    # free: the 15 gaps between kernels and the one before the allreduce; preparing: step start -> first kernel
    assert (fast.free_ns, fast.preparing_ns) == (16 * synth.SPACING_NS, synth.HEAD_NS)
    span = busy + synth.SPACING_NS + allreduce
    assert (fast.stage_ns, fast.bubble_ns, fast.duration_ns) == (span, 0, synth.HEAD_NS + span)
    assert [(layer.kind, layer.first, layer.last) for layer in fast.layers] == [("dense", 0, 7), ("dense", 8, 15)]
    assert [[b.kind for b in layer.blocks] for layer in fast.layers] == [["attention", "ffn"]] * 2
    assert (fast.head_ns, fast.main_ns) == (synth.HEAD_NS, busy)
    assert fast.tail_ns == synth.STEP_NS - synth.HEAD_NS - busy
    assert fast.block_ns == {"attention": 8 * synth.KERNEL_NS, "ffn": 8 * synth.KERNEL_NS}
    assert slow.computing_ns == 16 * 150_000 and slow.block_ns["attention"] == 8 * 150_000


def test_without_attention_or_moe_kernels_no_layers_are_claimed(warehouse_db):
    synth.build(warehouse_db, ranks=1, steps=(1,))  # no signature rows loaded: no role is known
    [step] = step_breakdown(warehouse_db)
    assert step.layers == [] and (step.head_ns, step.main_ns, step.tail_ns) == (None, None, None)
    assert step.computing_ns == 16 * synth.KERNEL_NS
