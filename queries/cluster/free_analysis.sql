-- title: Device idle gaps (msprof-analyze free_analysis)
-- description: The gaps in which a rank's device ran no kernel and no HCCL operator,
--     longest first: the union of the device activity is built per rank and the gaps
--     between its busy islands of at least min_gap_ns are listed, with the step they fall in.
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- param min_gap_ns (integer, default 1000000): Shortest gap listed, in ns.
-- param limit (integer, default 100): How many gaps to return.
-- column rank_id: Rank.
-- column start_ns: Start of the gap (end of the previous activity), in ns.
-- column end_ns: End of the gap (start of the next activity), in ns.
-- column duration_ns: end_ns - start_ns.
-- column step_id: Step whose span holds the gap's start, when any.
with activity as (
    select rank_id, ts as lo, ts + dur as hi
    from kernel
    where dur >= 0 and (:rank_id is null or rank_id = :rank_id)
    union all
    select rank_id, ts as lo, ts + dur as hi
    from communication_op
    where dur >= 0 and (:rank_id is null or rank_id = :rank_id)
),

ordered as (
    select
        rank_id, lo, hi,
        max(hi) over (
            partition by rank_id order by lo, hi rows between unbounded preceding and 1 preceding
        ) as reach
    from activity
),

gaps as (
    select rank_id, reach as start_ns, lo as end_ns
    from ordered
    where reach is not null and lo - reach >= :min_gap_ns and lo > reach
),

final as (
    select
        g.rank_id,
        g.start_ns,
        g.end_ns,
        g.end_ns - g.start_ns as duration_ns,
        (
            select s.step_id from step as s
            where s.rank_id = g.rank_id and g.start_ns >= s.start_ns and g.start_ns < s.end_ns
            order by s.start_ns
            limit 1
        ) as step_id
    from gaps as g
)

select rank_id, start_ns, end_ns, duration_ns, step_id
from final
order by duration_ns desc, rank_id, start_ns
limit :limit
