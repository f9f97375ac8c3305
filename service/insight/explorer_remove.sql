-- files/deleteProjectExplorer and files/clearProjectExplorer: a path (:path) taken out of the project :project.
INSERT OR IGNORE INTO insight_project_removed (project, path) VALUES (:project, :path);
