"""The operator-detail blocks: 0x05 base info, 0x06/0x07 compute load, 0x08 memory heat map, 0x09 memory tables.

Real payloads differ from seed 000 (reference/FORMATS.md): numbers as strings, block ids
as ints or strings, base info's per-block detail as a list or as a table object, compute
load items flat or nested under data_detail. All shapes land in the same tables.
"""

from __future__ import annotations

import json

from warehouse.sources.op_profile.framing import Block
from warehouse.sources.op_profile.rows import Rows, add_advice
from warehouse.sources.op_profile.values import (
    flag, gb_per_s_as_bytes_per_s, ident, mapping, objects, scalar, to_float, to_int, to_text, us_as_ns,
)

#: sub-blocks of the seed's mix_block_detail duration list, in order
MIX_CORES = ("aic", "aiv0", "aiv1")
DETAIL_KEYS = ("block_detail", "mix_block_detail")
#: views of the compute-load blocks
LOAD_VIEWS = {0x06: "chart", 0x07: "table"}
L2_KEYS = ("L2cache", "L2Cache", "l2cache")


def base_info(block: Block, rows: Rows, doc) -> None:
    """0x05 -> op_run, op_block (list or table shape), op_advice."""
    doc = mapping(doc, "base info")
    key = next((k for k in DETAIL_KEYS if doc.get(k)), next((k for k in DETAIL_KEYS if k in doc), None))
    detail = doc.get(key) if key else None
    shape = header = size = None
    if isinstance(detail, dict):
        shape = "table"
        header = detail.get("head_name", detail.get("header_name"))
        size = detail.get("size")
        _table_blocks(block, rows, detail, header)
    elif detail is not None:
        shape = "list"
        _list_blocks(block, rows, objects(detail, key), key)
    rows.add("op_run", block.offset, to_text(doc.get("name")), to_text(doc.get("soc")), to_text(doc.get("op_type")),
             to_int(doc.get("block_dim")), to_int(doc.get("mix_block_dim")), to_float(doc.get("duration")),
             us_as_ns(doc.get("duration")), to_int(doc.get("device_id")), to_text(doc.get("pid")), key, shape,
             None if header is None else json.dumps(header, ensure_ascii=False),
             None if size is None else json.dumps(size))
    add_advice(rows, block, doc.get("advice"))


def _list_blocks(block: Block, rows: Rows, detail: list[dict], key: str) -> None:
    for row, item in enumerate(detail):
        block_id = ident(item.get("block_id"))
        durations = item.get("duration")
        if not isinstance(durations, list):
            rows.add("op_block", block.offset, row, block_id, 0, to_text(item.get("core_type")),
                     to_float(durations), us_as_ns(durations), scalar(durations))
            continue
        for index, value in enumerate(durations):
            if key == "mix_block_detail" and index < len(MIX_CORES):
                core_type = MIX_CORES[index]
            else:
                core_type = to_text(item.get("core_type"))
            rows.add("op_block", block.offset, row, block_id, index, core_type, to_float(value), us_as_ns(value),
                     scalar(value))


def _table_blocks(block: Block, rows: Rows, detail: dict, header) -> None:
    header = header if isinstance(header, list) else []
    for row, entry in enumerate(objects(detail.get("row"), "block detail rows")):
        values = entry.get("value")
        values = values if isinstance(values, list) else []
        block_id = ident(values[0]) if values else None
        for index, value in enumerate(values[1:], start=1):
            core_type = _core_from_header(header[index]) if index < len(header) else None
            rows.add("op_block", block.offset, row, block_id, index, core_type, to_float(value), us_as_ns(value),
                     scalar(value))


def _core_from_header(title) -> str | None:
    """'Cube0 Duration (μs)' -> 'cube0'."""
    words = str(title).split()
    return words[0].lower() if words else None


