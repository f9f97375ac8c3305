"""Buffered rows of one bin, inserted table by table in batches (``source_id`` added to each).

The columns of each table are declared once here, in the order the block modules pass
values. Tables whose rows others point to (code_line, instruction) get their ids here.
"""

from __future__ import annotations

import sqlite3

from warehouse import limits
from warehouse.sources.kit import multirow
from warehouse.errors import IngestError
from warehouse.sources.kit.numbers import INT64_MAX, INT64_MIN
from warehouse.sources.op_profile.framing import BlockError
from warehouse.sources.op_profile.values import to_text

COLUMNS: dict[str, tuple[str, ...]] = {
    "op_block_raw": ("block_index", "block_offset", "block_type", "content_size_bytes", "padding", "version",
                     "known", "json"),
    "op_run": ("block_offset", "name", "soc", "op_type", "block_dim", "mix_block_dim", "duration_us", "dur",
               "device_id", "pid", "detail_key", "detail_shape", "detail_header", "detail_size"),
    "op_block": ("block_offset", "source_row", "block_id", "sub_index", "core_type", "duration_us", "dur", "value"),
    "code_file": ("block_offset", "path", "content"),
    "op_dtype": ("block_offset", "block_type", "position", "name", "dtype"),
    "code_line": ("id", "core", "core_index", "cycles", "instructions_executed", "block_offset", "source_row",
                  "file_index", "file", "line", "address_range"),
    "code_line_metric": ("code_line_id", "name", "dtype", "value"),
    "instruction": ("id", "core", "core_index", "cycles", "instructions_executed", "theoretical_stall_cycles",
                    "real_stall_cycles", "block_offset", "source_row", "address", "pipe", "source_text", "inner_code",
                    "inner_file", "inner_line"),
    "instruction_metric": ("instruction_id", "name", "dtype", "value"),
    "compute_load": ("block_offset", "view", "source_row", "block_id", "block_type", "name", "unit", "value",
                     "origin_value", "advice"),
    "memory_unit": ("block_offset", "block_id", "source_row", "memory_path", "request", "request_per_byte",
                    "bandwidth_gb_s", "bandwidth_bytes_per_s", "peak_ratio", "display"),
    "l2_cache": ("block_offset", "block_id", "source_row", "op_type", "soc", "hit", "miss", "total_request",
                 "hit_ratio"),
    "pipe_ratio": ("block_offset", "block_id", "pipe", "ratio", "cycle", "total_cycles"),
    "memory_table": ("block_offset", "block_id", "table_op_type", "table_index", "table_name", "table_size",
                     "row_index", "column_index", "value", "value_num"),
    "op_advice": ("block_offset", "block_type", "block_id", "advice_index", "text"),
    "mem_event": ("block_offset", "source_row", "type", "type_name", "core_id", "space", "space_name", "block_type",
                  "block_type_name", "record_id", "addr", "mem_size_bytes", "pc"),
    "callstack_frame": ("block_offset", "pc", "address", "module_name", "depth", "function_name", "file_name", "line",
                        "column_no", "discriminator", "start_address", "start_file_name", "start_line"),
    "cache_set": ("block_offset", "source_row", "load_count", "store_count", "cache_line_id", "hit", "miss",
                  "allocate", "evict_and_write", "evict_without_write"),
    "core_load": ("block_offset", "core_id", "source_row", "subcore_id", "subcore_type", "cycles", "throughput",
                  "l2cache_hit_rate"),
    "roofline": ("block_offset", "chart_index", "title", "line_index", "bw", "bw_name", "computility",
                 "computility_name", "point_x", "point_y"),
    "cache_line": ("block_offset", "source_row", "cacheline_id", "hit_address_range", "hit_count", "hit_ratio",
                   "miss_address_range", "miss_count", "miss_ratio"),
    "stall_reason": ("block_offset", "source_row", "reason", "count"),
}

#: rows buffered per table before they are inserted (bounds memory on large hot-spot blocks)
FLUSH_ROWS = 50_000
#: tables whose ids the rows assign (others reference them)
ID_TABLES = ("code_line", "instruction")


