-- title: MindSpore FLOPs per device
-- description: Per run and MindSpore device, the FLOPs summary MindInsight shows (flops_summary: the
--     operators' MFLOPs together, their mean GFLOPS, the mean utilization of the device's peak; its
--     parallel analyser compares the ranks by them), with the operators flops_{device}.txt lists and
--     their own sum; a device with only one of the two files has the other's columns null.
-- param run_id (integer, default null): Only this run; every run when null.
-- column run_id: Run.
-- column rank_id: Device.
-- column mflops: The summary's FLOPs, in millions.
-- column gflops_per_s: The summary's FLOPS, in billions per second.
-- column utilization_pct: The summary's utilization of the device's peak, percent.
-- column operators: Operators in flops_{device}.txt.
-- column operators_mflops: Their MFLOPs together.
-- column top_operator: The operator with the most MFLOPs.
with summaries as (
    select s.run_id, f.rank_id, f.mflops, f.gflops_per_s, f.utilization_pct
    from mindspore_flops_summary as f
    join source as s on s.id = f.source_id and s.status = 'ok'
    where :run_id is null or s.run_id = :run_id
),

ops as (
    select s.run_id, o.rank_id, o.full_name, o.mflops,
        row_number() over (partition by s.run_id, o.rank_id order by o.mflops desc, o.full_name) as position
    from mindspore_flops_op as o
    join source as s on s.id = o.source_id and s.status = 'ok'
    where :run_id is null or s.run_id = :run_id
),

op_totals as (
    select run_id, rank_id, count(*) as operators, sum(mflops) as operators_mflops,
        max(case when position = 1 then full_name end) as top_operator
    from ops
    group by run_id, rank_id
),

final as (
    select
        coalesce(m.run_id, o.run_id) as run_id, coalesce(m.rank_id, o.rank_id) as rank_id, m.mflops, m.gflops_per_s,
        m.utilization_pct, o.operators, o.operators_mflops, o.top_operator
    from summaries as m
    full outer join op_totals as o on o.run_id = m.run_id and o.rank_id = m.rank_id
)

select run_id, rank_id, mflops, gflops_per_s, utilization_pct, operators, operators_mflops, top_operator
from final
order by run_id, rank_id
