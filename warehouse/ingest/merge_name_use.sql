-- A part's name_use (derived where its rows were written, warehouse/model/name_use.sql) as the
-- file's here: its strings mapped through temp.merge_string, its input the file's source, in key
-- order as the model layer writes them.
INSERT INTO main.name_use (input_source_id, string_id, kind, row_count)
SELECT :source_id, m.string_id, p.kind, p.row_count
FROM part.name_use AS p
JOIN temp.merge_string AS m ON m.part_id = p.string_id
ORDER BY m.string_id, p.kind;
