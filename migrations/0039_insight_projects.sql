-- The project explorer MindStudio Insight's page shows on this warehouse, one project per import (issue 38):
-- the real server records each import under the projectName the page sent (Ascend/msinsight server/src/
-- modules/global/core/ProjectExplorerManager.cpp SaveProjectExplorer) and lists one project per name
-- (handler/GetProjectExplorerInfoHandler.cpp), so a page reloaded sees the projects it created and a folder
-- imported again goes into its project. 0038 kept one project holding every card; its name and the paths
-- taken out of it become the records below (a renamed project: every run imported under its name). Taking an
-- entry out removes no ingested row.

-- A folder or file imported under a project's name (import/action's projectName and each of its paths).
CREATE TABLE insight_project_import (
    -- The project's name, as the page sent it or files/updateProjectExplorer renamed it.
    project TEXT NOT NULL CHECK (project <> ''),
    -- The path imported (absolute, below the import root); the project holds every card at or below it.
    path TEXT NOT NULL,
    PRIMARY KEY (project, path)
);

-- A path taken out of one project: a card's file, a cluster's folder or any folder above cards; the project
-- leaves out every card at or below it until an import into it names it again.
CREATE TABLE insight_project_removed (
    -- The project's name (a recorded one, or the run root naming cards imported without one).
    project TEXT NOT NULL CHECK (project <> ''),
    -- The path as the explorer names it (a card's filePath or fileName, a cluster's folder).
    path TEXT NOT NULL,
    PRIMARY KEY (project, path)
);

INSERT INTO insight_project_import (project, path)
SELECT p.name, r.root
FROM insight_project AS p
CROSS JOIN run AS r;

INSERT OR IGNORE INTO insight_project_removed (project, path)
SELECT coalesce((SELECT name FROM insight_project), r.root), e.path
FROM insight_explorer_removed AS e
JOIN run AS r
    ON r.root = e.path
    OR substr(r.root, 1, length(e.path) + 1) = e.path || '/'
    OR substr(e.path, 1, length(r.root) + 1) = r.root || '/';

DROP TABLE insight_explorer_removed;
DROP TABLE insight_project;
