-- title: Insight code line metrics
-- description: The extra declared columns ("Files Dtype") of one file's lines on one core,
--     the hidden ones (dtype 0) left out.
-- param source_id (integer, required): The operator profile (source.id).
-- param file (text, required): Source file path (code_line.file).
-- param core (text, required): Core name.
-- column code_line_id: The line-and-core row the value belongs to.
-- column name: Column name as declared.
-- column value: The value for this core.
select m.code_line_id, m.name, m.value
from code_line_metric as m
join code_line as l on l.id = m.code_line_id
where l.source_id = :source_id and l.file = :file and l.core = :core
    and (m.dtype is null or m.dtype <> 0)
order by m.code_line_id, m.rowid
