-- title: Compare what two runs are
-- description: What differs between two runs before any figure is compared (issue 35): the
--     device (kind and type), the cluster (size, ranks ingested), the export kind, the profiler
--     and its version, the export's schema, the kernel set (run_signature); and whether the two
--     are comparable, with the reason (run_comparable: the same device kind and type, cluster
--     size and model; README, "Definitions"). One row per property, in that order, the verdict
--     last. `warehouse compare` prints the differing rows and the verdict first.
--     run_id null: the run that started last; base_run_id null: the run that started just before
--     run_id (runs in start order, a run whose start is unknown first, by id).
-- param run_id (integer, default null): The run compared (the new one); the run that started last when null.
-- param base_run_id (integer, default null): The baseline run; the run that started just before run_id when null.
-- column run_id: The run compared.
-- column base_run_id: The baseline run.
-- column property: device_kind, device_type, cluster_size, ranks, export_kind, profiler,
--     profiler_version, export_schema, kernel_names, kernel_types, or comparable (the verdict).
-- column base_value: The property in the baseline, as text (null when no input says).
-- column run_value: The property in the run, as text (null when no input says).
-- column differs: 1 when both runs state the property and the values differ, 0 when they are
--     equal, null when a run does not state it; for comparable: 1 when the runs are not comparable.
-- column note: For kernel_names, the share of names in both runs; for comparable, the reason.
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
        run_id, base_run_id, 11 as position, 'comparable' as property, null as base_value,
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
