-- title: Rule mindspore_slow_link
-- description: Per run of a MindSpore cluster and transport (SDMA, RDMA), the link whose bandwidth is
--     the furthest below the mean of the transport's links, as MindInsight's parallel proposer finds it
--     (mindinsight/profiler/proposer/allproposers/parallel_proposer.py _rank_link_analyze, its threshold
--     the default): each device's links between two different ranks with their mean bandwidth over the
--     steps (view mindspore_hccl_link_mean, the mean record of hccl_raw_{device}.csv, its parallel
--     analyser's get_rank_link_summary), more than shortfall below the mean of the transport's links, only
--     when every rank of the cluster (its cluster analysis files: mindspore_cluster_rank) has an hccl_raw
--     file, as MindInsight requires. The ranks of a link are as the device's file names them. Severity
--     high from high_shortfall, medium under it; confidence medium (the bandwidth MindSpore writes adds
--     up its transfers' bandwidths: it compares links, it is not a rate on the wire). The message names
--     the device's pipeline stage where the run has stages. Evidence: the link's steps.
-- param run_id (integer, default null): Only this run; every run when null.
-- param shortfall (real, default 0.2): How far below the transport's mean a link's bandwidth must be (MindInsight's _rank_link_threshold).
-- param high_shortfall (real, default 0.5): Shortfall from which the finding is severity high.
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
with clusters as (
    select c.run_id, min(c.stage_num) as stage_num
    from mindspore_cluster_rank as c
    where (:run_id is null or c.run_id = :run_id)
        and exists (select 1 from mindspore_hccl_link_mean as l where l.run_id = c.run_id and l.rank_id = c.rank_id)
    group by c.run_id
    having count(distinct c.rank_id) = min(c.rank_size) and min(c.rank_size) = max(c.rank_size)
),

links as (
    select
        l.run_id, l.rank_id, r.stage_id, c.stage_num, l.src_rank, l.dst_rank, l.link_type,
        l.avg_bandwidth_bytes_per_s as bandwidth,
        avg(l.avg_bandwidth_bytes_per_s) over (partition by l.run_id, l.link_type) as type_mean
    from mindspore_hccl_link_mean as l
    join clusters as c on c.run_id = l.run_id
    join mindspore_cluster_rank as r on r.run_id = l.run_id and r.rank_id = l.rank_id
    where l.src_rank <> l.dst_rank
),

judged as (
    select
        run_id, rank_id, stage_id, stage_num, src_rank, dst_rank, link_type, bandwidth, type_mean,
        (type_mean - bandwidth) / nullif(type_mean, 0) as shortfall,
        row_number() over (partition by run_id, link_type
            order by (type_mean - bandwidth) / nullif(type_mean, 0) desc, rank_id, src_rank, dst_rank) as place
    from links
),

findings as (
    select run_id, rank_id, stage_id, stage_num, src_rank, dst_rank, link_type, bandwidth, type_mean, shortfall
    from judged
    where place = 1 and shortfall > :shortfall
),

evidence as (
    select
        s.run_id, l.rank_id, l.src_rank, l.dst_rank, l.link_type, l.source_id, l.source_row,
        'step ' || l.step_id || ': ' || format_bytes(l.size_bytes) || ' in ' || format_ns(l.time_ns) || ', '
        || format_rate(l.bandwidth_bytes_per_s) as note,
        l.step_id as position
    from mindspore_hccl_link as l
    join source as s on s.id = l.source_id and s.status = 'ok'
),

final as (
    select
        'run ' || f.run_id || ' ' || f.link_type || ' link ' || f.src_rank || '-' || f.dst_rank || ' of rank '
        || f.rank_id as finding_key,
        f.run_id,
        f.rank_id,
        null as step_id,
        'link_bandwidth' as subject,
        case when f.shortfall >= :high_shortfall then 'high' else 'medium' end as severity,
        'medium' as confidence,
        'The ' || f.link_type || ' link ' || f.src_rank || '-' || f.dst_rank || ' of rank ' || f.rank_id
        || case when f.stage_num > 1 then ' (stage ' || f.stage_id || ')' else '' end || ' has '
        || format_rate(f.bandwidth) || ' (its transfers'' bandwidths added up, as MindSpore writes them), '
        || cast(round(100 * f.shortfall, 2) as text) || '% below the mean of the '
        || f.link_type || ' links (' || format_rate(f.type_mean) || '; over '
        || cast(round(100 * :shortfall, 2) as text) || '%): look at its route and the load on its ranks.' as message,
        json_object('src_rank', f.src_rank, 'dst_rank', f.dst_rank, 'link_type', f.link_type,
            'stage', case when f.stage_num > 1 then f.stage_id end,
            'bandwidth_kb_per_s', round(f.bandwidth / 1000, 4), 'percent', round(100 * f.shortfall, 2),
            'type_mean_kb_per_s', round(f.type_mean / 1000, 4)) as numbers,
        'mindspore_hccl_link' as evidence_table, e.source_id as evidence_source_id,
        e.source_row as evidence_source_row, null as evidence_slice_id, null as evidence_kernel_id,
        e.note as evidence_note, e.position
    from findings as f
    left join evidence as e on e.run_id = f.run_id and e.rank_id = f.rank_id and e.src_rank = f.src_rank
        and e.dst_rank = f.dst_rank and e.link_type = f.link_type
)

-- include: _rule_output
order by run_id, finding_key, position
