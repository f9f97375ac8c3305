-- title: Insight memory units
-- description: The memory paths of an operator profile's heat map (block 0x08).
-- param source_id (integer, required): The operator profile (source.id).
-- param block_id (integer, default null): Only this block; every block when null.
-- column block_id: Block (core_no).
-- column memory_path: Memory path as given.
-- column request: Number of requests.
-- column bandwidth_gb_s: Bandwidth in GB/s.
-- column peak_ratio: Share of the peak bandwidth in percent.
-- column display: 1 when the path is displayed.
select block_id, memory_path, request, bandwidth_gb_s, peak_ratio, display
from memory_unit
where source_id = :source_id and (:block_id is null or block_id = :block_id)
order by block_id, source_row
