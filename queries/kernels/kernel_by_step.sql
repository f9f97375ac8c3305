-- title: Kernels by step
-- description: Device kernel time of every step of every rank, split by kernel class. A
--     kernel's step is its own step_id when the input gives one, else the rank's step
--     whose span holds the kernel's start.
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- column rank_id: Rank.
-- column step_id: Step (null for kernels outside every step).
-- column kernel_count: Number of kernel executions.
-- column total_ns: Summed kernel duration in ns.
-- column cube_ns: Time of aic (Cube) kernels in ns.
-- column vector_ns: Time of aiv (Vector) kernels in ns.
-- column mix_ns: Time of mix_cv and mix_comm_aiv kernels in ns.
-- column communication_ns: Time of communication kernels in ns.
-- column aicpu_ns: Time of AI CPU kernels in ns.
with steps as (
    select rank_id, step_id, start_ns, end_ns
    from step
    where :rank_id is null or rank_id = :rank_id
),

placed as (
    -- kernels without a step_id, placed by the (rank_id, ts) index into the step holding their start
    -- (a rank's steps do not overlap)
    select k.id, s.step_id
    from steps as s
    join kernel as k on k.rank_id = s.rank_id and k.ts >= s.start_ns and k.ts < s.end_ns
    where k.step_id is null
),

kernels as (
    select k.rank_id, coalesce(k.step_id, p.step_id) as step_id, k.op_class, k.dur
    from kernel as k
    left join placed as p on p.id = k.id
    where :rank_id is null or k.rank_id = :rank_id
),

final as (
    select
        rank_id,
        step_id,
        count(*) as kernel_count,
        sum(dur) as total_ns,
        sum(case when op_class = 'aic' then dur else 0 end) as cube_ns,
        sum(case when op_class = 'aiv' then dur else 0 end) as vector_ns,
        sum(case when op_class in ('mix_cv', 'mix_comm_aiv') then dur else 0 end) as mix_ns,
        sum(case when op_class = 'communication' then dur else 0 end) as communication_ns,
        sum(case when op_class = 'aicpu' then dur else 0 end) as aicpu_ns
    from kernels
    group by rank_id, step_id
)

select rank_id, step_id, kernel_count, total_ns, cube_ns, vector_ns, mix_ns, communication_ns, aicpu_ns
from final
order by rank_id, step_id
