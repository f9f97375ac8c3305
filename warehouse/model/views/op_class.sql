-- description: Every kernel class (kernel.op_class, from kernel_core_classes.csv and the kernel
--     signatures; gpu for a GPU kineto trace's kernel slice, gpu_kernel) and whether it is compute:
--     the one statement of the compute set every rule, step answer and query reads (join on
--     op_class). The profiler's step trace counts compute otherwise than the rules, hence two
--     flags. A kernel of no class (NULL) has no row: the rules do not count it as compute, the step
--     trace does (it is no HCCL operator).
-- column op_class: The class (seed 004, issue 16).
-- column is_compute: 1 when the rules count the class's kernels as compute work (aic, aiv, mix_cv,
--     aicpu, dsa, gpu): what step_kernel.is_compute, step_compute and the rules' compute shares
--     read; 0 for communication, mix_comm_aiv (a communication kernel with AIV time, e.g. an MC2
--     fused operator), data movement (memory) and synchronisation (other).
-- column step_trace_compute: 1 when torch_npu's step trace counts the class's kernels as Computing
--     (step_activity, step_breakdown): every device kernel that is not an HCCL operator, so
--     mix_comm_aiv, memory and other too (its Computing is the union of the non-communication
--     tasks); 0 for communication, which it counts as Communication.
-- column meaning: What the class holds.
SELECT column1 AS op_class, column2 AS is_compute, column3 AS step_trace_compute, column4 AS meaning
FROM (VALUES
    ('aic', 1, 1, 'AI Core (cube) kernel'),
    ('aiv', 1, 1, 'AI Vector Core kernel'),
    ('mix_cv', 1, 1, 'mixed cube and vector kernel'),
    ('aicpu', 1, 1, 'AI CPU kernel'),
    ('dsa', 1, 1, 'DSA (data stream accelerator) kernel, e.g. random number generation'),
    ('gpu', 1, 1, 'GPU kernel of a kineto trace, other than NCCL (gpu_kernel)'),
    ('mix_comm_aiv', 0, 1, 'communication kernel with AIV time (MC2 fused operators)'),
    ('communication', 0, 0, 'HCCL operator or task, or an NCCL kernel of a kineto trace'),
    ('memory', 0, 1, 'data movement (SDMA, memcpy, memset)'),
    ('other', 0, 1, 'synchronisation and place holders (events, profiling marks)')
)
