-- Every declared REFERENCES resolves (SQLite's foreign_key_check): a thread's process,
-- a slice's thread and interned strings, a counter track's process, ...
SELECT "table" AS table_name, rowid AS row_id, parent AS parent_table, fkid AS foreign_key_index
FROM pragma_foreign_key_check
