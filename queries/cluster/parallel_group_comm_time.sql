-- title: Communication time per rank and kind of parallel group
-- description: Per run, rank and kind of parallel group (dp, tp, pp, cp, ep), the rank's HCCL operators'
--     time in groups of that kind, in us: what MindStudio Insight's slow-rank advice of the parallel
--     view (summary/slowRank/advisor) compares within each group, as the real server splits its
--     ranks' communication time by process-group name. An operator's group is of a kind where the
--     run's parallel groups say it (hccl_operator_group.group_kind), or where the ranks that call in
--     its named group are exactly the members of one of the run's parallel groups (rank_group);
--     operators of a group no stated group matches are left out. Of one step: the operators kernel_step
--     places in that step (its one rule, step_span's).
-- param run_id (integer, default null): Only this run; every run when null.
-- param step_id (integer, default null): Only this step; every step when null.
-- column run_id: Run.
-- column rank_id: Rank.
-- column group_kind: dp, tp, pp, cp or ep.
-- column operators: Number of the rank's HCCL operators in groups of that kind.
-- column comm_us: Their summed duration in us, rounded to 3 decimals.
with operators as (
    select o.run_id, o.rank_id, o.instance_group, o.group_kind, o.dur
    from hccl_operator_group as o
    where
        o.rank_id >= 0 and o.dur is not null and (:run_id is null or o.run_id = :run_id)
        and (:step_id is null or exists (
            select 1 from kernel_step as k
            where
                k.run_id = o.run_id and k.rank_id = o.rank_id and k.step_id = :step_id
                and k.op_class = 'communication' and k.name = o.name and k.ts = o.ts
        ))
),

callers as (
    select distinct run_id, instance_group, rank_id
    from operators
    where group_kind = '' and instance_group <> ''
),

caller_counts as (
    select run_id, instance_group, count(*) as callers
    from callers
    group by run_id, instance_group
),

matched as (
    select c.run_id, c.instance_group, g.kind, g.global_ranks, g.group_size, count(*) as members
    from callers as c
    join rank_group as g on g.run_id = c.run_id and g.rank_id = c.rank_id and g.kind is not null
    group by c.run_id, c.instance_group, g.kind, g.global_ranks, g.group_size
),

named_kinds as (
    select m.run_id, m.instance_group, min(m.kind) as kind
    from matched as m
    join caller_counts as n on n.run_id = m.run_id and n.instance_group = m.instance_group
    where m.members = n.callers and m.group_size = n.callers
    group by m.run_id, m.instance_group
),

final as (
    select
        o.run_id, o.rank_id, lower(coalesce(k.kind, o.group_kind)) as group_kind, count(*) as operators,
        round(sum(o.dur) / 1000.0, 3) as comm_us
    from operators as o
    left join named_kinds as k on k.run_id = o.run_id and k.instance_group = o.instance_group
    where coalesce(k.kind, o.group_kind) <> ''
    group by o.run_id, o.rank_id, lower(coalesce(k.kind, o.group_kind))
)

select run_id, rank_id, group_kind, operators, comm_us
from final
order by run_id, rank_id, group_kind
