"""The operator-detail commands: source/details/baseInfo, computeworkload, memoryGraph, memoryTable.

Shapes and values as the MindStudio Insight server gives them (Ascend/msinsight
``server/src/modules/source/``): ``parser/DetailsMemoryParser.cpp`` reads the profile's JSON
blocks with numbers kept as written text (kParseNumbersAsStringsFlag), decodes the compute-load
``unit`` codes, and ``protocol/SourceProtocolUtil.cpp`` always wraps what the views compare
(``{"compare", "baseline", "diff"}``, service.insight.compare) whether or not a baseline is
named. So base info, compute load and the memory heat map are read from the block's JSON as
the warehouse holds it (op_block_raw.json, verbatim): "16" stays "16", "90.550110" keeps its
zero. The per-block durations and the memory tables come from the profile's tables, which keep
the written text.
"""

from __future__ import annotations

import json

from service.insight import cards, compare
from service.insight.protocol import InsightError, Params, one, rows

BASE_INFO, LOAD_CHART, LOAD_TABLE, MEMORY_GRAPH, MEMORY_TABLE = 0x05, 0x06, 0x07, 0x08, 0x09
#: heat-map pipes as the block keys them -> as the answer does
PIPES = {"vector": "Vector", "vector1": "Vector1", "cube": "Cube"}
#: DetailsMemoryParser.cpp's unitTypeMapping
UNITS = {"0": "Duration(μs)", "1": "Instructions", "2": "Data Volume(byte)", "3": "PRE"}


def text(value) -> str:
    """A figure of a table as the answers give it: its text, '' when missing."""
    return "" if value is None else str(value)


def block_doc(conn, source_id: int, block_type: int) -> dict:
    """The profile's first block of ``block_type`` as JSON with numbers as their written text ({} if none)."""
    found = one(conn, "insight_block_json", source_id=source_id, block_type=block_type)
    if found is None:
        return {}
    try:
        doc = json.loads(found["json"], parse_int=str, parse_float=str, parse_constant=str)
    except ValueError:
        return {}
    return doc if isinstance(doc, dict) else {}


def field(doc, key: str) -> str:
    """JsonUtil::GetString: the member's text, '' when missing or not a string or number."""
    value = doc.get(key) if isinstance(doc, dict) else None
    return value if isinstance(value, str) else ""


def unit_name(value) -> str:
    """The unit code decoded; a unit already given by name (the seed's "%") is kept."""
    if isinstance(value, str):
        return UNITS.get(value, "" if value.lstrip("-").isdigit() else value)
    return ""


def _texts(value) -> list[str]:
    """An advice list (a single string is a list of one), duplicates dropped (RemoveDuplicateAdvice)."""
    items = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    return list(dict.fromkeys(item for item in items if isinstance(item, str)))


def _advice(conn, source_id: int, block_type: int, block_id=None) -> list[str]:
    return [row["text"] for row in rows(conn, "insight_advice", source_id=source_id, block_type=block_type,
                                        block_id=block_id)]


def base_info(conn, params: Params) -> dict:
    """Name, SoC, type, block dims, duration, device, pid, the per-block durations table, advice (block 0x05),
    as ``{"compare", "baseline"}`` (baseline empty unless ``isCompared`` names one with ``baselineRankId``)."""
    source_id = cards.operator(conn, params)
    baseline_id = compare.baseline_source(conn, params)
    answer = _base_info(conn, source_id)
    if answer is None:
        raise InsightError("the profile has no base information block (0x05)")
    baseline = None if baseline_id is None else _base_info(conn, baseline_id)
    return compare.base_info(answer, baseline or compare.EMPTY_BASE_INFO)


def _base_info(conn, source_id: int) -> dict | None:
    run = one(conn, "insight_op_run", source_id=source_id)
    if run is None:
        return None
    doc = block_doc(conn, source_id, BASE_INFO)
    return {
        "name": field(doc, "name"), "soc": field(doc, "soc"), "opType": field(doc, "op_type"),
        "blockDim": field(doc, "block_dim") or "-1", "mixBlockDim": field(doc, "mix_block_dim") or "-1",
        "duration": field(doc, "duration"), "deviceId": field(doc, "device_id"), "pid": field(doc, "pid"),
        "blockDetail": block_detail(run, rows(conn, "insight_op_blocks", source_id=source_id)),
        "advice": _advice(conn, source_id, BASE_INFO),
    }


