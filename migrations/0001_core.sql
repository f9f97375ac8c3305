-- Core tables: the inputs, the ranks, and the timeline (processes, threads, slices,
-- flows, counters, steps). Every time is integer nanoseconds on the input's own clock.

-- One row per input file the warehouse has seen, ingested or not.
CREATE TABLE source (
    -- Identifier referenced by every fact row's source_id.
    id INTEGER PRIMARY KEY,
    -- Path of the input file as given on the command line (absolute).
    path TEXT NOT NULL,
    -- Input format that read it (trace_json, rank_db, op_profile, ...); NULL when none did.
    kind TEXT,
    -- SHA-256 of the file's bytes (hex); re-ingesting the same content is a no-op.
    sha256 TEXT NOT NULL,
    -- Size of the file in bytes.
    size_bytes INTEGER NOT NULL,
    -- Rank the file belongs to, when it says or its path does; NULL otherwise.
    rank_id INTEGER,
    -- Profile the file is one card of (e.g. an operator name), for the operator views.
    card TEXT,
    -- ok, failed (nothing of it kept) or skipped (no source reads this kind of file).
    status TEXT NOT NULL CHECK (status IN ('ok', 'failed', 'skipped')),
    -- One-line reason naming the file and the place, when status is failed or skipped.
    error TEXT,
    -- Number of rows the file added to the warehouse.
    row_count INTEGER NOT NULL DEFAULT 0,
    -- Wall-clock time the ingest of this file took, in ns.
    elapsed_ns INTEGER,
    -- When the file was ingested (UTC, ISO 8601).
    ingested_at TEXT NOT NULL,
    -- JSON object of what the reader noticed: tables seen, unknown blocks, ignored parts.
    detail TEXT
);
CREATE INDEX source_sha256 ON source (sha256);

-- Strings repeated many times (slice names, categories), stored once.
CREATE TABLE string (
    -- Identifier used by the tables that intern their strings.
    id INTEGER PRIMARY KEY,
    -- The text itself.
    value TEXT NOT NULL UNIQUE
);

-- The ranks of a cluster run: one row per rank any input declared.
CREATE TABLE rank (
    -- Global rank number of the process in the cluster; -1 where the input leaves it unset.
    rank_id INTEGER PRIMARY KEY,
    -- NPU device the rank ran on, when known.
    device_id INTEGER,
    -- Host name of the machine, when known.
    host_name TEXT,
    -- Input that first declared the rank.
    source_id INTEGER REFERENCES source (id)
);

-- The processes of the timeline (a trace's pid, a rank db's framework process, a device).
CREATE TABLE process (
    -- Identifier referenced by thread.process_id.
    id INTEGER PRIMARY KEY,
    -- Input the process came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Rank the process belongs to, when known.
    rank_id INTEGER,
    -- Process id as the input writes it (text: some producers use names such as 'core2.veccore1').
    pid TEXT NOT NULL,
    -- Process name from metadata (process_name), when given.
    name TEXT,
    -- Process labels from metadata (process_labels), when given.
    labels TEXT,
    -- Display order from metadata (process_sort_index), when given.
    sort_index INTEGER
);

-- The threads (tracks) of the timeline: each holds properly nested slices.
CREATE TABLE thread (
    -- Identifier referenced by slice.thread_id.
    id INTEGER PRIMARY KEY,
    -- Process the thread belongs to.
    process_id INTEGER NOT NULL REFERENCES process (id),
    -- Input the thread came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Thread id as the input writes it (text, like process.pid).
    tid TEXT NOT NULL,
    -- Thread name from metadata (thread_name), when given.
    name TEXT,
    -- Display order from metadata (thread_sort_index), when given.
    sort_index INTEGER,
    -- Longest slice duration on the thread, in ns: bounds window searches on the (thread_id, ts) index.
    max_dur INTEGER NOT NULL DEFAULT 0
);

