-- A CANN msprof folder's summary CSVs (issue 34): task_time_*.csv (every device task) is read as the
-- source kind 'task_time_csv' and step_trace_*.csv (the iterations) as 'msprof_step_trace_csv'
-- (warehouse/sources/task_time.py, msprof_step_trace.py); op_summary_*.csv and msprof_*.db were
-- read before (op_summary_csv, rank_db). The same run's kernels are answered by one input: the
-- msprof db, then op_summary, then the timeline JSONs, then task_time, the last as it tells HCCL's
-- tasks from kernels by their task type alone.
INSERT INTO fact_precedence (fact, kind, precedence) VALUES ('kernel', 'task_time_csv', 5);
-- The fact 'step': whose step rows answer for a rank (view step_source). Of the inputs holding step
-- rows, the rank's timeline order (a rank db, then a trace, then msprof's timeline JSONs), then
-- msprof's step_trace_*.csv: an msprof db holds no steps, so the steps of a PROF folder with one
-- are still its step_trace_*.json's.
INSERT INTO fact_precedence (fact, kind, precedence) VALUES
    ('step', 'rank_db', 1), ('step', 'trace_json', 2), ('step', 'msprof_timeline', 3),
    ('step', 'msprof_step_trace_csv', 4);
