-- reads: COMMUNICATION_TASK_INFO
-- COMMUNICATION_TASK_INFO with names and enums as text, and the device slice of its TASK row. A
-- level-0 export writes the task type 'N/A' and the enums' 'N/A' (65534) for the RDMA, transport,
-- data and link types: they are read as not given (NULL), as the text export gives none.
INSERT INTO communication_task (
    source_id, source_row, rank_id, name, global_task_id, task_type, plane_id, group_name, notify_id,
    rdma_type, src_rank, dst_rank, transport_type, size_bytes, data_type, link_type, op_id, is_master,
    bandwidth_bytes_per_s, slice_id
)
SELECT
    :source_id, c._row, :rank_id, n.value, c.globalTaskId, tt.value, c.planeId, g.value, c.notifyId,
    NULLIF(COALESCE(r.name, CAST(c.rdmaType AS TEXT)), 'N/A'), c.srcRank, c.dstRank,
    NULLIF(COALESCE(tr.name, CAST(c.transportType AS TEXT)), 'N/A'), c.size,
    NULLIF(COALESCE(d.name, CAST(c.dataType AS TEXT)), 'N/A'), NULLIF(COALESCE(l.name, CAST(c.linkType AS TEXT)), 'N/A'),
    c.opId, c.isMaster, c.bandwidth,
    :base_task + t.row
FROM in_COMMUNICATION_TASK_INFO AS c
LEFT JOIN (SELECT globalTaskId, MIN(_row) AS row FROM in_TASK GROUP BY globalTaskId) AS t
    ON t.globalTaskId = c.globalTaskId
LEFT JOIN in_STRING_IDS AS n ON n.id = c.name
LEFT JOIN in_STRING_IDS AS tt ON tt.id = c.taskType AND tt.value NOT IN ('N/A', '')
LEFT JOIN in_STRING_IDS AS g ON g.id = c.groupName
LEFT JOIN in_ENUM_HCCL_RDMA_TYPE AS r ON r.id = c.rdmaType
LEFT JOIN in_ENUM_HCCL_TRANSPORT_TYPE AS tr ON tr.id = c.transportType
LEFT JOIN in_ENUM_HCCL_DATA_TYPE AS d ON d.id = c.dataType
LEFT JOIN in_ENUM_HCCL_LINK_TYPE AS l ON l.id = c.linkType;
