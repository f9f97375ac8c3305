-- Search by name (issue 20): a full-text index over the interned names, so "FlashAttention" finds
-- every slice, kernel and API name holding it in one look-up (Datasette's search box on the string
-- table; the named query search_names), and a table of where each name is used, per input, so the
-- answer counts the uses without scanning the rows.
-- The string table now holds the names of kernels and API calls too: the model layer interns them
-- after each input's rows and derives name_use there (warehouse/model/name_use.sql; a part's is
-- copied in by warehouse/merge_name_use.sql), and drops name_use with the input's rows
-- (forget_source.sql). Its column is input_source_id, as finding_evidence's: a derived row, not
-- one the input holds, so source.row_count and the generic copy and delete by source_id leave it
-- alone. The index is kept by triggers on string (the shape of sqlite-utils'
-- enable_fts(create_triggers=True)), so ingest, parallel parts (merge_strings.sql inserts into
-- string) and any later change keep it exact. Its trigram tokenizer matches any 3 or more
-- characters anywhere in a name, case-insensitively (MATCH, and LIKE '%text%' on its value column):
-- profiler names are CamelCase and snake_case identifiers
-- (aclnnFlashAttentionScore_FlashAttentionScore), which a word tokenizer would keep as one word.

-- Where a name is used: how many rows of each kind of one input carry it.
CREATE TABLE name_use (
    -- Input whose rows use the name (source.id).
    input_source_id INTEGER NOT NULL REFERENCES source (id),
    -- The name (string.id).
    string_id INTEGER NOT NULL REFERENCES string (id),
    -- Which rows: slice (slice.name), kernel (kernel.name) or api (pytorch_api.name and cann_api.name).
    kind TEXT NOT NULL,
    -- Number of the input's rows of that kind with that name.
    row_count INTEGER NOT NULL,
    PRIMARY KEY (string_id, input_source_id, kind)
);
CREATE INDEX name_use_input ON name_use (input_source_id);
-- The model layer reads an input's API calls by source (and delete_source drops them so).
CREATE INDEX pytorch_api_source ON pytorch_api (source_id);
CREATE INDEX cann_api_source ON cann_api (source_id);

-- The warehouse's kernels and API calls had plain-text names only: intern them.
INSERT OR IGNORE INTO string (value)
SELECT name FROM kernel WHERE name IS NOT NULL
UNION SELECT name FROM pytorch_api WHERE name IS NOT NULL
UNION SELECT name FROM cann_api WHERE name IS NOT NULL
ORDER BY 1;

INSERT INTO name_use (input_source_id, string_id, kind, row_count)
SELECT source_id, name_id, 'slice', count(*) FROM _slice WHERE name_id IS NOT NULL GROUP BY source_id, name_id
UNION ALL
SELECT k.source_id, s.id, 'kernel', count(*) FROM kernel AS k JOIN string AS s ON s.value = k.name
GROUP BY k.source_id, s.id
UNION ALL
SELECT a.source_id, s.id, 'api', count(*) FROM (
    SELECT source_id, name FROM pytorch_api UNION ALL SELECT source_id, name FROM cann_api
) AS a JOIN string AS s ON s.value = a.name
GROUP BY a.source_id, s.id;

-- Full-text index of string.value (FTS5, trigram); search it with `_string_fts MATCH '"text"'`, or
-- Datasette's search box on the string table.
CREATE VIRTUAL TABLE _string_fts USING fts5 (
    -- The name, as string.value.
    value,
    tokenize='trigram',
    content="string",
    content_rowid="id"
);
INSERT INTO _string_fts (_string_fts) VALUES ('rebuild');

CREATE TRIGGER string_fts_insert AFTER INSERT ON string BEGIN
    INSERT INTO _string_fts (rowid, value) VALUES (new.id, new.value);
END;

CREATE TRIGGER string_fts_delete AFTER DELETE ON string BEGIN
    INSERT INTO _string_fts (_string_fts, rowid, value) VALUES ('delete', old.id, old.value);
END;

-- Interning re-reads an existing string with `ON CONFLICT DO UPDATE SET value = value`: only a
-- real change touches the index.
CREATE TRIGGER string_fts_update AFTER UPDATE OF value ON string WHEN old.value IS NOT new.value BEGIN
    INSERT INTO _string_fts (_string_fts, rowid, value) VALUES ('delete', old.id, old.value);
    INSERT INTO _string_fts (rowid, value) VALUES (new.id, new.value);
END;
