-- title: HCCL operator statistics (msprof-analyze hccl_sum)
-- description: Duration statistics of the HCCL communication operators of each run
--     (hccl_operator: COMMUNICATION_OP of a rank db, or the HCCL rows of kernel_details.csv,
--     else the rank's communication summary) per operator type (hccl_operator.type_name: as the input states it, else the name less
--     its instance suffix) or name, per rank or over all
--     ranks of the run at once: count, sum, mean, sample standard deviation, min, quartiles and
--     median (pandas' default linear interpolation, as msprof-analyze's hccl_sum computes
--     them), max.
-- param run_id (integer, default null): Only this run; every run when null.
-- param group_by (text, default 'op_type', one of op_type|name): What a row sums: the operator type (e.g. hcom_allReduce_) or the operator name (one instance).
-- param per_rank (boolean, default true): One row per rank and operator; false: over all ranks of the run.
-- column run_id: Run.
-- column rank_id: Rank (null when per_rank is false).
-- column name: Operator type, or operator name when group_by is name.
-- column count: Number of operators.
-- column total_ns: Summed duration in ns.
-- column mean_ns: Mean duration in ns.
-- column std_ns: Sample standard deviation in ns (null for a single operator).
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
        -- type_name is an expression column, float64 in an empty Parquet export: the cast keeps it text
        case when :group_by = 'name' then name else cast(type_name as text) end as name,
        null as core_type,
        dur
    from hccl_operator
    where dur is not null and (:run_id is null or run_id = :run_id)
),

-- include: _duration_statistics

select run_id, rank_id, name, count, total_ns, mean_ns, std_ns, min_ns, q1_ns, median_ns, q3_ns, max_ns
from final
order by run_id, rank_id, total_ns desc, name
