-- Stage 1, in the scratch warehouse, once the groups are classified (staged_kernel_groups.sql, then
-- warehouse.model.classify.classify_source on :group_source): the view staged_kernel_row, every
-- kernel of the rank db with what the answers read of it (step, name, type, class, start,
-- duration), its class its group's (staged_kernel_rows.sql writes them, staged_answers.sql sums them).
-- Where the group's class depends on AIV time (communication without it, mix_comm_aiv with it)
-- the kernel's own PMU rows decide: AIV time > 0 when one of the AIV metrics fact_kernel.sql
-- pivots rounds to more than 0 (PMU values are times, never negative). The step is the last one
-- started at or before the kernel's start (the profiler's rule, the view kernel_step's): the rank db
-- source's _task_step.sql, which fact_kernel.sql includes too. CROSS JOIN keeps SQLite's order: the tasks in turn, each kernel's info by its key,
-- its group by the group's key.
-- Parameter :group_source.

UPDATE temp.staged_group SET
    without_aiv = (
        SELECT op_class FROM kernel WHERE source_id = :group_source AND slice_id = staged_group.id AND aiv_ns IS NULL
    ),
    with_aiv = (
        SELECT op_class FROM kernel WHERE source_id = :group_source AND slice_id = staged_group.id AND aiv_ns = 1
    );

CREATE TEMP VIEW staged_kernel_row (step_id, name, op_type, op_class, ts, dur) AS
SELECT
    -- include: _task_step
    ,
    g.name,
    g.op_type,
    CASE
        WHEN g.without_aiv IS g.with_aiv THEN g.without_aiv
        WHEN EXISTS (
            SELECT 1
            FROM in_TASK_PMU_INFO AS p
            JOIN in_STRING_IDS AS m ON m.id = p.name
            WHERE p.globalTaskId = t.globalTaskId AND CAST(ROUND(p.value) AS INTEGER) > 0
                AND m.value IN ('aiv_total_time', 'aiv_vec_time', 'aiv_mte2_time', 'aiv_mte3_time', 'aiv_scalar_time')
        ) THEN g.with_aiv
        ELSE g.without_aiv
    END,
    CAST(t.startNs AS INTEGER),
    CAST(t.endNs AS INTEGER) - CAST(t.startNs AS INTEGER)
FROM in_TASK AS t
CROSS JOIN in_COMPUTE_TASK_INFO AS c ON c.globalTaskId = t.globalTaskId
CROSS JOIN temp.staged_group AS g
    ON g.name_id IS c.name AND g.op_type_id IS c.opType AND g.task_type_id IS c.taskType
    AND g.timeline_type_id IS t.taskType;
