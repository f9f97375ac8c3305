-- reads: PYTORCH_API CONNECTION_IDS
-- Framework calls sharing a connection (task queue enqueue -> dequeue, forward -> backward):
-- each call to the next one in time.
WITH linked AS (
    SELECT c.connectionId AS connection_id, :base_pytorch_api + a._row AS slice_id,
           CAST(a.startNs AS INTEGER) AS ts, a._row AS row
    FROM in_PYTORCH_API AS a
    JOIN in_CONNECTION_IDS AS c ON c.id = a.connectionId
),
ordered AS (
    SELECT connection_id, slice_id,
           LEAD(slice_id) OVER (PARTITION BY connection_id ORDER BY ts, row) AS next_slice_id
    FROM linked
)
INSERT INTO flow (source_id, slice_out, slice_in, name, category, flow_key)
SELECT :source_id, slice_id, next_slice_id, 'framework', 'CONNECTION_IDS', CAST(connection_id AS TEXT)
FROM ordered
WHERE next_slice_id IS NOT NULL;
