-- The operator profile (visualize_data.bin, seed 000 and reference/FORMATS.md): one
-- operator's blocks 0x01-0x0F. Each ingested bin is one source (source.card = operator name).
-- Every row carries source_id and block_offset, the byte offset of the header of the block
-- it came from (op_block_raw.block_offset), so each row can be traced to its bytes.
-- Values the writer gives as strings ("2", "80.157990") are converted; "NA"/"N/A" become NULL.
-- Columns declared BLOB have no type affinity: they hold each value as the input typed it
-- (text stays text, numbers stay numbers), so blocks can be rebuilt exactly.

-- Every block of a bin, as framed: type, place, size and (for JSON blocks) its text, so nothing is lost.
CREATE TABLE op_block_raw (
    -- Input the block came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Position of the block in the file (0 = first block).
    block_index INTEGER NOT NULL,
    -- Byte offset of the block's 12-byte header in the file.
    block_offset INTEGER NOT NULL,
    -- Block type (header byte 8): 1 source, 2 trace, 3 files api, 4 instructions api, 5 base info, 6/7 compute load, 8/9 memory, 10 memory records, 11 cache records, 12 inter-core load, 13 roofline, 14 cacheline, 15 stall reasons; others are unknown.
    block_type INTEGER NOT NULL,
    -- contentSize of the header in bytes (padding included; the 4096-byte path of type 1 excluded).
    content_size_bytes INTEGER NOT NULL,
    -- Zero bytes appended to the payload to reach a multiple of 4 (header byte 9).
    padding INTEGER NOT NULL,
    -- Header byte 10: 0x5a (90) by default; 0 in new-style 0x04 blocks (pc-to-line by AscendC Inner Code).
    version INTEGER NOT NULL,
    -- 1 when this reader knows the block type, 0 for an unknown type (also listed in source.detail).
    known INTEGER NOT NULL,
    -- The payload as JSON text for JSON blocks (2-9, 12-15; the call-stack map of 10); NULL for source text (in code_file) and binary records.
    json TEXT
);
CREATE INDEX op_block_raw_source ON op_block_raw (source_id, block_type);

-- The operator (block 0x05 base info): one row per bin.
CREATE TABLE op_run (
    -- Input the operator profile came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Byte offset of the base-info block.
    block_offset INTEGER NOT NULL,
    -- Operator name (kernel name).
    name TEXT,
    -- SoC the operator ran on (e.g. Ascend910B4).
    soc TEXT,
    -- Operator type: aic, aiv, mix (or vector/cube as some writers say).
    op_type TEXT,
    -- Block dim: number of blocks (main cores) the operator ran on.
    block_dim INTEGER,
    -- Mix block dim: number of companion sub-cores of a mix operator.
    mix_block_dim INTEGER,
    -- Total duration of the operator in microseconds, as the writer gives it.
    duration_us REAL,
    -- NPU device id.
    device_id INTEGER,
    -- Process id of the profiled program, as text.
    pid TEXT,
    -- Which per-block detail the block carried: block_detail or mix_block_detail (NULL when neither).
    detail_key TEXT,
    -- Shape of that detail: list (a list of objects) or table (head_name/row/size object).
    detail_shape TEXT,
    -- Column headers of a table-shaped detail (JSON array, e.g. ["Block ID","Cube0 Duration (μs)",...]); NULL for the list shape.
    detail_header TEXT,
    -- size of a table-shaped detail as given (JSON array [rows, columns]); NULL for the list shape.
    detail_size TEXT
);

-- Per-block (and per-sub-core) durations of the operator (base info block_detail / mix_block_detail).
CREATE TABLE op_block (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Byte offset of the base-info block.
    block_offset INTEGER NOT NULL,
    -- Index of the block's entry in the detail list (list shape) or row (table shape), from 0.
    source_row INTEGER NOT NULL,
    -- Block id (main-core number).
    block_id INTEGER,
    -- Position of the value: index in the duration list, or table column (1 = first column after Block ID).
    sub_index INTEGER NOT NULL,
    -- Sub-core type: as given (aic, aiv), aic/aiv0/aiv1 for the seed's mix list, or from the table header (cube0, vector0, vector1).
    core_type TEXT,
    -- Duration of this sub-block in microseconds (NULL when "NA").
    duration_us REAL,
    -- The value exactly as the input wrote it (text or number), so the table shape can be rebuilt.
    value BLOB
);

