-- title: MindSpore parallel stages
-- description: Per run and pipeline stage, the parallel mode and the stage's devices as MindSpore's
--     parallel strategy files state them (parallel_strategy_{rank}.json: mindspore_parallel_config), the
--     metadata MindInsight's parallel strategy view shows first (its analyser's parallel_type and
--     stage_devices); the ranks whose files were read, and how many of their operators carry a shard
--     strategy. Ranks of one stage that state another mode or other devices are a row of their own.
-- param run_id (integer, default null): Only this run; every run when null.
-- column run_id: Run.
-- column stage_id: Pipeline stage (config.stageId).
-- column parallel_type: The parallel mode (config.parallelType).
-- column stage_devices: The stage's devices as the files state them (a JSON list).
-- column ranks: The ranks whose files state them, comma-separated, ascending.
-- column strategy_operators: Operators with a shard strategy, summed over those ranks.
with configs as (
    select s.run_id, c.source_id, c.rank_id, c.stage_id, c.parallel_type, c.stage_devices
    from mindspore_parallel_config as c
    join source as s on s.id = c.source_id and s.status = 'ok'
    where (:run_id is null or s.run_id = :run_id)
),

strategies as (
    select source_id, count(strategy) as operators
    from mindspore_parallel_operator
    group by source_id
),

ranked as (
    select c.run_id, c.rank_id, c.stage_id, c.parallel_type, c.stage_devices, coalesce(o.operators, 0) as operators
    from configs as c
    left join strategies as o on o.source_id = c.source_id
    order by c.run_id, c.stage_id, c.rank_id
),

final as (
    select
        run_id, stage_id, parallel_type, stage_devices,
        group_concat(rank_id, ',') as ranks,
        sum(operators) as strategy_operators
    from ranked
    group by run_id, stage_id, parallel_type, stage_devices
)

select run_id, stage_id, parallel_type, stage_devices, ranks, strategy_operators
from final
order by run_id, stage_id, ranks
