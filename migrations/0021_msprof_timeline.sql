-- CANN msprof's timeline JSONs of a PROF_* folder (device_N/timeline/msprof_*.json, step_trace_*.json,
-- ...) are read as the source kind 'msprof_timeline' (warehouse/sources/msprof_timeline/): their device
-- tasks are kernels, their HCCL operators communication operators, their iterations steps. They hold
-- the kernel and timeline facts of their rank after the rank's own exports: a rank db, then
-- kernel_details.csv and op_summary (kernels), a rank db and a trace JSON (timeline) answer first.
INSERT INTO fact_precedence (fact, kind, precedence) VALUES ('kernel', 'msprof_timeline', 4), ('timeline', 'msprof_timeline', 3);