def block_detail(run: dict, blocks: list[dict]) -> dict:
    """The per-block table: as written for the table shape; built from the list shapes
    (block_detail: Block ID, Core Type, Duration; mix_block_detail: one duration column per sub-core)."""
    entries: dict[int, list[dict]] = {}
    for block in blocks:
        entries.setdefault(block["source_row"], []).append(block)
    if run["detail_shape"] == "table":
        header = json.loads(run["detail_header"] or "[]")
        size = json.loads(run["detail_size"]) if run["detail_size"] else [len(entries) + 1, len(header)]
    elif run["detail_key"] == "mix_block_detail":
        first = next(iter(entries.values()), [])
        header = ["Block ID", *(f"{text(b['core_type']).capitalize()} Duration (μs)" for b in first)]
        size = [len(entries) + 1, len(header)]
    else:
        header = ["Block ID", "Core Type", "Duration (μs)"] if entries else []
        size = [len(entries) + 1 if entries else 0, len(header)]
    table_rows = []
    for values in entries.values():
        cells = [text(values[0]["block_id"])]
        if run["detail_shape"] != "table" and run["detail_key"] != "mix_block_detail":
            cells.append(text(values[0]["core_type"]))
        cells += [text(v["value"]) for v in values]
        table_rows.append({"value": cells})
    return {"headerName": header, "size": [text(n) for n in size], "row": table_rows}


def compute_workload(conn, params: Params) -> dict:
    """The compute-load chart (0x06) and table (0x07) items, with the block ids they cover; each item
    ``{"compare", "baseline", "diff"}`` (service.insight.compare)."""
    source_id = cards.operator(conn, params)
    baseline_id = compare.baseline_source(conn, params)
    answer = _compute_workload(conn, source_id)
    if baseline_id is None:
        return compare.compute_workload(answer, None)
    baseline = _compute_workload(conn, baseline_id)
    has_load = baseline["chartData"]["detailDataList"] or baseline["tableData"]["detailDataList"]
    return compare.compute_workload(answer, baseline if has_load else None)


def _load_items(doc: dict) -> list[dict]:
    """SubBlockUnitData of each subblock_detail item (the seed nests some under data_detail)."""
    items = doc.get("subblock_detail")
    found = []
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict):
            continue
        if isinstance(item.get("data_detail"), dict):
            item = {**item, **item["data_detail"]}
        found.append({"blockId": field(item, "block_id"), "blockType": field(item, "block_type"),
                      "name": field(item, "name"), "unit": unit_name(item.get("unit")), "value": field(item, "value"),
                      "originValue": field(item, "origin_value")})
    return found


def _compute_workload(conn, source_id: int) -> dict:
    chart, table = (_load_items(block_doc(conn, source_id, kind)) for kind in (LOAD_CHART, LOAD_TABLE))
    ids = {item["blockId"] for item in chart + table}
    return {"blockIdList": sorted(ids, key=lambda b: (not b.isdigit(), int(b) if b.isdigit() else 0, b)),
            "chartData": {"detailDataList": chart, "advice": _advice(conn, source_id, LOAD_CHART)},
            "tableData": {"detailDataList": table, "advice": _advice(conn, source_id, LOAD_TABLE)}}


def _block(conn, params: Params) -> tuple[int, int | None]:
    """The profile and the optional ``blockId``; ``showAs`` is accepted (every figure is in the answer)."""
    source_id = cards.operator(conn, params)
    params.text("showAs", required=False)
    return source_id, params.integer("blockId", required=False)


