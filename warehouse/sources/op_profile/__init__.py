"""The operator profile ``visualize_data.bin`` (seed 000; reference/FORMATS.md): every block into its tables.

Detected by content: the first header's tag (byte 11 = 0x5a, byte 10 a version 0x5a or 0)
and a non-zero first contentSize, not by the file name. The whole file is framed first
(a truncated or mistagged file fails before any row is written), then each block goes
to its module; every block is also kept in ``op_block_raw`` (JSON text included) and
unknown types are listed in ``source.detail``. A malformed block raises
:class:`IngestError` naming the byte offset and the block type; the frame's transaction
then leaves no rows. Each bin is one card: the operator's name (else the file stem).
The one format module importing another: an operator profile embeds a trace JSON, read by trace_json.

Bounded (:mod:`warehouse.limits`): the file may hold at most ``MAX_OP_PROFILE_BYTES``
(decompressed, all blocks: it is held whole while framed). A block whose contentSize passes
``MAX_BLOCK_BYTES``, or would take the file past ``MAX_OP_PROFILE_BYTES``, fails from its header,
before its payload is read (or decompressed); nothing is allocated from a declared size, only
from bytes read. A block that would give more than ``MAX_BLOCK_ROWS`` rows (cores x lines) fails
before its rows are made.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from warehouse import limits
from warehouse.errors import IngestError
from warehouse.sources.base import Outcome, open_binary, read_head
from warehouse.sources.op_profile import charts, details, hotspot, tracekit
from warehouse.sources.op_profile.framing import (
    HEADER,
    PATH_BYTES,
    SOURCE_TYPE,
    TAG,
    Block,
    BlockError,
    looks_like_op_profile,
    split_blocks,
)
from warehouse.sources.op_profile.rows import Rows
from warehouse.sources.trace_json import ingest_trace_bytes

KIND = "op_profile"


def _trace(block: Block, rows: Rows, doc) -> None:
    """0x02: the operator's trace JSON, through the trace JSON source (slices, flows, ...)."""
    rows.direct_rows += ingest_trace_bytes(rows.conn, bytes(block.payload), rows.source_id,
                                          label=f"{rows.label}: block at byte {block.offset} (type 0x02) payload")


#: block type -> (payload decoding, handler); decoding gives (parsed document, JSON text kept raw)
HANDLERS: dict[int, tuple[str, Callable]] = {
    0x01: ("none", hotspot.code_file),
    0x02: ("text", _trace),
    0x03: ("json", hotspot.code_lines),
    0x04: ("json", hotspot.instructions),
    0x05: ("json", details.base_info),
    0x06: ("json", details.compute_load),
    0x07: ("json", details.compute_load),
    0x08: ("json", details.memory_graph),
    0x09: ("json", details.memory_tables),
    0x0A: ("stacks", tracekit.memory_events),
    0x0B: ("none", tracekit.cache_sets),
    0x0C: ("json", charts.core_load),
    0x0D: ("json", charts.rooflines),
    0x0E: ("json", charts.cache_lines),
    0x0F: ("json", charts.stall_reasons),
}


def detect(path) -> bool:
    """True when the file starts with an operator-profile block header."""
    return looks_like_op_profile(read_head(path, 12))


