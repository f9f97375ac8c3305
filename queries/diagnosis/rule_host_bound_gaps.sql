-- title: Rule host_bound_gaps
-- description: Per run, rank and step, the gaps longer than min_gap_ns in which no device
--     kernel or HCCL operator ran (on any stream; the answering kernels, kernel_answer and
--     hccl_operator) and in which the host started a CANN call (a
--     framework operator call for ranks without CANN rows): the device waits for the host
--     to launch (dispatch-bound); a call begun before the gap (a synchronize) does not count. Flagged when those gaps add up to more
--     than min_share of the step; severity high from high_share. When gaps end right before
--     a tiling-dependent operator (tiling reads input values on the host before each launch:
--     FusedInferAttentionScore, IncreFlashAttention, PromptFlashAttention, GroupedMatmul,
--     MoeInitRouting, NonZero, Unique), the message says so and that tiling sink (seed 002)
--     helps only where their shapes are static; rule host_tiling_not_sunk checks that and advises.
--     Confidence high when every flagged gap has a host call inside it and the step has no
--     unexplained idle time, medium otherwise. Evidence: the longest gaps, each as the kernel
--     that ended it and the host call that ran in it.
-- param run_id (integer, default null): Only this run; every run when null.
-- param min_gap_ns (integer, default 20000): Idle time shorter than this is not a gap.
-- param min_share (real, default 0.05): Share of the step the host-bound gaps must exceed.
-- param high_share (real, default 0.2): Share from which the finding is severity high.
-- param evidence_limit (integer, default 6): Evidence rows per finding (two per gap).
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
with tiling_dependent as (
    select 'fusedinferattentionscore' as pattern
    union all select 'increflashattention'
    union all select 'promptflashattention'
    union all select 'groupedmatmul'
    union all select 'moeinitrouting'
    union all select 'nonzero'
    union all select 'unique'
),

activity as (
    -- device work: the answering kernels, and HCCL operators (a rank db keeps them apart from the kernels)
    select run_id, case when id is null then 'slice' else 'kernel' end as table_name, id as kernel_id, rank_id,
        source_id, source_row, slice_id, name, op_type, ts, dur
    from kernel_answer
    where :run_id is null or run_id = :run_id
    union all
    select h.run_id, h.table_name,
        case when h.table_name = 'kernel' then (
            select k.id from kernel as k
            where k.source_id = h.source_id and k.ts = h.ts and k.source_row is h.source_row
            order by k.id limit 1
        ) end as kernel_id,
        h.rank_id, h.source_id, h.source_row, h.slice_id, h.name, h.op_type, h.ts, h.dur
    from hccl_operator as h
    where :run_id is null or h.run_id = :run_id
),

ordered as (
    select
        w.run_id, w.rank_id, w.step_id, w.start_ns, w.end_ns, a.table_name, a.kernel_id, a.source_id, a.source_row,
        a.slice_id, a.name, a.op_type, a.ts,
        max(a.ts + a.dur) over (
            partition by w.run_id, w.rank_id, w.step_id order by a.ts, a.kernel_id, a.slice_id
            rows between unbounded preceding and 1 preceding
        ) as reach
    from step_window as w
    join activity as a on a.run_id = w.run_id and a.rank_id = w.rank_id and a.ts >= w.start_ns and a.ts < w.end_ns
),

gaps as (
    select
        run_id, rank_id, step_id, start_ns, end_ns, table_name, kernel_id, source_id, source_row, slice_id, name,
        op_type, reach as gap_start_ns, ts as gap_end_ns, ts - reach as gap_ns,
        exists (
            select 1 from tiling_dependent as t
            where lower(replace(coalesce(op_type, '') || ' ' || coalesce(name, ''), '_', '')) like '%' || t.pattern || '%'
        ) as tiling_dependent
    from ordered
    where reach is not null and ts - reach > :min_gap_ns
),

cann_calls as (
    select s.run_id, 'cann_api' as table_name, c.rank_id, c.source_id, c.source_row, c.slice_id, c.name, c.ts, c.dur
    from cann_api as c
    join source as s on s.id = c.source_id
    where :run_id is null or s.run_id = :run_id
),

host_calls as (
    -- CANN calls; framework operator calls for ranks without CANN rows
    select run_id, table_name, rank_id, source_id, source_row, slice_id, name, ts, dur from cann_calls
    union all
    select s.run_id, 'pytorch_api' as table_name, p.rank_id, p.source_id, p.source_row, p.slice_id, p.name, p.ts, p.dur
    from pytorch_api as p
    join source as s on s.id = p.source_id
    where p.type = 'op' and (:run_id is null or s.run_id = :run_id)
        and not exists (select 1 from cann_calls as c where c.run_id = s.run_id and c.rank_id = p.rank_id)
),

