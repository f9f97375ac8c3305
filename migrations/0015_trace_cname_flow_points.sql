-- What a trace JSON says of its own drawing that the timeline protocol answers with (issue 19):
-- an event's "cname" (the color name trace viewers draw it with; MindStudio Insight's threadTraces
-- answers it per slice) and the time of each flow event (s/t/f). A flow arrow is drawn from and to
-- the points its events were written at, which need not be the start of the slices they bind to.
-- The flow's thread is the bound slice's: an event binds to a slice of its own thread
-- (warehouse/sources/trace_json/flow_events.sql), so thread and process are not stored twice.
-- Inputs without these (a rank db, a warehouse built before) leave them NULL; readers fall back
-- to the bound slice's start.

-- The event's "cname" (string.id), when it has one.
ALTER TABLE _slice ADD COLUMN cname_id INTEGER REFERENCES string (id);

-- Time in ns of the flow event the arrow starts from (trace 's' or 't'), when the input gives it.
ALTER TABLE flow ADD COLUMN ts_out INTEGER;
-- Time in ns of the flow event the arrow points to (trace 't' or 'f'), when the input gives it.
ALTER TABLE flow ADD COLUMN ts_in INTEGER;
