"""The hot-spot blocks: 0x01 source files, 0x03 per-line figures, 0x04 per-instruction figures.

0x03/0x04 carry per-core arrays (one element per entry of "Cores"): each line or
instruction becomes one row per core. Keys beyond the fixed ones are the extra
columns the "Files Dtype"/"Instructions Dtype" map declares; they go to the long
tables code_line_metric/instruction_metric, typed by their dtype code, hidden ones (0) included.
"""

from __future__ import annotations

import json

from warehouse.sources.op_profile.framing import Block
from warehouse.sources.op_profile.rows import Rows
from warehouse.sources.op_profile.values import mapping, objects, scalar, to_float, to_int, to_text

#: per-core counters, in the order of their columns (rows.COLUMNS)
LINE_COUNTERS = ("Cycles", "Instructions Executed")
INSTRUCTION_COUNTERS = ("Cycles", "Instructions Executed", "TheoreticalStallCycles", "RealStallCycles")
#: the keys with columns of their own; any other key is an extra column
LINE_KEYS = frozenset({"Line", "Address Range", *LINE_COUNTERS})
INSTRUCTION_KEYS = frozenset({"Address", "Source", "Pipe", "AscendC Inner Code", *INSTRUCTION_COUNTERS})
#: dtype codes of VisualizeBinDType read as numbers
FLOAT_DTYPES = frozenset({2, 4, 100})
JSON_DTYPE = 5


def code_file(block: Block, rows: Rows, doc) -> None:
    """0x01: the path (up to the first NUL) and the text exactly (bytes when not UTF-8)."""
    path = block.path.split(b"\0", 1)[0].decode("utf-8", errors="replace")
    try:
        content = str(block.payload, "utf-8")
    except UnicodeDecodeError:
        content = bytes(block.payload)
    rows.add("code_file", block.offset, path, content)


def code_lines(block: Block, rows: Rows, doc) -> None:
    """0x03: Files[].Lines[] -> code_line (one row per core) + code_line_metric."""
    doc, cores, dtypes = _open(block, rows, doc, "Files Dtype", "Lines")
    files = doc.get("Files")
    if isinstance(files, list):
        lines = sum(len(entry.get("Lines")) for entry in files
                    if isinstance(entry, dict) and isinstance(entry.get("Lines"), list))
        rows.expect(lines * max(len(cores), 1), f"{lines} lines x {len(cores)} cores")
    for file_index, entry in enumerate(objects(doc.get("Files"), "Files")):
        path = to_text(entry.get("Source"))
        for row, line in enumerate(objects(entry.get("Lines"), f"Files[{file_index}].Lines")):
            address_range = line.get("Address Range")
            _per_core(rows, "code_line", line, LINE_COUNTERS, LINE_KEYS, cores, dtypes, (
                block.offset, row, file_index, path, to_int(line.get("Line")),
                None if address_range is None else json.dumps(address_range)))


def instructions(block: Block, rows: Rows, doc) -> None:
    """0x04: Instructions[] -> instruction (one row per core) + instruction_metric."""
    doc, cores, dtypes = _open(block, rows, doc, "Instructions Dtype", "Instructions")
    items = doc.get("Instructions")
    if isinstance(items, list):
        rows.expect(len(items) * max(len(cores), 1), f"{len(items)} instructions x {len(cores)} cores")
    for row, item in enumerate(objects(doc.get("Instructions"), "Instructions")):
        inner = to_text(item.get("AscendC Inner Code"))
        _per_core(rows, "instruction", item, INSTRUCTION_COUNTERS, INSTRUCTION_KEYS, cores, dtypes, (
            block.offset, row, to_text(item.get("Address")), to_text(item.get("Pipe")), to_text(item.get("Source")),
            inner, *_file_line(inner)))


def _per_core(rows: Rows, table: str, item: dict, counters: tuple, fixed: frozenset, cores: list, dtypes: dict,
              item_values: tuple) -> None:
    """One ``table`` row per core: (id, core, core_index, *per-core counters, *item_values), and the
    item's extra columns in ``<table>_metric`` (a per-core element, or the whole value for dtype 5)."""
    width = _width(cores, item, fixed)
    rows.expect(width, f"{width} cores of one item")
    per_core = zip(*(_column(item.get(key), width) for key in counters))
    extras = [(name, dtypes.get(name), value) for name, value in item.items() if name not in fixed]
    first_id = rows.next_ids(table, width)
    rows.extend(table, ((first_id + index, _at(cores, index), index, *figures, *item_values)
                        for index, figures in enumerate(per_core)))
    if extras:
        rows.extend(f"{table}_metric", (
            (first_id + index, name, dtype, _typed(value if dtype == JSON_DTYPE else _at(value, index), dtype))
            for index in range(width) for name, dtype, value in extras))


def _open(block: Block, rows: Rows, doc, dtype_key: str, items_key: str) -> tuple[dict, list, dict]:
    """The block's object, its Cores, and its dtype map (name -> code, also recorded in op_dtype)."""
    doc = mapping(doc, f"0x{block.type:02x} block")
    cores = doc.get("Cores")
    cores = [to_text(core) for core in cores] if isinstance(cores, list) else []
    declared = mapping(mapping(doc.get(dtype_key), dtype_key).get(items_key), f"{dtype_key}.{items_key}")
    dtypes = {}
    for position, (name, code) in enumerate(declared.items()):
        dtypes[name] = to_int(code)
        rows.add("op_dtype", block.offset, block.type, position, name, dtypes[name])
    return doc, cores, dtypes


def _width(cores: list, item: dict, fixed: frozenset) -> int:
    """Rows per item: the number of cores, or the longest per-core array when there are more (at least 1)."""
    arrays = [len(value) for key, value in item.items()
              if isinstance(value, list) and key in fixed and key != "Address Range"]
    return max([len(cores), 1, *arrays])


def _at(value, index: int):
    """Element ``index`` of a per-core array (None past its end); a scalar is the same on every core."""
    if isinstance(value, list):
        return value[index] if index < len(value) else None
    return value


def _column(value, width: int) -> list:
    """A per-core counter as ``width`` integers (None past the array's end; a scalar on every core)."""
    if isinstance(value, list):
        return [to_int(element) for element in value[:width]] + [None] * (width - len(value))
    return [to_int(value)] * width


def _typed(value, dtype):
    """A declared column's value by its dtype: 1 int, 2/4/100 float, 3 text, 5 JSON text, else as given."""
    if dtype == 1:
        return to_int(value)
    if dtype in FLOAT_DTYPES:
        return to_float(value)
    if dtype == 3:
        return to_text(value)
    if dtype == JSON_DTYPE and not isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return scalar(value)


def _file_line(inner: str | None) -> tuple[str | None, int | None]:
    """'path/file.cpp:23' -> ('path/file.cpp', 23), from the first line of a multi-line value."""
    if not inner:
        return None, None
    first = inner.splitlines()[0]
    path, sep, line = first.rpartition(":")
    number = to_int(line) if sep else None
    if isinstance(number, int):
        return path, number
    return first, None
