-- title: MindSpore operators' shard strategies
-- description: Per run, pipeline stage and operator, its shard strategy and the ranks holding it
--     (parallel_strategy_{rank}.json: mindspore_parallel_operator), the operators of the graph
--     MindInsight's parallel strategy view draws per stage with their strategy (parallel_shard) and
--     communication groups; an operator whose ranks disagree on its strategy is a row per strategy.
-- param run_id (integer, default null): Only this run; every run when null.
-- param stage_id (integer, default null): Only this pipeline stage; every stage when null.
-- column run_id: Run.
-- column stage_id: Pipeline stage.
-- column full_name: The operator's full name.
-- column op_type: Operator type.
-- column scope: The operator's scope.
-- column strategy: The shard strategy (JSON: one list of splits per input; null when none).
-- column ranks: The ranks holding the operator with this strategy, comma-separated, ascending.
-- column parallel_groups: Their communication groups, comma-separated (null when none).
with operators as (
    select s.run_id, c.stage_id, o.rank_id, o.source_row, o.full_name, o.op_type, o.scope, o.strategy,
        o.parallel_group
    from mindspore_parallel_operator as o
    join mindspore_parallel_config as c on c.source_id = o.source_id
    join source as s on s.id = o.source_id and s.status = 'ok'
    where (:run_id is null or s.run_id = :run_id) and (:stage_id is null or c.stage_id = :stage_id)
    order by s.run_id, c.stage_id, o.rank_id, o.source_row
),

final as (
    select
        run_id, stage_id, full_name, op_type, scope, strategy,
        group_concat(rank_id, ',') as ranks,
        group_concat(parallel_group, ',') as parallel_groups,
        min(source_row) as first_row
    from operators
    group by run_id, stage_id, full_name, op_type, scope, strategy
)

select run_id, stage_id, full_name, op_type, scope, strategy, ranks, parallel_groups
from final
order by run_id, stage_id, first_row, full_name, strategy
