-- title: Rule communication_collective_slow
-- description: Every collective instance (same run, name and group in hccl_operator: the
--     COMMUNICATION_OP rows of a rank db or the HCCL rows of the text export, whichever answers
--     the rank; a name a rank repeats is one instance per call, the k-th call of every rank
--     together) seen on two or more ranks of one run whose duration differs by more than skew across ranks
--     ((longest - shortest) / shortest). The time after the last rank arrived tells the
--     cause: when the ranks still finish apart by more than skew of it, the collective
--     itself is slow on the rank that ends last (a link, a peer, contention): severity high.
--     Otherwise the skew is the wait for the rank that started last: severity low (the
--     slow_rank_suspected rule speaks about that rank). When one rank ended the instance before
--     another began, the ranks' clocks do not line up: severity medium, confidence low.
--     wait_share is the rank's Notify Wait task time (busiest plane) over its duration
--     (level-1 profiles; NULL without tasks). Confidence high when Notify Wait tasks
--     corroborate (a slow collective: the slow rank's wait share is under the ranks' mean,
--     its extra time is transfer; a late rank: the skew is its lateness), medium without
--     tasks or when they disagree.
--     Evidence: the instance's row on every rank, the slow rank first.
-- param run_id (integer, default null): Only this run; every run when null.
-- param skew (real, default 0.3): Relative duration skew above which an instance is flagged.
-- param min_skew_ns (integer, default 10000): Skews shorter than this many ns are ignored.
-- param evidence_limit (integer, default 8): Evidence rows per finding.
-- column finding_key: Identifies the finding the row belongs to.
-- column run_id: Run the finding is about.
-- column rank_id: Rank the finding is about.
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
        h.run_id, h.table_name, h.row_id, h.source_id, h.source_row, h.slice_id, h.rank_id, h.group_name, h.name, h.ts,
        h.dur, row_number() over (partition by h.run_id, h.group_name, h.name, h.rank_id order by h.ts) as occurrence
    from hccl_operator as h
    where h.dur > 0 and (:run_id is null or h.run_id = :run_id)
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

plane_waits as (
    select t.source_id, t.op_id, t.plane_id, sum(s.dur) as wait_ns
    from communication_task as t
    join _slice as s on s.id = t.slice_id
    where t.task_type like 'Notify%Wait'
    group by t.source_id, t.op_id, t.plane_id
),

waits as (
    -- planes run in parallel: the busiest plane's wait is the rank's
    select source_id, op_id, max(wait_ns) as wait_ns
    from plane_waits
    group by source_id, op_id
),

shares as (
    select
        k.run_id, k.table_name, k.row_id, k.source_id, k.source_row, k.slice_id, k.rank_id, k.group_name, k.name,
        k.occurrence,
        k.ts, k.dur, k.ranks, k.min_ns, k.max_ns, k.first_start_ns, k.last_start_ns, k.first_end_ns, k.last_end_ns,
        k.end_order, k.start_order, 1.0 * w.wait_ns / k.dur as wait_share,
        avg(1.0 * w.wait_ns / k.dur) over (partition by k.run_id, k.group_name, k.name, k.occurrence) as mean_wait_share
    from skewed as k
    left join waits as w on w.source_id = k.source_id and w.op_id = k.op_id
),

instances as (
    select
        s.run_id, s.group_name, s.name, s.occurrence, s.rank_id as slow_rank_id, s.ranks, s.min_ns, s.max_ns,
        s.wait_share, s.mean_wait_share, s.first_start_ns, s.last_start_ns, s.first_end_ns, s.last_end_ns,
        (select l.rank_id from shares as l
         where l.run_id = s.run_id and l.group_name is s.group_name and l.name = s.name and l.occurrence = s.occurrence
             and l.start_order = 1)
        as late_rank_id,
        s.first_end_ns > s.last_start_ns as aligned,
        s.first_end_ns > s.last_start_ns
        and (s.last_end_ns - s.first_end_ns) > :skew * (s.first_end_ns - s.last_start_ns) as collective_slow,
        (select ks.step_id from kernel_step as ks where ks.table_name = s.table_name and ks.row_id = s.row_id)
        as step_id
    from shares as s
    where s.end_order = 1
),

