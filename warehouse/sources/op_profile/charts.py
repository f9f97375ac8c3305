"""The chart blocks: 0x0C inter-core load, 0x0D roofline, and two that real writers add beyond
seed 000: 0x0E cacheline heat map and 0x0F top stall reasons (reference/FORMATS.md)."""

from __future__ import annotations

import json

from warehouse.sources.op_profile.framing import Block
from warehouse.sources.op_profile.rows import Rows, add_advice
from warehouse.sources.op_profile.values import ident, mapping, objects, to_float, to_int, to_text


def core_load(block: Block, rows: Rows, doc) -> None:
    """0x0C -> core_load (one row per sub-core), op_advice (a string or a list)."""
    doc = mapping(doc, "inter-core load")
    for core in objects(doc.get("op_detail"), "op_detail"):
        core_id = ident(core.get("core_id"))
        for row, sub in enumerate(objects(core.get("core_detail"), f"core {core_id} core_detail")):
            rows.add("core_load", block.offset, core_id, row, ident(sub.get("subcore_id")),
                     to_text(sub.get("subcore_type")), to_int(sub.get("cycles")), to_int(sub.get("throughput")),
                     to_float(sub.get("L2cache_hit_rate")))
    add_advice(rows, block, doc.get("advice"))


def rooflines(block: Block, rows: Rows, doc) -> None:
    """0x0D -> roofline (one row per line of each chart; bw_name when the writer adds it)."""
    doc = mapping(doc, "roofline")
    for chart_index, chart in enumerate(objects(doc.get("multiple_rooflines"), "multiple_rooflines")):
        title = to_text(chart.get("title"))
        for line_index, line in enumerate(objects(chart.get("rooflines"), f"{title} rooflines")):
            point = line.get("point")
            point = point if isinstance(point, list) else []
            rows.add("roofline", block.offset, chart_index, title, line_index, to_float(line.get("bw")),
                     to_text(line.get("bw_name")), to_float(line.get("computility")),
                     to_text(line.get("computility_name")),
                     to_float(point[0]) if point else None, to_float(point[1]) if len(point) > 1 else None)
    add_advice(rows, block, doc.get("advice"))


def cache_lines(block: Block, rows: Rows, doc) -> None:
    """0x0E -> cache_line: {"Cacheline Records": [{"Cacheline Id", "Hit": {...}, "Miss": {...}}]}."""
    doc = mapping(doc, "cacheline heat map")
    for row, record in enumerate(objects(doc.get("Cacheline Records"), "Cacheline Records")):
        rows.add("cache_line", block.offset, row, to_int(record.get("Cacheline Id")),
                 *_side(record.get("Hit"), "Hit"), *_side(record.get("Miss"), "Miss"))


def _side(value, what: str) -> tuple:
    """(address range JSON, count, ratio) of a Hit/Miss object whose Value is [count, ratio]."""
    side = mapping(value, what)
    address_range = side.get("Address Range")
    figures = side.get("Value")
    figures = figures if isinstance(figures, list) else []
    return (None if address_range is None else json.dumps(address_range),
            to_int(figures[0]) if figures else None, to_float(figures[1]) if len(figures) > 1 else None)


def stall_reasons(block: Block, rows: Rows, doc) -> None:
    """0x0F -> stall_reason: {"top_stall_reason_table": {reason: count}} (or a list of [reason, count])."""
    table = mapping(doc, "top stall reasons").get("top_stall_reason_table")
    pairs = table.items() if isinstance(table, dict) else (table or [])
    for row, pair in enumerate(pairs):
        reason, count = (pair[0], pair[1]) if isinstance(pair, (list, tuple)) and len(pair) == 2 else (pair, None)
        rows.add("stall_reason", block.offset, row, to_text(reason), to_int(count))
