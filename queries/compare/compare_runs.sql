-- title: Compare what two runs are
-- description: What differs between two runs before any figure is compared (issue 35): the
--     device (kind and type), the cluster (size, ranks ingested), the export kind, the profiler
--     and its version, the export's schema, the kernel set (run_signature); and whether the two
--     are comparable, with the reason (run_comparable: the same device kind and type, cluster
--     size and model; README, "Definitions"), and how their ranks pair (the compare queries' one
--     pairing, queries/compare/_rank_pair.sql: by place in the cluster where both runs state their
--     shape, two one-rank runs as each one's only rank, else by rank id). One row per property, in
--     that order, the verdict last. `warehouse compare` prints the differing rows, the verdict and
--     the pairing first.
--     run_id null: the run that started last; base_run_id null: the run that started just before
--     run_id (runs in start order, a run whose start is unknown first, by id).
-- param run_id (integer, default null): The run compared (the new one); the run that started last when null.
-- param base_run_id (integer, default null): The baseline run; the run that started just before run_id when null.
-- column run_id: The run compared.
-- column base_run_id: The baseline run.
-- column property: device_kind, device_type, cluster_size, ranks, export_kind, profiler,
--     profiler_version, export_schema, kernel_names, kernel_types, rank_pairing, or comparable (the verdict).
-- column base_value: The property in the baseline, as text (null when no input says; null for rank_pairing).
-- column run_value: The property in the run, as text (null when no input says); for rank_pairing how
--     the ranks pair: place, only rank or rank id.
-- column differs: 1 when both runs state the property and the values differ, 0 when they are
--     equal, null when a run does not state it; for rank_pairing: 1 when paired ranks have different
--     ids; for comparable: 1 when the runs are not comparable.
-- column note: For kernel_names, the share of names in both runs; for rank_pairing, how and why the
--     ranks pair, the paired ranks of different ids (the first 8) and how many ranks have no pair;
--     for comparable, the reason.
with pair as (
    -- the run (default: the latest) and its baseline (default: the run before it)
    select h.run_id, coalesce(:base_run_id, h.previous_run_id) as base_run_id
    from run_history as h
    where h.run_id = coalesce(:run_id, (select max(run_id) from run_history where position = (select max(position) from run_history)))
),

sides as (
    -- every value as text (a column of no value is a real in an export: Parquet needs one type)
    select
        p.run_id, p.base_run_id,
        cast(b.device_kind as text) as base_device_kind, cast(r.device_kind as text) as run_device_kind,
        cast(b.device_type as text) as base_device_type, cast(r.device_type as text) as run_device_type,
        cast(b.cluster_size as text) as base_cluster_size, cast(r.cluster_size as text) as run_cluster_size,
        cast(b.ranks as text) as base_ranks, cast(r.ranks as text) as run_ranks,
        cast(b.export_kind as text) as base_export_kind, cast(r.export_kind as text) as run_export_kind,
        cast(b.profiler as text) as base_profiler, cast(r.profiler as text) as run_profiler,
        cast(b.profiler_version as text) as base_profiler_version,
        cast(r.profiler_version as text) as run_profiler_version,
        cast(b.export_schema as text) as base_export_schema, cast(r.export_schema as text) as run_export_schema,
        cast(b.kernel_names as text) as base_kernel_names, cast(r.kernel_names as text) as run_kernel_names,
        cast(b.kernel_types as text) as base_kernel_types, cast(r.kernel_types as text) as run_kernel_types,
        c.comparable, c.reason, c.name_overlap,
        case when p.run_id = p.base_run_id then 1 else 0 end as same_run
    from pair as p
    left join run_signature as b on b.run_id = p.base_run_id
    left join run_signature as r on r.run_id = p.run_id
    left join run_comparable as c on c.run_id = p.base_run_id and c.other_run_id = p.run_id
),

compared_ranks as (
    -- the ranks the runs' inputs belong to, as every compare query pairs them
    select run_id, rank_id from rank
),

-- include: _rank_pair
,

paired_ranks as (
    -- each pair once (rank_pair has a row per rank of either run), a rank of no pair with its run's side only
    select distinct base_rank_id, run_rank_id
    from rank_pair
    where rank_id is not null
),

renumbered as (
    select base_rank_id, run_rank_id, row_number() over (order by base_rank_id) as position
    from paired_ranks
    where base_rank_id <> run_rank_id
),

ordered_renumbered as (
    select position, 'baseline rank ' || base_rank_id || ' = run rank ' || run_rank_id as said
    from renumbered
    where position <= 8
    order by position
),

pairing as (
    -- how the ranks pair, and why (runs with no rank at all pair nothing: by rank id)
    select
        coalesce(g.paired_by, 'rank id') as paired_by,
        case g.paired_by
            when 'place' then 'ranks paired by place in the cluster (pipeline stage, data- and tensor-parallel '
                || 'index), as both runs state their shape'
            when 'only rank' then 'ranks paired as each run''s only rank'
            else 'ranks paired by rank id, as ' || case
                when coalesce(g.base_ranks, 0) = 0 or coalesce(g.run_ranks, 0) = 0 then 'a run has no rank'
                when g.base_shape_known = 0 and g.run_shape_known = 0 then 'neither run states its shape'
                when g.base_shape_known = 0 then 'the baseline does not state its shape'
                when g.run_shape_known = 0 then 'the run does not state its shape'
                else 'a rank''s place is not stated, or is another rank''s too'
            end
        end as said,
        (select count(*) from renumbered) as renumbered,
        (select group_concat(said, ', ') from ordered_renumbered) as renumbered_said,
        (select count(*) from paired_ranks where base_rank_id is null or run_rank_id is null) as unpaired
    from pair as p
    left join (
        select distinct paired_by, base_ranks, run_ranks, base_shape_known, run_shape_known
        from rank_keys
    ) as g on 1 = 1
),

properties as (
    select run_id, base_run_id, 1 as position, 'device_kind' as property, base_device_kind as base_value,
        run_device_kind as run_value, null as note
    from sides
    union all
    select run_id, base_run_id, 2 as position, 'device_type' as property, base_device_type as base_value,
        run_device_type as run_value, null as note
    from sides
    union all
    select run_id, base_run_id, 3 as position, 'cluster_size' as property, base_cluster_size as base_value,
        run_cluster_size as run_value, null as note
    from sides
    union all
    select run_id, base_run_id, 4 as position, 'ranks' as property, base_ranks as base_value,
        run_ranks as run_value, null as note
    from sides
    union all
    select run_id, base_run_id, 5 as position, 'export_kind' as property, base_export_kind as base_value,
        run_export_kind as run_value, null as note
    from sides
    union all
    select run_id, base_run_id, 6 as position, 'profiler' as property, base_profiler as base_value,
        run_profiler as run_value, null as note
    from sides
    union all
    select run_id, base_run_id, 7 as position, 'profiler_version' as property, base_profiler_version as base_value,
        run_profiler_version as run_value, null as note
    from sides
    union all
    select run_id, base_run_id, 8 as position, 'export_schema' as property, base_export_schema as base_value,
        run_export_schema as run_value, null as note
    from sides
    union all
    select run_id, base_run_id, 9 as position, 'kernel_names' as property, base_kernel_names as base_value,
        run_kernel_names as run_value,
        cast(cast(round(100 * coalesce(name_overlap, 0)) as integer) as text)
            || ' % of the names in either run are in both'
            as note
    from sides
    union all
    select run_id, base_run_id, 10 as position, 'kernel_types' as property, base_kernel_types as base_value,
        run_kernel_types as run_value, null as note
    from sides
),

final as (
    select
        run_id, base_run_id, position, property, base_value, run_value,
        case when base_value is null or run_value is null then null when base_value = run_value then 0 else 1 end
            as differs,
        note
    from properties
    union all
    select
        s.run_id, s.base_run_id, 11 as position, 'rank_pairing' as property, null as base_value,
        g.paired_by as run_value,
        case when g.renumbered > 0 then 1 else 0 end as differs,
        g.said
            || case when g.renumbered > 0 then '; paired ranks of other ids: ' || g.renumbered_said else '' end
            || case when g.renumbered > 8 then ' and ' || (g.renumbered - 8) || ' more' else '' end
            || case when g.unpaired > 0 then '; ranks without a pair: ' || g.unpaired else '' end
            as note
    from sides as s
    cross join pairing as g
    union all
    select
        run_id, base_run_id, 12 as position, 'comparable' as property, null as base_value,
        case when coalesce(comparable, same_run) = 1 then 'yes' else 'no' end as run_value,
        case when coalesce(comparable, same_run) = 1 then 0 else 1 end as differs,
        case
            when reason is not null then reason
            when same_run = 1 then 'comparable: the same run'
            else 'not comparable: no baseline run'
        end as note
    from sides
)

select run_id, base_run_id, property, base_value, run_value, differs, note
from final
order by position
