-- title: Kernel time per accelerator core
-- description: Per run, rank, step and accelerator core (kernel.accelerator_core as the export
--     names it: AI_CORE, AI_VECTOR_CORE, AI_CPU, MIX_AIC, MIX_AIV, ...), the answering kernels'
--     count and summed time, the step each is in being kernel_step's (the profiler's rule): the
--     compute table of MindStudio Insight's Summary page (summary/statistic with timeFlag compute;
--     the real server sums kernel_detail per accelerator core).
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- param step_id (integer, default null): Only this step; every step when null.
-- column run_id: Run.
-- column rank_id: Rank.
-- column step_id: Step (-1: the rank's whole capture; null for kernels outside every step).
-- column accelerator_core: The kernel's accelerator core as the export names it.
-- column kernel_count: Number of kernel executions.
-- column total_ns: Their summed duration in ns.
with placed as (
    select s.run_id, s.rank_id, s.step_id, k.accelerator_core, s.dur
    from kernel_step as s
    join kernel as k on k.id = s.row_id
    where s.table_name = 'kernel' and k.accelerator_core is not null
        and (:run_id is null or s.run_id = :run_id) and (:rank_id is null or s.rank_id = :rank_id)
        and (:step_id is null or s.step_id = :step_id)
),

final as (
    select run_id, rank_id, step_id, accelerator_core, count(*) as kernel_count, sum(dur) as total_ns
    from placed
    group by run_id, rank_id, step_id, accelerator_core
)

select run_id, rank_id, step_id, accelerator_core, kernel_count, total_ns
from final
order by run_id, rank_id, step_id, accelerator_core
