-- What warehouse/analysis/step_classes.py reads (seed 004 sections 5 and 7). Two statements, run in order.

-- 1. The step windows of every run and rank (step_window: the markers' steps; -1, the whole capture,
-- for a rank without markers). The whole capture is a step only while some kernel is in it: when
-- every kernel of a rank without markers carries its own Step Id, those named steps are its steps,
-- and an empty -1 would list the same wall time again as a step without kernels.
SELECT w.run_id, w.rank_id, w.step_id, w.start_ns, w.end_ns
FROM step_window AS w
WHERE w.rank_id IS NOT NULL
    AND (w.step_id <> -1 OR EXISTS (
        SELECT 1 FROM step_kernel AS sk WHERE sk.run_id = w.run_id AND sk.rank_id = w.rank_id AND sk.step_id = -1
    ));

-- 2. Their kernels in device order (start, then kernel id), each with its shape, its category's role
-- (kernel signatures), its duration and its pipeline family times (0 when absent).
WITH roles AS (
    SELECT category, min(role) AS role
    FROM kernel_signature
    GROUP BY category
)
SELECT
    sk.run_id, sk.rank_id, sk.step_id, sk.kernel_id, sk.name, sk.input_shapes, sk.category, r.role, sk.ts, coalesce(sk.dur, 0),
    coalesce(k.cube_ns, 0), coalesce(k.vector_ns, 0), coalesce(k.aic_mte_ns, 0), coalesce(k.aiv_mte_ns, 0),
    coalesce(k.scalar_ns, 0)
FROM step_kernel AS sk
JOIN kernel AS k ON k.id = sk.kernel_id
LEFT JOIN roles AS r ON r.category = sk.category
ORDER BY sk.run_id, sk.rank_id, sk.step_id, sk.ts, sk.kernel_id;
