-- title: Kernel sequence of a step
-- description: The kernels of each rank and step (step_window) in device order (start time,
--     then kernel id), with the role of their category from the kernel signatures: the
--     input of the layer and block segmentation (seed 004 section 5, warehouse/analysis/segment.py).
--     Only the answering inputs' kernels (step_kernel), per run.
-- param run_id (integer, default null): Only this run; every run when null.
-- param rank_id (integer, default null): Only this rank; every rank when null.
-- param step_id (integer, default null): Only this step; every step when null.
-- column run_id: Run.
-- column rank_id: Rank.
-- column step_id: Step (-1: the whole capture of a rank without steps).
-- column kernel_id: kernel.id.
-- column source_id: Input of the kernel row.
-- column source_row: Row of the kernel in its input.
-- column name: Kernel name.
-- column category: Kernel category (kernel signatures), e.g. attention.flash_score.
-- column role: Coarse role of the category: attention, moe, matmul, communication, ...
-- column ts: Start in ns.
-- column dur: Duration in ns.
with roles as (
    select category, min(role) as role
    from kernel_signature
    group by category
),

final as (
    select k.run_id, k.rank_id, k.step_id, k.kernel_id, k.source_id, k.source_row, k.name, k.category, r.role, k.ts, k.dur
    from step_kernel as k
    left join roles as r on r.category = k.category
    where (:run_id is null or k.run_id = :run_id) and (:rank_id is null or k.rank_id = :rank_id) and (:step_id is null or k.step_id = :step_id)
)

select run_id, rank_id, step_id, kernel_id, source_id, source_row, name, category, role, ts, dur
from final
order by run_id, rank_id, step_id, ts, kernel_id
