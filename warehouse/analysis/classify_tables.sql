-- The rule tables classify.sql reads, filled from the versioned data files beside it.
-- Temporary (per connection) until the text-export migration makes them part of the warehouse.

-- Kernel name patterns (kernel_signatures.csv): the first matching line gives the category.
CREATE TEMP TABLE IF NOT EXISTS kernel_signature (
    -- Line order in the file: lower wins when several patterns match.
    position INTEGER PRIMARY KEY,
    -- Lower-case text looked for in the folded name, type and core.
    pattern TEXT NOT NULL,
    -- Category given to matching kernels (kernel.category).
    category TEXT NOT NULL,
    -- Coarse role (communication, attention, moe, matmul, selection, compute, data).
    role TEXT NOT NULL,
    -- Version of the file the row came from.
    version INTEGER NOT NULL
);

-- Accelerator Core / task type values and the op_class they give (kernel_core_classes.csv).
CREATE TEMP TABLE IF NOT EXISTS kernel_core_class (
    -- The value, upper-cased.
    core TEXT PRIMARY KEY,
    -- aic, aiv, mix_cv, communication or aicpu.
    op_class TEXT NOT NULL,
    -- Version of the file the row came from.
    version INTEGER NOT NULL
);
