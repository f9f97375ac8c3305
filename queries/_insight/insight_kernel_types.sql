-- title: Insight kernel types
-- description: A rank's compute kernels summed per operator type and accelerator core: the rows of
--     MindStudio Insight's System View "Operator Details" table (kernel/total/list; Ascend/msinsight
--     KernelDetailOverallDatabaseAccesser.cpp BuildOverallRecords groups the Kernel Details rows so).
--     The kernels are those the Operator module and the Kernel Details table list (kernel_answer);
--     with a range, those overlapping it.
-- param run_id (integer, required): Run of the rank.
-- param rank_id (integer, required): The rank (-1 when unknown).
-- param start_ns (integer, default null): Only kernels ending at or after this time (ns); with end_ns.
-- param end_ns (integer, default null): Only kernels starting at or before this time (ns); with start_ns.
-- column op_type: Operator type ('' when the input gives none).
-- column acc_core: Accelerator Core (task type; '' when the input gives none).
-- column calls: Number of kernels.
-- column total_ns: Their summed duration in ns.
-- column avg_ns: Their mean duration in ns.
-- column min_ns: The shortest in ns.
-- column max_ns: The longest in ns.
with
-- include: _insight_operator_rows
,

kernels as (
    select coalesce(op_type, '') as op_type, coalesce(acc_core, '') as acc_core, dur
    from operators
    where is_communication = 0
        and (:start_ns is null or (ts + dur >= :start_ns and ts <= :end_ns))
),

final as (
    select op_type, acc_core, count(*) as calls, sum(dur) as total_ns, avg(dur) as avg_ns, min(dur) as min_ns,
        max(dur) as max_ns
    from kernels
    group by op_type, acc_core
)

select op_type, acc_core, calls, total_ns, avg_ns, min_ns, max_ns
from final
order by total_ns desc, op_type, acc_core
