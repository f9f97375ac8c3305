"""The frontend's hot-spot tables: source/api/line/dynamic and source/api/instructions/dynamic.

As the MindStudio Insight server answers them (Ascend/msinsight ``server/src/modules/source/``:
``parser/SourceInstructionParser.cpp`` reads the profile's api.json blocks, 0x03 files and 0x04
instructions; ``handler/QueryApiInstructionsDynamicHandler.cpp`` and
``protocol/SourceProtocolUtil.cpp`` shape the answers). A block that declares its columns
("Files Dtype" / "Instructions Dtype": name -> ColumnDataType) is answered column by column,
each value typed by its declared type and taken for the requested core; an old block without
the declaration gets the fixed columns. Values are read from the block's JSON as the warehouse
holds it (op_block_raw.json), so what the frontend shows is what the profile says.
"""

from __future__ import annotations

import json
import struct

from service.insight import cards
from service.insight.protocol import Params, one

FILES_BLOCK, INSTRUCTIONS_BLOCK = 0x03, 0x04
#: ColumnDataType (SourceDefs.h)
SKIP, INT, FLOAT, STRING, PERCENTAGE, JSON_STR, PERCENT_AND_DETAILS = 0, 1, 2, 3, 4, 5, 100
INT32 = 1 << 31
FLOAT32_MAX = 3.4028234e38


def api_block(conn, source_id: int, block_type: int) -> dict:
    """The api.json part of a block type as parsed JSON ({} when missing or not an object)."""
    found = one(conn, "insight_block_json", source_id=source_id, block_type=block_type)
    try:
        doc = json.loads(found["json"]) if found else {}
    except ValueError:
        return {}
    return doc if isinstance(doc, dict) else {}


def as_int(value) -> int:
    """rapidjson's IsInt() ? GetInt() : 0."""
    return value if isinstance(value, int) and not isinstance(value, bool) and -INT32 <= value < INT32 else 0


def as_float(value) -> float:
    """rapidjson's IsFloat() ? GetFloat() : 0 (a double in float range, rounded to 32 bits; not an integer)."""
    if isinstance(value, float) and -FLOAT32_MAX <= value <= FLOAT32_MAX:
        return struct.unpack("f", struct.pack("f", value))[0]
    return 0.0


def _per_core(value, convert, index: int):
    """A column's value on the core at ``index``: the element of a per-core array (the first when the
    array is shorter), or the value itself; None for an empty array."""
    values = [convert(v) for v in value] if isinstance(value, list) else [convert(value)]
    return values[index if index < len(values) else 0] if values else None


def _percent_and_details(value) -> dict | None:
    if not isinstance(value, dict):
        return None
    details = value.get("Details")
    return {"Percent": as_float(value.get("Percent")),
            "Details": {str(k): as_int(v) for k, v in details.items()} if isinstance(details, dict) else {}}


def _columns(row: dict, types: dict, index: int, *, json_text: bool) -> dict:
    """One row's declared columns on the core at ``index``: strings, integers, floats, then the
    percent-and-details ones (SourceProtocolUtil's order); JSON columns as their compact text."""
    strings, ints, floats, percents = {}, {}, {}, {}
    for name, kind in sorted(types.items()):
        if name not in row:
            continue
        value = row[name]
        if kind == STRING:
            found = _per_core(value, lambda v: v if isinstance(v, str) else "", index)
            target = strings
        elif kind == INT:
            found, target = _per_core(value, as_int, index), ints
        elif kind in (FLOAT, PERCENTAGE):
            found, target = _per_core(value, as_float, index), floats
        elif kind == JSON_STR and json_text:
            found, target = json.dumps(value, separators=(",", ":"), ensure_ascii=False), strings
        elif kind == PERCENT_AND_DETAILS:
            found, target = _percent_and_details(value), percents
        else:
            continue
        if found is not None:
            target[name] = found
    return {**strings, **ints, **floats, **percents}


def _declared(doc: dict, key: str, part: str) -> dict:
    """The declared column types ({name: int}); non-integer declarations are skipped."""
    declared = doc.get(key)
    declared = declared.get(part) if isinstance(declared, dict) else None
    return {name: kind for name, kind in declared.items() if as_int(kind) == kind} \
        if isinstance(declared, dict) else {}


