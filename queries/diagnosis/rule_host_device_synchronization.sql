-- title: Rule host_device_synchronization
-- description: Per run, rank and step, the host calls that block until the device is done
--     (CANN aclrtSynchronizeStream/Device/Event, with or without timeout) when there are at
--     least min_calls of them: each drains the launch queue, so after it the device idles
--     while the host launches again (tensor.item(), .cpu(), print of device tensors, explicit
--     synchronize in the loop). Severity medium; confidence medium (a sync at the end of a step
--     is normal; how much the device lost is the host_bound_gaps rule's). Evidence: the
--     longest calls.
-- param run_id (integer, default null): Only this run; every run when null.
-- param min_calls (integer, default 3): Calls per step from which the step is reported.
-- param evidence_limit (integer, default 3): Evidence rows per finding.
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
with syncs as (
    select w.run_id, w.rank_id, w.step_id, c.source_id, c.source_row, c.slice_id, c.name, c.dur,
        row_number() over (partition by w.run_id, w.rank_id, w.step_id order by c.dur desc, c.source_row) as position
    from cann_api as c
    join source as s on s.id = c.source_id
    join step_window as w on w.run_id = s.run_id and w.rank_id = c.rank_id and c.ts >= w.start_ns and c.ts < w.end_ns
    where c.name like 'aclrtSynchronize%' and (:run_id is null or s.run_id = :run_id)
),

per_step as (
    select run_id, rank_id, step_id, count(*) as calls, sum(dur) as blocked_ns,
        case when step_id = -1 then 'the whole capture' else 'step ' || step_id end as period
    from syncs
    group by run_id, rank_id, step_id
    having count(*) >= :min_calls
),

final as (
    select
        'run ' || s.run_id || ' rank ' || s.rank_id || ' step ' || s.step_id as finding_key,
        s.run_id,
        s.rank_id,
        s.step_id,
        'rank ' || s.rank_id as subject,
        'medium' as severity,
        'medium' as confidence,
        'Rank ' || s.rank_id || ', ' || s.period || ': the host waited for the device ' || s.calls
        || ' times (' || format_ns(s.blocked_ns) || ' blocked); each sync empties '
        || 'the launch queue: drop .item()/.cpu()/printing of device tensors inside the step or move them after it.'
        as message,
        json_object('calls', s.calls, 'blocked_ns', s.blocked_ns) as numbers,
        'cann_api' as evidence_table,
        y.source_id as evidence_source_id,
        y.source_row as evidence_source_row,
        y.slice_id as evidence_slice_id,
        null as evidence_kernel_id,
        y.name || ' blocked ' || format_ns(y.dur) as evidence_note,
        y.position
    from per_step as s
    join syncs as y on y.run_id = s.run_id and y.rank_id = s.rank_id and y.step_id = s.step_id
    where y.position <= :evidence_limit
)

-- include: _rule_output
order by run_id, rank_id, step_id, position
