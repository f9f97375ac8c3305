-- The HCCL operators of every step of one run that a rank db's COMMUNICATION_OP gives (the
-- answering input's, in their step by kernel_step's rule, as the kernels; an HCCL
-- operator that a text export lists as a kernel row comes with the step's kernels), with every
-- field of their row and the path of their input: the step inspector's HCCL lane, and activity
-- that its bubble axis does not count as idle. In start order per rank and step.
select ks.rank_id as step_rank, ks.step_id as step_number, c.*, src.path as source_path
from kernel_step as ks
join communication_op as c on c.rowid = ks.row_id
join source as src on src.id = c.source_id
where ks.run_id = :run_id and ks.table_name = 'communication_op' and ks.step_id is not null
order by ks.rank_id, ks.step_id, c.ts, c.source_row
