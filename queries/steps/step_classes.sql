-- title: Step classes
-- description: Shape-strict step classes (seed 004 section 7) per run and rank: steps grouped only when
--     their kernel sequences are equal kernel for kernel, in order, name and input shapes alike, so a
--     prefill step is never averaged with a decode step; a step without any shape is a class of its own.
--     From the step_class table `warehouse analyze` writes (warehouse/analysis/step_classes.py). Wall
--     statistics over the class's steps; percentiles are nearest-rank (the smallest wall with at least
--     50 % / 90 % of the steps at or below it); bound_family is recomputed on the class's summed pipeline
--     family times, not voted from its steps. Heaviest classes (wall_ns_sum) first.
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- column run_id: Run.
-- column rank_id: Rank.
-- column step_class: Class: step_<digest> (BLAKE2b of the structure and the (name, shape) sequence), or step_unknown_shape_<digest>.
-- column structure: Observed layers of the class's steps, e.g. '2x dense[attention:gqa_or_mha+ffn]'.
-- column step_count: Number of steps in the class.
-- column is_derived: 1 when the steps were cut at selection kernels (the rank has no step markers).
-- column first_step_id: Lowest step number in the class.
-- column kernel_count: Kernels per step (equal in every step of a class with shapes).
-- column wall_ns_mean: Mean step wall time in ns.
-- column wall_ns_sum: Sum of the steps' wall times in ns: the class's contribution.
-- column wall_ns_p50: Median step wall time in ns (nearest rank).
-- column wall_ns_p90: 90th percentile of the step wall time in ns (nearest rank).
-- column wall_ns_max: Longest step wall time in ns.
-- column cube_ns: Pipeline family cube summed over the class's kernels, in ns.
-- column vector_ns: Pipeline family vector summed over the class's kernels, in ns.
-- column aic_mte_ns: Pipeline family aic_mte summed over the class's kernels, in ns.
-- column aiv_mte_ns: Pipeline family aiv_mte summed over the class's kernels, in ns.
-- column scalar_ns: Pipeline family scalar summed over the class's kernels, in ns.
-- column bound_family: The family with the most summed time (ties: cube, vector, aic_mte, aiv_mte, scalar); null without pipeline data.
with ranked as (
    select
        run_id, rank_id, step_id, is_derived, step_class, structure, kernel_count, wall_ns,
        cube_ns, vector_ns, aic_mte_ns, aiv_mte_ns, scalar_ns,
        row_number() over (partition by run_id, rank_id, step_class order by wall_ns, step_id) as wall_rank,
        count(*) over (partition by run_id, rank_id, step_class) as class_steps
    from step_class
    where (:run_id is null or run_id = :run_id) and (:rank_id is null or rank_id = :rank_id)
),

classes as (
    select
        run_id,
        rank_id,
        step_class,
        min(structure) as structure,
        count(*) as step_count,
        max(is_derived) as is_derived,
        min(step_id) as first_step_id,
        max(kernel_count) as kernel_count,
        avg(wall_ns) as wall_ns_mean,
        sum(wall_ns) as wall_ns_sum,
        min(case when 2 * wall_rank >= class_steps then wall_ns end) as wall_ns_p50,
        min(case when 10 * wall_rank >= 9 * class_steps then wall_ns end) as wall_ns_p90,
        max(wall_ns) as wall_ns_max,
        sum(cube_ns) as cube_ns,
        sum(vector_ns) as vector_ns,
        sum(aic_mte_ns) as aic_mte_ns,
        sum(aiv_mte_ns) as aiv_mte_ns,
        sum(scalar_ns) as scalar_ns
    from ranked
    group by run_id, rank_id, step_class
),

final as (
    select
        run_id, rank_id, step_class, structure, step_count, is_derived, first_step_id, kernel_count,
        wall_ns_mean, wall_ns_sum, wall_ns_p50, wall_ns_p90, wall_ns_max,
        cube_ns, vector_ns, aic_mte_ns, aiv_mte_ns, scalar_ns,
        case
            when cube_ns + vector_ns + aic_mte_ns + aiv_mte_ns + scalar_ns = 0 then null
            when cube_ns >= vector_ns and cube_ns >= aic_mte_ns and cube_ns >= aiv_mte_ns and cube_ns >= scalar_ns then 'cube'
            when vector_ns >= aic_mte_ns and vector_ns >= aiv_mte_ns and vector_ns >= scalar_ns then 'vector'
            when aic_mte_ns >= aiv_mte_ns and aic_mte_ns >= scalar_ns then 'aic_mte'
            when aiv_mte_ns >= scalar_ns then 'aiv_mte'
            else 'scalar'
        end as bound_family
    from classes
)

select
    run_id, rank_id, step_class, structure, step_count, is_derived, first_step_id, kernel_count,
    wall_ns_mean, wall_ns_sum, wall_ns_p50, wall_ns_p90, wall_ns_max,
    cube_ns, vector_ns, aic_mte_ns, aiv_mte_ns, scalar_ns, bound_family
from final
order by run_id, rank_id, wall_ns_sum desc, step_class
