-- title: Top kernels
-- description: The device kernels that took the most time in each run, grouped by name and
--     class, with their share of the run's kernel time in scope (one rank, or every rank of
--     the run). Kernels are the answering input's (kernel_answer, summed per rank by
--     kernel_total: the db export and the text export of a rank give the same answer, and a
--     rank db staged by ingest --answers-first the same as once fully ingested; a GPU kineto
--     trace's kernels for a rank without a kernel input); HCCL operators and NCCL kernels are not
--     kernels here (communication_ops and hccl_sum show the HCCL ones).
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- param limit (integer, default 20): How many kernels to return per run.
-- column run_id: Run.
-- column name: Kernel name.
-- column op_class: Class (seed 004): aic, aiv, mix_cv, mix_comm_aiv, aicpu ..., gpu for a GPU kernel.
-- column count: Number of executions.
-- column total_ns: Summed duration in ns.
-- column avg_ns: Mean duration in ns (rounded).
-- column max_ns: Longest execution in ns.
-- column ratio: total_ns as a fraction of the run's kernel time in scope (0-1).
with kernels as (
    select run_id, name, op_class, count, timed, total_ns, max_ns
    from kernel_total
    where (:run_id is null or run_id = :run_id) and (:rank_id is null or rank_id = :rank_id)
),

grouped as (
    -- the mean over the kernels with a duration, as avg(dur) over the rows
    select
        run_id,
        name,
        op_class,
        sum(count) as count,
        sum(total_ns) as total_ns,
        cast(round(1.0 * sum(total_ns) / nullif(sum(timed), 0)) as integer) as avg_ns,
        max(max_ns) as max_ns
    from kernels
    group by run_id, name, op_class
),

ranked as (
    select
        run_id, name, op_class, count, total_ns, avg_ns, max_ns,
        1.0 * total_ns / nullif(sum(total_ns) over (partition by run_id), 0) as ratio,
        row_number() over (partition by run_id order by total_ns desc, name, op_class) as position
    from grouped
),

final as (
    select run_id, name, op_class, count, total_ns, avg_ns, max_ns, ratio
    from ranked
    where position <= :limit
)

select run_id, name, op_class, count, total_ns, avg_ns, max_ns, ratio
from final
order by run_id, total_ns desc, name
