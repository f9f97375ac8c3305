-- Helper (included by insight_expert_hotspot and insight_expert_model, not a query itself): the
-- layers of the MoE model passes on each rank of run :run_id, as MindStudio Insight reads them from
-- the profile to draw its expert hotspot (Ascend/msinsight server/src/modules/summary/core/
-- ExpertHotspotManager.cpp CalHeatMap, its name lists in ExpertHotspotManager.h). On the rank's CANN
-- lane, in time order: a layer's Execute API (Prefill_layer::Execute, Decoder_layer::Execute, with or
-- without the AscendCL@ prefix) starts a layer, each grouped-matmul API right after it
-- (aclnnGroupedMatmulV4, aclnnGroupedMatmulSwiglu) takes the next grouped-matmul kernel of the rank's
-- Ascend Hardware lane (in time order) as the layer's expert load, and LmHead::Execute ends a pass.
-- A pass's stage is prefill when its first Execute's name says so (any case), else decode; a layer
-- with no grouped matmul is dense, and a MoE layer's moe_layer counts the MoE layers before it.
-- CTEs: expert_layers (rank_id, pass, closed, model_stage, layer, moe_layer, visits_ns) and
-- expert_ranks (rank_id, has_lanes: the rank has slices of those names on both lanes, as
-- ExtractHeatMapFromTraceDb needs; usable: it has them and every grouped matmul has its layer and its
-- kernel, else CalHeatMap gives nothing for the rank).
expert_names as (
    select
        s.id,
        case
            when s.value in ('AscendCL@LmHead::Execute', 'LmHead::Execute') then 'head'
            when s.value in ('Prefill_layer::Execute', 'AscendCL@Decoder_layer::Execute',
                             'AscendCL@Prefill_layer::Execute', 'Decoder_layer::Execute') then 'layer'
            when s.value in ('AscendCL@aclnnGroupedMatmulV4', 'AscendCL@aclnnGroupedMatmulSwiglu',
                             'aclnnGroupedMatmulV4') then 'matmul'
            else 'kernel'
        end as kind,
        case when instr(lower(s.value), 'prefill') > 0 then 1 else 0 end as says_prefill
    from string as s
    where s.value in ('AscendCL@LmHead::Execute', 'LmHead::Execute', 'Prefill_layer::Execute',
                      'AscendCL@Decoder_layer::Execute', 'AscendCL@Prefill_layer::Execute',
                      'Decoder_layer::Execute', 'AscendCL@aclnnGroupedMatmulV4',
                      'AscendCL@aclnnGroupedMatmulSwiglu', 'aclnnGroupedMatmulV4',
                      'aclnnGroupedMatmulV4_GroupedMatmul_GroupedMatmul',
                      'aclnnGroupedMatmulSwiglu_GroupedMatmulSwiglu_GroupedMatmulSwiglu')
),

expert_lanes as (
    select t.id as thread_id, a.rank_id, case when p.name = 'CANN' then 'api' else 'kernel' end as lane
    from thread as t
    join process as p on p.id = t.process_id
    join answer_source as a on a.source_id = t.source_id and a.fact = 'timeline'
    where a.run_id = :run_id and p.name in ('CANN', 'Ascend Hardware')
),

expert_slices as (
    select l.rank_id, n.kind, n.says_prefill, s.ts, s.dur, s.id
    from expert_names as n
    join _slice as s on s.name_id = n.id
    join expert_lanes as l on l.thread_id = s.thread_id
    where (l.lane = 'api' and n.kind <> 'kernel') or (l.lane = 'kernel' and n.kind = 'kernel')
),

expert_kernels as (
    select rank_id, dur, row_number() over (partition by rank_id order by ts, id) as nth
    from expert_slices
    where kind = 'kernel'
),

expert_apis as (
    select
        rank_id, kind, says_prefill, ts, id,
        coalesce(sum(case when kind = 'head' then 1 else 0 end) over (
            partition by rank_id order by ts, id rows between unbounded preceding and 1 preceding), 0) as pass,
        sum(case when kind = 'matmul' then 1 else 0 end) over (
            partition by rank_id order by ts, id rows between unbounded preceding and current row) as nth_matmul
    from expert_slices
    where kind <> 'kernel'
),

expert_walked as (
    select
        rank_id, kind, says_prefill, pass, nth_matmul,
        sum(case when kind = 'layer' then 1 else 0 end) over (
            partition by rank_id, pass order by ts, id rows between unbounded preceding and current row) - 1 as layer
    from expert_apis
),

expert_matmuls as (
    select w.rank_id, w.pass, w.layer, k.dur
    from expert_walked as w
    left join expert_kernels as k on k.rank_id = w.rank_id and k.nth = w.nth_matmul
    where w.kind = 'matmul'
),

expert_kernel_ranks as (
    select rank_id, count(*) as kernels
    from expert_kernels
    group by rank_id
),

expert_broken_ranks as (
    select rank_id, count(*) as broken
    from expert_matmuls
    where layer < 0 or dur is null
    group by rank_id
),

expert_ranks as (
    select
        r.rank_id,
        case when k.kernels is not null then 1 else 0 end as has_lanes,
        case when k.kernels is not null and b.broken is null then 1 else 0 end as usable
    from (select distinct rank_id from expert_apis) as r
    left join expert_kernel_ranks as k on k.rank_id = r.rank_id
    left join expert_broken_ranks as b on b.rank_id = r.rank_id
),

expert_passes as (
    select
        rank_id, pass,
        max(case when kind = 'head' then 1 else 0 end) as closed,
        case when max(case when kind = 'layer' and layer = 0 then says_prefill else 0 end) = 1 then 'prefill'
             else 'decode' end as model_stage
    from expert_walked
    group by rank_id, pass
),

expert_layer_loads as (
    select w.rank_id, w.pass, w.layer, coalesce(sum(m.dur), 0) as visits_ns, count(m.layer) as matmuls
    from expert_walked as w
    left join expert_matmuls as m on m.rank_id = w.rank_id and m.pass = w.pass and m.layer = w.layer
    where w.kind = 'layer'
    group by w.rank_id, w.pass, w.layer
),

expert_layers as (
    select
        l.rank_id, l.pass, p.closed, p.model_stage, l.layer,
        case when l.matmuls > 0 then sum(case when l.matmuls > 0 then 1 else 0 end) over (
            partition by l.rank_id, l.pass order by l.layer rows between unbounded preceding and current row) - 1
        end as moe_layer,
        l.visits_ns
    from expert_layer_loads as l
    join expert_passes as p on p.rank_id = l.rank_id and p.pass = l.pass
)
