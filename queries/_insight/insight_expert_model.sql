-- title: Insight expert model
-- description: What a run's profile says of its MoE model, per rank, as MindStudio Insight reads it
--     before drawing its expert hotspot (Ascend/msinsight ExpertHotspotManager.cpp CalHeatMap,
--     ExtractHeatMapFromTraceDb): whether the rank's CANN and Ascend Hardware lanes give the layers,
--     and the layers of its last pass ended by an LmHead API, with the dense ones (no grouped matmul).
--     One row per rank holding a layer, grouped-matmul or LmHead API; none for a training run.
-- param run_id (integer, required): The run.
-- column rank_id: The rank.
-- column has_lanes: 1 when the rank has grouped-matmul kernels (and, being listed, one of the APIs).
-- column usable: 1 when it has, and each grouped-matmul API follows a layer API and has its kernel.
-- column model_layers: Number of layers of the rank's last pass ended by an LmHead API (0 when none ended).
-- column dense_layers: The dense layers of that pass, comma-separated in order ('' when none).
with
-- include: _insight_expert_layers
,

last_closed as (
    select rank_id, max(pass) as pass
    from expert_layers
    where closed = 1
    group by rank_id
),

last_layers as (
    select l.rank_id, l.layer, l.moe_layer
    from expert_layers as l
    join last_closed as c on c.rank_id = l.rank_id and c.pass = l.pass
    order by l.rank_id, l.layer
),

last_pass as (
    select
        rank_id,
        count(*) as model_layers,
        group_concat(case when moe_layer is null then layer end, ',') as dense_layers
    from last_layers
    group by rank_id
),

final as (
    select
        r.rank_id, r.has_lanes, r.usable,
        coalesce(p.model_layers, 0) as model_layers,
        coalesce(p.dense_layers, '') as dense_layers
    from expert_ranks as r
    left join last_pass as p on p.rank_id = r.rank_id
)

select rank_id, has_lanes, usable, model_layers, dense_layers
from final
order by rank_id
