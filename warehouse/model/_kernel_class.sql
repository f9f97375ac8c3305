-- Helper (included by classify.sql): the kernel classification of seed 004 sections 4 and 6, as the CTEs
-- a statement puts first. The rows classified are KERNEL_ROW's, a SELECT classify.py puts in: a source's
-- rows of kernel (classify_source.sql), or a kernel CSV's records as they are copied into kernel
-- (warehouse/sources/kit/kernel_csv.py). It gives at least the columns the rules read: origin, slice_id,
-- name, op_type, accelerator_core, task_type, aiv_ns and the nine pipeline sub-stage times (aic_mac_ns,
-- aic_fixpipe_ns, aic_mte1_ns, aic_mte2_ns, aic_scalar_ns, aiv_vec_ns, aiv_mte2_ns, aiv_mte3_ns,
-- aiv_scalar_ns), and none named as a class column. The CTEs a statement reads: kernel_row, and
-- kernel_class (the rows with their class columns: op_class, category, cube_ns, vector_ns, aic_mte_ns,
-- aiv_mte_ns, scalar_ns, dominant_core, bound_stage, bound_family), which reads temp._kernel_key, what
-- classify.sql decides once per distinct name, type, core and task type of the rows.
-- op_class comes from the first of the Accelerator Core, the task type and (rank db kernels) the TASK
-- type of the kernel's timeline slice that kernel_core_class names; 'N/A' and '' count as not given, and a
-- kernel given none of the three takes the class of the empty core (a level-0 export).
kernel_row AS (
    {KERNEL_ROW}
),

-- Every pipeline sub-stage as a number (0 when absent), and the TASK type of a rank db kernel's slice.
src AS (
    SELECT
        kernel_row.*,
        CASE WHEN origin = 'rank_db' THEN (
            SELECT nullif(nullif(upper(trim(t.value)), 'N/A'), '')
            FROM _slice AS sl JOIN string AS t ON t.id = sl.category_id
            WHERE sl.id = kernel_row.slice_id
        ) END AS timeline_key,
        coalesce(aic_mac_ns, 0) AS mac,
        coalesce(aic_fixpipe_ns, 0) AS fixpipe,
        coalesce(aic_mte1_ns, 0) AS aic_mte1,
        coalesce(aic_mte2_ns, 0) AS aic_mte2,
        coalesce(aic_scalar_ns, 0) AS aic_scalar,
        coalesce(aiv_vec_ns, 0) AS vec,
        coalesce(aiv_mte2_ns, 0) AS aiv_mte2,
        coalesce(aiv_mte3_ns, 0) AS aiv_mte3,
        coalesce(aiv_scalar_ns, 0) AS aiv_scalar,
        aic_mac_ns IS NOT NULL OR aic_fixpipe_ns IS NOT NULL AS has_cube,
        aiv_vec_ns IS NOT NULL AS has_vector,
        aic_mte1_ns IS NOT NULL OR aic_mte2_ns IS NOT NULL AS has_aic_mte,
        aiv_mte2_ns IS NOT NULL OR aiv_mte3_ns IS NOT NULL AS has_aiv_mte,
        aic_scalar_ns IS NOT NULL OR aiv_scalar_ns IS NOT NULL AS has_scalar
    FROM kernel_row
),

-- Families (section 6): AIC and AIV MTE stay apart; NULL when none of a family's stages is given.
families AS (
    SELECT
        src.*,
        k.category,
        k.role,
        coalesce(k.core_class, timeline.op_class) AS core_class,
        -- the class of a kernel whose input names no core nor task type (level-0 exports)
        CASE WHEN NOT k.keyed AND timeline_key IS NULL THEN unnamed.op_class END AS unnamed_class,
        CASE WHEN has_cube THEN mac + fixpipe END AS cube_ns,
        CASE WHEN has_vector THEN vec END AS vector_ns,
        CASE WHEN has_aic_mte THEN aic_mte1 + aic_mte2 END AS aic_mte_ns,
        CASE WHEN has_aiv_mte THEN aiv_mte2 + aiv_mte3 END AS aiv_mte_ns,
        CASE WHEN has_scalar THEN aic_scalar + aiv_scalar END AS scalar_ns,
        mac + fixpipe + aic_mte1 + aic_mte2 + aic_scalar AS aic_side,
        vec + aiv_mte2 + aiv_mte3 + aiv_scalar AS aiv_side
    FROM src
    LEFT JOIN temp._kernel_key AS k
        ON k.name IS src.name AND k.op_type IS src.op_type AND k.accelerator_core IS src.accelerator_core
        AND k.task_type IS src.task_type
    LEFT JOIN kernel_core_class AS timeline ON timeline.core = src.timeline_key
    LEFT JOIN kernel_core_class AS unnamed ON unnamed.core = ''
),

-- Class (section 4), dominant core, bound stage and family; ties go to the earlier stage in the lists below.
kernel_class AS (
    SELECT
        families.*,
        CASE
            WHEN coalesce(core_class, CASE WHEN role = 'communication' THEN 'communication' END) = 'communication'
                THEN CASE WHEN coalesce(aiv_ns, 0) > 0 OR aiv_side > 0 THEN 'mix_comm_aiv' ELSE 'communication' END
            ELSE coalesce(core_class, unnamed_class)
        END AS op_class,
        CASE WHEN aic_side + aiv_side = 0 THEN NULL WHEN aic_side > aiv_side THEN 'aic' ELSE 'aiv' END AS dominant_core,
        -- the stage and the family with the most time (CASE <it> WHEN ...: SQLite computes it once a row,
        -- where each use of a column of the CTE above would compute it again)
        CASE max(mac, fixpipe, aic_mte1, aic_mte2, aic_scalar, vec, aiv_mte2, aiv_mte3, aiv_scalar)
            WHEN 0 THEN NULL
            WHEN mac THEN 'mac'
            WHEN fixpipe THEN 'fixpipe'
            WHEN aic_mte1 THEN 'aic_mte1'
            WHEN aic_mte2 THEN 'aic_mte2'
            WHEN aic_scalar THEN 'aic_scalar'
            WHEN vec THEN 'vec'
            WHEN aiv_mte2 THEN 'aiv_mte2'
            WHEN aiv_mte3 THEN 'aiv_mte3'
            ELSE 'aiv_scalar'
        END AS bound_stage,
        CASE max(mac + fixpipe, vec, aic_mte1 + aic_mte2, aiv_mte2 + aiv_mte3, aic_scalar + aiv_scalar)
            WHEN 0 THEN NULL
            WHEN mac + fixpipe THEN 'cube'
            WHEN vec THEN 'vector'
            WHEN aic_mte1 + aic_mte2 THEN 'aic_mte'
            WHEN aiv_mte2 + aiv_mte3 THEN 'aiv_mte'
            ELSE 'scalar'
        END AS bound_family
    FROM families
)
