-- Before a source is deleted: a rank it declared passes to another ok source of the same
-- rank, so that replacing one file of a rank does not drop the rank the others still have.
UPDATE rank
SET source_id = (
    SELECT min(other.id) FROM source AS other
    WHERE other.rank_id = rank.rank_id AND other.id != :source_id AND other.status = 'ok'
)
WHERE source_id = :source_id
  AND EXISTS (
    SELECT 1 FROM source AS other
    WHERE other.rank_id = rank.rank_id AND other.id != :source_id AND other.status = 'ok'
  );
