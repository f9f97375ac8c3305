-- title: MSTX range statistics (msprof-analyze mstx_sum)
-- description: Duration statistics of the mstx ranges the program marked, per run, step and
--     name, per rank or over all ranks of the run at once, as msprof-analyze's mstx_sum
--     computes them (its MSTXAllCannStats: the ranges' host times): count, sum, mean, sample
--     standard deviation, min, quartiles and median (pandas' default linear interpolation),
--     max. A range is a user range of an input (a db export's or msprof db's MSTX_EVENTS:
--     push/pop and start/end), else its framework rows of type mstx, and an input that is
--     another's twin (source_twin) is counted once; a range inside others of its input is named
--     by their path, outer::inner. Marks named <name>_start and <name>_stop on one thread make a
--     range <name> from the start to the stop: each stop closes the latest open start of its
--     name, a stop with none open closes nothing, other marks are not counted. A range is in
--     the step that holds its start (the one step rule, user_range_step). Over all ranks, as
--     msprof-analyze, the ranges of one name in one step of a rank are told apart when there
--     are several, in order (closed marks first, then ranges by start): <name>_0, <name>_1, and
--     so on, so a row compares the same range across ranks.
-- param run_id (integer, default null): Only this run; every run when null.
-- param per_rank (boolean, default true): One row per rank, step and name; false: over all ranks of the run, per step and numbered name.
-- column run_id: Run.
-- column step_id: Step holding the ranges' starts (-1: the rank's whole capture; null before the rank's first step).
-- column rank_id: Rank (null when per_rank is false).
-- column name: The range's message (outer::inner inside other ranges; numbered _0, _1, ... over
--     all ranks when a rank's step has several).
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

-- Every mstx event counted, in the step that holds its start: an input's user ranges, else the
-- framework's own records of them (a record of length 0 is a mark).
events as (
    select
        s.run_id, u.source_id, u.source_row, u.rank_id, u.step_id, u.name, u.global_tid, u.ts, u.dur,
        case when u.kind in ('marker', 'marker_ex') then 1 else 0 end as is_mark
    from user_range_step as u
    join sources as s on s.id = u.source_id
    where u.dur is not null
    union all
    select
        s.run_id, p.source_id, p.source_row, p.rank_id, w.step_id, p.name, p.global_tid, p.ts, p.dur,
        case when p.dur = 0 then 1 else 0 end as is_mark
    from pytorch_api as p
    join sources as s on s.id = p.source_id
    left join step_span as w
        on w.run_id = s.run_id and w.rank_id = p.rank_id and p.ts >= w.span_start_ns and p.ts < w.span_end_ns
    where p.type = 'mstx' and p.dur is not null
        and not exists (select 1 from user_range as u where u.source_id = p.source_id)
),

marks as (
    select
        run_id, source_id, source_row, rank_id, step_id, global_tid, ts,
        case when substr(name, length(name) - 5) = '_start' then 1 else 0 end as is_start,
        case when substr(name, length(name) - 5) = '_start' then substr(name, 1, length(name) - 6)
            else substr(name, 1, length(name) - 5) end as name
    from events
    where is_mark = 1 and (substr(name, length(name) - 5) = '_start' or substr(name, length(name) - 4) = '_stop')
),

-- The level of each mark of a name on a thread: the starts open after a start, before a stop.
-- A stop closes the latest open start, the one of its own level; at one level a start and the
-- stop closing it follow each other (a stop with none open can only come first).
levels as (
    select
        run_id, source_id, source_row, rank_id, step_id, global_tid, ts, is_start, name,
        sum(case when is_start = 1 then 1 else -1 end) over (
            partition by source_id, global_tid, name order by ts, source_row
            rows between unbounded preceding and current row) + 1 - is_start as level
    from marks
),

closed as (
    select
        run_id, source_id, source_row, rank_id, ts, is_start, name,
        lag(is_start) over (partition by source_id, global_tid, name, level order by ts, source_row) as after_start,
        lag(ts) over (partition by source_id, global_tid, name, level order by ts, source_row) as start_ts,
        lag(step_id) over (partition by source_id, global_tid, name, level order by ts, source_row) as start_step_id
    from levels
),

ranges as (
    select run_id, source_id, source_row, rank_id, step_id, name, ts, ts + dur as end_ts, dur
    from events
    where is_mark = 0
),

-- Each range with the ranges of its input that hold it and itself, outermost first (a range
-- equal to an earlier one is inside it): the path of names down to the range itself.
paths as (
    select
        r.run_id, r.source_id, r.source_row, r.rank_id, r.step_id, r.ts, r.dur, a.source_row as holder_row,
        group_concat(a.name, '::') over (
            partition by r.source_id, r.source_row order by a.ts, a.end_ts desc, a.source_row
            rows between unbounded preceding and current row) as name
    from ranges as r
    join ranges as a
        on a.source_id = r.source_id and a.ts <= r.ts and a.end_ts >= r.end_ts
        and (a.ts < r.ts or a.end_ts > r.end_ts or a.source_row <= r.source_row)
),

-- The ranges counted, in msprof-analyze's order within a rank's step: closed marks by their
-- stop, then ranges by their start.
named as (
    select run_id, source_id, rank_id, start_step_id as step_id, name, ts - start_ts as dur, 0 as part, ts as at, source_row
    from closed
    where is_start = 0 and after_start = 1
    union all
    select run_id, source_id, rank_id, step_id, name, dur, 1 as part, ts as at, source_row
    from paths
    where holder_row = source_row
),

numbered as (
    select
        run_id, rank_id, step_id, name, dur,
        count(*) over (partition by run_id, rank_id, step_id, name) as several,
        count(*) over (
            partition by run_id, rank_id, step_id, name order by part, at, source_id, source_row
            rows between unbounded preceding and current row) - 1 as nth
    from named
),

items as (
    select
        run_id,
        case when :per_rank = 1 then rank_id end as rank_id,
        step_id,
        case when :per_rank = 0 and several > 1 then name || '_' || cast(nth as text) else name end as name,
        null as core_type,
        dur
    from numbered
),

-- include: _duration_statistics

select run_id, step_id, rank_id, name, count, total_ns, mean_ns, std_ns, min_ns, q1_ns, median_ns, q3_ns, max_ns
from final
order by run_id, step_id, rank_id, total_ns desc, name
