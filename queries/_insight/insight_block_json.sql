-- title: Insight block JSON
-- description: The JSON text of an operator profile's first block of a type, exactly as
--     written (e.g. 4 for the instructions part of api.json).
-- param source_id (integer, required): The operator profile (source.id).
-- param block_type (integer, required): Block type (1-15, see op_block_raw.block_type).
-- column json: The block's JSON text.
select json
from op_block_raw
where source_id = :source_id and block_type = :block_type and json is not null
order by block_index
limit 1