-- Storage of the slices, names and categories interned; read the slice view.
CREATE TABLE _slice (
    -- Identifier of the slice.
    id INTEGER PRIMARY KEY,
    -- Thread the slice is on.
    thread_id INTEGER NOT NULL REFERENCES thread (id),
    -- Start time in ns.
    ts INTEGER NOT NULL,
    -- Duration in ns (0 for instants).
    dur INTEGER NOT NULL,
    -- Name (string.id).
    name_id INTEGER REFERENCES string (id),
    -- Category (string.id).
    category_id INTEGER REFERENCES string (id),
    -- Nesting depth on its thread, 0 for a top-level slice.
    depth INTEGER NOT NULL DEFAULT 0,
    -- Enclosing slice on the same thread, NULL at depth 0.
    parent_id INTEGER,
    -- The event's args as JSON text, NULL when it has none.
    args TEXT,
    -- Input the slice came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Position in the input: event index in a JSON array, row id in a table.
    source_row INTEGER
);
CREATE INDEX _slice_thread_ts ON _slice (thread_id, ts, dur);

-- Every duration event of the timeline: trace slices, framework API calls, device tasks.
CREATE VIEW slice AS
SELECT
    s.id,
    s.thread_id,
    s.ts,
    s.dur,
    n.value AS name,
    c.value AS category,
    s.depth,
    s.parent_id,
    s.args,
    s.source_id,
    s.source_row
FROM _slice AS s
LEFT JOIN string AS n ON n.id = s.name_id
LEFT JOIN string AS c ON c.id = s.category_id;

-- Arrows between two slices (trace flow events s/t/f, CONNECTION_IDS of a rank db).
CREATE TABLE flow (
    -- Identifier of the flow.
    id INTEGER PRIMARY KEY,
    -- Input the flow came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Slice the arrow starts from.
    slice_out INTEGER NOT NULL,
    -- Slice the arrow points to.
    slice_in INTEGER NOT NULL,
    -- Name of the flow event (e.g. 'fwdbwd', 'HostToDevice'), when given.
    name TEXT,
    -- Category of the flow event, when given.
    category TEXT,
    -- The input's own id for the flow (trace 'id', connection id), as text.
    flow_key TEXT
);
CREATE INDEX flow_out ON flow (slice_out);
CREATE INDEX flow_in ON flow (slice_in);

-- One series of sampled values (a trace 'C' event's arg, a memory or bandwidth metric).
CREATE TABLE counter_track (
    -- Identifier referenced by _counter.track_id.
    id INTEGER PRIMARY KEY,
    -- Input the series came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Rank the series belongs to, when known.
    rank_id INTEGER,
    -- Process the series belongs to, when the input says.
    process_id INTEGER REFERENCES process (id),
    -- Name of the series ('<event name>.<arg>' for trace counters, e.g. 'HBM 0.Read(MB/s)').
    name TEXT NOT NULL,
    -- Unit of the values, when known.
    unit TEXT
);

-- Storage of the samples; read the counter view.
CREATE TABLE _counter (
    -- Series the sample belongs to.
    track_id INTEGER NOT NULL REFERENCES counter_track (id),
    -- Time of the sample in ns.
    ts INTEGER NOT NULL,
    -- The sampled value.
    value REAL,
    -- Input the sample came from.
    source_id INTEGER NOT NULL REFERENCES source (id)
);
CREATE INDEX _counter_track_ts ON _counter (track_id, ts);

-- Sampled values over time, with the name of their series.
CREATE VIEW counter AS
SELECT
    c.rowid AS id,
    c.track_id,
    t.name,
    c.ts,
    c.value,
    t.rank_id,
    c.source_id
FROM _counter AS c
JOIN counter_track AS t ON t.id = c.track_id;

-- Training steps per rank.
CREATE TABLE step (
    -- Rank the step ran on (-1 when unknown).
    rank_id INTEGER NOT NULL,
    -- Step number as the profiler numbers it.
    step_id INTEGER NOT NULL,
    -- Start of the step in ns.
    start_ns INTEGER NOT NULL,
    -- End of the step in ns.
    end_ns INTEGER NOT NULL,
    -- Input the step came from.
    source_id INTEGER NOT NULL REFERENCES source (id)
);

-- Facts about the run as the inputs state them (META_DATA, HOST_INFO, profiler_info).
CREATE TABLE run_metadata (
    -- Input the fact came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Rank the fact is about, when it is about one.
    rank_id INTEGER,
    -- Name of the fact (e.g. 'SCHEMA_VERSION', 'hostName').
    name TEXT NOT NULL,
    -- Its value as text (JSON for structured values).
    value TEXT
);
