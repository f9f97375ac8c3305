-- Stage 1, in the scratch warehouse holding one rank db's steps, kernels and HCCL operators: the
-- rank's answers, read from the same views the full warehouse answers from (step_breakdown,
-- kernel_total, hccl_total), so the staged figures are those views' arithmetic, not a copy of it.
-- Three statements, read in this order: steps, kernels, HCCL operator types.
SELECT
    rank_id, step_id, start_ns, end_ns, computing_ns, communication_not_overlapped_ns, overlapped_ns,
    communication_ns, free_ns, stage_ns, bubble_ns, communication_not_overlapped_exclude_receive_ns, preparing_ns
FROM step_breakdown;

SELECT rank_id, name, op_class, count, timed, total_ns, max_ns FROM kernel_total;

SELECT rank_id, name, count, timed, total_ns, max_ns FROM hccl_total;
