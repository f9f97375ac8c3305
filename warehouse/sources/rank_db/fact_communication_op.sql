-- reads: COMMUNICATION_OP
-- COMMUNICATION_OP with names, group, algorithm and data type as text. A level-0 export writes the
-- type 'N/A': it is read as not given (NULL), as the text exports give no type; so is the data
-- type's enum 'N/A' (65534).
INSERT INTO communication_op (
    source_id, source_row, rank_id, device_id, name, op_type, group_name, ts, dur, data_type, alg_type,
    count, relay, retry, op_id, connection_id, rank_size, slice_id
)
SELECT
    :source_id, o._row, :rank_id, COALESCE(o.deviceId, :device_id), n.value, t.value, g.value,
    CAST(o.startNs AS INTEGER), CAST(o.endNs AS INTEGER) - CAST(o.startNs AS INTEGER),
    NULLIF(COALESCE(d.name, CAST(o.dataType AS TEXT)), 'N/A'), a.value, o.count, o.relay, o.retry, o.opId,
    o.connectionId, o.rankSize, :base_communication_op + o._row
FROM in_COMMUNICATION_OP AS o
LEFT JOIN in_STRING_IDS AS n ON n.id = o.opName
LEFT JOIN in_STRING_IDS AS t ON t.id = o.opType AND t.value NOT IN ('N/A', '')
LEFT JOIN in_STRING_IDS AS g ON g.id = o.groupName
LEFT JOIN in_STRING_IDS AS a ON a.id = o.algType
LEFT JOIN in_ENUM_HCCL_DATA_TYPE AS d ON d.id = o.dataType;
