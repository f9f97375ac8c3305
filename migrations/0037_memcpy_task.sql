-- Memory copies of a rank db's device tasks (MEMCPY_INFO, written by torch_npu at profiler level 2
-- and by CANN's msprof): how many bytes each copy task moved and in which direction. MindStudio
-- Insight's System View sums them per stream and direction ("Memcpy Overall").

-- One memory copy task per row: MEMCPY_INFO.
CREATE TABLE memcpy_task (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Row of MEMCPY_INFO (its rowid).
    source_row INTEGER,
    -- Rank of the input file (-1 when unknown).
    rank_id INTEGER,
    -- Global task id, the TASK row of this copy (globalTaskId).
    global_task_id INTEGER,
    -- Bytes copied (size).
    size_bytes INTEGER,
    -- Direction of the copy as the input numbers it (memcpyOperation).
    operation_id INTEGER,
    -- Direction of the copy, e.g. host to device (ENUM_MEMCPY_OPERATION(memcpyOperation)); NULL when the
    -- input names no direction of that number.
    operation TEXT,
    -- The copy task's slice on the timeline (slice.id), NULL when TASK has no row of its global task id.
    slice_id INTEGER
);
CREATE INDEX memcpy_task_source ON memcpy_task (source_id);

-- memcpy_task.slice_id holds slice ids (moved with them when a part is copied in).
INSERT INTO column_reference (table_name, column_name, referenced_table) VALUES
    ('memcpy_task', 'slice_id', '_slice');
