-- A part's strings into the warehouse: new values appended in the order the part met them
-- (so ids come out as an ingest here would give them), then each part id -> warehouse id.
CREATE TEMP TABLE merge_string (part_id INTEGER PRIMARY KEY, string_id INTEGER NOT NULL);

INSERT INTO main.string (value)
SELECT value FROM part.string WHERE true ORDER BY id
ON CONFLICT (value) DO NOTHING;

INSERT INTO temp.merge_string (part_id, string_id)
SELECT p.id, m.id FROM part.string AS p JOIN main.string AS m ON m.value = p.value;
