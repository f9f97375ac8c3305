-- The kernel rows of every step of one run (step_kernel: the answering input's kernels, each in
-- its step by kernel_step's rule) with every field of the kernel table and the path of the input
-- they came from: what the HTML report's step inspector shows (timeline bars, operator card,
-- idle intervals, top kernels). In device order per rank and step (start, then kernel id).
select sk.rank_id as step_rank, sk.step_id as step_number, k.*, src.path as source_path
from step_kernel as sk
join kernel as k on k.id = sk.kernel_id
join source as src on src.id = k.source_id
where sk.run_id = :run_id
order by sk.rank_id, sk.step_id, sk.ts, sk.kernel_id
