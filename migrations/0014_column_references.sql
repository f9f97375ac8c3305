-- Schema facts in the schema (issue 22): which columns hold the ids of another warehouse table
-- without a FOREIGN KEY clause saying so (SQLite cannot add one to an existing table). Copying a
-- part into the warehouse shifts such ids with the table they point at (warehouse/merge.py reads
-- this table beside the declared foreign keys, through warehouse/introspect.py). A migration that
-- adds such a column adds its row here in the same file; tests/test_schema_references.py fails when
-- a column holding slice ids is declared nowhere.

-- One column holding the ids of another table, not declared by a FOREIGN KEY.
CREATE TABLE column_reference (
    -- Table holding the column.
    table_name TEXT NOT NULL,
    -- Column holding ids of referenced_table.
    column_name TEXT NOT NULL,
    -- Table whose id column the values are (the storage table, e.g. _slice for slice ids).
    referenced_table TEXT NOT NULL,
    PRIMARY KEY (table_name, column_name)
);

INSERT INTO column_reference (table_name, column_name, referenced_table) VALUES
    ('_slice', 'parent_id', '_slice'),
    ('flow', 'slice_out', '_slice'),
    ('flow', 'slice_in', '_slice'),
    ('cann_api', 'slice_id', '_slice'),
    ('communication_op', 'slice_id', '_slice'),
    ('communication_task', 'slice_id', '_slice'),
    ('kernel', 'slice_id', '_slice'),
    ('pytorch_api', 'slice_id', '_slice');
