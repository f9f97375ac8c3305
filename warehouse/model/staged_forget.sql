-- A staged input's rows (a rank db's first answers, an analysis.db's step summary), dropped with
-- its source row when its full ingest lands in that row. Parameter :source_id.
DELETE FROM staged_step WHERE source_id = :source_id;
DELETE FROM staged_kernel WHERE source_id = :source_id;
DELETE FROM staged_hccl WHERE source_id = :source_id;
DELETE FROM step_trace_time WHERE source_id = :source_id;
DELETE FROM source WHERE id = :source_id;