def compute_load(block: Block, rows: Rows, doc) -> None:
    """0x06 (chart) / 0x07 (table) -> compute_load; items flat or nested under data_detail."""
    doc = mapping(doc, "compute load")
    view = LOAD_VIEWS[block.type]
    for row, item in enumerate(objects(doc.get("subblock_detail"), "subblock_detail")):
        nested = item.get("data_detail")
        parts = nested if isinstance(nested, list) else [nested if isinstance(nested, dict) else {}]
        for part in parts:
            fields = {**item, **mapping(part, "data_detail")}
            advice = fields.get("advice")
            rows.add("compute_load", block.offset, view, row, ident(fields.get("block_id")),
                     to_text(fields.get("block_type")), to_text(fields.get("name")), scalar(fields.get("unit")),
                     to_float(fields.get("value")), to_float(fields.get("origin_value")),
                     None if advice in (None, "", []) else to_text(advice))
    add_advice(rows, block, doc.get("advice"))


def memory_graph(block: Block, rows: Rows, doc) -> None:
    """0x08 -> l2_cache (one row per core), memory_unit (per path), pipe_ratio (Cube/Vector/Vector1), op_advice."""
    doc = mapping(doc, "memory heat map")
    for row, core in enumerate(objects(doc.get("core_memory_map"), "core_memory_map")):
        block_id = ident(core.get("core_no"))
        l2 = _l2(next((core[k] for k in L2_KEYS if k in core), None))
        rows.add("l2_cache", block.offset, block_id, row, to_text(core.get("op_type", core.get("core_type"))),
                 to_text(core.get("soc")), to_int(l2.get("hit")), to_int(l2.get("miss")),
                 to_int(l2.get("total_request")), to_float(l2.get("hit_ratio")))
        for path_row, unit in enumerate(objects(core.get("memory_unit"), f"core_memory_map[{row}].memory_unit")):
            rows.add("memory_unit", block.offset, block_id, path_row, scalar(unit.get("memory_path")),
                     to_int(unit.get("request")), to_int(unit.get("request_per_byte")),
                     to_float(unit.get("bandwidth")), gb_per_s_as_bytes_per_s(unit.get("bandwidth")),
                     to_float(unit.get("peak_ratio")), flag(unit.get("display")))
        for pipe, figures in core.items():
            if pipe not in L2_KEYS and isinstance(figures, dict):
                rows.add("pipe_ratio", block.offset, block_id, pipe, to_float(figures.get("ratio")),
                         to_int(figures.get("cycle")), to_int(figures.get("total_cycles")))
        add_advice(rows, block, core.get("advice"), block_id)
    add_advice(rows, block, doc.get("advice"))


def _l2(value) -> dict:
    """The L2cache figures: an object, or (the seed's sketch) a list of one-key objects."""
    if isinstance(value, list):
        merged = {}
        for part in objects(value, "L2cache"):
            merged.update(part)
        return merged
    return mapping(value, "L2cache")


def memory_tables(block: Block, rows: Rows, doc) -> None:
    """0x09 -> memory_table, one row per cell (row 0 = header, column 0 = row name), op_advice."""
    doc = mapping(doc, "memory tables")
    for entry in objects(doc.get("table_per_block"), "table_per_block"):
        block_id = ident(entry.get("block_id"))
        op_type = to_text(entry.get("table_op_type"))
        tables = entry.get("table_detail", entry.get("tables_detail"))
        for index, table in enumerate(objects(tables, "table_detail")):
            name = to_text(table.get("table_name"))
            size = None if table.get("size") is None else json.dumps(table["size"])
            for row_index, column_index, value in _cells(table, name):
                rows.add("memory_table", block.offset, block_id, op_type, index, name, size, row_index,
                         column_index, scalar(value), to_float(value) if row_index else None)
        add_advice(rows, block, entry.get("advice"), block_id)
    add_advice(rows, block, doc.get("advice"))


def _cells(table: dict, name: str | None):
    """(row, column, value) of every cell: row 0 the header_name, then each row's name and values."""
    header = table.get("header_name")
    for column, title in enumerate(header if isinstance(header, list) else []):
        yield 0, column, title
    for row_index, line in enumerate(objects(table.get("row"), f"{name} rows"), start=1):
        yield row_index, 0, line.get("name")
        values = line.get("value")
        for column, value in enumerate(values if isinstance(values, list) else [], start=1):
            yield row_index, column, value
