-- Seed 004 sections 5, 7 and 8 (issue 18 item 1): kernel categories as a set, the observed layers
-- and blocks of every step with their attention family, and shape-strict step classes.
-- kernel.category stays each kernel's primary category (the first matching signature); a kernel may
-- have further categories (attention.mla.preprocess is attention.mla too), which
-- warehouse/model/kernel_category_sets.csv lists per primary category. The set therefore follows
-- from the primary category alone: kernel_category is a view over the rules, exact after any
-- reclassification and costing no storage per kernel.
-- step_class and layer_block are written by `warehouse analyze` (warehouse/analysis/step_classes.py),
-- replaced whole at each analysis, like the findings.

-- Further categories of the kernels of a primary category (warehouse/model/kernel_category_sets.csv),
-- reloaded with the kernel signatures whenever the file changed.
CREATE TABLE kernel_category_member (
    -- A primary kernel category (kernel.category), e.g. attention.mla.preprocess.
    category TEXT NOT NULL,
    -- A further category every kernel of that primary category has, e.g. attention.mla.
    member TEXT NOT NULL,
    -- Version of the file the row came from.
    version INTEGER NOT NULL,
    PRIMARY KEY (category, member)
);

-- Every category of every classified kernel, one row each: its primary category (kernel.category) and
-- the further ones kernel_category_member gives it. Columns: kernel_id (kernel.id), category.
CREATE VIEW kernel_category AS
SELECT id AS kernel_id, category FROM kernel WHERE category IS NOT NULL
UNION ALL
SELECT k.id AS kernel_id, m.member AS category
FROM kernel AS k
JOIN kernel_category_member AS m ON m.category = k.category;

-- One row per run, rank and step the analysis saw: the step's wall time, its observed structure and
-- its shape-strict class (seed 004 section 7). Steps are the step markers' windows; a rank without
-- step markers is cut after each selection kernel (argmax, top-k/top-p sampling: the end of a decode
-- step), its steps numbered from 1 and marked derived; without a selection kernel either it is one
-- step, -1, the whole capture.
CREATE TABLE step_class (
    -- Profiling run (run.run_id).
    run_id INTEGER NOT NULL,
    -- Rank.
    rank_id INTEGER,
    -- Step number: the marker's, or for derived steps 1, 2, ... in time order; -1 for a whole capture.
    step_id INTEGER NOT NULL,
    -- 1 when the step was cut at selection kernels (no step markers), else 0.
    is_derived INTEGER NOT NULL,
    -- Start in ns: the step marker's start, or a derived step's first kernel start.
    start_ns INTEGER,
    -- End in ns: the step marker's end, or a derived step's last kernel end.
    end_ns INTEGER,
    -- Wall time of the step in ns (end_ns - start_ns).
    wall_ns INTEGER,
    -- Class: step_<digest>, the BLAKE2b (8 bytes, hex) of the JSON [structure, 'step', [[name, shape], ...]] of
    -- the step's kernels in device order; step_unknown_shape_<digest> when no kernel has a shape, the digest
    -- then over the step's own identity too, so such steps are never merged.
    step_class TEXT NOT NULL,
    -- Observed layers, consecutive equal ones counted: e.g. '2x dense[attention:gqa_or_mha+ffn]'; 'no_layers'.
    structure TEXT NOT NULL,
    -- Number of kernels in the step.
    kernel_count INTEGER NOT NULL,
    -- Sum of the step's kernels' pipeline family cube (kernel.cube_ns), in ns.
    cube_ns INTEGER NOT NULL,
    -- Sum of the step's kernels' vector_ns, in ns.
    vector_ns INTEGER NOT NULL,
    -- Sum of the step's kernels' aic_mte_ns, in ns.
    aic_mte_ns INTEGER NOT NULL,
    -- Sum of the step's kernels' aiv_mte_ns, in ns.
    aiv_mte_ns INTEGER NOT NULL,
    -- Sum of the step's kernels' scalar_ns, in ns.
    scalar_ns INTEGER NOT NULL,
    -- First kernel of the step in device order (kernel.id).
    first_kernel_id INTEGER,
    -- Last kernel of the step in device order (kernel.id).
    last_kernel_id INTEGER,
    PRIMARY KEY (run_id, rank_id, step_id)
);

-- One row per block of each observed layer of each step (seed 004 section 5, warehouse/analysis/segment.py):
-- the layer's place and time, the block's kind, its kernel time and the layer's attention family.
CREATE TABLE layer_block (
    -- Profiling run (run.run_id).
    run_id INTEGER NOT NULL,
    -- Rank.
    rank_id INTEGER,
    -- Step (step_class.step_id).
    step_id INTEGER NOT NULL,
    -- 1 when the step was cut at selection kernels (step_class.is_derived), else 0.
    is_derived INTEGER NOT NULL,
    -- Layer index in the step, from 0 (an observation, not a model's layer number).
    layer_index INTEGER NOT NULL,
    -- dense (attention, maybe ffn), moe (attention + moe), companion (moe only) or matmul (anchored by
    -- matmuls alone: the step has no attention or moe kernel).
    layer_kind TEXT NOT NULL,
    -- Start of the layer's first kernel in ns.
    layer_start_ns INTEGER NOT NULL,
    -- Latest end of the layer's kernels in ns.
    layer_end_ns INTEGER NOT NULL,
    -- Block index in the layer, from 0.
    block_index INTEGER NOT NULL,
    -- attention, ffn, moe or matmul.
    block_kind TEXT NOT NULL,
    -- Start of the block's first kernel in ns.
    start_ns INTEGER NOT NULL,
    -- Latest end of the block's kernels in ns.
    end_ns INTEGER NOT NULL,
    -- Kernel time of the block: the sum of its kernels' durations, in ns.
    block_ns INTEGER NOT NULL,
    -- Number of kernels in the block.
    kernel_count INTEGER NOT NULL,
    -- The layer's attention family (warehouse/model/attention_families.csv: csa, hca, dsa, mla, linear,
    -- gqa_or_mha, attn, with '+kvc' for KV pruning) from the categories of its attention block; NULL without one.
    attention_family TEXT,
    -- First kernel of the block (kernel.id).
    first_kernel_id INTEGER NOT NULL,
    -- Last kernel of the block (kernel.id).
    last_kernel_id INTEGER NOT NULL,
    PRIMARY KEY (run_id, rank_id, step_id, layer_index, block_index)
);