def ingest(conn, path, source_id) -> Outcome:
    """Read every block of one bin into the op_* tables (see the module docstring).

    :raises IngestError: ``<path>: block at byte N (type 0xTT): <reason>``.
    """
    rows = Rows(conn, source_id, str(path))
    unknown, types = [], Counter()
    bounds = limits.current()
    try:
        with open_binary(path, "MAX_OP_PROFILE_BYTES") as stream:
            data = read_capped(stream, bounds.MAX_BLOCK_BYTES, bounds.MAX_OP_PROFILE_BYTES)
        for block in split_blocks(data):
            rows.start_block()
            types[f"0x{block.type:02x}"] += 1
            handling = HANDLERS.get(block.type)
            if handling is None:
                unknown.append({"type": block.type, "offset": block.offset, "size": block.content_size})
                rows.add("op_block_raw", block.index, block.offset, block.type, block.content_size, block.padding,
                         block.version, 0, None)
                continue
            _read_block(block, rows, *handling)
    except BlockError as exc:
        raise IngestError(f"{path}: {exc.place()}: {exc.reason}") from None
    written = rows.write()
    name = conn.execute("SELECT name FROM op_run WHERE source_id = ? ORDER BY rowid LIMIT 1",
                        (source_id,)).fetchone()
    card = name[0] if name and name[0] else Path(path).name.split(".")[0]
    detail = {"blocks": rows.count("op_block_raw"), "block_types": dict(sorted(types.items()))}
    if unknown:
        detail["unknown_blocks"] = unknown
    return Outcome(rows=written + rows.direct_rows, card=card, detail=detail)


def read_capped(stream, max_block_bytes: int, max_file_bytes: int = 0) -> bytearray:
    """The file's bytes, read block by block: a header whose contentSize passes ``max_block_bytes``,
    or would take the bytes read past ``max_file_bytes`` (0: no cap), fails before its payload is
    read. The bytes grow only as they are read (a declared size allocates nothing). Reading stops
    at anything malformed, which :func:`split_blocks` then reports.

    :raises BlockError: for a block over a cap.
    """
    data = bytearray()
    while True:
        header = stream.read(HEADER.size)
        data += header
        if len(header) < HEADER.size:
            return data
        size, block_type, _, _, tag = HEADER.unpack(header)
        if tag != TAG:
            return data
        offset = len(data) - HEADER.size
        if max_block_bytes and size > max_block_bytes:
            raise BlockError(f"contentSize {size} is over the limit of {max_block_bytes} bytes per block "
                             "(WAREHOUSE_MAX_BLOCK_BYTES)", offset, block_type)
        wanted = size + (PATH_BYTES if block_type == SOURCE_TYPE else 0)
        if max_file_bytes and len(data) + wanted > max_file_bytes:
            raise BlockError(f"contentSize {size} takes the file past the limit of {max_file_bytes} bytes per "
                             "operator profile (WAREHOUSE_MAX_OP_PROFILE_BYTES)", offset, block_type)
        while wanted:
            chunk = stream.read(min(wanted, 1 << 24))
            if not chunk:
                return data
            data += chunk
            wanted -= len(chunk)


def _read_block(block: Block, rows: Rows, decoding: str, handler: Callable) -> None:
    """Decode one block's payload, keep it raw, hand it to its module; errors get the block's place."""
    try:
        doc, text = _decode(block, decoding)
        rows.add("op_block_raw", block.index, block.offset, block.type, block.content_size, block.padding,
                 block.version, 1, text)
        handler(block, rows, doc)
    except BlockError as exc:
        exc.offset, exc.block_type = block.offset, block.type
        raise
    except (ValueError, TypeError, AttributeError, KeyError, IndexError, OverflowError, RecursionError) as exc:
        # a shape the lenient readers did not foresee: still a one-line error at the block's place
        raise BlockError(f"{type(exc).__name__}: {exc}", block.offset, block.type) from None


def _decode(block: Block, decoding: str):
    if decoding == "none":
        return None, None
    if decoding == "stacks":
        return tracekit.call_stack_json(block)
    try:
        text = block.text()
        # the trace block is parsed (streaming) by the trace JSON source; only its text is kept here
        return (None, text) if decoding == "text" else (json.loads(text), text)
    except UnicodeDecodeError as exc:
        raise BlockError(f"payload is not UTF-8 (payload byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise BlockError(f"JSON does not parse: {exc.msg} at payload char {exc.pos}") from None
    except RecursionError:
        raise BlockError("JSON does not parse: nested too deeply") from None