def memory_graph(conn, params: Params) -> dict:
    """The memory heat map (0x08) of every block or of ``blockId``: L2 cache, paths, pipe usage, advice;
    L2 cache, pipes and paths each ``{"compare", "baseline", "diff"}``."""
    source_id, block_id = _block(conn, params)
    baseline_id = compare.baseline_source(conn, params)
    answer = _memory_graph(conn, source_id, block_id)
    baseline = None if baseline_id is None else _memory_graph(conn, baseline_id, block_id)
    if block_id is not None and not answer["coreMemory"] and not (baseline or {}).get("coreMemory"):
        raise InsightError(f"no block {block_id} in the memory heat map")
    return compare.graph_unmerged(answer) if baseline is None else compare.memory_graph(answer, baseline)


def _memory_graph(conn, source_id: int, block_id: int | None) -> dict:
    """DetailsMemoryParser::ParseJsonToMemoryGraph of each core_memory_map entry (of ``block_id``)."""
    cores = block_doc(conn, source_id, MEMORY_GRAPH).get("core_memory_map")
    found = []
    for core in cores if isinstance(cores, list) else []:
        if not isinstance(core, dict) or (block_id is not None and field(core, "core_no") != str(block_id)):
            continue
        l2 = core.get("L2cache")
        units = core.get("memory_unit")
        found.append({
            "advice": _texts(core.get("advice")),
            "blockId": field(core, "core_no"),
            "l2Cache": {"hitRatio": field(l2, "hit_ratio"), "hit": field(l2, "hit"),
                        "totalRequest": field(l2, "total_request"), "miss": field(l2, "miss")},
            "blockType": field(core, "op_type"),
            "chipType": field(core, "soc"),
            "memoryUnit": [{
                "request": field(unit, "request"), "requestSuffix": field(unit, "request_suffix"),
                "display": unit.get("display") == "1", "peakRatio": field(unit, "peak_ratio"),
                "bandwidth": field(unit, "bandwidth"), "bandwidthSuffix": field(unit, "bandwidth_suffix"),
                "memoryPath": field(unit, "memory_path"),
            } for unit in (units if isinstance(units, list) else []) if isinstance(unit, dict)],
            **{key: {"cycle": field(core.get(pipe), "cycle"), "totalCycles": field(core.get(pipe), "total_cycles"),
                     "ratio": field(core.get(pipe), "ratio")} for key, pipe in PIPES.items()},
        })
    return {"coreMemory": found}


def memory_table(conn, params: Params) -> dict:
    """The memory tables (0x09) of every block or of ``blockId``, rebuilt cell by cell; each row
    ``{"compare", "baseline", "diff"}``."""
    source_id, block_id = _block(conn, params)
    baseline_id = compare.baseline_source(conn, params)
    answer = _memory_table(conn, source_id, block_id)
    baseline = None if baseline_id is None else _memory_table(conn, baseline_id, block_id)
    if block_id is not None and not answer["memoryTable"] and not (baseline or {}).get("memoryTable"):
        raise InsightError(f"no block {block_id} in the memory tables")
    return compare.table_unmerged(answer) if baseline is None else compare.memory_table(answer, baseline)


def _memory_table(conn, source_id: int, block_id: int | None) -> dict:
    cells = rows(conn, "insight_memory_table_cells", source_id=source_id, block_id=block_id)
    entries: dict[tuple, dict] = {}
    for cell in cells:
        entry = entries.setdefault((cell["block_id"], cell["table_op_type"]), {})
        table = entry.setdefault(cell["table_index"], {"name": cell["table_name"], "size": cell["table_size"],
                                                       "header": [], "rows": {}})
        if cell["row_index"] == 0:
            table["header"].append(text(cell["value"]))
        else:
            table["rows"].setdefault(cell["row_index"], []).append(text(cell["value"]))
    return {"memoryTable": [{
        "advice": _advice(conn, source_id, MEMORY_TABLE, entry_block),
        "blockId": text(entry_block),
        "tableOpType": text(op_type),
        "tableDetail": [_table(t) for t in tables.values()],
    } for (entry_block, op_type), tables in entries.items()]}


def _table(table: dict) -> dict:
    size = json.loads(table["size"]) if table["size"] else [len(table["rows"]), max(len(table["header"]) - 1, 0)]
    return {"headerName": table["header"], "tableName": text(table["name"]), "size": [text(n) for n in size],
            "row": [{"name": cells[0], "value": cells[1:]} for cells in table["rows"].values()]}
