-- title: Insight block kinds
-- description: The block types an operator profile holds, with each type's header version byte
--     (import/action's hasCachelineRecords and instrVersion: 0 marks new-style 0x04 instructions).
-- param source_id (integer, required): The operator profile (source.id).
-- column block_type: Block type (1-15, see op_block_raw.block_type).
-- column version: The lowest header version byte among that type's blocks.
-- column blocks: How many blocks of that type the profile holds.
select block_type, min(version) as version, count(*) as blocks
from op_block_raw
where source_id = :source_id
group by block_type
order by block_type
