-- title: Insight code file
-- description: A source file of an operator profile (block 0x01) by its path, or by the
--     end of its path after a '/' (a client may name only the file); the exact match first.
--     Looks up the warehouse only: no file on disk is ever read.
-- param source_id (integer, required): The operator profile (source.id).
-- param source_name (text, required): Path of the file, or its last components.
-- column path: Path of the source file as the profile records it.
-- column content: The source text.
-- column exact: 1 when the path is the name given, 0 when it only ends with it.
with files as (
    select path, content, case when path = :source_name then 1 else 0 end as exact
    from code_file
    where source_id = :source_id
),

final as (
    select path, content, exact
    from files
    where exact = 1
        or (length(path) > length(:source_name)
            and substr(path, length(path) - length(:source_name) + 1) = :source_name
            and substr(path, length(path) - length(:source_name), 1) = '/')
)

select path, content, exact
from final
order by exact desc, path
