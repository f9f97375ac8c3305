-- title: Parallel strategy of a run
-- description: The parallel strategy each run was launched with, as MindStudio Insight's Summary page
--     asks it (summary/query/parallelStrategy): the tensor-, pipeline-, data-, context- and
--     expert-parallel sizes of its shape (run_shape; 1 where the run does not give a size) and the
--     rank order, read from the ranks' places (rank_place) as the real server reads its cluster's
--     step table: when the first rank of a later pipeline stage comes before the first rank of a
--     later data-parallel replica, pipeline stages are numbered inside a replica (Megatron-LM's
--     tp-cp-pp-ep-dp), else replicas inside a stage (Megatron-LM's default tp-cp-ep-dp-pp).
-- param run_id (integer, default null): Only this run; every run when null.
-- column run_id: Run.
-- column shape_known: 1 when the run says its parallel groups or sizes (run_shape), else 0.
-- column algorithm: megatron-lm(tp-cp-ep-dp-pp) or megatron-lm(tp-cp-pp-ep-dp): the rank order.
-- column tp_size: Tensor-parallel size (1 when not given).
-- column pp_size: Pipeline-parallel size (1 when not given).
-- column dp_size: Data-parallel size (1 when not given).
-- column cp_size: Context-parallel size (1 when not given).
-- column ep_size: Expert-parallel size (1 when not given).
-- column world_size: Number of ranks of the cluster.
-- column said_by: What says the shape (run_shape's said_by).
with first_moves as (
    select
        run_id,
        min(case when stage_id > 0 then rank_id end) as first_later_stage,
        min(case when dp_index > 0 then rank_id end) as first_later_replica
    from rank_place
    group by run_id
),

final as (
    select
        s.run_id, s.shape_known,
        case
            when f.first_later_stage < coalesce(f.first_later_replica, s.world_size) then 'megatron-lm(tp-cp-pp-ep-dp)'
            else 'megatron-lm(tp-cp-ep-dp-pp)'
        end as algorithm,
        coalesce(s.tp_size, 1) as tp_size, coalesce(s.pp_size, 1) as pp_size, coalesce(s.dp_size, 1) as dp_size,
        coalesce(s.cp_size, 1) as cp_size, coalesce(s.ep_size, 1) as ep_size, s.world_size, s.said_by
    from run_shape as s
    left join first_moves as f on f.run_id = s.run_id
    where :run_id is null or s.run_id = :run_id
)

select run_id, shape_known, algorithm, tp_size, pp_size, dp_size, cp_size, ep_size, world_size, said_by
from final
order by run_id
