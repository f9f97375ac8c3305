-- title: Kernel trend over runs
-- description: A named kernel's count, total and mean time in every run of the warehouse, in start
--     order (issue 17; a run whose start is unknown first, by id), over every rank of the run. Kernels
--     are the answering ones (kernel_answer: a rank's kernel input, or a GPU kineto trace's kernels;
--     HCCL operators and NCCL kernels left out), as compare_kernels reads them. name null: the limit
--     kernels with the most time over all runs.
-- param name (text, default null): The kernel (exact name); when null, the limit kernels with the most time over all runs.
-- param limit (integer, default 5): How many kernels when name is null.
-- column run_id: Run.
-- column run_name: Run name.
-- column start_ns: Start of the run, in ns (null when unknown).
-- column position: The run's place in the history (1: started first).
-- column name: Kernel name.
-- column count: Executions in the run.
-- column total_ns: Summed duration in the run, in ns.
-- column mean_ns: Mean duration in the run, in ns.
with history as (
    select run_id, name, start_ns, position
    from run_history
),

per_run as (
    select run_id, name, count(*) as count, sum(dur) as total_ns
    from kernel_answer
    where :name is null or name = :name
    group by run_id, name
),

chosen as (
    select name
    from (
        select name, row_number() over (order by sum(total_ns) desc, name) as rank_position
        from per_run
        group by name
    ) as ranked
    where :name is not null or rank_position <= :limit
),

final as (
    select
        p.run_id, h.name as run_name, h.start_ns, h.position, p.name, p.count, p.total_ns,
        1.0 * p.total_ns / p.count as mean_ns
    from per_run as p
    join chosen as c on c.name = p.name
    join history as h on h.run_id = p.run_id
)

select run_id, run_name, start_ns, position, name, count, total_ns, mean_ns
from final
order by position, total_ns desc, name
