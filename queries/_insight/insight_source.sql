-- title: Insight source
-- description: One ingested input by id: its path, the id MindStudio Insight's frontend names
--     it by (rankId), whether or not it is an operator card.
-- param source_id (integer, required): The input (source.id).
-- column source_id: Identifier of the source (source.id).
-- column path: Path of the input file.
-- column card: The card name (source.card), NULL for inputs that are no operator profile.
select id as source_id, path, card
from source
where id = :source_id
