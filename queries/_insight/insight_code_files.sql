-- title: Insight code files
-- description: The paths of an operator profile's source files (blocks 0x01).
-- param source_id (integer, required): The operator profile (source.id).
-- column path: Path of the source file.
select path
from code_file
where source_id = :source_id
order by rowid
