-- title: Kernels by step
-- description: Device time of every step of every rank of each run, split by class: the
--     answering kernels (kernel_answer) and the rank's HCCL operators (hccl_operator, class
--     communication), whichever export holds them. An item's step is kernel_step's (the
--     profiler's rule: the input's own Step Id, else from a step's start to the next step's
--     start); step -1 is the whole capture of a rank without steps.
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- column run_id: Run.
-- column rank_id: Rank.
-- column step_id: Step (-1: the rank's whole capture; null for items outside every step).
-- column kernel_count: Number of kernel executions and HCCL operators.
-- column total_ns: Their summed duration in ns.
-- column cube_ns: Time of aic (Cube) kernels in ns.
-- column vector_ns: Time of aiv (Vector) kernels in ns.
-- column mix_ns: Time of mix_cv and mix_comm_aiv kernels in ns.
-- column communication_ns: Time of HCCL operators in ns.
-- column aicpu_ns: Time of AI CPU kernels in ns.
with placed as (
    select run_id, rank_id, step_id, op_class, dur
    from kernel_step
    where (:run_id is null or run_id = :run_id) and (:rank_id is null or rank_id = :rank_id)
),

final as (
    select
        run_id,
        rank_id,
        step_id,
        count(*) as kernel_count,
        sum(dur) as total_ns,
        sum(case when op_class = 'aic' then dur else 0 end) as cube_ns,
        sum(case when op_class = 'aiv' then dur else 0 end) as vector_ns,
        sum(case when op_class in ('mix_cv', 'mix_comm_aiv') then dur else 0 end) as mix_ns,
        sum(case when op_class = 'communication' then dur else 0 end) as communication_ns,
        sum(case when op_class = 'aicpu' then dur else 0 end) as aicpu_ns
    from placed
    group by run_id, rank_id, step_id
)

select run_id, rank_id, step_id, kernel_count, total_ns, cube_ns, vector_ns, mix_ns, communication_ns, aicpu_ns
from final
order by run_id, rank_id, step_id
