-- title: Insight memory cores
-- description: The cores of an operator profile's memory heat map (block 0x08) with their
--     L2 cache figures.
-- param source_id (integer, required): The operator profile (source.id).
-- param block_id (integer, default null): Only this block; every block when null.
-- column block_id: Block (core_no).
-- column op_type: Core type of the entry.
-- column soc: SoC (chip type).
-- column hit: Cache hits.
-- column miss: Cache misses.
-- column total_request: Cache requests in total.
-- column hit_ratio: Hit ratio in percent.
select block_id, op_type, soc, hit, miss, total_request, hit_ratio
from l2_cache
where source_id = :source_id and (:block_id is null or block_id = :block_id)
order by source_row
