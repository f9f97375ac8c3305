-- title: Insight thread names
-- description: The slices of one thread that overlap a time range, grouped by name: how many,
--     their wall time and their self time (wall time minus their children's); what the
--     timeline's selection summary (unit/threads) adds up over the selected threads.
-- param thread_id (integer, required): The thread (thread.id).
-- param start_ns (integer, required): Start of the range in ns (absolute).
-- param end_ns (integer, required): End of the range in ns (absolute).
-- column name: Slice name.
-- column occurrences: Slices of that name overlapping the range.
-- column wall_ns: Their summed duration in ns.
-- column self_ns: Their summed self time in ns (duration minus the direct children's).
with picked as (
    select id, name, dur
    from slice
    where thread_id = :thread_id and ts < :end_ns and ts + dur > :start_ns
),

children as (
    select parent_id, sum(dur) as child_ns
    from _slice
    where thread_id = :thread_id and parent_id in (select id from picked)
    group by parent_id
),

final as (
    select
        p.name,
        count(*) as occurrences,
        sum(p.dur) as wall_ns,
        sum(p.dur - coalesce(c.child_ns, 0)) as self_ns
    from picked as p
    left join children as c on c.parent_id = p.id
    group by p.name
)

select name, occurrences, wall_ns, self_ns
from final
order by wall_ns desc, name
