-- The step a device task ran in (the TASK row aliased t), by the profiler's rule (the
-- warehouse's view kernel_step): the last step started at or before the task's start, so a task
-- in the gap between two steps is the earlier step's; NULL before the first step. Stage 1's
-- answers (model/staged_kernels.sql) read the rank db before any row lands, so they cannot read
-- the view: this is its one restatement, and fact_kernel.sql includes it too so a kernel has the
-- same step in both.
(
    SELECT st.step_id
    FROM temp.rank_db_step AS st
    WHERE st.start_ns <= CAST(t.startNs AS INTEGER)
    ORDER BY st.start_ns DESC LIMIT 1
)
