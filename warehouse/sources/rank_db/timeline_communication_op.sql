-- reads: COMMUNICATION_OP
-- HCCL operators as slices on a thread per communication group; category = operator type.
INSERT INTO _slice (id, thread_id, ts, dur, name_id, category_id, source_id, source_row)
SELECT
    :base_communication_op + o._row,
    m.thread_id,
    CAST(o.startNs AS INTEGER),
    CAST(o.endNs AS INTEGER) - CAST(o.startNs AS INTEGER),
    n.string_id,
    t.string_id,
    :source_id,
    o._row
FROM in_COMMUNICATION_OP AS o
JOIN temp.rank_db_thread AS m ON m.kind = 'hccl' AND m.key = COALESCE(o.groupName, -1)
LEFT JOIN temp.rank_db_name AS n ON n.src_id = o.opName
LEFT JOIN temp.rank_db_name AS t ON t.src_id = o.opType;
