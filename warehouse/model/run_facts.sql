-- After an input went in: what its run now states. The start is the earliest step or device
-- kernel of the run's inputs. The profiler and its version are the framework's whose version
-- field one of the run's own files holds (version_field: torch_npu's profiler_info
-- torch_npu_version, MindSpore's profiler_info ms_version), whichever input came first; else the
-- profiler is named by the kind of the input (MindSpore's raw files and intermediates are
-- MindSpore's; a capture's metadata files, which any profiler's capture holds, name none) and the
-- version by CANN's or the input's own version field.
WITH version_field (name, profiler) AS (
    VALUES ('torch_npu_version', 'torch_npu'), ('ms_version', 'MindSpore')
),
framework AS (
    SELECT s.run_id, m.source_id, v.profiler, m.value AS version
    FROM run_metadata AS m JOIN source AS s ON s.id = m.source_id JOIN version_field AS v ON v.name = m.name
)
UPDATE run SET
    start_ns = (
        SELECT min(ts) FROM (
            SELECT min(st.start_ns) AS ts FROM step AS st JOIN source AS s ON s.id = st.source_id
            WHERE s.run_id = run.run_id
            UNION ALL
            SELECT (SELECT min(k.ts) FROM kernel AS k WHERE k.source_id = s.id) AS ts FROM source AS s
            WHERE s.run_id = run.run_id
        )
    ),
    profiler = coalesce((SELECT f.profiler FROM framework AS f WHERE f.run_id = run.run_id ORDER BY f.source_id LIMIT 1), profiler, (
        SELECT CASE
            WHEN s.kind IN ('capture_info_json', 'done_mark') THEN NULL
            WHEN s.kind = 'op_profile' THEN 'msprof op'
            WHEN s.kind = 'trace_json' THEN 'trace'
            WHEN s.kind IN ('op_summary_csv', 'op_statistic_csv', 'api_statistic_csv', 'msprof_timeline', 'task_time_csv',
                            'msprof_step_trace_csv') THEN 'msprof'
            WHEN s.kind LIKE 'cluster%' THEN 'msprof-analyze'
            WHEN s.kind LIKE 'mindspore%' THEN 'MindSpore'
            ELSE 'torch_npu'
        END
        FROM source AS s WHERE s.id = :source_id AND s.kind IS NOT NULL
    )),
    profiler_version = coalesce((SELECT f.version FROM framework AS f WHERE f.run_id = run.run_id ORDER BY f.source_id LIMIT 1),
                                profiler_version, (
        SELECT m.value FROM run_metadata AS m JOIN source AS s ON s.id = m.source_id
        WHERE s.run_id = run.run_id AND m.name IN ('CANN_VERSION', 'version')
        ORDER BY m.source_id LIMIT 1
    ))
WHERE run_id = (SELECT run_id FROM source WHERE id = :source_id);
