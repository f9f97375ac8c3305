-- title: Device idle gaps (msprof-analyze free_analysis)
-- description: The gaps in which a rank's device ran no kernel and no HCCL operator, longest
--     first: the union of the device activity (the answering kernels, kernel_answer, and the
--     HCCL operators, hccl_operator) is built per run and rank and the gaps between its busy
--     islands of at least min_gap_ns are listed, with the step window (step_window) they fall in.
--     A rank whose HCCL operators only its communication summary records (no kernel input) has
--     no gaps listed: its device's other work is not recorded.
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- param min_gap_ns (integer, default 1000000): Shortest gap listed, in ns.
-- param limit (integer, default 100): How many gaps to return per run.
-- column run_id: Run.
-- column rank_id: Rank.
-- column start_ns: Start of the gap (end of the previous activity), in ns.
-- column end_ns: End of the gap (start of the next activity), in ns.
-- column duration_ns: end_ns - start_ns.
-- column step_id: Step whose window holds the gap's start, when any (-1: the capture of a rank without steps).
with activity as (
    select run_id, rank_id, ts as lo, ts + dur as hi
    from kernel_answer
    where dur >= 0 and (:run_id is null or run_id = :run_id) and (:rank_id is null or rank_id = :rank_id)
    union all
    select run_id, rank_id, ts as lo, ts + dur as hi
    from hccl_operator
    where dur >= 0 and table_name <> 'communication_time' and (:run_id is null or run_id = :run_id) and (:rank_id is null or rank_id = :rank_id)
),

ordered as (
    select
        run_id, rank_id, lo, hi,
        max(hi) over (
            partition by run_id, rank_id order by lo, hi rows between unbounded preceding and 1 preceding
        ) as reach
    from activity
),

gaps as (
    select run_id, rank_id, reach as start_ns, lo as end_ns
    from ordered
    where reach is not null and lo - reach >= :min_gap_ns and lo > reach
),

ranked as (
    select
        run_id, rank_id, start_ns, end_ns, end_ns - start_ns as duration_ns,
        row_number() over (partition by run_id order by end_ns - start_ns desc, rank_id, start_ns) as position
    from gaps
),

final as (
    select
        g.run_id,
        g.rank_id,
        g.start_ns,
        g.end_ns,
        g.duration_ns,
        (
            select w.step_id from step_window as w
            where w.run_id = g.run_id and w.rank_id = g.rank_id and g.start_ns >= w.start_ns and g.start_ns < w.end_ns
            order by w.start_ns
            limit 1
        ) as step_id
    from ranked as g
    where g.position <= :limit
)

select run_id, rank_id, start_ns, end_ns, duration_ns, step_id
from final
order by run_id, duration_ns desc, rank_id, start_ns
