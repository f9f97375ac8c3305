-- The HCCL operators of every step of one run that a rank db's COMMUNICATION_OP gives (the
-- answering input's, placed in each rank's step windows as step_kernel places kernels; an HCCL
-- operator that a text export lists as a kernel row comes with the step's kernels), with every
-- field of their row and the path of their input: the step inspector's HCCL lane, and activity
-- that its bubble axis does not count as idle. In start order per rank and step.
select w.rank_id as step_rank, w.step_id as step_number, c.*, src.path as source_path
from step_window as w
join answer_source as a on a.run_id = w.run_id and a.rank_id = w.rank_id and a.fact = 'kernel'
join communication_op as c
    on c.source_id = a.source_id and c.rank_id = w.rank_id and c.ts >= w.start_ns and c.ts < w.end_ns
join source as src on src.id = c.source_id
where w.run_id = :run_id
order by w.rank_id, w.step_id, c.ts, c.source_row
