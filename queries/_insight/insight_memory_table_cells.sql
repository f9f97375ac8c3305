-- title: Insight memory table cells
-- description: The cells of an operator profile's memory tables (block 0x09), in table,
--     row and column order (row 0 the header, column 0 the row name).
-- param source_id (integer, required): The operator profile (source.id).
-- param block_id (integer, default null): Only this block; every block when null.
-- column block_id: Block id.
-- column table_op_type: Table data type.
-- column table_index: Index of the table in the block's entry.
-- column table_name: Table name.
-- column table_size: Size as given (JSON).
-- column row_index: 0 for the header, 1.. for data rows.
-- column column_index: 0 for the row name, 1.. for values.
-- column value: The cell as written.
select block_id, table_op_type, table_index, table_name, table_size, row_index, column_index, value
from memory_table
where source_id = :source_id and (:block_id is null or block_id = :block_id)
order by rowid
