-- description: Every duration event of the timeline: trace slices, framework API calls, device
--     tasks.
-- column id: Identifier of the slice.
-- column thread_id: Thread the slice is on.
-- column ts: Start time in ns.
-- column dur: Duration in ns (0 for instants).
-- column name: Name of the slice (string table), NULL when unnamed.
-- column category: Category of the slice (string table: the trace event's cat), when given.
-- column depth: Nesting depth on its thread, 0 for a top-level slice.
-- column parent_id: Enclosing slice on the same thread, NULL at depth 0.
-- column args: The event's args as JSON text, NULL when it has none.
-- column source_id: Input the slice came from.
-- column source_row: Position in the input: event index in a JSON array, row id in a table.
SELECT
    s.id,
    s.thread_id,
    s.ts,
    s.dur,
    n.value AS name,
    c.value AS category,
    s.depth,
    s.parent_id,
    s.args,
    s.source_id,
    s.source_row
FROM _slice AS s
LEFT JOIN string AS n ON n.id = s.name_id
LEFT JOIN string AS c ON c.id = s.category_id
