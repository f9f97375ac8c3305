-- import/action: the path :path imported under the project's name :project (kept once however often imported).
INSERT OR IGNORE INTO insight_project_import (project, path) VALUES (:project, :path);
