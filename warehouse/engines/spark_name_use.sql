-- A group's name_use rows in the order the model layer writes them (per input, by string id and
-- kind: warehouse/model/name_use.sql) under the global string ids, whatever order the part's own
-- string ids gave: their rowids are renumbered from the group's rowid offset (:offset).
CREATE TEMP TABLE name_use_order AS
SELECT rowid AS old, :offset + row_number() OVER (ORDER BY input_source_id, string_id, kind) AS new
FROM main.name_use;

UPDATE main.name_use SET rowid = -rowid;

UPDATE main.name_use SET rowid = (SELECT new FROM temp.name_use_order WHERE old = -name_use.rowid);

DROP TABLE temp.name_use_order;
