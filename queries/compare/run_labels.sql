-- title: Run labels
-- description: The labels attached to each run (issue 17: `warehouse ingest PATH --run NAME --label
--     key=value`, table run_label), with the run's name and start, in start order (a run whose start
--     is unknown first, by id), then by key; a run without labels is one row with key and value null.
-- param run_id (integer, default null): Only this run; every run when null.
-- column run_id: Run.
-- column name: Run name.
-- column start_ns: Start of the run, in ns (null when unknown).
-- column key: Label name (null: the run has no label).
-- column value: Label value.
with labelled as (
    select
        r.run_id, r.name, r.start_ns, l.key, l.value,
        case when r.start_ns is null then 0 else 1 end as known
    from run as r
    left join run_label as l on l.run_id = r.run_id
    where :run_id is null or r.run_id = :run_id
),

final as (
    select run_id, name, start_ns, key, value, known
    from labelled
)

select run_id, name, start_ns, key, value
from final
order by known, start_ns, run_id, key
