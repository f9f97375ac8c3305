-- title: Insight code lines
-- description: The hot-spot figures of one source file's lines on one core (block 0x03).
-- param source_id (integer, required): The operator profile (source.id).
-- param file (text, required): Source file path (code_line.file).
-- param core (text, required): Core name, e.g. core0.cubecore0.
-- column code_line_id: Identifier of the line-and-core row (code_line.id).
-- column line: Line number.
-- column cycles: Cycles the line took on the core.
-- column instructions_executed: Instructions of the line executed on the core.
-- column address_range: Instruction address ranges as JSON text.
select id as code_line_id, line, cycles, instructions_executed, address_range
from code_line
where source_id = :source_id and file = :file and core = :core
order by source_row, id
