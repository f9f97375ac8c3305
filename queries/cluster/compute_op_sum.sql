-- title: Compute operator statistics (msprof-analyze compute_op_sum)
-- description: Duration statistics of the device compute kernels of each run (kernel_answer:
--     the answering input's kernels, HCCL operators left out) per operator type or kernel
--     name, per rank or over all ranks of the run at once: count, sum, mean, sample standard
--     deviation, min, quartiles (nearest rank), median, max.
-- param run_id (integer, default null): Only this run; every run when null.
-- param group_by (text, default 'op_type', one of op_type|name): What a row sums.
-- param per_rank (boolean, default true): One row per rank and operator; false: over all ranks of the run.
-- column run_id: Run.
-- column rank_id: Rank (null when per_rank is false).
-- column name: Operator type, or kernel name when group_by is name.
-- column count: Number of kernels.
-- column total_ns: Summed duration in ns.
-- column mean_ns: Mean duration in ns.
-- column std_ns: Sample standard deviation in ns (null for a single kernel).
-- column min_ns: Shortest in ns.
-- column q1_ns: First quartile (nearest rank) in ns.
-- column median_ns: Median in ns (mean of the two middle values for an even count).
-- column q3_ns: Third quartile (nearest rank) in ns.
-- column max_ns: Longest in ns.
with items as (
    select
        run_id,
        case when :per_rank = 1 then rank_id end as rank_id,
        case when :group_by = 'name' then name else op_type end as name,
        dur
    from kernel_answer
    where dur is not null and (:run_id is null or run_id = :run_id)
),

-- include: _duration_statistics
