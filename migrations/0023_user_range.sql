-- The ranges a program marked with mstx (MSTX_EVENTS of a torch_npu db export or a CANN
-- msprof_N.db): user ranges such as prefill and decode, or a training phase. They are what
-- mstx_sum summarizes (with the framework's own mstx rows, pytorch_api type 'mstx', for an
-- input that has no MSTX_EVENTS) and what a step or phase view joins by rank and time.

-- One mstx event per row: MSTX_EVENTS. A mark is a range of length 0.
CREATE TABLE user_range (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Row of MSTX_EVENTS (its rowid).
    source_row INTEGER,
    -- Rank of the input file (-1 when unknown).
    rank_id INTEGER,
    -- Start of the range in ns (startNs).
    ts INTEGER,
    -- Length of the range in ns (endNs - startNs; 0 for a mark, NULL when endNs is missing or
    -- before startNs).
    dur INTEGER,
    -- The message the program gave the range (STRING_IDS(message)).
    name TEXT,
    -- How it was marked (ENUM_MSTX_EVENT_TYPE(eventType)): marker, push/pop (a range on one
    -- thread), start/end (a range that may end on another thread) or marker_ex.
    kind TEXT,
    -- The range's id, pairing its start and end (rangeId).
    range_id INTEGER,
    -- The category the program gave it (category).
    category INTEGER,
    -- The mstx domain it was marked in (STRING_IDS(domainId)); NULL for the default domain.
    domain TEXT,
    -- Global thread id that started it: pid in the high 32 bits, tid in the low 32 bits (globalTid).
    global_tid INTEGER,
    -- Global thread id that ended it (endGlobalTid).
    end_global_tid INTEGER,
    -- Key shared with the device task the mark was also recorded on (connectionId; NULL for none,
    -- which the file writes 4294967295).
    connection_id INTEGER
);
CREATE INDEX user_range_source_ts ON user_range (source_id, ts);
