-- files/updateProjectExplorer: the project's new name (:name), kept in place of any earlier one.
INSERT INTO insight_project (id, name) VALUES (1, :name)
    ON CONFLICT (id) DO UPDATE SET name = excluded.name;
