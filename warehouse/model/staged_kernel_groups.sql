-- Stage 1, in the scratch warehouse (warehouse/staged/answers.py): the rank db's kernels (TASK x
-- COMPUTE_TASK_INFO, as fact_kernel.sql joins them) reduced to what their class depends on (seed
-- 004 section 4, warehouse/model/classify.sql): name, type, task type (the Accelerator Core too)
-- and the TASK type their timeline slice is categorised by. Each group becomes two kernel rows of
-- the source :group_source, one without AIV time and one with (a communication kernel with AIV
-- time is mix_comm_aiv), each pointing at a slice categorised by the group's TASK type, so the
-- classification runs per group, not per row. Type and task type 'N/A' or '' are not given (NULL),
-- as fact_kernel.sql reads them. Parameter :group_source.

-- The ids are declared INTEGER as the input's columns are, so the kernels find their group by its key.
CREATE TEMP TABLE staged_group (
    id INTEGER PRIMARY KEY, name_id INTEGER, op_type_id INTEGER, task_type_id INTEGER, timeline_type_id INTEGER,
    name TEXT, op_type TEXT, task_type TEXT, without_aiv TEXT, with_aiv TEXT
);

CREATE UNIQUE INDEX temp.staged_group_key ON staged_group (name_id, op_type_id, task_type_id, timeline_type_id);

INSERT INTO temp.staged_group (name_id, op_type_id, task_type_id, timeline_type_id, name, op_type, task_type)
SELECT d.*, n.value, ot.value, tt.value
FROM (
    SELECT DISTINCT c.name, c.opType, c.taskType, t.taskType AS timeline_type
    FROM in_TASK AS t
    JOIN in_COMPUTE_TASK_INFO AS c ON c.globalTaskId = t.globalTaskId
) AS d
LEFT JOIN in_STRING_IDS AS n ON n.id = d.name
LEFT JOIN in_STRING_IDS AS ot ON ot.id = d.opType AND ot.value NOT IN ('N/A', '')
LEFT JOIN in_STRING_IDS AS tt ON tt.id = d.taskType AND tt.value NOT IN ('N/A', '');

INSERT OR IGNORE INTO string (value)
SELECT DISTINCT s.value
FROM temp.staged_group AS g
JOIN in_STRING_IDS AS s ON s.id = g.timeline_type_id
WHERE s.value IS NOT NULL;

INSERT INTO _slice (id, thread_id, ts, dur, category_id, source_id)
SELECT g.id, 0, 0, 0, (SELECT id FROM string WHERE value = s.value), :group_source
FROM temp.staged_group AS g
LEFT JOIN in_STRING_IDS AS s ON s.id = g.timeline_type_id;

INSERT INTO kernel (source_id, origin, name, op_type, task_type, accelerator_core, aiv_ns, slice_id)
SELECT :group_source, 'rank_db', g.name, g.op_type, g.task_type, g.task_type, aiv.ns, g.id
FROM temp.staged_group AS g
CROSS JOIN (SELECT NULL AS ns UNION ALL SELECT 1) AS aiv;
