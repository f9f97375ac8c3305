-- The flow events (s/t/f) of the trace being read, kept until every slice is in so that
-- they can be bound to slices and paired (flow_events.sql). In the scratch database flows.py
-- attaches (a deleted file), not a TEMP table: the warehouse keeps temp storage in memory,
-- and a trace of millions of flow events must not grow the process. Its primary key is the
-- order the pairing walks, so reading it back needs no sort.
CREATE TABLE IF NOT EXISTS trace_flows._trace_flow_event (
    -- Category of the event ('' when none): flows are scoped by it.
    category TEXT NOT NULL,
    -- The event's id (or id2) as text.
    flow_key TEXT NOT NULL,
    -- Time of the event in ns.
    ts INTEGER NOT NULL,
    -- 0 for s, 1 for t, 2 for f.
    phase INTEGER NOT NULL,
    -- Index of the event in the trace's array.
    source_row INTEGER NOT NULL,
    -- Thread the event is on.
    thread_id INTEGER NOT NULL,
    -- 1: binds to the deepest slice enclosing ts; 0 (f without bp "e"): to the next slice starting at or after ts.
    enclosing INTEGER NOT NULL,
    -- Name of the event.
    name TEXT,
    PRIMARY KEY (category, flow_key, ts, phase, source_row)
) WITHOUT ROWID;

-- The same events bound to their slices (flow_events.sql), one row each in the order the pairing
-- walks them (rowid order): what pair_flows.sql reads.
CREATE TABLE IF NOT EXISTS trace_flows._trace_flow_bound (
    -- Category of the event ('' when none).
    category TEXT NOT NULL,
    -- The event's id (or id2) as text.
    flow_key TEXT NOT NULL,
    -- 0 for s, 1 for t, 2 for f.
    phase INTEGER NOT NULL,
    -- Name of the event.
    name TEXT,
    -- Time of the event in ns.
    ts INTEGER NOT NULL,
    -- The slice the event binds to (_slice.id); NULL when none does.
    slice_id INTEGER
);
