-- title: Rule communication_collective_slow
-- description: Every collective instance (same run, name and group in hccl_operator_group: the
--     COMMUNICATION_OP rows of a rank db or the HCCL rows of the text export, whichever answers
--     the rank; the group the operator names, else the rank's stated parallel group that fits
--     it, DP first for all but an all-to-all, which the message then says, else none, which it
--     says too; a name a rank repeats is one instance per call, the k-th call of every rank
--     together) seen on two or more ranks of one run whose duration differs across ranks by more
--     than skew of the shortest and by more than min_skew_ns. It names the rank that caused the
--     difference (rank_id) and the ranks it cost time, every other rank of the instance (numbers:
--     affected_ranks, most_affected_rank_id the one that lost most; evidence: each one's loss).
--     The cause (numbers.cause) is read in this order. clocks_apart: one rank ended the instance
--     before another began, the ranks' clocks do not line up, so waiting and transfer cannot be
--     told apart (severity medium, confidence low). slow_transfer: once all ranks had arrived, one
--     rank ends more than skew of the time they shared after the others (whether or not one
--     arrived late), and the profiler, where it wrote a split, does not count that rank's time as
--     waiting (its wait over its transit): the transfer is the slow part, check its links
--     (severity high); the only reading that names the links. late_arrival: otherwise, the rank
--     that started last, over min_skew_ns after the first, made the others wait, each for the
--     time between its start and that rank's: the cause is on that rank before the collective
--     (its compute or host), not the transfer (severity low: the slow_rank_suspected rule speaks
--     about that rank's compute); only while at most half the ranks arrived within min_skew_ns
--     of the last: when most arrived together the odd ones are early (less work:
--     reduced_work_or_dummy_rank, dp_workload_imbalance) and no one is late. waited_elsewhere: the
--     slow_transfer shape with the ranks arriving together, but the profiler counts the rank
--     that ends last as waiting: neither its links nor a late peer of this group (severity
--     medium, confidence low).
--     A rank's wait is the profiler's own split where it wrote one (communication_time_answer:
--     analysis.db CommAnalyzerTime, communication.json's Wait Time / Transit Time), else its
--     Notify Wait task time (busiest plane, level-1 rank dbs). Confidence high when the waits
--     corroborate the cause (the cause's wait is a smaller share of its time than the others'
--     mean share), medium without waits; when they disagree, medium for a slow transfer, low for
--     a late arrival (the last rank captured waited too: the group's last rank may be one the
--     capture does not hold, which the message says).
--     Thresholds, msprof-analyze's as the floor: its communication_bottleneck names no slow NPU
--     while (longest - shortest) / longest is under 0.05 (slow_npu_happen), else the shortest
--     (the rank that arrived last), as this rule does; its slow_rank recipe's Dixon test needs
--     more than three distinct durations (never on two ranks). skew 0.3 of the shortest is 0.23
--     of the longest, so every finding clears 0.05, and a first all-reduce that absorbs a step's
--     compute jitter (4 to 6 ms of 79 ms, 5 to 7 %, capture to capture on the real 2-rank runs)
--     gives none. min_skew_ns is its diff_waiting_time, 100 us: a shorter difference or lateness
--     is no finding.
--     Evidence: the instance's row on every rank, the cause first, then the ranks that waited
--     longest.
-- param run_id (integer, default null): Only this run; every run when null.
-- param skew (real, default 0.3): Duration difference over the shortest above which an instance is
--     flagged (keep it over 0.0527, msprof-analyze's 0.05 of the longest).
-- param min_skew_ns (integer, default 100000): Differences (and a lateness) shorter than this many ns are
--     no finding.
-- param evidence_limit (integer, default 8): Evidence rows per finding.
-- column finding_key: Identifies the finding the row belongs to.
-- column run_id: Run the finding is about.
-- column rank_id: Rank the finding is about: the cause.
-- column step_id: Step the finding is about.
-- column subject: What the finding is about.
-- column severity: high, medium or low.
-- column confidence: high, medium or low (seed 004).
-- column message: One line for a person.
-- column numbers: The numbers behind the message (JSON object).
-- column evidence_table: Table of the evidence row.
-- column evidence_source_id: Input of the evidence row.
-- column evidence_source_row: Row of the evidence in its input.
-- column evidence_slice_id: Timeline slice of the evidence row, when it has one.
-- column evidence_kernel_id: kernel.id of the evidence row, when it is a kernel.
-- column evidence_note: What the evidence row shows.
with calls as (
    -- the ranks of a group issue its collectives in the same order: where an export does not
    -- number them (one name for every step's allreduce), the k-th call of each rank is one instance
    select
        h.run_id, h.table_name, h.row_id, h.source_id, h.source_row, h.slice_id, h.rank_id,
        nullif(h.instance_group, '') as group_name, h.group_said_by, h.group_kind, h.group_ranks, h.name, h.ts,
        h.dur, row_number() over (partition by h.run_id, h.instance_group, h.name, h.rank_id order by h.ts) as occurrence
    from hccl_operator_group as h
    where h.dur > 0 and (:run_id is null or h.run_id = :run_id)
),

groups as (
    -- what says each instance's group (hccl_operator_group), for the message
    select run_id, group_name, min(group_said_by) as group_said_by, min(group_kind) as group_kind,
        min(group_ranks) as group_ranks
    from calls
    group by run_id, group_name
),

ops as (
    select
        h.run_id, h.table_name, h.row_id, h.source_id, h.source_row, h.slice_id, h.rank_id, c.op_id, h.group_name, h.name,
        h.occurrence, h.ts, h.dur, h.ts + h.dur as end_ns,
        count(*) over instance as ranks,
        min(h.dur) over instance as min_ns,
        max(h.dur) over instance as max_ns,
        min(h.ts) over instance as first_start_ns,
        max(h.ts) over instance as last_start_ns,
        min(h.ts + h.dur) over instance as first_end_ns,
        max(h.ts + h.dur) over instance as last_end_ns
    from calls as h
    -- the rank db's operator id, which its Notify Wait tasks name
    left join communication_op as c
        on h.table_name = 'communication_op' and c.source_id = h.source_id and c.source_row = h.source_row
        and c.ts = h.ts
    -- one row per rank: count(*) over it is the number of ranks
    window instance as (partition by h.run_id, h.group_name, h.name, h.occurrence)
),

skewed as (
    select
        run_id, table_name, row_id, source_id, source_row, slice_id, rank_id, op_id, group_name, name, occurrence, ts,
        dur, end_ns, ranks, min_ns, max_ns, first_start_ns, last_start_ns, first_end_ns, last_end_ns,
        row_number() over (partition by run_id, group_name, name, occurrence order by end_ns desc, rank_id)
        as end_order,
        row_number() over (partition by run_id, group_name, name, occurrence order by ts desc, rank_id) as start_order
    from ops
    where ranks > 1 and max_ns - min_ns > :min_skew_ns and max_ns - min_ns > :skew * min_ns
),

split as (
    -- the profiler's own wait / transit split of each rank's call; its group is a hash of the
    -- HCCL group's name, which the operator's name already ends with, so name and call match it
    select
        run_id, rank_id, op_name, wait_ns, transit_ns,
        row_number() over (partition by run_id, rank_id, op_name order by ts) as occurrence
    from communication_time_answer
    where op_name <> 'Total Op Info' and (:run_id is null or run_id = :run_id)
),

plane_waits as (
    select t.source_id, t.op_id, t.plane_id, sum(s.dur) as wait_ns
    from communication_task as t
    join _slice as s on s.id = t.slice_id
    where t.task_type like 'Notify%Wait'
    group by t.source_id, t.op_id, t.plane_id
),

notify_waits as (
    -- planes run in parallel: the busiest plane's wait is the rank's
    select source_id, op_id, max(wait_ns) as wait_ns
    from plane_waits
    group by source_id, op_id
),

waits as (
    select
        k.run_id, k.table_name, k.row_id, k.source_id, k.source_row, k.slice_id, k.rank_id, k.group_name, k.name,
        k.occurrence, k.ts, k.dur, k.end_ns, k.ranks, k.min_ns, k.max_ns, k.first_start_ns, k.last_start_ns,
        k.first_end_ns, k.last_end_ns, k.end_order, k.start_order,
        p.wait_ns as profiler_wait_ns, p.transit_ns as profiler_transit_ns,
        case when p.wait_ns is not null then 'profiler' when n.wait_ns is not null then 'Notify Wait' end as wait_basis,
        coalesce(p.wait_ns, n.wait_ns) as wait_ns
    from skewed as k
    left join split as p
        on p.run_id = k.run_id and p.rank_id = k.rank_id and p.op_name = k.name and p.occurrence = k.occurrence
    left join notify_waits as n on n.source_id = k.source_id and n.op_id = k.op_id
),

instances as (
    select
        run_id, group_name, name, occurrence,
        max(ranks) as ranks, max(min_ns) as min_ns, max(max_ns) as max_ns,
        max(first_start_ns) as first_start_ns, max(last_start_ns) as last_start_ns,
        max(first_end_ns) as first_end_ns, max(last_end_ns) as last_end_ns,
        max(case when end_order = 1 then rank_id end) as end_rank_id,
        max(case when start_order = 1 then rank_id end) as late_rank_id,
        -- the ranks that arrived with the last one, within min_skew_ns of it
        sum(case when ts >= last_start_ns - :min_skew_ns then 1 else 0 end) as late_ranks,
        -- 1 when the profiler counts the rank that ends last as waiting more than moving data, 0 when
        -- it does not, NULL without its split
        max(case when end_order = 1 then case when profiler_wait_ns > profiler_transit_ns then 1 else 0 end end)
        as end_rank_waited,
        max(case when end_order = 1 then table_name end) as table_name,
        max(case when end_order = 1 then row_id end) as row_id
    from waits
    group by run_id, group_name, name, occurrence
),

readings as (
    select
        run_id, group_name, name, occurrence, ranks, min_ns, max_ns, first_start_ns, last_start_ns, first_end_ns,
        last_end_ns, end_rank_id, late_rank_id, late_ranks, end_rank_waited, table_name, row_id,
        last_start_ns - first_start_ns as start_spread_ns,
        last_end_ns - first_end_ns as end_spread_ns,
        case
            when first_end_ns <= last_start_ns then 'clocks_apart'
            when last_end_ns - first_end_ns > :skew * (first_end_ns - last_start_ns)
                and coalesce(end_rank_waited, 0) = 0 then 'slow_transfer'
            when last_start_ns - first_start_ns > :min_skew_ns and 2 * late_ranks <= ranks then 'late_arrival'
            when last_end_ns - first_end_ns > :skew * (first_end_ns - last_start_ns) and end_rank_waited = 1
                then 'waited_elsewhere'
        end as cause
    from instances
),

causes as (
    select
        run_id, group_name, name, occurrence, ranks, min_ns, max_ns, start_spread_ns, end_spread_ns, late_rank_id,
        table_name, row_id, cause,
        case when cause = 'late_arrival' then late_rank_id else end_rank_id end as cause_rank_id,
        case when cause = 'late_arrival' then ranks - late_ranks else ranks - 1 end as affected_ranks
    from readings
    where cause is not null
),

roles as (
    -- every rank's row of a flagged instance: the cause first, then the ranks that lost most to it
    select
        w.run_id, w.table_name, w.source_id, w.source_row, w.slice_id, w.rank_id, w.group_name, w.name, w.occurrence,
        w.ts, w.dur, w.first_start_ns, w.last_start_ns, w.profiler_wait_ns, w.profiler_transit_ns, w.wait_basis,
        w.wait_ns, w.rank_id = c.cause_rank_id as is_cause,
        row_number() over (
            partition by w.run_id, w.group_name, w.name, w.occurrence
            order by w.rank_id = c.cause_rank_id desc, case when c.cause = 'late_arrival' then w.ts else -w.end_ns end,
                w.rank_id
        ) as position
    from waits as w
    join causes as c
        on c.run_id = w.run_id and c.group_name is w.group_name and c.name = w.name and c.occurrence = w.occurrence
),

judged as (
    select
        c.run_id, c.group_name, c.name, c.occurrence, c.ranks, c.min_ns, c.max_ns, c.start_spread_ns,
        c.end_spread_ns, c.late_rank_id, c.table_name, c.row_id, c.cause, c.cause_rank_id, c.affected_ranks,
        max(case when r.is_cause then r.wait_ns end) as cause_wait_ns,
        max(case when r.is_cause then 1.0 * r.wait_ns / r.dur end) as cause_wait_share,
        avg(case when not r.is_cause then r.wait_ns end) as affected_wait_ns,
        avg(case when not r.is_cause then 1.0 * r.wait_ns / r.dur end) as affected_wait_share,
        max(case when r.position = 2 then r.rank_id end) as first_affected_rank_id,
        max(case when r.position = 2 then r.profiler_wait_ns end) as first_affected_wait_ns,
        max(case when r.position = 2 then r.profiler_transit_ns end) as first_affected_transit_ns,
        max(case when r.position = 2 then r.dur end) as first_affected_ns,
        max(case when r.is_cause then r.profiler_wait_ns end) as cause_profiler_wait_ns,
        max(case when r.is_cause then r.profiler_transit_ns end) as cause_transit_ns,
        max(case when r.is_cause then r.dur end) as cause_ns,
        max(r.wait_basis) as wait_basis
    from causes as c
    join roles as r
        on r.run_id = c.run_id and r.group_name is c.group_name and r.name = c.name and r.occurrence = c.occurrence
    group by
        c.run_id, c.group_name, c.name, c.occurrence, c.ranks, c.min_ns, c.max_ns, c.start_spread_ns, c.end_spread_ns,
        c.late_rank_id, c.table_name, c.row_id, c.cause, c.cause_rank_id, c.affected_ranks
),

final as (
    select
        'run ' || j.run_id || ' ' || coalesce(j.group_name || ' ', '') || j.name || ' #' || j.occurrence as finding_key,
        j.run_id,
        j.cause_rank_id as rank_id,
        (select ks.step_id from kernel_step as ks where ks.table_name = j.table_name and ks.row_id = j.row_id)
        as step_id,
        j.name as subject,
        case j.cause when 'slow_transfer' then 'high' when 'late_arrival' then 'low' else 'medium' end as severity,
        case
            when j.cause in ('clocks_apart', 'waited_elsewhere') then 'low'
            when j.cause_wait_share is null or j.affected_wait_share is null then 'medium'
            when j.cause_wait_share < j.affected_wait_share then 'high'
            when j.cause = 'late_arrival' then 'low'
            else 'medium'
        end as confidence,
        case j.cause
            when 'late_arrival' then
                'Collective ' || j.name || ' waits for rank ' || j.cause_rank_id || ': it started '
                || format_ns(j.start_spread_ns) || ' after the first rank'
                || case when j.affected_ranks < j.ranks - 1 then
                    ' (with ' || (j.ranks - 1 - j.affected_ranks) || ' other rank(s) within ' || format_ns(:min_skew_ns)
                    || ' of it)'
                else '' end
                || ', and ' || j.affected_ranks || ' other rank(s) waited for it (rank ' || j.first_affected_rank_id
                || ' longest); durations range '
                || format_ns(j.min_ns) || ' to ' || format_ns(j.max_ns) || ' over ' || j.ranks || ' ranks.'
                || coalesce(' The profiler counts rank ' || j.first_affected_rank_id || '''s time as waiting: wait '
                    || format_ns(j.first_affected_wait_ns) || ', transit ' || format_ns(j.first_affected_transit_ns)
                    || ' of ' || format_ns(j.first_affected_ns) || '.', '')
                || ' The cause is on rank ' || j.cause_rank_id || ' before the collective (its compute or host), '
                || 'not the transfer.'
                || case when j.cause_wait_share >= j.affected_wait_share then
                    ' Yet rank ' || j.cause_rank_id || ' waited ' || format_ns(j.cause_wait_ns) || ' itself ('
                    || j.wait_basis || '): a rank of the group not captured here may have arrived later still.'
                else '' end
            when 'slow_transfer' then
                'Collective ' || j.name || ' is slow on rank ' || j.cause_rank_id || ': the ranks arrived within '
                || format_ns(j.start_spread_ns) || ' of each other, and rank '
                || j.cause_rank_id || ' ends ' || format_ns(j.end_spread_ns) || ' after the others'
                || coalesce(' (the profiler: transit ' || format_ns(j.cause_transit_ns) || ', wait '
                    || format_ns(j.cause_profiler_wait_ns) || ' of ' || format_ns(j.cause_ns) || ')', '')
                || '; durations range ' || format_ns(j.min_ns) || ' to ' || format_ns(j.max_ns) || ' over ' || j.ranks
                || ' ranks; check its links (HCCS/RoCE), retransmissions and contention.'
            when 'waited_elsewhere' then
                'Collective ' || j.name || ' ends ' || format_ns(j.end_spread_ns) || ' later on rank '
                || j.cause_rank_id || ' though the ' || j.ranks || ' ranks arrived within '
                || format_ns(j.start_spread_ns) || ' of each other, and the profiler counts its time as waiting (wait '
                || format_ns(j.cause_profiler_wait_ns) || ', transit ' || format_ns(j.cause_transit_ns)
                || '): not a late peer of this group, not the transfer; it waited on something these ranks do not '
                || 'show (a peer of another group, its own stream).'
            else
                'Collective ' || j.name || ' durations range ' || format_ns(j.min_ns) || ' to ' || format_ns(j.max_ns)
                || ' over ' || j.ranks || ' ranks (longest on rank ' || j.cause_rank_id
                || '), but one rank ended it before another began: the ranks'' clocks do not '
                || 'line up, so waiting and transfer cannot be told apart.'
        end
        || case g.group_said_by
            when 'operator' then ''
            when 'nothing' then ' No input names its group or states a parallel group it fits: every rank calling it '
                || 'is taken as one group.'
            else ' Its input names no group: its ranks are the '
                || case g.group_kind
                    when 'DP' then 'data' when 'TP' then 'tensor' when 'CP' then 'context' when 'EP' then 'expert'
                    else 'pipeline'
                end
                || '-parallel group ' || g.group_ranks || ' (' || g.group_said_by || ').'
        end as message,
        json_object(
            'cause', j.cause, 'affected_ranks', j.affected_ranks, 'most_affected_rank_id', j.first_affected_rank_id,
            'ranks', j.ranks, 'group', j.group_name, 'group_said_by', g.group_said_by,
            'min_ns', j.min_ns, 'max_ns', j.max_ns, 'skew', round(1.0 * (j.max_ns - j.min_ns) / j.min_ns, 4),
            'gap_of_longest', round(1.0 * (j.max_ns - j.min_ns) / j.max_ns, 4),
            'late_rank_id', j.late_rank_id, 'start_spread_ns', j.start_spread_ns, 'end_spread_ns', j.end_spread_ns,
            'wait_basis', j.wait_basis, 'cause_wait_ns', j.cause_wait_ns,
            'affected_wait_ns', round(j.affected_wait_ns), 'cause_wait_share', round(j.cause_wait_share, 4)
        ) as numbers,
        r.table_name as evidence_table,
        r.source_id as evidence_source_id,
        r.source_row as evidence_source_row,
        r.slice_id as evidence_slice_id,
        case when r.table_name = 'kernel' then (
            select k.id from kernel as k
            where k.source_id = r.source_id and k.ts = r.ts and k.source_row is r.source_row
            order by k.id limit 1
        ) end as evidence_kernel_id,
        'rank ' || r.rank_id || ': ' || format_ns(r.dur) || ', started '
        || format_ns(r.ts - r.first_start_ns) || ' after the first rank'
        || case
            when r.is_cause and j.cause = 'late_arrival' then ' (the cause: it arrived last)'
            when r.is_cause then ' (the cause: it ends last)'
            when j.cause = 'late_arrival' then ', waited ' || format_ns(r.last_start_ns - r.ts) || ' for rank '
                || j.cause_rank_id
            else ''
        end
        || coalesce(
            ', profiler wait ' || format_ns(r.profiler_wait_ns) || ', transit ' || format_ns(r.profiler_transit_ns),
            ', Notify Wait ' || cast(round(100.0 * r.wait_ns / r.dur, 1) as text) || '% of it', '') as evidence_note,
        r.position
    from judged as j
    join groups as g on g.run_id = j.run_id and g.group_name is j.group_name
    join roles as r
        on r.run_id = j.run_id and r.group_name is j.group_name and r.name = j.name and r.occurrence = j.occurrence
    where r.position <= :evidence_limit
)

-- include: _rule_output
order by run_id, finding_key, position
