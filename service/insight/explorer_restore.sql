-- import/action of the file :path into the project :project (null: an import naming no project, into each): the
-- paths taken out of the project that name the file again (the file itself, or a folder above it) are back in,
-- as the real server lists a project's file once it is imported into it again.
DELETE FROM insight_project_removed
WHERE (:project IS NULL OR project = :project)
    AND (path = :path OR substr(:path, 1, length(path) + 1) = path || '/');
