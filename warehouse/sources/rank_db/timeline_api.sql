-- each: PYTORCH_API:python CANN_API:cann
-- reads: {INPUT}
-- Framework (PYTORCH_API) and CANN (CANN_API) calls as slices on the thread of their
-- globalTid; category = API type (op, queue, mstx, trace / acl, runtime, node, model, hccl).
INSERT INTO _slice (id, thread_id, ts, dur, name_id, category_id, source_id, source_row)
SELECT
    :base_{input} + a._row,
    m.thread_id,
    CAST(a.startNs AS INTEGER),
    CAST(a.endNs AS INTEGER) - CAST(a.startNs AS INTEGER),
    n.string_id,
    c.id,
    :source_id,
    a._row
FROM in_{INPUT} AS a
JOIN temp.rank_db_thread AS m ON m.kind = '{kind}' AND m.key = COALESCE(a.globalTid, 0)
LEFT JOIN temp.rank_db_name AS n ON n.src_id = a.name
LEFT JOIN in_ENUM_API_TYPE AS e ON e.id = a.type
LEFT JOIN string AS c ON c.value = e.name;
