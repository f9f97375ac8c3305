"""The msTraceKit blocks of seed 000's proposal (no writer emits them yet): 0x0A and 0x0B.

Layout chosen here, since the seed gives only the record structs (documented in the migration too):

- 0x0A memory read/write records: ``u64 recordCount``, then recordCount 32-byte
  ``TraceRecord {u8 type, i8 coreId, i8 space, u8 blockType, u32 recordId, u64 addr,
  u64 memSize, u64 pc}``, then the call-stack map as UTF-8 JSON filling the rest of the
  payload (may be empty). The map is a list of ``{Address, ModuleName, Symbol: [...]}``
  (the seed's example) or an object keyed by PC address (the seed's table).
- 0x0B cache records: the payload is a whole number of 32-byte ``CacheRecord`` (8 x u32).

All little-endian, like the headers. u64 values are read as signed 64-bit (SQLite's integer).
"""

from __future__ import annotations

import json
import struct

from warehouse.sources.op_profile.framing import Block, BlockError
from warehouse.sources.op_profile.rows import Rows
from warehouse.sources.op_profile.values import mapping, objects, to_int, to_text

COUNT = struct.Struct("<Q")
TRACE_RECORD = struct.Struct("<BbbBIqqq")
CACHE_RECORD = struct.Struct("<8I")
EVENT_TYPES = ("MALLOC", "FREE", "MEMCPY_BLOCKS", "LOAD", "STORE")
SPACES = ("PRIVATE", "GM", "L1", "L0A", "L0B", "L0C", "UB")
BLOCK_TYPES = ("AIV", "AIC")


def split_memory_records(block: Block) -> tuple[memoryview, str]:
    """The records part and the call-stack JSON text of a 0x0A block.

    :raises BlockError: when the payload is shorter than its record count says.
    """
    payload = block.payload
    if len(payload) < COUNT.size:
        raise BlockError(f"memory records: {len(payload)} bytes, too short for the u64 record count")
    (count,) = COUNT.unpack_from(payload)
    end = COUNT.size + count * TRACE_RECORD.size
    if end > len(payload):
        raise BlockError(f"memory records: {count} records need {end} bytes, the payload has {len(payload)}")
    try:
        text = block.text(end)
    except UnicodeDecodeError as exc:
        raise BlockError(f"call-stack map is not UTF-8 (payload byte {end + exc.start})") from None
    return payload[COUNT.size:end], text


def memory_events(block: Block, rows: Rows, stacks) -> None:
    """0x0A -> mem_event (one row per record), callstack_frame (one row per symbol)."""
    records, _ = split_memory_records(block)
    for row, (kind, core, space, block_type, record_id, addr, size, pc) in enumerate(
            TRACE_RECORD.iter_unpack(records)):
        rows.add("mem_event", block.offset, row, kind, _name(EVENT_TYPES, kind), core, space, _name(SPACES, space),
                 block_type, _name(BLOCK_TYPES, block_type), record_id, addr, size, pc)
    if isinstance(stacks, dict):
        stacks = [{"Address": key, **mapping(value, f"call stack {key}")} for key, value in stacks.items()]
    for stack in objects(stacks, "call-stack map"):
        address = to_text(stack.get("Address"))
        pc = _signed_address(address)
        for depth, symbol in enumerate(objects(stack.get("Symbol"), f"call stack {address} Symbol")):
            rows.add("callstack_frame", block.offset, pc, address, to_text(stack.get("ModuleName")), depth,
                     to_text(symbol.get("FunctionName")), to_text(symbol.get("FileName")),
                     to_int(symbol.get("Line")), to_int(symbol.get("Column")), to_int(symbol.get("Discriminator")),
                     to_text(symbol.get("StartAddress")), to_text(symbol.get("StartFileName")),
                     to_int(symbol.get("StartLine")))


def cache_sets(block: Block, rows: Rows, doc) -> None:
    """0x0B -> cache_set (one row per record; the rates are generated columns)."""
    if len(block.payload) % CACHE_RECORD.size:
        raise BlockError(f"cache records: {len(block.payload)} bytes is not a multiple of {CACHE_RECORD.size}")
    for row, record in enumerate(CACHE_RECORD.iter_unpack(block.payload)):
        rows.add("cache_set", block.offset, row, *record)


def call_stack_json(block: Block):
    """The parsed call-stack map of a 0x0A block (None when absent) and its text."""
    _, text = split_memory_records(block)
    return (json.loads(text) if text.strip() else None), (text or None)


def _name(names: tuple, code: int) -> str | None:
    return names[code] if 0 <= code < len(names) else None


def _signed_address(text: str | None) -> int | None:
    """An address ('0x4004be' or decimal) as SQLite's signed 64-bit integer (mem_event.pc reads the same bits)."""
    text = (text or "").strip().lower()
    try:
        value = int(text, 16) if text.startswith("0x") else int(text)
    except ValueError:
        return None
    value &= (1 << 64) - 1
    return value - (1 << 64) if value >= 1 << 63 else value
