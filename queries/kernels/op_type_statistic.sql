-- title: Operator types as the profiler sums them
-- description: Per run, rank and operator type, the kernel time the profiler itself summed per type
--     (torch_npu's op_statistic.csv, MindSpore's aicore_intermediate_{device}_type.csv: the AI Core
--     operator type table MindInsight shows, aicore_type analyser): count, total, mean, shortest,
--     longest and the share it gives, as the file gives them; the mean is total / count where the
--     file gives none (MindSpore). Of MindSpore's type tables of one run and device the one that answers
--     (answer_source, fact aicore_type: the type CSV before the older output_op_compute_time_detail).
--     compute_op_sum derives the same sums from the kernels themselves.
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this rank or device; every one when null.
-- column run_id: Run.
-- column rank_id: Rank or MindSpore device.
-- column op_type: Operator type.
-- column core_type: Core type (op_statistic.csv's Core Type; AI_CORE for MindSpore's AI Core table).
-- column count: Kernels of the type.
-- column total_ns: Their summed time in ns.
-- column avg_ns: Mean time in ns.
-- column min_ns: Shortest in ns (null where the file gives none).
-- column max_ns: Longest in ns (null where the file gives none).
-- column ratio_pct: The type's share of the time in percent, as the file gives it.
-- column per_step: 1 when count and total are one step's (each operator once, at its mean time: MindSpore's
--     older type tables), null when they sum every run.
-- column source_kind: Kind of the input (op_statistic_csv, mindspore_aicore_type_csv,
--     mindspore_op_compute_detail_txt).
select
    s.run_id, o.rank_id, o.op_type, o.core_type, o.count, o.total_ns,
    coalesce(o.avg_ns, 1.0 * o.total_ns / nullif(o.count, 0)) as avg_ns, o.min_ns, o.max_ns, o.ratio_pct,
    o.per_step, s.kind as source_kind
from op_statistic as o
join source as s on s.id = o.source_id and s.status = 'ok'
left join answer_source as a on a.source_id = o.source_id and a.fact = 'aicore_type'
where (:run_id is null or s.run_id = :run_id) and (:rank_id is null or o.rank_id = :rank_id)
    and (a.source_id is not null or s.kind not in (select kind from fact_precedence where fact = 'aicore_type'))
order by s.run_id, o.rank_id, o.total_ns desc, o.op_type, o.core_type
