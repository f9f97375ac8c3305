-- reads: CANN_API TASK
-- CANN call -> the device tasks it launched (same connectionId).
INSERT INTO flow (source_id, slice_out, slice_in, name, category, flow_key)
SELECT :source_id, :base_cann_api + a._row, :base_task + t._row, 'host_to_device', 'connection',
       CAST(t.connectionId AS TEXT)
FROM in_TASK AS t
JOIN in_CANN_API AS a ON a.connectionId = t.connectionId;
