-- title: Insight pipe ratios
-- description: The Cube, Vector and Vector1 usage of an operator profile's heat map cores (block 0x08).
-- param source_id (integer, required): The operator profile (source.id).
-- param block_id (integer, default null): Only this block; every block when null.
-- column block_id: Block (core_no).
-- column pipe: Cube, Vector or Vector1.
-- column ratio: Busy ratio in percent.
-- column cycle: Busy cycles.
-- column total_cycles: Total cycles.
select block_id, pipe, ratio, cycle, total_cycles
from pipe_ratio
where source_id = :source_id and (:block_id is null or block_id = :block_id)
order by block_id, rowid
