-- STRING_IDS id -> warehouse string id.
UPDATE temp.rank_db_name
SET string_id = (
    SELECT w.id FROM in_STRING_IDS AS s JOIN string AS w ON w.value = s.value WHERE s.id = rank_db_name.src_id
);
