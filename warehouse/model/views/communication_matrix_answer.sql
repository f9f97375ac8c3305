-- description: The same for the traffic per rank pair (CommAnalyzerMatrix,
--     communication_matrix.json, the cluster file).
-- column run_id: Run.
-- column source_id: Input the row came from.
-- column source_row: Ordinal of the (operator, pair) entry in the file.
-- column rank_id: Rank of the file (-1 for the cluster file or when unknown).
-- column step_id: Step number from the step key.
-- column comm_type: p2p or collective.
-- column op_name: Operator or operator family (the key before '@'), e.g. allreduce-top1, or
--     'Total Op Info'.
-- column group_name: Communication group (the key after '@').
-- column link: The pair as written, '<src>-<dst>'.
-- column src_rank: Sending rank.
-- column dst_rank: Receiving rank.
-- column transport_type: Transport type: LOCAL, HCCS, RDMA, PCIE, SIO, ...
-- column transit_bytes: Bytes moved (Transit Size(MB), MB = 10**6 bytes).
-- column transit_ns: Time moving them in ns (Transit Time(ms)).
-- column bandwidth_bytes_per_s: Bandwidth in bytes/s (Bandwidth(GB/s), GB = 10**9 bytes).
-- column task_op_name: Operator the pair's figures come from (Op Name), when given.
-- column kind: Format of the input whose summary answers (source.kind).
SELECT a.run_id, m.*, a.kind
FROM communication_matrix AS m
JOIN summary_answer AS a ON a.source_id = m.source_id AND a.rank_id IS m.rank_id AND a.fact = 'communication_matrix'
