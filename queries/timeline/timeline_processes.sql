-- title: Timeline processes
-- description: The processes of the timeline with how many threads each has, in display
--     order (sort_index from the trace metadata, then pid), per run.
-- param run_id (integer, default null): Only the processes of this run; every run when null.
-- param rank_id (integer, default null): Only the processes of this rank; every rank when null.
-- column run_id: Run the process belongs to.
-- column process_id: Identifier of the process (process.id).
-- column source_id: Input the process came from.
-- column rank_id: Rank the process belongs to, when known.
-- column pid: Process id as the input writes it.
-- column name: Process name from the metadata, when given.
-- column labels: Process labels from the metadata, when given.
-- column sort_index: Display order from the metadata, when given.
-- column thread_count: Number of threads of the process.
with processes as (
    select p.id, s.run_id, p.source_id, p.rank_id, p.pid, p.name, p.labels, p.sort_index
    from process as p
    join source as s on s.id = p.source_id
    where (:run_id is null or s.run_id = :run_id) and (:rank_id is null or p.rank_id = :rank_id)
),

threads as (
    select process_id, count(*) as thread_count
    from thread
    group by process_id
),

final as (
    select
        p.run_id,
        p.id as process_id,
        p.source_id,
        p.rank_id,
        p.pid,
        p.name,
        p.labels,
        p.sort_index,
        coalesce(t.thread_count, 0) as thread_count
    from processes as p
    left join threads as t on t.process_id = p.id
)

select run_id, process_id, source_id, rank_id, pid, name, labels, sort_index, thread_count
from final
order by run_id, rank_id, sort_index, pid, process_id
