-- description: What each GPU kernel of a kineto trace computes, as the trace says it: the operator
--     that launched it (the trace's flow from the runtime's launch call, e.g. cudaLaunchKernel, to
--     the kernel; the launch call's parent slice is the operator, e.g. aten::addmm) and that
--     operator's input dims. A kernel a different GPU names otherwise (volta_sgemm_*, ampere_sgemm_*)
--     is launched by the same operator on the same inputs: what compare_kernels matches such kernels
--     by. A kernel without a flow (a trace that records none) has no row.
-- column slice_id: The kernel's slice (gpu_kernel.slice_id: the one definition of a trace's GPU kernel).
-- column source_id: The trace.
-- column launch_slice_id: The launch call's slice (e.g. cudaLaunchKernel).
-- column op_type: The launching operator's name, e.g. aten::addmm.
-- column input_shapes: The operator's input dims as the trace writes them (its args' "Input Dims", as
--     JSON, e.g. [[32,64],[64,64]]); NULL when the trace records no shapes.
SELECT
    k.slice_id,
    k.source_id,
    l.id AS launch_slice_id,
    n.value AS op_type,
    -- a trace's args are the parsed document's own text, so valid JSON
    json_extract(o.args, '$."Input Dims"') AS input_shapes
FROM gpu_kernel AS k
JOIN flow AS f ON f.slice_in = k.slice_id
JOIN _slice AS l ON l.id = f.slice_out
JOIN _slice AS o ON o.id = l.parent_id
JOIN string AS n ON n.id = o.name_id
