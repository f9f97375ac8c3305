-- The host API calls of a torch_npu trace (trace_view.json), as the rank db's CANN_API and
-- PYTORCH_API give them (rank_db/fact_cann_api.sql, fact_pytorch_api.sql), so the host rules
-- answer the same for either export. The calls stay slices on the timeline too (slice_id points
-- at them), as a rank db's do. Reads only this load's slices (ids from :first_id) of the
-- processes torch_npu names 'CANN' and 'Python'. source_row is the event's index in the file.
-- global_tid is the rank db's (pid << 32 | tid) with the Python process's pid: torch_npu gives
-- the CANN process a made-up pid, its threads are the Python process's.

-- CANN calls: events named '<Level>@<api>' (AscendCL@aclrtMemcpyAsync, Node@launch,
-- Hccl@Launch_Ffts); the level is args.level, the name the part after '@' (CANN_API's name).
INSERT INTO cann_api (source_id, source_row, rank_id, ts, dur, type, global_tid, connection_id, name, slice_id)
SELECT
    :source_id,
    s.source_row,
    :rank_id,
    s.ts,
    s.dur,
    coalesce(json_extract(s.args, '$.level'), lower(substr(n.value, 1, instr(n.value, '@') - 1))),
    coalesce((
        SELECT CAST(py.pid AS INTEGER) FROM process AS py
        WHERE py.source_id = :source_id AND py.name = 'Python' ORDER BY py.id LIMIT 1
    ), CAST(p.pid AS INTEGER)) * 4294967296 + CAST(t.tid AS INTEGER),
    json_extract(s.args, '$.connection_id'),
    substr(n.value, instr(n.value, '@') + 1),
    s.id
FROM process AS p
JOIN thread AS t ON t.process_id = p.id
JOIN _slice AS s ON s.thread_id = t.id
LEFT JOIN string AS n ON n.id = s.name_id
WHERE p.source_id = :source_id AND p.name = 'CANN' AND s.id >= :first_id
ORDER BY s.id;

-- Framework calls: the Python process's slices by category, as PYTORCH_API's types: cpu_op ->
-- op (with its sequence number, forward thread and inputs), enqueue/dequeue -> queue (keyed by
-- their correlation_id), python_function -> trace. Other categories (user annotations) are not
-- framework calls.
INSERT INTO pytorch_api (
    source_id, source_row, rank_id, ts, dur, name, global_tid, connection_id, sequence_number,
    fwd_thread_id, input_dtypes, input_shapes, callchain_id, type, slice_id
)
SELECT
    :source_id,
    s.source_row,
    :rank_id,
    s.ts,
    s.dur,
    n.value,
    CAST(p.pid AS INTEGER) * 4294967296 + CAST(t.tid AS INTEGER),
    json_extract(s.args, '$.correlation_id'),
    json_extract(s.args, '$."Sequence number"'),
    json_extract(s.args, '$."Fwd thread id"'),
    json_extract(s.args, '$."Input type"'),
    json_extract(s.args, '$."Input Dims"'),
    NULL,
    CASE c.value WHEN 'cpu_op' THEN 'op' WHEN 'python_function' THEN 'trace' ELSE 'queue' END,
    s.id
FROM process AS p
JOIN thread AS t ON t.process_id = p.id
JOIN _slice AS s ON s.thread_id = t.id
JOIN string AS c ON c.id = s.category_id AND c.value IN ('cpu_op', 'python_function', 'enqueue', 'dequeue')
LEFT JOIN string AS n ON n.id = s.name_id
WHERE p.source_id = :source_id AND p.name = 'Python' AND s.id >= :first_id
ORDER BY s.id;
