-- What an input holds that the warehouse does not (issue 34): each table or view of an SQLite input
-- (a rank db, msprof's db export, analysis.db, cluster_analysis.db) that no statement of its source
-- reads, with the reason, written by the source as it reads the file. Together with the tables the
-- source copies (source.detail's tables_read) it accounts for every table of the file; a file no
-- source reads at all is a source row of status 'skipped'. The named query unread_inputs lists both.
-- Reasons come from warehouse/sources/unread_reasons.csv (one per known table name), else the default
-- "not read: no table of the warehouse holds it yet"; a table without rows is listed as empty.
CREATE TABLE source_unread (
    -- The input (source.id) holding the item.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- The item not read: a table's (or view's) name as the file spells it.
    item TEXT NOT NULL,
    -- Why the warehouse holds nothing of it, in words ("empty: no rows to read", "not read: ...").
    reason TEXT NOT NULL,
    PRIMARY KEY (source_id, item)
);
