-- title: Compute operator statistics (msprof-analyze compute_op_sum)
-- description: Duration statistics of the device compute kernels of each run (kernel_answer:
--     the answering input's kernels, HCCL operators left out) per operator type or kernel
--     name and per core type, as op_statistic.csv and msprof-analyze's compute_op_sum group
--     them (MatMulV3 on AI_CORE and on MIX_AIC are two rows), per rank or over all ranks of
--     the run at once: count, sum, mean, sample standard deviation, min, quartiles and median
--     (pandas' default linear interpolation, as msprof-analyze computes them), max.
--     msprof-analyze's by-name table also splits a name by its input shapes; this one does not.
-- param run_id (integer, default null): Only this run; every run when null.
-- param group_by (text, default 'op_type', one of op_type|name): What a row sums.
-- param per_core_type (boolean, default true): One row per core type of an operator; false: its core types merged.
-- param per_rank (boolean, default true): One row per rank and operator; false: over all ranks of the run.
-- column run_id: Run.
-- column rank_id: Rank (null when per_rank is false).
-- column name: Operator type, or kernel name when group_by is name.
-- column core_type: Core type the kernels ran on (Accelerator Core of kernel_details.csv, the
--     task type of a rank db: AI_CORE, AI_VECTOR_CORE, MIX_AIC, ...): op_statistic.csv's Core
--     Type, msprof-analyze's TaskType; null when per_core_type is false or the input has none.
-- column count: Number of kernels.
-- column total_ns: Summed duration in ns.
-- column mean_ns: Mean duration in ns.
-- column std_ns: Sample standard deviation in ns (null for a single kernel).
-- column min_ns: Shortest in ns.
-- column q1_ns: First quartile in ns (linear interpolation at position (n - 1) / 4 of the
--     sorted durations, counted from 0).
-- column median_ns: Median in ns (mean of the two middle values for an even count).
-- column q3_ns: Third quartile in ns (linear interpolation at position 3 (n - 1) / 4).
-- column max_ns: Longest in ns.
with items as (
    select
        run_id,
        case when :per_rank = 1 then rank_id end as rank_id,
        null as step_id,
        case when :group_by = 'name' then name else op_type end as name,
        case when :per_core_type = 1 then accelerator_core end as core_type,
        dur
    from kernel_answer
    where dur is not null and (:run_id is null or run_id = :run_id)
),

-- include: _duration_statistics

select
    run_id, rank_id, name, core_type, count, total_ns, mean_ns, std_ns, min_ns, q1_ns, median_ns, q3_ns, max_ns
from final
order by run_id, rank_id, total_ns desc, name, core_type
