-- title: Insight search slices
-- description: The slices of one input's timeline whose name holds a text (or is the text), in
--     time order: what MindStudio Insight's search box counts, steps through and lists
--     (Ascend/msinsight TextSqlConstant.h GetSearchNameSqlSuffix: a name holding the text, any
--     case, unless match_case or match_exact say otherwise). The text is matched as written
--     (no wildcards). The names are matched once in the string table, then the input's slices
--     are read by thread; with thread_id, only that thread's slices lying wholly inside
--     [start_ns, end_ns] (the timeline's locked range).
-- param source_id (integer, required): The input (source.id).
-- param text (text, required): Text to find in the slice names.
-- param match_case (boolean, default false): Match the text's case.
-- param match_exact (boolean, default false): The whole name is the text.
-- param name_filter (text, default null): Also hold this text, any case (the result list's filter).
-- param thread_id (integer, default null): Only this thread (thread.id).
-- param start_ns (integer, default null): With thread_id: only slices starting at or after this time (ns).
-- param end_ns (integer, default null): With thread_id: only slices ending at or before this time (ns).
-- column id: Identifier of the slice.
-- column thread_id: Thread of the slice.
-- column process_id: Process of the thread.
-- column ts: Start in ns.
-- column dur: Duration in ns.
-- column depth: Nesting depth, 0 at the top.
-- column name: Slice name.
with matched as (
    select id as string_id
    from string
    where case
            when :match_exact = 1 and :match_case = 1 then value = :text
            when :match_exact = 1 then lower(value) = lower(:text)
            when :match_case = 1 then instr(value, :text) > 0
            else instr(lower(value), lower(:text)) > 0
        end
        and (:name_filter is null or instr(lower(value), lower(:name_filter)) > 0)
),

threads as (
    select id as thread_id, process_id
    from thread
    where source_id = :source_id and (:thread_id is null or id = :thread_id)
),

found as (
    -- the input's threads first (cross join keeps them outer), each read on the (thread_id, ts) index;
    -- the names are matched once (IN builds their set), not once per slice
    select s.id, s.thread_id, t.process_id, s.ts, s.dur, s.depth, s.name_id
    from threads as t
    cross join _slice as s
    where s.thread_id = t.thread_id
        and s.name_id in (select string_id from matched)
        and (:start_ns is null or s.ts >= :start_ns)
        and (:end_ns is null or s.ts + s.dur <= :end_ns)
),

final as (
    select f.id, f.thread_id, f.process_id, f.ts, f.dur, f.depth, n.value as name
    from found as f
    join string as n on n.id = f.name_id
)

select id, thread_id, process_id, ts, dur, depth, name
from final
order by ts, thread_id, id
