"""The operator-detail commands: source/details/baseInfo, computeworkload, memoryGraph, memoryTable.

The seed's bodies give figures as strings ("13.15999984741211", "-1" for an unset block
dim, "" for a missing one); the values come from the profile's tables, as written where the
table keeps the written value (op_block.value, memory_table.value).
"""

from __future__ import annotations

import json

from service.insight import cards, compare
from service.insight.protocol import InsightError, Params, one, rows

BASE_INFO, LOAD_CHART, LOAD_TABLE, MEMORY_GRAPH, MEMORY_TABLE = 0x05, 0x06, 0x07, 0x08, 0x09
#: heat-map pipes as the block keys them -> as the answer does
PIPES = {"vector": "Vector", "vector1": "Vector1", "cube": "Cube"}


def text(value) -> str:
    """A figure as the seed's bodies give it: its text, '' when missing."""
    return "" if value is None else str(value)


def _advice(conn, source_id: int, block_type: int, block_id=None) -> list[str]:
    return [row["text"] for row in rows(conn, "insight_advice", source_id=source_id, block_type=block_type,
                                        block_id=block_id)]


def base_info(conn, params: Params) -> dict:
    """Name, SoC, type, block dims, duration, the per-block durations table, advice (block 0x05).

    In compare mode (``isCompared`` and ``baselineRankId``): ``{"compare", "baseline"}``."""
    source_id = cards.operator(conn, params)
    baseline_id = compare.baseline_source(conn, params)
    answer = _base_info(conn, source_id)
    if answer is None:
        raise InsightError("the profile has no base information block (0x05)")
    if baseline_id is None:
        return answer
    return compare.base_info(answer, _base_info(conn, baseline_id) or compare.EMPTY_BASE_INFO)


def _base_info(conn, source_id: int) -> dict | None:
    run = one(conn, "insight_op_run", source_id=source_id)
    if run is None:
        return None
    return {
        "name": text(run["name"]), "soc": text(run["soc"]), "opType": text(run["op_type"]),
        "blockDim": text(run["block_dim"]) or "-1", "mixBlockDim": text(run["mix_block_dim"]) or "-1",
        "duration": text(run["duration_us"]),
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
    """The compute-load chart (0x06) and table (0x07) items, with the block ids they cover.

    In compare mode each item is ``{"compare", "baseline", "diff"}`` (service.insight.compare)."""
    source_id = cards.operator(conn, params)
    baseline_id = compare.baseline_source(conn, params)
    answer = _compute_workload(conn, source_id)
    if baseline_id is None:
        return answer
    baseline = _compute_workload(conn, baseline_id)
    has_load = baseline["chartData"]["detailDataList"] or baseline["tableData"]["detailDataList"]
    return compare.compute_workload(answer, baseline if has_load else None)


def _compute_workload(conn, source_id: int) -> dict:
    items = rows(conn, "insight_compute_load", source_id=source_id)
    chart = [{"blockId": text(i["block_id"]), "blockType": text(i["block_type"]), "name": text(i["name"]),
              "unit": text(i["unit"]), "value": text(i["value"]), "originValue": text(i["origin_value"])}
             for i in items if i["view"] == "chart"]
    table = [{"blockId": text(i["block_id"]), "blockType": text(i["block_type"]), "name": text(i["name"]),
              "unit": text(i["unit"]), "value": text(i["value"])}
             for i in items if i["view"] == "table"]
    ids = sorted({i["block_id"] for i in items if i["block_id"] is not None}, key=lambda b: (str(type(b)), b))
    return {"blockIdList": [text(b) for b in ids],
            "chartData": {"detailDataList": chart, "advice": _advice(conn, source_id, LOAD_CHART)},
            "tableData": {"detailDataList": table, "advice": _advice(conn, source_id, LOAD_TABLE)}}


def _block(conn, params: Params) -> tuple[int, int | None]:
    """The profile and the optional ``blockId``; ``showAs`` is accepted (every figure is in the answer)."""
    source_id = cards.operator(conn, params)
    params.text("showAs", required=False)
    return source_id, params.integer("blockId", required=False)


def memory_graph(conn, params: Params) -> dict:
    """The memory heat map (0x08) of every block or of ``blockId``: L2 cache, paths, pipe usage, advice.

    In compare mode L2 cache, pipes and paths are ``{"compare", "baseline", "diff"}``."""
    source_id, block_id = _block(conn, params)
    baseline_id = compare.baseline_source(conn, params)
    answer = _memory_graph(conn, source_id, block_id)
    baseline = None if baseline_id is None else _memory_graph(conn, baseline_id, block_id)
    if block_id is not None and not answer["coreMemory"] and not (baseline or {}).get("coreMemory"):
        raise InsightError(f"no block {block_id} in the memory heat map")
    return answer if baseline is None else compare.memory_graph(answer, baseline)


def _memory_graph(conn, source_id: int, block_id: int | None) -> dict:
    cores = rows(conn, "insight_memory_cores", source_id=source_id, block_id=block_id)
    units, pipes = {}, {}
    for unit in rows(conn, "insight_memory_units", source_id=source_id, block_id=block_id):
        units.setdefault(unit["block_id"], []).append({
            "request": unit["request"], "display": bool(unit["display"]), "peakRatio": text(unit["peak_ratio"]),
            "bandwidth": text(unit["bandwidth_gb_s"]), "memoryPath": text(unit["memory_path"])})
    for pipe in rows(conn, "insight_pipe_ratios", source_id=source_id, block_id=block_id):
        pipes[(pipe["block_id"], pipe["pipe"])] = {
            "cycle": text(pipe["cycle"]), "totalCycles": text(pipe["total_cycles"]), "ratio": text(pipe["ratio"])}
    empty = {"cycle": "", "totalCycles": "", "ratio": ""}
    return {"coreMemory": [{
        "advice": _advice(conn, source_id, MEMORY_GRAPH, core["block_id"]),
        "blockId": text(core["block_id"]),
        "l2Cache": {"hitRatio": text(core["hit_ratio"]), "hit": text(core["hit"]),
                    "totalRequest": text(core["total_request"]), "miss": text(core["miss"])},
        "blockType": text(core["op_type"]),
        "chipType": text(core["soc"]),
        "memoryUnit": units.get(core["block_id"], []),
        **{key: pipes.get((core["block_id"], pipe), empty) for key, pipe in PIPES.items()},
    } for core in cores]}


def memory_table(conn, params: Params) -> dict:
    """The memory tables (0x09) of every block or of ``blockId``, rebuilt cell by cell.

    In compare mode each row is ``{"compare", "baseline", "diff"}``."""
    source_id, block_id = _block(conn, params)
    baseline_id = compare.baseline_source(conn, params)
    answer = _memory_table(conn, source_id, block_id)
    baseline = None if baseline_id is None else _memory_table(conn, baseline_id, block_id)
    if block_id is not None and not answer["memoryTable"] and not (baseline or {}).get("memoryTable"):
        raise InsightError(f"no block {block_id} in the memory tables")
    return answer if baseline is None else compare.memory_table(answer, baseline)


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