def _core_index(doc: dict, core: str | None) -> int:
    cores = doc.get("Cores")
    cores = cores if isinstance(cores, list) else []
    return cores.index(core) if core in cores else 0


def _ranges(line: dict) -> list[list[str]]:
    ranges = line.get("Address Range")
    return [list(r) for r in (ranges if isinstance(ranges, list) else [])
            if isinstance(r, list) and len(r) == 2 and all(isinstance(a, str) for a in r)]


def api_line_dynamic(conn, params: Params) -> dict:
    """The lines of ``sourceName`` on ``coreName`` (the first core when empty or unknown)."""
    source_id = cards.operator(conn, params)
    name, core = params.text("sourceName", required=False), params.text("coreName", required=False)
    doc = api_block(conn, source_id, FILES_BLOCK)
    files = doc.get("Files") if isinstance(doc.get("Files"), list) else []
    lines = next((f.get("Lines") for f in files if isinstance(f, dict) and f.get("Source") == name), None)
    lines = [line for line in (lines if isinstance(lines, list) else []) if isinstance(line, dict)]
    types = _declared(doc, "Files Dtype", "Lines")
    if not types:
        return {"Lines": _old_lines(doc, lines, core)}
    index = _core_index(doc, core)
    return {"Lines": [{**_columns(line, types, index, json_text=False), "Address Range": _ranges(line)}
                      for line in lines],
            "Files Dtype": {"Lines": types}}


def _old_lines(doc: dict, lines: list[dict], core: str | None) -> list[dict]:
    """GetApiLinesByCoreAndSource: the fixed columns on a known core, lines that ran there only."""
    cores = doc.get("Cores") if isinstance(doc.get("Cores"), list) else []
    if core not in cores:
        return []
    index, found = cores.index(core), []
    for line in lines:
        cycles, executed = line.get("Cycles"), line.get("Instructions Executed")
        if not (isinstance(cycles, list) and isinstance(executed, list) and "Address Range" in line
                and as_int(line.get("Line")) == line.get("Line")) or min(len(cycles), len(executed)) <= index:
            continue
        cycle = as_float(float(cycles[index])) if isinstance(cycles[index], (int, float)) else 0.0
        if as_int(executed[index]) == 0 and cycle == 0:
            continue
        found.append({"Line": line["Line"], "Instructions Executed": as_int(executed[index]), "Cycles": cycle,
                      "Address Range": _ranges(line)})
    return found


def _address(instruction: dict) -> int:
    try:
        return int(str(instruction.get("Address", "0")), 16)
    except ValueError:
        return 0


def api_instructions_dynamic(conn, params: Params) -> dict:
    """Every instruction on ``coreName`` (the first core when empty or unknown), sorted by address."""
    source_id = cards.operator(conn, params)
    core = params.text("coreName", required=False) or ""
    doc = api_block(conn, source_id, INSTRUCTIONS_BLOCK)
    instructions = doc.get("Instructions") if isinstance(doc.get("Instructions"), list) else []
    instructions = [i for i in instructions if isinstance(i, dict)]
    index = _core_index(doc, core)
    types = _declared(doc, "Instructions Dtype", "Instructions")
    if not types:
        return {"Instructions": [_old_instruction(i, index) for i in instructions]}
    return {"Instructions": [_columns(i, types, index, json_text=True) for i in sorted(instructions, key=_address)],
            "Instructions Dtype": {"Instructions": types}, "Core": core}


def _old_instruction(instruction: dict, index: int) -> dict:
    """SourceApiInstrRes: the fixed columns, counts of the core (0 when missing)."""
    def count(key: str) -> int:
        values = [v for v in instruction.get(key, []) if as_int(v) == v] if isinstance(instruction.get(key), list) else []
        return values[index if index < len(values) else 0] if values else 0

    def text(key: str) -> str:
        value = instruction.get(key)
        return value if isinstance(value, str) else ""

    return {"Source": text("Source"), "Address": text("Address"), "Ascend Inner Code": text("AscendC Inner Code"),
            "Cycles": count("Cycles"), "Instructions Executed": count("Instructions Executed"), "Pipe": text("Pipe"),
            "RealStallCycles": count("RealStallCycles"), "TheoreticalStallCycles": count("TheoreticalStallCycles")}
