-- title: Layers and blocks of each step
-- description: The layers each step's kernel sequence shows (seed 004 section 5: anchors attention, moe,
--     else matmul; layer count observed, never assumed) and their blocks (attention + ffn, attention +
--     moe, moe alone, matmul), one row per block, with the kernel time of the block (block_ns) and the
--     layer's attention family (csa, hca, dsa, mla, linear, gqa_or_mha, attn; +kvc) resolved from the
--     categories of its attention block's kernels. From the layer_block table `warehouse analyze` writes
--     (warehouse/analysis/step_classes.py).
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- param step_id (integer, default null): Only this step; every step when null.
-- column run_id: Run.
-- column rank_id: Rank.
-- column step_id: Step (derived steps: 1, 2, ... cut at selection kernels; -1: a whole capture).
-- column is_derived: 1 when the step was cut at selection kernels (no step markers).
-- column layer_index: Layer in the step, from 0.
-- column layer_kind: dense, moe, companion (moe without attention) or matmul (anchored by matmuls alone).
-- column start_ns: Layer start (its first kernel's start) in ns.
-- column end_ns: Layer end (its kernels' latest end) in ns.
-- column block_index: Block in the layer, from 0.
-- column block_kind: attention, ffn, moe or matmul.
-- column block_start_ns: Block start in ns.
-- column block_end_ns: Block end in ns.
-- column block_ns: Kernel time of the block (sum of its kernels' durations) in ns.
-- column kernel_count: Kernels in the block.
-- column attention_family: The layer's attention family; null for a layer without attention.
-- column first_kernel_id: First kernel of the block (kernel.id).
-- column last_kernel_id: Last kernel of the block (kernel.id).
select
    run_id, rank_id, step_id, is_derived, layer_index, layer_kind, layer_start_ns as start_ns, layer_end_ns as end_ns,
    block_index, block_kind, start_ns as block_start_ns, end_ns as block_end_ns, block_ns, kernel_count,
    attention_family, first_kernel_id, last_kernel_id
from layer_block
where
    (:run_id is null or run_id = :run_id)
    and (:rank_id is null or rank_id = :rank_id)
    and (:step_id is null or step_id = :step_id)
order by run_id, rank_id, step_id, layer_index, block_index
