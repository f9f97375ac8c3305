-- files/updateProjectExplorer: the project :old is called :new; its imports and the paths taken out of it move
-- with it (once each when :new holds them already: two projects given one name are one, as the real server lists
-- them merged by name).
INSERT OR IGNORE INTO insight_project_import (project, path)
    SELECT :new, path FROM insight_project_import WHERE project = :old;
DELETE FROM insight_project_import WHERE project = :old;
INSERT OR IGNORE INTO insight_project_removed (project, path)
    SELECT :new, path FROM insight_project_removed WHERE project = :old;
DELETE FROM insight_project_removed WHERE project = :old;
