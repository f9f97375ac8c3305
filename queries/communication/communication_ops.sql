-- title: Communication operators
-- description: HCCL operator time per run, rank and operator type: how often each collective
--     ran and how long it took, from the rank's HCCL operators whichever export holds them
--     (hccl_operator: COMMUNICATION_OP of a rank db, or the HCCL rows of kernel_details.csv).
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- column run_id: Run.
-- column rank_id: Rank.
-- column name: Operator type, e.g. hcom_allReduce_ (as stated, else the name less its instance suffix).
-- column count: Number of operators.
-- column total_ns: Summed duration in ns.
-- column avg_ns: Mean duration in ns (rounded).
-- column max_ns: Longest operator in ns.
with items as (
    -- the type as the input states it, else the name less its instance suffix ('hcom_allReduce__868_0_1':
    -- a level0 rank db writes 'N/A', kernel_details.csv no type), so both exports name it alike
    select
        run_id,
        rank_id,
        coalesce(
            nullif(op_type, 'N/A'), case when instr(name, '__') > 0 then substr(name, 1, instr(name, '__')) end, name
        ) as name,
        dur
    from hccl_operator
    where (:run_id is null or run_id = :run_id) and (:rank_id is null or rank_id = :rank_id)
),

-- include: _count_total_mean_max
