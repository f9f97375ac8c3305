-- description: Every category of every classified kernel, one row each: its primary category
--     (kernel.category) and the further ones kernel_category_member gives it. Columns:
--     kernel_id (kernel.id), category.
-- column kernel_id: The kernel row (kernel.id).
-- column category: Category from the kernel-signature table (e.g. attention.flash_score,
--     moe.dispatch, compute.matmul).
SELECT id AS kernel_id, category FROM kernel WHERE category IS NOT NULL
UNION ALL
SELECT k.id AS kernel_id, m.member AS category
FROM kernel AS k
JOIN kernel_category_member AS m ON m.category = k.category
