-- One encoding of "rank unknown" (issue 33): an input about one rank that neither it nor its
-- folders name has rank -1 (UNKNOWN_RANK in warehouse/sources/kit/rank_layout.py), in source.rank_id
-- and in every row it adds, as a rank db's RANK_DEVICE_MAP and msprof's RANK_ID write it; NULL is
-- left for an input about no one rank (a cluster's file, the op simulator's operator run) and for a
-- file not read yet or not read at all. The sources below wrote NULL for such an input (their table
-- rows already said -1): a trace file, a text export, communication.json and
-- communication_matrix.json, an analysis.db and profiler_metadata.json; a trace also left its
-- processes, counter series and metadata rows NULL, and profiler_metadata.json its metadata rows.
-- The op simulator's trace (its top-level key profilingType) keeps NULL.

CREATE TEMP TABLE unknown_rank_source AS
SELECT s.id
FROM source AS s
WHERE s.rank_id IS NULL
    AND s.status = 'ok'
    AND s.stage IS NOT 'pending'
    AND s.kind IN (
        'trace_json', 'analysis_db', 'profiler_metadata_json', 'communication_json', 'communication_matrix_json',
        'kernel_details_csv', 'op_summary_csv', 'op_statistic_csv', 'operator_details_csv', 'step_trace_time_csv',
        'memory_record_csv', 'operator_memory_csv', 'api_statistic_csv', 'npu_module_mem_csv', 'l2_cache_csv',
        'static_op_mem_csv'
    )
    AND NOT EXISTS (SELECT 1 FROM run_metadata AS m WHERE m.source_id = s.id AND m.name = 'profilingType');

UPDATE source SET rank_id = -1 WHERE id IN (SELECT id FROM unknown_rank_source);
UPDATE process SET rank_id = -1 WHERE rank_id IS NULL AND source_id IN (SELECT id FROM unknown_rank_source);
UPDATE counter_track SET rank_id = -1 WHERE rank_id IS NULL AND source_id IN (SELECT id FROM unknown_rank_source);
UPDATE run_metadata SET rank_id = -1 WHERE rank_id IS NULL AND source_id IN (SELECT id FROM unknown_rank_source);

DROP TABLE unknown_rank_source;
