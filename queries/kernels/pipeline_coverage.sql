-- title: Pipeline coverage
-- description: How much of each rank's kernel time the pipeline families (seed 004 section 6)
--     can explain: the share of kernel time whose kernels carry pipeline data (a bound family,
--     from the profiler's aic_metrics columns), and how the pipeline time splits between the
--     families cube, vector, aic_mte, aiv_mte and scalar (the AIC and AIV sides never merged).
--     A low coverage says the bound-family figures rest on few kernels (the profiler ran
--     without aic_metrics, or the kernels are AI CPU or communication). Kernels are the
--     answering input's (kernel_answer), per run; never adds two runs.
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- column run_id: Run.
-- column rank_id: Rank.
-- column kernel_count: Number of kernel executions.
-- column kernel_ns: Their summed duration in ns.
-- column covered_count: Kernel executions with pipeline data (a bound family).
-- column covered_ns: Their summed duration in ns.
-- column coverage: covered_ns as a fraction of kernel_ns (0-1); null without kernel time.
-- column pipeline_ns: Summed pipeline time of the five families in ns (cube + vector + aic_mte + aiv_mte + scalar).
-- column cube_share: Family cube (mac + fixpipe) as a fraction of pipeline_ns (0-1).
-- column vector_share: Family vector (aiv vec) as a fraction of pipeline_ns (0-1).
-- column aic_mte_share: Family aic_mte (aic mte1 + mte2) as a fraction of pipeline_ns (0-1).
-- column aiv_mte_share: Family aiv_mte (aiv mte2 + mte3) as a fraction of pipeline_ns (0-1).
-- column scalar_share: Family scalar (aic + aiv scalar) as a fraction of pipeline_ns (0-1).
with kernels as (
    select
        run_id,
        rank_id,
        dur,
        case when bound_family is not null then 1 else 0 end as covered,
        coalesce(cube_ns, 0) as cube_ns,
        coalesce(vector_ns, 0) as vector_ns,
        coalesce(aic_mte_ns, 0) as aic_mte_ns,
        coalesce(aiv_mte_ns, 0) as aiv_mte_ns,
        coalesce(scalar_ns, 0) as scalar_ns
    from kernel_answer
    where (:run_id is null or run_id = :run_id) and (:rank_id is null or rank_id = :rank_id)
),

grouped as (
    select
        run_id,
        rank_id,
        count(*) as kernel_count,
        sum(dur) as kernel_ns,
        sum(covered) as covered_count,
        sum(case when covered = 1 then dur else 0 end) as covered_ns,
        sum(cube_ns) as cube_ns,
        sum(vector_ns) as vector_ns,
        sum(aic_mte_ns) as aic_mte_ns,
        sum(aiv_mte_ns) as aiv_mte_ns,
        sum(scalar_ns) as scalar_ns,
        sum(cube_ns + vector_ns + aic_mte_ns + aiv_mte_ns + scalar_ns) as pipeline_ns
    from kernels
    group by run_id, rank_id
),

final as (
    select
        run_id,
        rank_id,
        kernel_count,
        kernel_ns,
        covered_count,
        covered_ns,
        1.0 * covered_ns / nullif(kernel_ns, 0) as coverage,
        pipeline_ns,
        1.0 * cube_ns / nullif(pipeline_ns, 0) as cube_share,
        1.0 * vector_ns / nullif(pipeline_ns, 0) as vector_share,
        1.0 * aic_mte_ns / nullif(pipeline_ns, 0) as aic_mte_share,
        1.0 * aiv_mte_ns / nullif(pipeline_ns, 0) as aiv_mte_share,
        1.0 * scalar_ns / nullif(pipeline_ns, 0) as scalar_share
    from grouped
)

select
    run_id, rank_id, kernel_count, kernel_ns, covered_count, covered_ns, coverage, pipeline_ns,
    cube_share, vector_share, aic_mte_share, aiv_mte_share, scalar_share
from final
order by run_id, rank_id