class Rows:
    """The rows of one input, per table, until :meth:`write`."""

    def __init__(self, conn: sqlite3.Connection, source_id: int, label: str):
        self.conn = conn
        self.source_id = source_id
        #: the input's path, for messages of code that writes directly (the trace block)
        self.label = label
        #: rows written directly by such code, counted with the buffered ones
        self.direct_rows = 0
        self._rows: dict[str, list[tuple]] = {table: [] for table in COLUMNS}
        self._written: dict[str, int] = dict.fromkeys(COLUMNS, 0)
        self._next_ids: dict[str, int] = {}
        #: the most rows one block may give (WAREHOUSE_MAX_BLOCK_ROWS; 0: no cap), and the current block's so far
        self.max_block_rows = limits.current().MAX_BLOCK_ROWS
        self.block_rows = 0

    def start_block(self) -> None:
        """A new block begins: its rows are counted from 0 against ``max_block_rows``."""
        self.block_rows = 0

    def expect(self, count: int, what: str) -> None:
        """:raises BlockError: when a block declares more rows (``count``, of ``what``) than a block may give."""
        if self.max_block_rows and self.block_rows + count > self.max_block_rows:
            raise BlockError(f"{what} make {count} rows, over the limit of {self.max_block_rows} rows per block "
                             "(WAREHOUSE_MAX_BLOCK_ROWS)")

    def add(self, table: str, *values) -> None:
        """Buffer one row of ``table``, values in the order of ``COLUMNS[table]``."""
        self.extend(table, (values,))

    def extend(self, table: str, value_rows) -> None:
        """Buffer rows of ``table`` (tuples of values in the order of ``COLUMNS[table]``)."""
        buffered = self._rows[table]
        before = len(buffered)
        buffered.extend(value_rows)
        self.block_rows += len(buffered) - before
        if self.max_block_rows and self.block_rows > self.max_block_rows:
            raise BlockError(f"more than {self.max_block_rows} rows from one block (WAREHOUSE_MAX_BLOCK_ROWS)")
        if len(buffered) >= FLUSH_ROWS:
            self._flush(table)

    def next_ids(self, table: str, count: int = 1) -> int:
        """The first of ``count`` fresh consecutive ids for rows of ``table`` (one of ``ID_TABLES``)."""
        if table not in self._next_ids:
            (largest,) = self.conn.execute(f"SELECT COALESCE(MAX(id), 0) FROM {table}").fetchone()
            self._next_ids[table] = largest + 1
        first = self._next_ids[table]
        self._next_ids[table] += count
        return first

    def count(self, table: str) -> int:
        """Rows of ``table`` so far (written or buffered)."""
        return self._written[table] + len(self._rows[table])

    def write(self) -> int:
        """Insert every buffered row; return how many rows were added in all."""
        for table in COLUMNS:
            self._flush(table)
        return sum(self._written.values())

    def _flush(self, table: str) -> None:
        buffered = self._rows[table]
        if buffered:
            # source_id is the same on every row: bound once in the statement, not per row
            marks = ", ".join("?" * len(COLUMNS[table]))
            try:
                multirow.insert_rows(self.conn, f"INSERT INTO {table} (source_id, {', '.join(COLUMNS[table])}) "
                                                f"VALUES ({int(self.source_id)}, {marks})", buffered)
            except OverflowError:
                raise IngestError(f"{self.label}: {_out_of_range(table, buffered)}") from None
            self._written[table] += len(buffered)
            self._rows[table] = []


def _out_of_range(table: str, buffered: list[tuple]) -> str:
    """Where the first integer SQLite cannot hold (past 64 bits) is: its block and field."""
    columns = COLUMNS[table]
    for row in buffered:
        for column, value in zip(columns, row):
            if isinstance(value, int) and not INT64_MIN <= value <= INT64_MAX:
                place = dict(zip(columns, row)).get("block_offset")
                where = f"block at byte {place}: " if place is not None else ""
                return f"{where}{table}.{column}: {value} is past 64-bit integers"
    return f"{table}: a number past 64-bit integers"


def add_advice(rows: Rows, block, advice, block_id=None) -> None:
    """Keep a block's advice: one row per string of a list, or one row (index NULL) for a single string."""
    if advice is None:
        return
    if isinstance(advice, list):
        for index, text in enumerate(advice):
            rows.add("op_advice", block.offset, block.type, block_id, index, to_text(text))
    else:
        rows.add("op_advice", block.offset, block.type, block_id, None, to_text(advice))
