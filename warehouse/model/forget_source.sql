-- Before an input's rows are deleted (replaced by --force or a changed file): the findings of
-- its run, and any finding resting on its rows, were derived from rows that go; they are
-- dropped with their evidence until the next `warehouse analyze`.
DELETE FROM finding_evidence WHERE finding_id IN (
    SELECT f.id FROM finding AS f
    WHERE f.run_id = (SELECT run_id FROM source WHERE id = :source_id)
       OR f.run_id IS NULL
       OR EXISTS (SELECT 1 FROM finding_evidence AS e WHERE e.finding_id = f.id AND e.input_source_id = :source_id)
);
DELETE FROM finding WHERE id NOT IN (SELECT finding_id FROM finding_evidence)
    AND (run_id = (SELECT run_id FROM source WHERE id = :source_id) OR run_id IS NULL);
-- The counts of the names its rows use (name_use, for the name search) go with the rows.
DELETE FROM name_use WHERE input_source_id = :source_id;
