-- The migration runner's audit trail: one row per applied migration.
CREATE TABLE IF NOT EXISTS schema_migrations (
    -- Schema version the migration brings the warehouse to.
    version INTEGER PRIMARY KEY,
    -- Name of the migration file without its number.
    name TEXT NOT NULL,
    -- SHA-256 of the migration file when it was applied.
    sha256 TEXT NOT NULL,
    -- When it was applied (UTC, ISO 8601).
    applied_at TEXT NOT NULL
);

-- The model's derived views a warehouse holds (warehouse/model/views/NAME.sql): one row per view
-- with the sha256 of the SELECT it was created from; migrate recreates the views when a file differs.
CREATE TABLE IF NOT EXISTS schema_views (
    -- Name of the view (its file's name without .sql).
    name TEXT PRIMARY KEY,
    -- SHA-256 of the view's SELECT, includes expanded.
    sha256 TEXT NOT NULL
);
