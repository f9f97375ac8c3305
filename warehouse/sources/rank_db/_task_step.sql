-- The step a device task ran in (the TASK row aliased t): the last step started at or before the
-- task's start, if the task starts before that step's end; NULL otherwise. One definition for the
-- kernel table (fact_kernel.sql) and stage 1's answers (model/staged_kernels.sql), included by both
-- (`-- include: _task_step`), so a kernel has the same step in both.
(
    SELECT CASE WHEN CAST(t.startNs AS INTEGER) < st.end_ns THEN st.step_id END
    FROM temp.rank_db_step AS st
    WHERE st.start_ns <= CAST(t.startNs AS INTEGER)
    ORDER BY st.start_ns DESC LIMIT 1
)
