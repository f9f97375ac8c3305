-- title: Insight operator
-- description: The base information of an operator profile (block 0x05).
-- param source_id (integer, required): The operator profile (source.id).
-- column name: Operator name.
-- column soc: SoC the operator ran on.
-- column op_type: Operator type (aic, aiv, mix, ...).
-- column block_dim: Block dim.
-- column mix_block_dim: Mix block dim.
-- column duration_us: Total duration in microseconds.
-- column detail_key: block_detail or mix_block_detail.
-- column detail_shape: list or table.
-- column detail_header: Column headers of a table-shaped detail (JSON).
-- column detail_size: Size of a table-shaped detail as given (JSON).
select name, soc, op_type, block_dim, mix_block_dim, duration_us, detail_key, detail_shape, detail_header,
    detail_size
from op_run
where source_id = :source_id
order by rowid
limit 1
