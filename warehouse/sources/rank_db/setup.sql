-- Scratch tables of one rank db ingest (dropped at the end, see teardown.sql).

-- STRING_IDS ids of the input's timeline names -> string.id of the warehouse.
CREATE TEMP TABLE rank_db_name (src_id INTEGER PRIMARY KEY, string_id INTEGER);

-- The timeline tracks the input needs: kind (python, cann, task, hccl) and its key.
CREATE TEMP TABLE rank_db_track (
    kind TEXT NOT NULL, key INTEGER NOT NULL, pid TEXT NOT NULL, tid TEXT NOT NULL,
    process_name TEXT NOT NULL, thread_name TEXT NOT NULL
);

-- The warehouse thread of each track.
CREATE TEMP TABLE rank_db_thread (
    kind TEXT NOT NULL, key INTEGER NOT NULL, thread_id INTEGER NOT NULL, PRIMARY KEY (kind, key)
) WITHOUT ROWID;

-- Slices a connection id points to (CANN API calls, device tasks, communication ops).
CREATE TEMP TABLE rank_db_target (connection_id INTEGER NOT NULL, slice_id INTEGER NOT NULL, name TEXT NOT NULL);

-- Samples of the sampled tables before they are split into counter tracks.
CREATE TEMP TABLE rank_db_sample (track TEXT NOT NULL, unit TEXT, ts INTEGER, value REAL);
CREATE INDEX temp.rank_db_target_connection ON rank_db_target (connection_id);

-- The rank's steps by start time, to find the step of a kernel with one index probe.
CREATE TEMP TABLE rank_db_step (
    start_ns INTEGER NOT NULL, step_id INTEGER NOT NULL, end_ns INTEGER NOT NULL, PRIMARY KEY (start_ns, step_id)
) WITHOUT ROWID;

-- Framework calls with a connection: (CONNECTION_IDS.connectionId, their slice, start).
CREATE TEMP TABLE rank_db_link (connection_id INTEGER NOT NULL, slice_id INTEGER NOT NULL, ts INTEGER);
