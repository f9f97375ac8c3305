-- Both ends of every flow arrow are slices of the warehouse.
SELECT f.id, f.slice_out, f.slice_in, f.name, f.flow_key, f.source_id
FROM flow AS f
WHERE NOT EXISTS (SELECT 1 FROM _slice AS s WHERE s.id = f.slice_out)
   OR NOT EXISTS (SELECT 1 FROM _slice AS s WHERE s.id = f.slice_in)
