-- description: Every GPU kernel of every answering timeline: a kineto trace's slices of category
--     kernel (or Kernel), each with its class: communication for an NCCL kernel (a name
--     containing nccl, any case), else gpu (op_class gives both their compute flags). The one
--     definition of a trace's GPU kernel that step_activity and the kernel answer read
--     (kernel_answer: those of a rank no kernel input answers, NCCL ones left out as HCCL
--     operators are).
-- column run_id: Run of the timeline.
-- column rank_id: Rank of the timeline (-1 when unknown).
-- column source_id: The timeline input (answer_source, fact timeline).
-- column slice_id: The kernel's slice (slice.id).
-- column source_row: Position of the slice in its input (its trace event index).
-- column ts: Start time in ns.
-- column dur: Duration in ns.
-- column name: Kernel name, NULL when unnamed.
-- column op_class: communication (NCCL) or gpu.
SELECT
    a.run_id, a.rank_id, a.source_id, sl.id AS slice_id, sl.source_row, sl.ts, sl.dur, n.value AS name,
    CASE WHEN lower(n.value) LIKE '%nccl%' THEN 'communication' ELSE 'gpu' END AS op_class
FROM answer_source AS a
JOIN process AS p ON p.source_id = a.source_id
JOIN thread AS t ON t.process_id = p.id
JOIN _slice AS sl ON sl.thread_id = t.id
-- +: each slice's category is looked up, slices are never searched by category (a step's are
-- read by the (thread_id, ts) index)
JOIN string AS c ON c.id = +sl.category_id
LEFT JOIN string AS n ON n.id = sl.name_id
WHERE a.fact = 'timeline' AND c.value IN ('kernel', 'Kernel')
