-- The project explorer MindStudio Insight's page shows on this warehouse (issue 38): the real server keeps
-- its explorer in a database of its own (Ascend/msinsight server/src/modules/global/core/
-- ProjectExplorerManager.cpp, system_memory.db) and renames, deletes and clears its entries there
-- (files/updateProjectExplorer, files/deleteProjectExplorer, files/clearProjectExplorer); the warehouse's
-- explorer is every card it holds, one project, so only the project's name and the entries taken out of it
-- are kept. Taking an entry out removes no ingested row.

-- The project's name once the page renamed it (at most one row; none: the default name).
CREATE TABLE insight_project (
    -- Always 1 (one project per warehouse).
    id INTEGER PRIMARY KEY CHECK (id = 1),
    -- The name files/updateProjectExplorer gave the project.
    name TEXT NOT NULL CHECK (name <> '')
);

-- A path taken out of the project explorer: a card's file, a cluster's folder or any folder above cards;
-- the explorer leaves out every card at or below it until an import names it again.
CREATE TABLE insight_explorer_removed (
    -- The path as the explorer names it (a card's filePath or fileName, a cluster's folder).
    path TEXT PRIMARY KEY
);
