-- title: Insight compute load
-- description: The compute load of an operator profile: chart (0x06) and table (0x07)
--     items in the order written.
-- param source_id (integer, required): The operator profile (source.id).
-- column view: chart or table.
-- column block_id: Block id.
-- column block_type: Sub-block type.
-- column name: Metric name.
-- column unit: Unit as given.
-- column value: Value.
-- column origin_value: The raw figure behind a chart percentage.
select view, block_id, block_type, name, unit, value, origin_value
from compute_load
where source_id = :source_id
order by view, source_row, rowid
