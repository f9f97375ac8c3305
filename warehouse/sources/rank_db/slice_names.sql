-- The input's slices per name, read in one pass over the ids they were given (every slice of the
-- input has an id from :first_slice on, see _slice_bases); unnamed slices are not counted.
SELECT name_id, count(*)
FROM _slice
WHERE id >= :first_slice AND name_id IS NOT NULL
GROUP BY name_id
