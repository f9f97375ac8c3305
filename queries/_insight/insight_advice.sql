-- title: Insight advice
-- description: The advice strings of an operator profile's blocks of one type, either the
--     block-level ones (block_id null) or those of one block id, in order.
-- param source_id (integer, required): The operator profile (source.id).
-- param block_type (integer, required): Block type (5 base info, 6/7 compute load, 8/9 memory).
-- param block_id (integer, default null): Only the advice of this block id; the block-level advice when null.
-- column text: The advice text.
select text
from op_advice
where source_id = :source_id and block_type = :block_type
    and ((:block_id is null and block_id is null) or block_id = :block_id)
order by rowid