hosted as (
    select
        g.run_id, g.rank_id, g.step_id, g.start_ns, g.end_ns, g.table_name, g.kernel_id, g.source_id, g.source_row,
        g.slice_id, g.name, g.gap_start_ns, g.gap_end_ns, g.gap_ns, g.tiling_dependent,
        (select min(h.ts) from host_calls as h
         where h.run_id = g.run_id and h.rank_id = g.rank_id and h.ts >= g.gap_start_ns and h.ts < g.gap_end_ns)
        as host_ts
    from gaps as g
),

per_step as (
    select
        run_id, rank_id, step_id, start_ns, end_ns,
        count(*) as gaps,
        sum(gap_ns) as gap_ns,
        sum(case when host_ts is not null then 1 else 0 end) as host_gaps,
        sum(case when host_ts is not null then gap_ns else 0 end) as host_gap_ns,
        sum(case when host_ts is not null and tiling_dependent then 1 else 0 end) as tiling_gaps
    from hosted
    group by run_id, rank_id, step_id, start_ns, end_ns
),

flagged as (
    select
        run_id, rank_id, step_id, gaps, gap_ns, host_gaps, host_gap_ns, tiling_gaps, end_ns - start_ns as step_ns,
        1.0 * host_gap_ns / (end_ns - start_ns) as share,
        case when step_id = -1 then 'the whole capture' else 'step ' || step_id end as period
    from per_step
    where end_ns > start_ns and host_gap_ns > :min_share * (end_ns - start_ns)
),

picked as (
    select
        h.run_id, h.rank_id, h.step_id, h.table_name, h.kernel_id, h.source_id, h.source_row, h.slice_id, h.name,
        h.gap_ns, h.tiling_dependent, h.host_ts,
        row_number() over (
            partition by h.run_id, h.rank_id, h.step_id order by h.gap_ns desc, h.kernel_id, h.slice_id
        ) as gap_order
    from hosted as h
    join flagged as f on f.run_id = h.run_id and f.rank_id = h.rank_id and f.step_id = h.step_id
    where h.host_ts is not null
),

host_rows as (
    select
        p.run_id, p.rank_id, p.step_id, p.gap_order, c.table_name, c.source_id, c.source_row, c.slice_id, c.name,
        row_number() over (
            partition by p.run_id, p.rank_id, p.step_id, p.gap_order order by c.table_name, c.source_row
        ) as pick
    from picked as p
    join host_calls as c on c.run_id = p.run_id and c.rank_id = p.rank_id and c.ts = p.host_ts
),

evidence as (
    select
        p.run_id, p.rank_id, p.step_id, 2 * p.gap_order - 1 as position, p.table_name, p.source_id, p.source_row,
        p.slice_id, p.kernel_id,
        p.name || ' waited ' || format_ns(p.gap_ns) || ' on an idle device'
        || case when p.tiling_dependent then ' (tiling-dependent operator)' else '' end as note
    from picked as p
    union all
    select
        h.run_id, h.rank_id, h.step_id, 2 * h.gap_order as position, h.table_name, h.source_id, h.source_row,
        h.slice_id, null as kernel_id, 'host call ' || h.name || ' started during that gap' as note
    from host_rows as h
    where h.pick = 1
),

final as (
    select
        'run ' || f.run_id || ' rank ' || f.rank_id || ' step ' || f.step_id as finding_key,
        f.run_id,
        f.rank_id,
        f.step_id,
        'rank ' || f.rank_id as subject,
        case when f.share >= :high_share then 'high' else 'medium' end as severity,
        case when f.host_gaps = f.gaps then 'high' else 'medium' end as confidence,
        'Rank ' || f.rank_id || ', ' || f.period || ': the device idled '
        || format_ns(f.host_gap_ns) || ' (' || cast(round(100 * f.share, 1) as text)
        || '% of ' || case when f.step_id = -1 then 'it' else 'the step' end || ') in ' || f.host_gaps
        || ' gaps while the host was launching: host-bound; '
        || case
            when f.tiling_gaps > 0 then f.tiling_gaps || ' gaps end before tiling-dependent operators, tiled on the host'
                || ' before each launch: where their shapes are static, tiling sink moves that to the device'
                || ' (finding host_tiling_not_sunk says where it applies).'
            else 'reduce per-launch host work (graph mode / aclgraph, fewer small operators, taskset binding).'
        end as message,
        json_object(
            'step_ns', f.step_ns, 'gaps', f.gaps, 'gap_ns', f.gap_ns, 'host_gaps', f.host_gaps,
            'host_gap_ns', f.host_gap_ns, 'share', round(f.share, 4), 'tiling_gaps', f.tiling_gaps
        ) as numbers,
        e.table_name as evidence_table,
        e.source_id as evidence_source_id,
        e.source_row as evidence_source_row,
        e.slice_id as evidence_slice_id,
        e.kernel_id as evidence_kernel_id,
        e.note as evidence_note,
        e.position
    from flagged as f
    join evidence as e on e.run_id = f.run_id and e.rank_id = f.rank_id and e.step_id = f.step_id
    where e.position <= :evidence_limit
)

-- include: _rule_output
order by run_id, rank_id, step_id, position
