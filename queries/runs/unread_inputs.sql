-- title: Unread inputs
-- description: What of the inputs the warehouse holds nothing of, with the reason: each table (or
--     view) of an SQLite input (a rank db, msprof's db export, analysis.db, cluster_analysis.db) that
--     no statement of its source reads (table source_unread; "empty" when it has no rows), and each
--     file no source reads at all (a skipped input, whose item is null). Every other table of an
--     input is copied (source.detail lists its tables_read): nothing is dropped in silence.
-- param run_id (integer, default null): Only this run; every run when null.
-- column run_id: Run of the input.
-- column rank_id: Rank of the input (-1 unknown; null for a cluster-wide file or a skipped one).
-- column source_id: The input (source.id).
-- column path: The input file.
-- column item: The table or view not read; null when no source reads the file at all.
-- column reason: Why the warehouse holds nothing of it.
with unread_tables as (
    select s.run_id, s.rank_id, s.id as source_id, s.path, u.item, u.reason
    from source_unread as u
    join source as s on s.id = u.source_id
    where s.status = 'ok' and (:run_id is null or s.run_id = :run_id)
),

skipped_files as (
    select run_id, rank_id, id as source_id, path, null as item, error as reason
    from source
    where status = 'skipped' and (:run_id is null or run_id = :run_id)
),

final as (
    select run_id, rank_id, source_id, path, item, reason from unread_tables
    union all
    select run_id, rank_id, source_id, path, item, reason from skipped_files
)

select run_id, rank_id, source_id, path, item, reason
from final
order by run_id, source_id, item