evidence as (
    select
        s.run_id, s.group_name, s.name, s.occurrence, s.table_name, s.source_id, s.source_row, s.slice_id, s.rank_id,
        s.dur, s.ts, s.first_start_ns, s.wait_share,
        row_number() over (partition by s.run_id, s.group_name, s.name, s.occurrence order by s.end_order) as position
    from shares as s
),

final as (
    select
        'run ' || i.run_id || ' ' || coalesce(i.group_name || ' ', '') || i.name || ' #' || i.occurrence as finding_key,
        i.run_id,
        case when i.collective_slow or not i.aligned then i.slow_rank_id else i.late_rank_id end as rank_id,
        i.step_id,
        i.name as subject,
        case when i.collective_slow then 'high' when i.aligned then 'low' else 'medium' end as severity,
        case
            when not i.aligned then 'low'
            when i.wait_share is null then 'medium'
            when i.collective_slow and i.wait_share < i.mean_wait_share then 'high'
            when not i.collective_slow then 'high'
            else 'medium'
        end as confidence,
        case
            when not i.aligned then
                'Collective ' || i.name || ' durations range ' || format_ns(i.min_ns) || ' to ' || format_ns(i.max_ns) || ' over '
                || i.ranks || ' ranks (longest on rank '
                || i.slow_rank_id || '), but one rank ended it before another began: the ranks'' clocks do not '
                || 'line up, so waiting and transfer cannot be told apart.'
            when i.collective_slow then
                'Collective ' || i.name || ' is slow on rank ' || i.slow_rank_id || ': durations range '
                || format_ns(i.min_ns) || ' to ' || format_ns(i.max_ns)
                || ' over ' || i.ranks || ' ranks and rank ' || i.slow_rank_id || ' ends '
                || format_ns(i.last_end_ns - i.first_end_ns)
                || ' after the others once all had arrived; check its links (HCCS/RoCE), retransmissions and contention.'
            else
                'Collective ' || i.name || ' durations range ' || format_ns(i.min_ns) || ' to ' || format_ns(i.max_ns) || ' over ' || i.ranks
                || ' ranks because rank ' || i.late_rank_id || ' started it '
                || format_ns(i.last_start_ns - i.first_start_ns)
                || ' late: the others wait for it.'
        end as message,
        json_object(
            'ranks', i.ranks, 'min_ns', i.min_ns, 'max_ns', i.max_ns,
            'skew', round(1.0 * (i.max_ns - i.min_ns) / i.min_ns, 4),
            'late_rank_id', i.late_rank_id, 'start_spread_ns', i.last_start_ns - i.first_start_ns,
            'end_spread_ns', i.last_end_ns - i.first_end_ns, 'slow_rank_wait_share', round(i.wait_share, 4)
        ) as numbers,
        e.table_name as evidence_table,
        e.source_id as evidence_source_id,
        e.source_row as evidence_source_row,
        e.slice_id as evidence_slice_id,
        case when e.table_name = 'kernel' then (
            select k.id from kernel as k
            where k.source_id = e.source_id and k.ts = e.ts and k.source_row is e.source_row
            order by k.id limit 1
        ) end as evidence_kernel_id,
        'rank ' || e.rank_id || ': ' || format_ns(e.dur) || ', started '
        || format_ns(e.ts - e.first_start_ns) || ' after the first rank'
        || coalesce(', Notify Wait ' || cast(round(100 * e.wait_share, 1) as text) || '% of it', '') as evidence_note,
        e.position
    from instances as i
    join evidence as e
        on e.run_id = i.run_id and e.group_name is i.group_name and e.name = i.name and e.occurrence = i.occurrence
    where e.position <= :evidence_limit
)

-- include: _rule_output
order by run_id, finding_key, position
