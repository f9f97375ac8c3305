-- Intern those strings, and the API-type names used as slice categories.
INSERT OR IGNORE INTO string (value)
SELECT s.value FROM temp.rank_db_name AS n JOIN in_STRING_IDS AS s ON s.id = n.src_id WHERE s.value IS NOT NULL
UNION ALL
SELECT e.name FROM in_ENUM_API_TYPE AS e WHERE e.name IS NOT NULL;
