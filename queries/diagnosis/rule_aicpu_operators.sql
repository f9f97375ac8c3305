-- title: Rule aicpu_operators
-- description: Kernel names that run on the AI CPU (op_class aicpu) and take at least
--     min_share of the compute kernels' time (op_class.is_compute), over all ranks of a run (its answering
--     kernels): an AI CPU operator runs far slower than an AI Core one and often stands for a dtype the AI Core implementation
--     lacks (int64, double) or an operator without an AI Core kernel (msprof-analyze's
--     advisor has the same rule). Severity medium from high_share, low under it; confidence
--     high (the class is the input's). Evidence: the longest runs of each name.
-- param run_id (integer, default null): Only this run; every run when null.
-- param min_share (real, default 0.01): Share of compute kernel time from which a name is reported.
-- param high_share (real, default 0.05): Share from which the finding is severity medium.
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
with compute as (
    select k.run_id, sum(k.dur) as all_ns
    from kernel_answer as k
    join op_class as c on c.op_class = k.op_class and c.is_compute = 1
    where k.dur > 0 and (:run_id is null or k.run_id = :run_id)
    group by k.run_id
),

names as (
    select k.run_id, k.name, count(*) as runs, sum(k.dur) as total_ns, count(distinct k.rank_id) as ranks,
        1.0 * sum(k.dur) / c.all_ns as share
    from kernel_answer as k
    join compute as c on c.run_id = k.run_id
    where k.op_class = 'aicpu' and k.dur > 0
    group by k.run_id, k.name, c.all_ns
    having sum(k.dur) >= :min_share * c.all_ns
),

longest as (
    select k.run_id, k.name, k.id as kernel_id, k.source_id, k.source_row, k.slice_id, k.rank_id, k.dur,
        k.input_dtypes,
        row_number() over (partition by k.run_id, k.name order by k.dur desc, k.id) as position
    from kernel_answer as k
    join names as n on n.run_id = k.run_id and n.name = k.name
    where k.op_class = 'aicpu'
),

final as (
    select
        'run ' || n.run_id || ' ' || n.name as finding_key,
        n.run_id,
        null as rank_id,
        null as step_id,
        n.name as subject,
        case when n.share >= :high_share then 'medium' else 'low' end as severity,
        'high' as confidence,
        'AI CPU operator ' || n.name || ' takes ' || cast(round(100 * n.share, 1) as text)
        || '% of compute kernel time (' || n.runs || ' runs on ' || n.ranks || ' ranks): AI CPU is far slower '
        || 'than AI Core; cast its inputs to a dtype the AI Core kernel takes (int64 -> int32, float64 -> float32) '
        || 'or replace the operator.' as message,
        json_object('total_ns', n.total_ns, 'runs', n.runs, 'ranks', n.ranks, 'share', round(n.share, 4)) as numbers,
        'kernel' as evidence_table,
        l.source_id as evidence_source_id,
        l.source_row as evidence_source_row,
        l.slice_id as evidence_slice_id,
        l.kernel_id as evidence_kernel_id,
        'run of ' || format_ns(l.dur) || ' on rank ' || l.rank_id
        || coalesce(' with input dtypes ' || l.input_dtypes, '') as evidence_note,
        l.position
    from names as n
    join longest as l on l.run_id = n.run_id and l.name = n.name
    where l.position <= :evidence_limit
)

-- include: _rule_output
order by run_id, finding_key, position
