-- title: Communication trend over runs
-- description: A collective type's time in every run of the warehouse, in start order (issue 17;
--     a run whose start is unknown first, by id), over every rank of the run: count, total and mean
--     time per operator of the rank's HCCL operators (hccl_operator, either export), and the mean
--     wait per operator of the communication summary that answers (communication_time_answer,
--     'Total Op Info' left out; null when the run has none). The type as communication_ops names it.
-- param op_type (text, default null): The collective type (e.g. hcom_allReduce_); every type when null.
-- column run_id: Run.
-- column run_name: Run name.
-- column start_ns: Start of the run, in ns (null when unknown).
-- column position: The run's place in the history (1: started first).
-- column op_type: Collective type.
-- column count: Operators in the run.
-- column total_ns: Their summed duration, in ns.
-- column mean_ns: Mean duration per operator, in ns.
-- column mean_wait_ns: Mean wait per operator from the communication summary, in ns (null without one).
with history as (
    select run_id, name, start_ns, position
    from run_history
),

operators as (
    select
        run_id,
        type_name as op_type,
        dur
    from hccl_operator
),

per_run as (
    select run_id, op_type, count(*) as count, sum(dur) as total_ns
    from operators
    where :op_type is null or op_type = :op_type
    group by run_id, op_type
),

waits as (
    select
        run_id,
        op_type,
        avg(wait_ns) as mean_wait_ns
    from communication_time_answer
    where op_name <> 'Total Op Info'
    group by run_id, op_type
),

final as (
    select
        p.run_id, h.name as run_name, h.start_ns, h.position, p.op_type, p.count, p.total_ns,
        1.0 * p.total_ns / p.count as mean_ns, w.mean_wait_ns
    from per_run as p
    join history as h on h.run_id = p.run_id
    left join waits as w on w.run_id = p.run_id and w.op_type = p.op_type
)

select run_id, run_name, start_ns, position, op_type, count, total_ns, mean_ns, mean_wait_ns
from final
order by position, total_ns desc, op_type
