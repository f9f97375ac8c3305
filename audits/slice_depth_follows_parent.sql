-- A slice's depth is 0 without a parent and its parent's depth + 1 with one.
SELECT
    c.id,
    c.thread_id,
    c.depth,
    c.parent_id,
    p.depth AS parent_depth,
    c.source_id
FROM _slice AS c
LEFT JOIN _slice AS p ON p.id = c.parent_id
WHERE (c.parent_id IS NULL AND c.depth != 0)
   OR (c.parent_id IS NOT NULL AND p.id IS NOT NULL AND c.depth != p.depth + 1)
