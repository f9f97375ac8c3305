-- title: Insight operator groups
-- description: The operators of one rank summed by what MindStudio Insight's Operator module
--     groups them by, most time first (Ascend/msinsight DbSummaryDataBase.cpp
--     GenStatSqlWithDeviceId, GenStatSqlWithCommunication): compute kernels by operator type and
--     accelerator core, or by name, input shapes and accelerator core; HCCL operators by type.
-- param run_id (integer, required): Run of the rank.
-- param rank_id (integer, required): The rank (-1 when unknown).
-- param group_by (text, required, one of op_type|name_shape|communication_type): What a row sums.
-- column op_type: Operator type (null when group_by is name_shape).
-- column op_name: Kernel name (null unless group_by is name_shape).
-- column input_shape: Input shapes (null unless group_by is name_shape, or when not given).
-- column acc_core: Accelerator Core (null for HCCL operators).
-- column count: Number of operators.
-- column total_ns: Summed duration in ns.
-- column min_ns: Shortest in ns.
-- column max_ns: Longest in ns.
with
-- include: _insight_operator_rows
,

keyed as (
    select
        case when :group_by = 'name_shape' then null else op_type end as op_type,
        case when :group_by = 'name_shape' then name end as op_name,
        case when :group_by = 'name_shape' then input_shapes end as input_shape,
        acc_core,
        dur
    from operators
    where is_communication = (case when :group_by = 'communication_type' then 1 else 0 end)
),

final as (
    select
        op_type, op_name, input_shape, acc_core, count(*) as count, sum(dur) as total_ns, min(dur) as min_ns,
        max(dur) as max_ns
    from keyed
    group by op_type, op_name, input_shape, acc_core
)

select op_type, op_name, input_shape, acc_core, count, total_ns, min_ns, max_ns
from final
order by total_ns desc, op_type, op_name, input_shape, acc_core
