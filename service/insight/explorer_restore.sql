-- import/action of the file :path: the paths taken out of the explorer that name it again (the file itself,
-- or a folder above it) are back in, as the real server lists a project's file once it is imported again.
DELETE FROM insight_explorer_removed
WHERE path = :path
    OR substr(:path, 1, length(path) + 1) = path || '/';
