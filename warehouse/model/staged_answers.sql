-- Stage 1, in the scratch warehouse holding one rank db's steps, kernels and HCCL operators: the
-- rank's answers, read from the same views the full warehouse answers from (step_breakdown,
-- hccl_total), so the staged figures are those views' arithmetic, not a copy of it. The kernels are
-- summed straight from staged_kernel_row (staged_kernels.sql) as kernel_total sums kernel_answer (count,
-- count with a duration, total, longest per name and class, HCCL operators left to hccl_total):
-- writing every kernel row to sum them through the view would cost three times as much.
-- Four statements, read in this order: steps with their breakdown; steps alone (their markers,
-- for a rank whose step breakdown the profiler's own summary gives: the breakdown columns NULL);
-- kernels; HCCL operator types.
SELECT
    rank_id, step_id, start_ns, end_ns, computing_ns, communication_not_overlapped_ns, overlapped_ns,
    communication_ns, free_ns, stage_ns, bubble_ns, communication_not_overlapped_exclude_receive_ns, preparing_ns
FROM step_breakdown;

SELECT
    rank_id, step_id, start_ns, end_ns, NULL AS computing_ns, NULL AS communication_not_overlapped_ns,
    NULL AS overlapped_ns, NULL AS communication_ns, NULL AS free_ns, NULL AS stage_ns, NULL AS bubble_ns,
    NULL AS communication_not_overlapped_exclude_receive_ns, NULL AS preparing_ns
FROM step_marker;

SELECT :rank_id, name, op_class, count(*), count(dur), sum(dur), max(dur)
FROM temp.staged_kernel_row
WHERE op_class IS NOT 'communication'
GROUP BY name, op_class;

SELECT rank_id, name, count, timed, total_ns, max_ns FROM hccl_total;
