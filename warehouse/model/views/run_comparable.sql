-- description: Whether two runs are comparable: one row per ordered pair of runs (both ways). Two
--     runs are comparable when they run the same model on the same kind of device and cluster
--     (README, "Definitions": comparable runs), read from run_signature: (1) the same device kind
--     (NPU or GPU), known for both; (2) the same device type where both name one (a run that names
--     none, e.g. a text export, is not told apart by it); (3) the same cluster size (the stated
--     world size, else the ranks ingested); (4) the same cluster shape where both runs say one
--     (run_shape: each parallel size both state, DP, TP, PP, CP and EP, is the same); (5) the same model: when both runs carry a `model`
--     label (warehouse ingest --label model=NAME) the labels decide, else the kernel sets do: at
--     least half of the two runs' kernels shared (Jaccard index, shared / in either run, of the
--     distinct kernel names, or of the distinct operator types where both runs give types: a
--     new CANN that renames kernels keeps their types; a profiler level that adds types keeps the
--     names). The export kind and the profiler version may differ (a db and a text export of one
--     capture, a new CANN, are what a comparison is for). What run_regression walks back to find a
--     run's baseline and what `warehouse compare` says up front.
-- column run_id: A run.
-- column other_run_id: Another run.
-- column comparable: 1 when the two runs are comparable, else 0.
-- column reason: Why, in words: what they share when comparable, else the first condition that
--     fails (in the order above).
-- column name_overlap: Jaccard index of the two runs' distinct kernel names (0-1); NULL when
--     neither has kernels.
-- column type_overlap: Jaccard index of their distinct operator types (0-1); NULL unless both give
--     types.
-- column shared_kernel_names: Kernel names in both runs.
WITH labelled AS (
    SELECT
        s.*, l.value AS model, sh.dp_size, sh.tp_size, sh.pp_size, sh.cp_size, sh.ep_size,
        -- the sizes the run states, for a person
        CASE WHEN sh.shape_known = 1 THEN
            trim(coalesce('DP ' || sh.dp_size || ' ', '') || coalesce('TP ' || sh.tp_size || ' ', '')
                || coalesce('PP ' || sh.pp_size || ' ', '') || coalesce('CP ' || sh.cp_size || ' ', '')
                || coalesce('EP ' || sh.ep_size, ''))
        END AS shape
    FROM run_signature AS s
    LEFT JOIN run_label AS l ON l.run_id = s.run_id AND l.key = 'model'
    LEFT JOIN run_shape AS sh ON sh.run_id = s.run_id
),

names AS (
    SELECT DISTINCT run_id, name FROM kernel_answer WHERE name IS NOT NULL
),

types AS (
    SELECT DISTINCT run_id, op_type FROM kernel_answer WHERE op_type IS NOT NULL
),

shared_names AS (
    SELECT a.run_id, b.run_id AS other_run_id, count(*) AS shared
    FROM names AS a
    JOIN names AS b ON b.name = a.name AND b.run_id <> a.run_id
    GROUP BY a.run_id, b.run_id
),

shared_types AS (
    SELECT a.run_id, b.run_id AS other_run_id, count(*) AS shared
    FROM types AS a
    JOIN types AS b ON b.op_type = a.op_type AND b.run_id <> a.run_id
    GROUP BY a.run_id, b.run_id
),

pairs AS (
    SELECT
        a.run_id, b.run_id AS other_run_id,
        a.device_kind, b.device_kind AS other_device_kind,
        a.device_type, b.device_type AS other_device_type,
        a.cluster_size, b.cluster_size AS other_cluster_size,
        a.model, b.model AS other_model,
        a.shape, b.shape AS other_shape,
        CASE WHEN a.dp_size <> b.dp_size OR a.tp_size <> b.tp_size OR a.pp_size <> b.pp_size
            OR a.cp_size <> b.cp_size OR a.ep_size <> b.ep_size THEN 1 ELSE 0 END AS shape_differs,
        coalesce(n.shared, 0) AS shared_kernel_names,
        1.0 * coalesce(n.shared, 0) / nullif(a.kernel_names + b.kernel_names - coalesce(n.shared, 0), 0)
            AS name_overlap,
        CASE WHEN a.kernel_types > 0 AND b.kernel_types > 0
            THEN 1.0 * coalesce(t.shared, 0) / (a.kernel_types + b.kernel_types - coalesce(t.shared, 0))
        END AS type_overlap
    FROM labelled AS a
    JOIN labelled AS b ON b.run_id <> a.run_id
    LEFT JOIN shared_names AS n ON n.run_id = a.run_id AND n.other_run_id = b.run_id
    LEFT JOIN shared_types AS t ON t.run_id = a.run_id AND t.other_run_id = b.run_id
),

judged AS (
    SELECT
        *,
        max(coalesce(name_overlap, 0), coalesce(type_overlap, 0)) AS overlap,
        CASE
            WHEN device_kind IS NULL OR other_device_kind IS NULL THEN
                'the device kind is unknown (' || coalesce(device_kind, '?') || ' / '
                || coalesce(other_device_kind, '?') || ')'
            WHEN device_kind <> other_device_kind THEN
                'the device kind differs (' || device_kind || ' / ' || other_device_kind || ')'
            WHEN device_type <> other_device_type THEN
                'the device type differs (' || device_type || ' / ' || other_device_type || ')'
            WHEN cluster_size <> other_cluster_size THEN
                'the cluster size differs (' || cluster_size || ' / ' || other_cluster_size || ' ranks)'
            WHEN shape_differs = 1 THEN
                'the cluster shape differs (' || shape || ' / ' || other_shape || ')'
            WHEN model <> other_model THEN
                'the model label differs (' || model || ' / ' || other_model || ')'
            WHEN model = other_model THEN NULL
            WHEN max(coalesce(name_overlap, 0), coalesce(type_overlap, 0)) < 0.5 THEN
                'the kernels differ (' || cast(round(100 * coalesce(name_overlap, 0)) AS INTEGER)
                || ' % of kernel names shared' || CASE WHEN type_overlap IS NOT NULL THEN ', '
                || cast(round(100 * type_overlap) AS INTEGER) || ' % of operator types' ELSE '' END
                || ', under 50 %)'
        END AS failure
    FROM pairs
)

SELECT
    run_id,
    other_run_id,
    CASE WHEN failure IS NULL THEN 1 ELSE 0 END AS comparable,
    coalesce(
        'not comparable: ' || failure,
        'comparable: the same ' || device_kind || coalesce(' (' || coalesce(device_type, other_device_type) || ')', '')
        || ', ' || cluster_size || CASE WHEN cluster_size = 1 THEN ' rank' ELSE ' ranks' END || ', '
        || CASE WHEN model = other_model THEN 'the same model label (' || model || ')'
            ELSE cast(round(100 * overlap) AS INTEGER) || ' % of kernel '
                || CASE WHEN coalesce(type_overlap, 0) > coalesce(name_overlap, 0) THEN 'operator types'
                    ELSE 'names' END || ' shared' END
    ) AS reason,
    name_overlap,
    type_overlap,
    shared_kernel_names
FROM judged
