-- title: MSTX range statistics (msprof-analyze mstx_sum)
-- description: Duration statistics of the mstx ranges the program marked per run and message,
--     per rank or over all ranks of the run at once: count, sum, mean, sample standard
--     deviation, min, quartiles and median (pandas' default linear interpolation, as
--     msprof-analyze's mstx_sum computes them), max. The ranges are the user ranges of an input
--     (a db export's or msprof db's MSTX_EVENTS: push/pop and start/end ranges, marks left out),
--     else its framework rows of type mstx; an input that is another's twin (source_twin) is
--     counted once.
-- param run_id (integer, default null): Only this run; every run when null.
-- param per_rank (boolean, default true): One row per rank and message; false: over all ranks of the run.
-- column run_id: Run.
-- column rank_id: Rank (null when per_rank is false).
-- column name: The range's message.
-- column count: Number of ranges.
-- column total_ns: Summed duration in ns.
-- column mean_ns: Mean duration in ns.
-- column std_ns: Sample standard deviation in ns (null for a single range).
-- column min_ns: Shortest in ns.
-- column q1_ns: First quartile in ns (linear interpolation at position (n - 1) / 4 of the
--     sorted durations, counted from 0).
-- column median_ns: Median in ns (mean of the two middle values for an even count).
-- column q3_ns: Third quartile in ns (linear interpolation at position 3 (n - 1) / 4).
-- column max_ns: Longest in ns.
with sources as (
    select s.id, s.run_id
    from source as s
    where (:run_id is null or s.run_id = :run_id)
        and not exists (select 1 from source_twin as t where t.source_id = s.id)
),

items as (
    select s.run_id, case when :per_rank = 1 then u.rank_id end as rank_id, u.name, null as core_type, u.dur
    from user_range as u
    join sources as s on s.id = u.source_id
    where u.kind in ('push/pop', 'start/end') and u.dur is not null
    union all
    -- the framework's own record of the ranges, for an input without MSTX_EVENTS
    select s.run_id, case when :per_rank = 1 then p.rank_id end as rank_id, p.name, null as core_type, p.dur
    from pytorch_api as p
    join sources as s on s.id = p.source_id
    where p.type = 'mstx' and p.dur is not null
        and not exists (select 1 from user_range as u where u.source_id = p.source_id)
),

-- include: _duration_statistics

select run_id, rank_id, name, count, total_ns, mean_ns, std_ns, min_ns, q1_ns, median_ns, q3_ns, max_ns
from final
order by run_id, rank_id, total_ns desc, name
