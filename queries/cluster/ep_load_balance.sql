-- title: Expert-parallel load balance (msprof-analyze ep_load_balance)
-- description: Time each rank spent in the expert (grouped matmul) kernels (kernel_answer),
--     against the mean over the run's ranks: with expert parallelism a rank whose experts got
--     more tokens runs these kernels longer and the others wait for it at the next all-to-all.
-- param run_id (integer, default null): Only this run; every run when null.
-- param op_type (text, default 'GroupedMatmul'): Operator type of the expert kernels.
-- param threshold (real, default 1.2): Ratio to the mean above which a rank is flagged.
-- column run_id: Run.
-- column rank_id: Rank.
-- column kernel_count: Number of expert kernels.
-- column total_ns: Their summed duration in ns.
-- column mean_over_ranks_ns: Mean of total_ns over the run's ranks that ran any.
-- column ratio: total_ns / mean_over_ranks_ns.
-- column flagged: 1 when ratio > threshold, else 0.
with per_rank as (
    select run_id, rank_id, count(*) as kernel_count, sum(dur) as total_ns
    from kernel_answer
    where op_type = :op_type and (:run_id is null or run_id = :run_id)
    group by run_id, rank_id
),

final as (
    select
        run_id,
        rank_id,
        kernel_count,
        total_ns,
        avg(1.0 * total_ns) over (partition by run_id) as mean_over_ranks_ns,
        total_ns / nullif(avg(1.0 * total_ns) over (partition by run_id), 0) as ratio,
        case when total_ns > :threshold * avg(1.0 * total_ns) over (partition by run_id) then 1 else 0 end as flagged
    from per_rank
)

select run_id, rank_id, kernel_count, total_ns, mean_over_ranks_ns, ratio, flagged
from final
order by run_id, ratio desc, rank_id
