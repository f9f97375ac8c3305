-- title: Kernel bound summary
-- description: What bounds the device time of each run: kernel time per pipeline family and
--     sub-stage that dominated each kernel (seed 004 section 6), with the kernel that spent
--     most time there. Kernels are the answering input's (kernel_answer), HCCL operators
--     left out; kernels without pipeline times are counted under 'unknown'.
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- column run_id: Run.
-- column bound_family: Pipeline family with the most time: cube, vector, aic_mte, aiv_mte, scalar or unknown.
-- column bound_stage: Pipeline sub-stage with the most time, or unknown.
-- column count: Number of kernel executions bound there.
-- column total_ns: Their summed duration in ns.
-- column avg_ns: Their mean duration in ns (rounded).
-- column ratio: total_ns as a fraction of the run's kernel time in scope (0-1).
-- column top_kernel: Kernel name with the most time in this group.
with kernels as (
    select
        run_id,
        name,
        coalesce(bound_family, 'unknown') as bound_family,
        coalesce(bound_stage, 'unknown') as bound_stage,
        dur
    from kernel_answer
    where (:run_id is null or run_id = :run_id) and (:rank_id is null or rank_id = :rank_id)
),

by_name as (
    select
        run_id, bound_family, bound_stage, name, sum(dur) as name_ns,
        row_number() over (partition by run_id, bound_family, bound_stage order by sum(dur) desc, name) as position
    from kernels
    group by run_id, bound_family, bound_stage, name
),

grouped as (
    select
        run_id,
        bound_family,
        bound_stage,
        count(*) as count,
        sum(dur) as total_ns,
        cast(round(avg(dur)) as integer) as avg_ns
    from kernels
    group by run_id, bound_family, bound_stage
),

final as (
    select
        g.run_id,
        g.bound_family,
        g.bound_stage,
        g.count,
        g.total_ns,
        g.avg_ns,
        1.0 * g.total_ns / nullif(sum(g.total_ns) over (partition by g.run_id), 0) as ratio,
        b.name as top_kernel
    from grouped as g
    left join by_name as b
        on b.run_id = g.run_id and b.bound_family = g.bound_family and b.bound_stage = g.bound_stage
        and b.position = 1
)

select run_id, bound_family, bound_stage, count, total_ns, avg_ns, ratio, top_kernel
from final
order by run_id, total_ns desc, bound_family, bound_stage
