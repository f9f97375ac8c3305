-- files/deleteProjectExplorer and files/clearProjectExplorer: a path (:path) taken out of the explorer.
INSERT OR IGNORE INTO insight_explorer_removed (path) VALUES (:path);
