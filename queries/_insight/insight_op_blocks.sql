-- title: Insight operator blocks
-- description: The per-block durations of an operator profile's base information, one row
--     per block and value, in the order written.
-- param source_id (integer, required): The operator profile (source.id).
-- column source_row: Entry (list shape) or row (table shape) of the block, from 0.
-- column block_id: Block id.
-- column sub_index: Position of the value in the entry.
-- column core_type: Sub-core type.
-- column duration_us: Duration in microseconds (null when "NA").
-- column value: The value as written.
select source_row, block_id, sub_index, core_type, duration_us, value
from op_block
where source_id = :source_id
order by source_row, sub_index
