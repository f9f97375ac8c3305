-- Drop the scratch tables of setup.sql.
DROP TABLE IF EXISTS temp.rank_db_name;
DROP TABLE IF EXISTS temp.rank_db_track;
DROP TABLE IF EXISTS temp.rank_db_thread;
DROP TABLE IF EXISTS temp.rank_db_target;
DROP TABLE IF EXISTS temp.rank_db_sample;
DROP TABLE IF EXISTS temp.rank_db_step;
DROP TABLE IF EXISTS temp.rank_db_link;
