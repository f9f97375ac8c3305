-- title: Insight rank inputs
-- description: Every input of every rank of every run, as MindStudio Insight's Timeline groups
--     them: one card per rank (not per file). Each row is one ingested input of a rank (its
--     rank known or -1, operator profiles left out), with whether it is one of the inputs whose
--     timeline answers for the rank (answer_source, fact timeline: msprof writes a rank's timeline
--     in several files) and how many ranks its run has.
-- column run_id: Run of the rank (run.run_id).
-- column run_root: The run's root (its folder, or the file when the run is one file).
-- column run_ranks: Number of ranks of the run (a cluster when above 1).
-- column rank_id: Rank of the input (-1 when no input of it says).
-- column source_id: The input (source.id).
-- column path: Path of the input file.
-- column kind: Input format that read it.
-- column device_id: NPU device of the input's rank, when the input says.
-- column is_timeline: 1 when this input answers (part of) the rank's timeline, else 0.
with inputs as (
    select s.id, s.path, s.kind, s.run_id, s.rank_id, s.device_id
    from source as s
    where s.status = 'ok' and s.rank_id is not null and s.kind <> 'op_profile'
),

run_ranks as (
    select run_id, count(distinct rank_id) as ranks
    from inputs
    group by run_id
),

timeline as (
    select distinct source_id
    from answer_source
    where fact = 'timeline'
),

final as (
    select
        i.run_id,
        r.root as run_root,
        n.ranks as run_ranks,
        i.rank_id,
        i.id as source_id,
        i.path,
        i.kind,
        i.device_id,
        case when t.source_id is null then 0 else 1 end as is_timeline
    from inputs as i
    join run as r on r.run_id = i.run_id
    join run_ranks as n on n.run_id = i.run_id
    left join timeline as t on t.source_id = i.id
)

select run_id, run_root, run_ranks, rank_id, source_id, path, kind, device_id, is_timeline
from final
order by run_id, rank_id, source_id