-- Source files of the operator (blocks 0x01): the text exactly as written.
CREATE TABLE code_file (
    -- Input the file came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Byte offset of the 0x01 block.
    block_offset INTEGER NOT NULL,
    -- Path of the source file (the block's 4096-byte NUL-terminated path).
    path TEXT NOT NULL,
    -- The source text exactly (TEXT when UTF-8, otherwise the raw bytes as a BLOB).
    content BLOB
);

-- Declared extra columns of the hot-spot blocks ("Files Dtype".Lines of 0x03, "Instructions Dtype".Instructions of 0x04).
CREATE TABLE op_dtype (
    -- Input the declaration came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Byte offset of the declaring block.
    block_offset INTEGER NOT NULL,
    -- 3 for the Files (code_line) block, 4 for the Instructions block.
    block_type INTEGER NOT NULL,
    -- Position of the declaration in the map, from 0.
    position INTEGER NOT NULL,
    -- Column name as declared (e.g. 'Cycles', 'L2Cache Hit Rate').
    name TEXT NOT NULL,
    -- dtype code: 0 hidden (kept, not displayed), 1 int, 2 float, 3 string, 4 percentage, 5 JSON string, 100 custom percentage.
    dtype INTEGER
);

-- Per-line hot spots (block 0x03): one row per source line and core.
CREATE TABLE code_line (
    -- Identifier referenced by code_line_metric.code_line_id.
    id INTEGER PRIMARY KEY,
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Byte offset of the 0x03 block.
    block_offset INTEGER NOT NULL,
    -- Index of the line's entry in Files[file_index].Lines, from 0.
    source_row INTEGER NOT NULL,
    -- Index of the file in Files, from 0.
    file_index INTEGER NOT NULL,
    -- Source file path (Files[].Source); matches code_file.path.
    file TEXT,
    -- Line number in the file.
    line INTEGER,
    -- Core the figures are for (Cores[core_index], e.g. core0.cubecore0).
    core TEXT,
    -- Index of the core in Cores (and in the per-core arrays), from 0.
    core_index INTEGER NOT NULL,
    -- Cycles the line took on this core.
    cycles INTEGER,
    -- Instructions of the line executed on this core.
    instructions_executed INTEGER,
    -- Instruction address ranges of the line as JSON ([["0x..","0x.."], ...]), the same on every core's row.
    address_range TEXT
);
CREATE INDEX code_line_source_file ON code_line (source_id, file, core);

-- Extra declared columns of code_line ("Files Dtype" keys other than Line, Cycles, Instructions Executed, Address Range).
CREATE TABLE code_line_metric (
    -- Input the value came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- The line-and-core row the value belongs to.
    code_line_id INTEGER NOT NULL REFERENCES code_line (id),
    -- Column name as declared.
    name TEXT NOT NULL,
    -- Declared dtype code (op_dtype.dtype; NULL when the column is not declared); 0 means hidden.
    dtype INTEGER,
    -- The value for this core (element core_index of a per-core array, else the scalar), typed by dtype: 1 integer, 2/4/100 real, 3 text, 5 JSON text, 0 as given.
    value BLOB
);
CREATE INDEX code_line_metric_line ON code_line_metric (code_line_id);

-- Per-instruction data (block 0x04): one row per instruction and core.
CREATE TABLE instruction (
    -- Identifier referenced by instruction_metric.instruction_id.
    id INTEGER PRIMARY KEY,
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Byte offset of the 0x04 block.
    block_offset INTEGER NOT NULL,
    -- Index of the instruction in Instructions, from 0.
    source_row INTEGER NOT NULL,
    -- Instruction address as given (e.g. '0x1269f000').
    address TEXT,
    -- Core the figures are for (Cores[core_index]).
    core TEXT,
    -- Index of the core in Cores, from 0.
    core_index INTEGER NOT NULL,
    -- Pipe (instruction queue) the instruction belongs to, e.g. SCALAR, MTE2.
    pipe TEXT,
    -- The instruction text (Source), e.g. 'MOV_XD_IMM XD:X29,IMM'.
    source_text TEXT,
    -- AscendC Inner Code as given: 'file:line' of the source the instruction comes from.
    inner_code TEXT,
    -- File part of inner_code.
    inner_file TEXT,
    -- Line part of inner_code.
    inner_line INTEGER,
    -- Cycles the instruction took on this core.
    cycles INTEGER,
    -- Times the instruction ran on this core.
    instructions_executed INTEGER,
    -- Expected stall cycles on this core (TheoreticalStallCycles).
    theoretical_stall_cycles INTEGER,
    -- Measured stall cycles on this core (RealStallCycles).
    real_stall_cycles INTEGER
);
CREATE INDEX instruction_source_core ON instruction (source_id, core, address);

-- Extra declared columns of instruction ("Instructions Dtype" keys other than the fixed ones), typed as code_line_metric.
CREATE TABLE instruction_metric (
    -- Input the value came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- The instruction-and-core row the value belongs to.
    instruction_id INTEGER NOT NULL REFERENCES instruction (id),
    -- Column name as declared (e.g. 'L2Cache Hit Rate').
    name TEXT NOT NULL,
    -- Declared dtype code (NULL when not declared); 0 means hidden.
    dtype INTEGER,
    -- The value for this core, typed by dtype as in code_line_metric.
    value BLOB
);
CREATE INDEX instruction_metric_instruction ON instruction_metric (instruction_id);

-- Compute load (blocks 0x06 chart and 0x07 table): one row per block, sub-block and metric.
CREATE TABLE compute_load (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Byte offset of the block.
    block_offset INTEGER NOT NULL,
    -- chart (block 0x06) or table (block 0x07).
    view TEXT NOT NULL,
    -- Index of the item in subblock_detail, from 0.
    source_row INTEGER NOT NULL,
    -- Block id (main-core number).
    block_id INTEGER,
    -- Sub-block type: aic, aiv, cube0, vector0, vector1, ...
    block_type TEXT,
    -- Metric name (e.g. 'Cube All Active').
    name TEXT,
    -- Unit as given: an enum code in real files (0-3), a name in the seed (%, us, instructions).
    unit BLOB,
    -- Value (a percentage in the chart; a count, time or size in the table); NULL when "NA".
    value REAL,
    -- origin_value: the raw figure behind a chart percentage, when given.
    origin_value REAL,
    -- The item's own advice text, when it has one (nested data_detail shape).
    advice TEXT
);

-- Memory heat map (block 0x08): one row per core and memory path.
CREATE TABLE memory_unit (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Byte offset of the block.
    block_offset INTEGER NOT NULL,
    -- Block (core_no) the path belongs to.
    block_id INTEGER,
    -- Index of the path in the core's memory_unit list, from 0.
    source_row INTEGER NOT NULL,
    -- Memory path: an enum code in real files (0-19), a name in the seed.
    memory_path BLOB,
    -- Number of requests on the path.
    request INTEGER,
    -- Bytes per request, when given.
    request_per_byte INTEGER,
    -- Bandwidth in GB/s as the writer gives it.
    bandwidth_gb_s REAL,
    -- Share of the peak bandwidth in percent; -1 means invalid; NULL when "NA".
    peak_ratio REAL,
    -- 1 when the path is displayed, 0 when not.
    display INTEGER
);

-- L2 cache figures of the memory heat map (block 0x08): one row per core, with the core's type and SoC.
CREATE TABLE l2_cache (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Byte offset of the block.
    block_offset INTEGER NOT NULL,
    -- Block (core_no).
    block_id INTEGER,
    -- Index of the core in core_memory_map, from 0.
    source_row INTEGER NOT NULL,
    -- Operator/core type of the entry (op_type or core_type: cube, vector, mix, aic, aiv).
    op_type TEXT,
    -- SoC (chip type) the entry names.
    soc TEXT,
    -- Cache hits.
    hit INTEGER,
    -- Cache misses.
    miss INTEGER,
    -- Cache requests in total.
    total_request INTEGER,
    -- Hit ratio in percent; -1 means invalid.
    hit_ratio REAL
);

-- Per-core pipe usage of the memory heat map (block 0x08 Cube, Vector, Vector1 objects).
CREATE TABLE pipe_ratio (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Byte offset of the block.
    block_offset INTEGER NOT NULL,
    -- Block (core_no).
    block_id INTEGER,
    -- Pipe as keyed in the block: Cube, Vector or Vector1.
    pipe TEXT NOT NULL,
    -- Busy ratio in percent.
    ratio REAL,
    -- Busy cycles.
    cycle INTEGER,
    -- Total cycles of the sub-core.
    total_cycles INTEGER
);

-- Memory tables (block 0x09), one row per cell so each table_detail can be rebuilt exactly:
-- row_index 0 is the header row (header_name), rows 1.. are the data rows; column_index 0
-- holds the row's name (and the first header), columns 1.. its values.
CREATE TABLE memory_table (
    -- Input the cell came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Byte offset of the block.
    block_offset INTEGER NOT NULL,
    -- Block id of the table_per_block entry.
    block_id INTEGER,
    -- table_op_type of the entry (aic, aiv, mix, vector, ...).
    table_op_type TEXT,
    -- Index of the table in the entry's table_detail, from 0.
    table_index INTEGER NOT NULL,
    -- Table name (e.g. 'Cache', 'L0C').
    table_name TEXT,
    -- The table's size as given (JSON [rows, columns]).
    table_size TEXT,
    -- 0 for the header row, 1.. for data rows.
    row_index INTEGER NOT NULL,
    -- 0 for the row name / first header, 1.. for values.
    column_index INTEGER NOT NULL,
    -- The cell exactly as written (text or number).
    value BLOB,
    -- The cell as a number, NULL when it is not one ("NA", names).
    value_num REAL
);
CREATE INDEX memory_table_source ON memory_table (source_id, block_id, table_index);

-- Every advice string of every block (base info, compute load, heat map cores, tables, inter-core load).
CREATE TABLE op_advice (
    -- Input the advice came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Byte offset of the block.
    block_offset INTEGER NOT NULL,
    -- Type of the block.
    block_type INTEGER NOT NULL,
    -- Block id when the advice belongs to one block/core (heat map core, table entry), else NULL.
    block_id INTEGER,
    -- Position in the advice list, from 0; NULL when the block gave one string instead of a list.
    advice_index INTEGER,
    -- The advice text.
    text TEXT
);

-- Memory read/write records of msTraceKit (block 0x0A, seed proposal): one row per 32-byte TraceRecord.
-- Layout read (the seed gives only the structs): u64 recordCount, recordCount little-endian TraceRecords,
-- then the call-stack map as UTF-8 JSON to the end of the payload (kept in op_block_raw.json).
CREATE TABLE mem_event (
    -- Input the record came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Byte offset of the block.
    block_offset INTEGER NOT NULL,
    -- Index of the record in the block, from 0.
    source_row INTEGER NOT NULL,
    -- Event type code: 0 MALLOC, 1 FREE, 2 MEMCPY_BLOCKS, 3 LOAD, 4 STORE.
    type INTEGER NOT NULL,
    -- Event type name (NULL for an unlisted code).
    type_name TEXT,
    -- Core the event happened on.
    core_id INTEGER NOT NULL,
    -- Address space code: 0 PRIVATE, 1 GM, 2 L1, 3 L0A, 4 L0B, 5 L0C, 6 UB.
    space INTEGER NOT NULL,
    -- Address space name (NULL for an unlisted code).
    space_name TEXT,
    -- Block type code: 0 AIV, 1 AIC.
    block_type INTEGER NOT NULL,
    -- Block type name (NULL for an unlisted code).
    block_type_name TEXT,
    -- Record number given by the tool.
    record_id INTEGER NOT NULL,
    -- Memory address (u64 read as signed 64-bit: values from 2^63 wrap negative).
    addr INTEGER NOT NULL,
    -- Length of the memory accessed, in bytes.
    mem_size_bytes INTEGER NOT NULL,
    -- PC of the code that did it (u64 read as signed 64-bit); joins callstack_frame.pc.
    pc INTEGER NOT NULL
);

-- Call-stack map of block 0x0A: one row per symbol (frame) of each PC's stack.
CREATE TABLE callstack_frame (
    -- Input the frame came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Byte offset of the block.
    block_offset INTEGER NOT NULL,
    -- PC of the stack, parsed from Address (signed 64-bit like mem_event.pc).
    pc INTEGER,
    -- Address as given (e.g. '0x4004be').
    address TEXT,
    -- Compilation unit (ModuleName).
    module_name TEXT,
    -- Position of the symbol in the stack, 0 = innermost.
    depth INTEGER NOT NULL,
    -- FunctionName.
    function_name TEXT,
    -- FileName.
    file_name TEXT,
    -- Line.
    line INTEGER,
    -- Column.
    column_no INTEGER,
    -- Discriminator.
    discriminator INTEGER,
    -- StartAddress of the function.
    start_address TEXT,
    -- StartFileName.
    start_file_name TEXT,
    -- StartLine.
    start_line INTEGER
);

-- L2 cache set records of msTraceKit (block 0x0B, seed proposal): one row per 32-byte CacheRecord
-- (8 little-endian u32); the payload is a whole number of records, nothing else.
-- The rates are each count / (load_count + store_count), as the seed defines them (NULL with no access).
CREATE TABLE cache_set (
    -- Input the record came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Byte offset of the block.
    block_offset INTEGER NOT NULL,
    -- Index of the record in the block, from 0.
    source_row INTEGER NOT NULL,
    -- Reads on the cache set (loadCount).
    load_count INTEGER NOT NULL,
    -- Writes on the cache set (storeCount).
    store_count INTEGER NOT NULL,
    -- cacheLineId.
    cache_line_id INTEGER NOT NULL,
    -- Hits.
    hit INTEGER NOT NULL,
    -- Misses.
    miss INTEGER NOT NULL,
    -- Allocations caused by misses.
    allocate INTEGER NOT NULL,
    -- Evictions written back to L2 (evictAndWrite).
    evict_and_write INTEGER NOT NULL,
    -- Evictions without write-back (evictWithoutWrite).
    evict_without_write INTEGER NOT NULL,
    -- hit / (load_count + store_count).
    hit_rate REAL GENERATED ALWAYS AS (CAST(hit AS REAL) / NULLIF(load_count + store_count, 0)) VIRTUAL,
    -- miss / (load_count + store_count).
    miss_rate REAL GENERATED ALWAYS AS (CAST(miss AS REAL) / NULLIF(load_count + store_count, 0)) VIRTUAL,
    -- allocate / (load_count + store_count).
    allocate_rate REAL GENERATED ALWAYS AS (CAST(allocate AS REAL) / NULLIF(load_count + store_count, 0)) VIRTUAL,
    -- evict_and_write / (load_count + store_count).
    evict_and_write_rate REAL GENERATED ALWAYS AS (CAST(evict_and_write AS REAL) / NULLIF(load_count + store_count, 0)) VIRTUAL,
    -- evict_without_write / (load_count + store_count).
    evict_without_write_rate REAL GENERATED ALWAYS AS (CAST(evict_without_write AS REAL) / NULLIF(load_count + store_count, 0)) VIRTUAL
);

-- Inter-core load (block 0x0C): one row per core and sub-core.
CREATE TABLE core_load (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Byte offset of the block.
    block_offset INTEGER NOT NULL,
    -- Core (block) id.
    core_id INTEGER,
    -- Index of the sub-core entry in the core's core_detail, from 0.
    source_row INTEGER NOT NULL,
    -- Sub-core id within its type.
    subcore_id INTEGER,
    -- Sub-core type: cube or vector.
    subcore_type TEXT,
    -- Cycles the sub-core took.
    cycles INTEGER,
    -- Throughput (bytes moved) of the sub-core, as given.
    throughput INTEGER,
    -- L2 cache hit rate in percent.
    l2cache_hit_rate REAL
);

-- Roofline charts (block 0x0D): one row per roofline of each chart.
CREATE TABLE roofline (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Byte offset of the block.
    block_offset INTEGER NOT NULL,
    -- Index of the chart in multiple_rooflines, from 0.
    chart_index INTEGER NOT NULL,
    -- Chart title (e.g. 'Memory Unit').
    title TEXT,
    -- Index of the roofline in the chart, from 0.
    line_index INTEGER NOT NULL,
    -- Theoretical bandwidth (the slope), as given.
    bw REAL,
    -- Name of the bandwidth, when given (real writers add it).
    bw_name TEXT,
    -- Roof compute capacity (computility), as given.
    computility REAL,
    -- Name of the compute capacity.
    computility_name TEXT,
    -- x of the operator's point (arithmetic intensity).
    point_x REAL,
    -- y of the operator's point (achieved performance).
    point_y REAL
);

-- Cacheline heat map (block 0x0E, real writers): one row per cacheline record.
CREATE TABLE cache_line (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Byte offset of the block.
    block_offset INTEGER NOT NULL,
    -- Index of the record in "Cacheline Records", from 0.
    source_row INTEGER NOT NULL,
    -- Cacheline Id.
    cacheline_id INTEGER,
    -- Address range of the hits as JSON, as given.
    hit_address_range TEXT,
    -- Number of hits (Hit.Value[0]).
    hit_count INTEGER,
    -- Hit ratio (Hit.Value[1]).
    hit_ratio REAL,
    -- Address range of the misses as JSON, as given.
    miss_address_range TEXT,
    -- Number of misses (Miss.Value[0]).
    miss_count INTEGER,
    -- Miss ratio (Miss.Value[1]).
    miss_ratio REAL
);

-- Top stall reasons (block 0x0F, real writers): one row per reason.
CREATE TABLE stall_reason (
    -- Input the row came from.
    source_id INTEGER NOT NULL REFERENCES source (id),
    -- Byte offset of the block.
    block_offset INTEGER NOT NULL,
    -- Position of the reason in top_stall_reason_table, from 0.
    source_row INTEGER NOT NULL,
    -- The stall reason.
    reason TEXT NOT NULL,
    -- How many stalls it caused (cycles or occurrences, as the writer counts).
    count INTEGER
);
