-- title: Insight expert hotspot
-- description: The load of each MoE layer on each rank of a run, per model stage, as MindStudio
--     Insight's Summary page draws its expert hotspot from a profile (Ascend/msinsight
--     ExpertHotspotManager.cpp CalHeatMap): the time of the grouped-matmul kernels a layer's
--     grouped-matmul APIs launched, summed over the model passes of that stage. Only ranks whose
--     profile gives it (insight_expert_model usable); none where the profile has no layer APIs
--     (a training run's).
-- param run_id (integer, required): The run.
-- column rank_id: The rank.
-- column model_stage: prefill or decode (the stage the pass's first layer API names).
-- column layer: The layer's place among all layers of a pass (dense ones counted), from 0.
-- column moe_layer: The layer's place among the MoE layers of its last pass, from 0.
-- column visits_ns: Summed duration of the layer's grouped-matmul kernels, in ns.
with
-- include: _insight_expert_layers
,

loads as (
    select
        l.rank_id, l.model_stage, l.layer, l.visits_ns,
        first_value(l.moe_layer) over (
            partition by l.rank_id, l.model_stage, l.layer order by l.pass desc) as moe_layer
    from expert_layers as l
    join expert_ranks as r on r.rank_id = l.rank_id and r.usable = 1
    where l.moe_layer is not null
),

final as (
    select rank_id, model_stage, layer, max(moe_layer) as moe_layer, sum(visits_ns) as visits_ns
    from loads
    group by rank_id, model_stage, layer
)

select rank_id, model_stage, layer, moe_layer, visits_ns
from final
order by rank_id, model_stage, layer
