-- title: Ingest progress
-- description: What a run still waits for while `warehouse ingest --answers-first` is in its second
--     stage: per run, the ranks complete (every input of the rank ingested whole), the ranks with
--     their first answers only (step_time, communication_ops, top_kernels and slow_ranks answer for
--     them; the timeline, flows, kernel rows, PMU pivots and counters come with the second stage),
--     the files reserved with nothing in yet, and the staged files whose full ingest failed (they
--     keep their first answers; source.error says why). Only runs holding such an input are listed:
--     no row means the warehouse is complete.
-- param run_id (integer, default null): Only this run; every run when null.
-- column run_id: Run.
-- column name: Run name.
-- column ranks_complete: Ranks whose every input is ingested whole.
-- column ranks_staged: Ranks with their first answers only (source.stage 'answers').
-- column files_staged: Inputs with their first answers only (rank dbs, and analysis.db files whose step summary is in).
-- column files_pending: Inputs reserved for the second stage with nothing in yet (source.stage 'pending').
-- column stage2_failed: Staged inputs whose full ingest failed (source.error says why).
with inputs as (
    select run_id, rank_id, stage, error
    from source
    where status = 'ok' and (:run_id is null or run_id = :run_id)
),

unfinished_ranks as (
    select distinct run_id, rank_id
    from inputs
    where stage is not null and rank_id is not null
),

counted as (
    select
        i.run_id,
        count(distinct case when i.stage is null and i.rank_id is not null and u.rank_id is null
            then i.rank_id end) as ranks_complete,
        count(distinct case when i.stage = 'answers' then i.rank_id end) as ranks_staged,
        sum(case when i.stage = 'answers' then 1 else 0 end) as files_staged,
        sum(case when i.stage = 'pending' then 1 else 0 end) as files_pending,
        sum(case when i.stage is not null and i.error is not null then 1 else 0 end) as stage2_failed,
        sum(case when i.stage is not null then 1 else 0 end) as unfinished
    from inputs as i
    left join unfinished_ranks as u on u.run_id = i.run_id and u.rank_id = i.rank_id
    group by i.run_id
),

final as (
    select c.run_id, r.name, c.ranks_complete, c.ranks_staged, c.files_staged, c.files_pending, c.stage2_failed
    from counted as c
    join run as r on r.run_id = c.run_id
    where c.unfinished > 0
)

select run_id, name, ranks_complete, ranks_staged, files_staged, files_pending, stage2_failed
from final
order by run_id
