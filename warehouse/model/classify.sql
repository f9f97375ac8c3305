-- Classify the kernel rows of one source (seed 004 sections 4 and 6). Parameter :source_id.
-- Reads kernel_signature and kernel_core_class (loaded by classify.py). Statements run in order.
-- op_class comes from the first of the Accelerator Core, the task type and (rank db kernels) the TASK
-- type of the kernel's timeline slice that kernel_core_class names; 'N/A' and '' count as not given, and a
-- kernel given none of the three takes the class of the empty core (a level-0 export).

-- The text signatures are matched in: name, type, core and task type, kept apart by char(31).
CREATE TEMP VIEW IF NOT EXISTS _kernel_signature_text AS
SELECT
    kernel.*,
    coalesce(name, '') || char(31) || coalesce(op_type, '') || char(31)
    || coalesce(accelerator_core, '') || char(31) || coalesce(task_type, '') AS signature_text
FROM kernel;

DROP TABLE IF EXISTS temp._kernel_signed;

-- Each distinct text of the source once, with the first signature (file order) whose pattern
-- occurs in it once folded (lower case, no '_', '-', '.', '/', ' '): matched per text, not per row.
CREATE TEMP TABLE _kernel_signed (signature_text TEXT PRIMARY KEY, position INTEGER);

INSERT INTO temp._kernel_signed (signature_text, position)
SELECT
    signature_text,
    (
        SELECT s.position
        FROM kernel_signature AS s
        WHERE instr(
            lower(replace(replace(replace(replace(replace(signature_text, '_', ''), '-', ''), '.', ''), '/', ''), ' ', '')),
            s.pattern
        ) > 0
        ORDER BY s.position
        LIMIT 1
    )
FROM (SELECT DISTINCT signature_text FROM _kernel_signature_text WHERE source_id = :source_id);

-- Classes, families and bounds of every row, in one pass.
WITH
-- The rows of the source, with every pipeline sub-stage as a number (0 when absent).
src AS MATERIALIZED (
    SELECT
        id,
        name,
        op_type,
        accelerator_core,
        task_type,
        nullif(nullif(upper(trim(accelerator_core)), 'N/A'), '') AS core_key,
        nullif(nullif(upper(trim(task_type)), 'N/A'), '') AS task_key,
        CASE WHEN origin = 'rank_db' THEN (
            SELECT nullif(nullif(upper(trim(t.value)), 'N/A'), '')
            FROM _slice AS sl JOIN string AS t ON t.id = sl.category_id
            WHERE sl.id = _kernel_signature_text.slice_id
        ) END AS timeline_key,
        aiv_ns,
        signature_text,
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
    FROM _kernel_signature_text
    WHERE source_id = :source_id
),

-- Families (section 6): AIC and AIV MTE stay apart; NULL when none of a family's stages is given.
families AS (
    SELECT
        src.*,
        sig.category,
        sig.role,
        coalesce(core.op_class, task.op_class, timeline.op_class) AS core_class,
        -- the class of a kernel whose input names no core nor task type (level-0 exports)
        CASE WHEN coalesce(core_key, task_key, timeline_key) IS NULL THEN unnamed.op_class END AS unnamed_class,
        CASE WHEN has_cube THEN mac + fixpipe END AS cube_ns,
        CASE WHEN has_vector THEN vec END AS vector_ns,
        CASE WHEN has_aic_mte THEN aic_mte1 + aic_mte2 END AS aic_mte_ns,
        CASE WHEN has_aiv_mte THEN aiv_mte2 + aiv_mte3 END AS aiv_mte_ns,
        CASE WHEN has_scalar THEN aic_scalar + aiv_scalar END AS scalar_ns,
        mac + fixpipe + aic_mte1 + aic_mte2 + aic_scalar AS aic_side,
        vec + aiv_mte2 + aiv_mte3 + aiv_scalar AS aiv_side,
        max(mac, fixpipe, aic_mte1, aic_mte2, aic_scalar, vec, aiv_mte2, aiv_mte3, aiv_scalar) AS top_stage,
        max(mac + fixpipe, vec, aic_mte1 + aic_mte2, aiv_mte2 + aiv_mte3, aic_scalar + aiv_scalar) AS top_family
    FROM src
    LEFT JOIN temp._kernel_signed AS s ON s.signature_text = src.signature_text
    LEFT JOIN kernel_signature AS sig ON sig.position = s.position
    LEFT JOIN kernel_core_class AS core ON core.core = src.core_key
    LEFT JOIN kernel_core_class AS task ON task.core = src.task_key
    LEFT JOIN kernel_core_class AS timeline ON timeline.core = src.timeline_key
    LEFT JOIN kernel_core_class AS unnamed ON unnamed.core = ''
),

-- Class (section 4), dominant core, bound stage and family; ties go to the earlier stage in the lists below.
final AS (
    SELECT
        id,
        category,
        CASE
            WHEN coalesce(core_class, CASE WHEN role = 'communication' THEN 'communication' END) = 'communication'
                THEN CASE WHEN coalesce(aiv_ns, 0) > 0 OR aiv_side > 0 THEN 'mix_comm_aiv' ELSE 'communication' END
            ELSE coalesce(core_class, unnamed_class)
        END AS op_class,
        cube_ns,
        vector_ns,
        aic_mte_ns,
        aiv_mte_ns,
        scalar_ns,
        CASE WHEN aic_side + aiv_side = 0 THEN NULL WHEN aic_side > aiv_side THEN 'aic' ELSE 'aiv' END AS dominant_core,
        CASE
            WHEN top_stage = 0 THEN NULL
            WHEN mac = top_stage THEN 'mac'
            WHEN fixpipe = top_stage THEN 'fixpipe'
            WHEN aic_mte1 = top_stage THEN 'aic_mte1'
            WHEN aic_mte2 = top_stage THEN 'aic_mte2'
            WHEN aic_scalar = top_stage THEN 'aic_scalar'
            WHEN vec = top_stage THEN 'vec'
            WHEN aiv_mte2 = top_stage THEN 'aiv_mte2'
            WHEN aiv_mte3 = top_stage THEN 'aiv_mte3'
            ELSE 'aiv_scalar'
        END AS bound_stage,
        CASE
            WHEN top_family = 0 THEN NULL
            WHEN mac + fixpipe = top_family THEN 'cube'
            WHEN vec = top_family THEN 'vector'
            WHEN aic_mte1 + aic_mte2 = top_family THEN 'aic_mte'
            WHEN aiv_mte2 + aiv_mte3 = top_family THEN 'aiv_mte'
            ELSE 'scalar'
        END AS bound_family
    FROM families
)

UPDATE kernel
SET
    op_class = final.op_class,
    cube_ns = final.cube_ns,
    vector_ns = final.vector_ns,
    aic_mte_ns = final.aic_mte_ns,
    aiv_mte_ns = final.aiv_mte_ns,
    scalar_ns = final.scalar_ns,
    dominant_core = final.dominant_core,
    bound_stage = final.bound_stage,
    bound_family = final.bound_family,
    category = final.category
FROM final
WHERE kernel.id = final.id;

DROP TABLE temp._kernel_signed;
