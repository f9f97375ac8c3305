-- title: Search names
-- description: Every slice, kernel and API name holding the text, with where it is used: per run,
--     how many slices, kernels and API calls (torch_npu PYTORCH_API, CANN_API) of the run's inputs
--     carry it, stored rows of every input counted (a rank db and its text export both count). The
--     text is matched anywhere in the name, case-insensitively (SQL LIKE '%text%', which on SQLite
--     the trigram full-text index of the string table answers, migration 0012); * or % in it stand
--     for any characters (Flash*Grad), _ for any one. A text longer than 256 characters is matched
--     by its first 256. A name no input uses any more is not
--     listed. The counts come from name_use, written at ingest: a search reads the matching names'
--     counts, never the rows themselves.
-- param text (text, required): Text to find in the names, e.g. FlashAttention or Flash*.
-- param run_id (integer, default null): Only this run; every run when null.
-- param limit (integer, default 100): How many rows (a name in a run) to return, the most used first.
-- column run_id: Run.
-- column name: The name.
-- column slices: Slices (the timeline) with this name in the run.
-- column kernels: Kernel rows (kernel) with this name in the run.
-- column api_calls: API calls (pytorch_api, cann_api) with this name in the run.
-- column inputs: Inputs of the run whose rows use the name.
with pattern as (
    -- The work per name is bounded whatever the names hold (a name may be 1 MiB, MAX_STRING_BYTES): the
    -- index is asked for the text's first 16 characters only, as FTS5 holds every trigram's positions in a
    -- name at once (a 1,000-character text against a 1 MiB name of "abab..." held 560 MB and 7 s), and
    -- the names it finds are matched on the text's first 256, LIKE's time being the name's length times
    -- the text's (1.4 s for 256 characters against 1 MiB, which no time limit interrupts).
    select
        '%' || substr(replace(:text, '*', '%'), 1, 16) || '%' as indexed,
        '%' || substr(replace(:text, '*', '%'), 1, 256) || '%' as whole
),

matched as (
    select s.id as string_id, s.value as name
    from pattern as p
    cross join _string_fts as f
    join string as s on s.id = f.rowid
    where f.value like p.indexed and s.value like p.whole
),

uses as (
    select src.run_id, m.string_id, m.name, u.kind, u.row_count, u.input_source_id
    from matched as m
    join name_use as u on u.string_id = m.string_id
    join source as src on src.id = u.input_source_id
    where :run_id is null or src.run_id = :run_id
),

final as (
    select
        run_id,
        name,
        sum(case when kind = 'slice' then row_count else 0 end) as slices,
        sum(case when kind = 'kernel' then row_count else 0 end) as kernels,
        sum(case when kind = 'api' then row_count else 0 end) as api_calls,
        count(distinct input_source_id) as inputs,
        sum(row_count) as uses
    from uses
    group by run_id, string_id, name
)

select run_id, name, slices, kernels, api_calls, inputs
from final
order by uses desc, name, run_id
limit :limit
