-- title: Rule minddata_data_bound
-- description: Per run and MindSpore device, steps that waited for the data pipeline, as MindInsight's
--     minddata proposer judges them (mindinsight/profiler/proposer/allproposers/minddata_proposer.py and
--     minddata_pipeline_proposer.py; their thresholds are the defaults). Subject data_process: the
--     device queue was empty when more than empty_share of the steps sent their batch
--     (minddata_step_queue): the data pipeline cannot keep up and the device waits (data-bound).
--     Subject data_transmission: the device queue was not empty that often, but GetNext found the
--     device's queue empty (mindspore_get_next): the batches reach the device late. The message names
--     the pipeline operators that hold it back (minddata_op_queue, as MindInsight's pipeline proposer
--     picks them: a dataset operator whose output queue is used below low_usage, an operator whose
--     input queue is fuller than its own by more than usage_gap) and the host's CPU when more than
--     busy_cpu_pct of it was active on average (minddata_cpu_utilization). Severity high from
--     high_share of the steps, medium under it; data_transmission low. Confidence high (the queue
--     sizes are recorded). Evidence: the empty steps' queue records (data_process) or the GetNext
--     records that found the queue empty (data_transmission), then those operators' rows.
-- param run_id (integer, default null): Only this run; every run when null.
-- param empty_share (real, default 0.3): Share of steps with an empty device queue above which the run is data-bound (MindInsight's DEVICE_QUEUE_EMPTY_WARNING_THRESHOLD).
-- param high_share (real, default 0.6): Share of empty steps from which the finding is severity high.
-- param low_usage (real, default 0.6): Usage rate of a dataset operator's output queue under which it is too slow (MindInsight's low threshold).
-- param usage_gap (real, default 0.1): How much fuller an operator's input queue must be than its own to name it (MindInsight's).
-- param busy_cpu_pct (real, default 80): Mean active CPU (100 - idle) of the host above which the message says the host is busy (MindInsight's).
-- param evidence_limit (integer, default 5): Empty steps (and as many operators) shown per finding.
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
with queue as (
    select run_id, rank_id, count(*) as steps, sum(is_empty) as empty_steps, sum(is_full) as full_steps,
        1.0 * sum(is_empty) / count(*) as empty_share
    from minddata_step_queue
    where queue_size is not null and (:run_id is null or run_id = :run_id)
    group by run_id, rank_id
),

get_next as (
    select s.run_id, g.rank_id, count(*) as batches,
        sum(case when g.queue_size = 0 then 1 else 0 end) as empty_batches
    from mindspore_get_next as g
    join source as s on s.id = g.source_id and s.status = 'ok'
    group by s.run_id, g.rank_id
),

cpu as (
    select s.run_id, c.rank_id, 100 - avg(c.value) as active_pct
    from mindspore_minddata_cpu as c
    join source as s on s.id = c.source_id and s.status = 'ok'
    where c.scope = 'device' and c.metric = 'idle_utilization'
    group by s.run_id, c.rank_id
),

judged as (
    select q.run_id, q.rank_id, q.steps, q.empty_steps, q.full_steps, q.empty_share,
        g.batches, g.empty_batches, c.active_pct,
        case
            when q.empty_steps > :empty_share * q.steps then 'data_process'
            when g.empty_batches > 0 then 'data_transmission'
        end as subject
    from queue as q
    left join get_next as g on g.run_id = q.run_id and g.rank_id = q.rank_id
    left join cpu as c on c.run_id = q.run_id and c.rank_id = q.rank_id
),

slow_ops as (
    select o.run_id, o.rank_id, o.source_id, o.source_row, o.op_id, o.op_type || '_' || o.op_id as op_name,
        o.queue_usage_rate, o.max_child_usage_rate,
        row_number() over (partition by o.run_id, o.rank_id order by o.queue_usage_rate, o.op_id) as position
    from minddata_op_queue as o
    where o.parent_op_id is not null
        and ((o.children = 0 and o.queue_usage_rate < :low_usage)
            or o.max_child_usage_rate - o.queue_usage_rate > :usage_gap)
),

named as (
    select run_id, rank_id, count(*) as operators,
        group_concat(op_name, ', ') as op_names
    from (select run_id, rank_id, op_name, position from slow_ops order by run_id, rank_id, position)
    group by run_id, rank_id
),

findings as (
    select j.run_id, j.rank_id, j.subject, j.steps, j.empty_steps, j.full_steps, j.empty_share, j.batches,
        j.empty_batches, j.active_pct, n.operators, n.op_names
    from judged as j
    left join named as n on n.run_id = j.run_id and n.rank_id = j.rank_id
    where j.subject is not null
),

evidence as (
    select run_id, rank_id, 'data_process' as subject, 'mindspore_device_queue' as evidence_table, source_id,
        queue_source_row as source_row,
        'step ' || step_id || ': device queue empty (capacity ' || queue_capacity || ')' as note,
        row_number() over (partition by run_id, rank_id order by step_id) as position
    from minddata_step_queue
    where is_empty = 1 and (:run_id is null or run_id = :run_id)
    union all
    select s.run_id, g.rank_id, 'data_transmission', 'mindspore_get_next', g.source_id, g.source_row,
        'batch ' || g.source_row || ': GetNext found the queue empty and waited '
        || format_ns(g.end_ns - g.start_ns),
        row_number() over (partition by s.run_id, g.rank_id order by g.source_row)
    from mindspore_get_next as g
    join source as s on s.id = g.source_id and s.status = 'ok'
    where g.queue_size = 0
    union all
    select run_id, rank_id, null, 'mindspore_minddata_op', source_id, source_row,
        'operator ' || op_name || ': output queue ' || cast(round(100 * queue_usage_rate, 1) as text) || '% used'
        || coalesce(', its input ' || cast(round(100 * max_child_usage_rate, 1) as text) || '%', ''),
        :evidence_limit + position
    from slow_ops
),

final as (
    select
        'run ' || f.run_id || ' rank ' || f.rank_id || ' ' || f.subject as finding_key,
        f.run_id,
        f.rank_id,
        null as step_id,
        f.subject,
        case
            when f.subject = 'data_transmission' then 'low'
            when f.empty_share >= :high_share then 'high'
            else 'medium'
        end as severity,
        'high' as confidence,
        case
            when f.subject = 'data_process' then
                'The device queue was empty in ' || f.empty_steps || ' of ' || f.steps || ' steps ('
                || cast(round(100 * f.empty_share, 1) as text) || '%, over ' || cast(round(100 * :empty_share, 1) as text)
                || '%): the data pipeline does not keep up and the device waits for data'
            else
                'GetNext found the device''s queue empty ' || f.empty_batches || ' times in ' || f.batches
                || ' batches although the device queue was seldom empty: batches reach the device late'
        end
        || coalesce('; slowest pipeline operators: ' || f.op_names, '')
        || case when f.active_pct > :busy_cpu_pct
            then '; the host''s CPU was ' || cast(round(f.active_pct, 1) as text) || '% active: more workers will not help'
            else '' end
        || '.' as message,
        json_object('steps', f.steps, 'empty_steps', f.empty_steps, 'full_steps', f.full_steps,
            'empty_share', round(f.empty_share, 4), 'get_next_batches', f.batches,
            'get_next_empty', f.empty_batches, 'cpu_active_pct', f.active_pct, 'slow_operators', f.operators)
            as numbers,
        e.evidence_table, e.source_id as evidence_source_id, e.source_row as evidence_source_row,
        null as evidence_slice_id, null as evidence_kernel_id, e.note as evidence_note, e.position
    from findings as f
    left join evidence as e on e.run_id = f.run_id and e.rank_id = f.rank_id
        and (e.subject is null or e.subject = f.subject)
        and (e.position <= :evidence_limit
            or (e.evidence_table = 'mindspore_minddata_op' and e.position <= 2 * :evidence_limit))
)

-- include: _rule_output
order by run_id, finding_key, position
