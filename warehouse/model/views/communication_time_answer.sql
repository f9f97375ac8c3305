-- description: The profiler's per-operator communication figures (analysis.db CommAnalyzerTime,
--     communication.json, cluster_communication.json) that answer for each rank of each run.
-- column run_id: Run.
-- column source_id: Input the row came from.
-- column source_row: Ordinal of the operator entry in the file.
-- column rank_id: Rank the operator ran on (-1 when unknown).
-- column step_id: Step number from the step key (step50 -> 50).
-- column comm_type: p2p or collective.
-- column op_name: Operator name (the key before '@'), e.g. hcom_allReduce__586_0_1, or 'Total
--     Op Info'.
-- column group_name: Communication group (the key after '@'), a hash of the group id.
-- column ts: Start in ns (Start Timestamp(us)).
-- column elapse_ns: Elapsed time in ns (Elapse Time(ms)).
-- column transit_ns: Time spent moving data in ns (Transit Time(ms)).
-- column wait_ns: Time spent waiting for peers in ns (Wait Time(ms)).
-- column synchronization_ns: Time spent synchronising in ns (Synchronization Time(ms)).
-- column idle_ns: Idle time in ns (Idle Time(ms)).
-- column wait_ratio: Wait / (wait + transit) (Wait Time Ratio).
-- column synchronization_ratio: Synchronization / (synchronization + transit) (Synchronization
--     Time Ratio).
-- column kind: Format of the input whose summary answers (source.kind).
-- column op_type: The operator's type, its name less the instance suffix (hcom_allReduce_), as
--     hccl_operator.type_name names it.
-- column row_id: Its row in communication_time (its rowid): with table_name communication_time,
--     the key kernel_step gives the operator's step by (hccl_summary_operator).
SELECT a.run_id, t.*, a.kind,
-- include: _instance_type
    AS op_type,
    t.rowid AS row_id
FROM communication_time AS t
JOIN summary_answer AS a ON a.source_id = t.source_id AND a.rank_id IS t.rank_id AND a.fact = 'communication_summary'
