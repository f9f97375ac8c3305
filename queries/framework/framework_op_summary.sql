-- title: Framework operator summary
-- description: Time of the framework (torch_npu) API calls per run, rank and name: how often
--     each ran and how long it took on the host.
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- param type (text, default 'op', one of op|queue|mstx|python_trace): Kind of framework row.
-- column run_id: Run.
-- column rank_id: Rank.
-- column name: API name (e.g. aten::matmul).
-- column count: Number of calls.
-- column total_ns: Summed duration in ns.
-- column avg_ns: Mean duration in ns (rounded).
-- column max_ns: Longest call in ns.
with items as (
    select s.run_id, p.rank_id, p.name, p.dur
    from pytorch_api as p
    join source as s on s.id = p.source_id
    where p.type = :type and (:run_id is null or s.run_id = :run_id) and (:rank_id is null or p.rank_id = :rank_id)
),

-- include: _count_total_mean_max
