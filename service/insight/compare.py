"""Compare mode of the operator-detail commands, as the MindStudio Insight server answers it.

With ``isCompared`` and a baseline card (``baselineRankId``, or ``baselineCardId``), the detail
commands pair the card's answer (``compare``) with the baseline card's (``baseline``) and a
``diff``, in the shapes and by the rules of the real server (Ascend/msinsight,
``server/src/modules/source/``: ``core/DetailsService.cpp`` merges, ``protocol/SourceProtocolUtil.cpp``
shapes, ``NumberUtil`` subtracts):

Without a baseline the answers have the same wrapped shapes (SourceProtocolUtil.cpp always writes
them): the card's figures under ``compare``, empty or placeholder ``baseline`` and ``diff``.

- baseInfo: ``{"compare", "baseline"}`` only (the real server builds no diff for it);
- computeworkload: each chart/table item ``{"compare", "baseline", "diff"}``, matched on
  blockId + "_" + blockType + name; an item of the compare card alone has placeholder baseline
  and diff (its blockId/blockType/name/unit, value "-"); baseline-only items are dropped;
  ``advice`` is empty once merged;
- memoryGraph: per block (matched on blockId) ``l2Cache``/``vector``/``vector1``/``cube`` become
  ``{"compare", "baseline", "diff"}`` and each memory unit too (matched on memoryPath);
  ``advice`` is emptied for every block the baseline has;
- memoryTable: per block, tables matched on tableName (baseline-only tables dropped), rows on
  name (baseline-only rows dropped), each row ``{"compare", "baseline", "diff"}`` with "-" for
  what has no counterpart; a merged table's ``size`` becomes [header count, row count].

Numbers are subtracted as text: ``minus`` is NumberUtil::StringDoubleMinusWithoutTrailingZero
("" when either side is "", text that is not a number counts as its numeric prefix or 0),
``request_minus`` NumberUtil::StringUnsignedLongLongMinus (clamped to the signed 64-bit range).
Text fields of a diff are kept (names, ids, types, suffix, display: the compare card's).
"""

from __future__ import annotations

import math
import re

from service.insight import cards
from service.insight.protocol import InsightError, Params

BASELINE_PARAM, BASELINE_ALIASES = "baselineRankId", ("baselineCardId",)
INT64_MIN, INT64_MAX, UINT64 = -(1 << 63), (1 << 63) - 1, 1 << 64

#: what std::stold parses at the start of a string (after leading blanks)
_FLOAT_PREFIX = re.compile(r"\s*([+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|inf(?:inity)?|nan))",
                           re.IGNORECASE)
_INT_PREFIX = re.compile(r"\s*([+-]?\d+)")


def baseline_source(conn, params: Params) -> int | None:
    """The baseline profile's source id when the request is in compare mode, else None: the card
    ``baselineRankId`` names, else the one the client's global/setBaseline chose (its session).

    :raises InsightError: on a bad ``isCompared``, a missing baseline card or an unknown one.
    """
    if not params.flag("isCompared"):
        return None
    card_id = params.text(BASELINE_PARAM, required=params.session.baseline is None, aliases=BASELINE_ALIASES)
    if card_id is None:
        return params.session.baseline
    return cards.named(conn, card_id, kind=cards.OPERATOR_KIND)["sourceId"]


# ---- NumberUtil ------------------------------------------------------------------------------


def _long_double(text: str) -> float:
    """NumberUtil::StringToLongDouble: the numeric prefix, 0 when there is none."""
    found = _FLOAT_PREFIX.match(text)
    if not found:
        return 0.0
    try:
        value = float(found.group(1))
    except ValueError:  # pragma: no cover - the pattern only matches what float() reads
        return 0.0
    return value if math.isfinite(value) or math.isnan(value) else 0.0  # stold throws out_of_range


def _strip_zeros(number: str) -> str:
    """NumberUtil::RemoveTrailingZerosAndDecimal."""
    stripped = number.rstrip("0")
    if stripped == number:
        return number
    if not stripped:
        return "0"
    return stripped[:-1] if stripped.endswith(".") else stripped


def minus(first: str, second: str, max_precision: int = 3) -> str:
    """NumberUtil::StringDoubleMinusWithoutTrailingZero: ``first - second`` as text, at least
    ``max_precision`` decimals and more when the fraction starts with zeros, trailing zeros dropped."""
    if first == "" or second == "":
        return ""
    difference = _long_double(first) - _long_double(second)
    if math.isnan(difference) or math.isinf(difference):
        return str(difference)
    whole = math.floor(difference) if difference > 0 else math.ceil(difference)
    fraction = difference - whole
    precision = max_precision
    if fraction != 0.0:
        zeros = int(math.log10(abs(fraction)))
        precision = max_precision if zeros >= 0 else max_precision - zeros
    return _strip_zeros(f"{difference:.{precision}f}")


def fixed_minus(first: str, second: str, precision: int = 3) -> str:
    """NumberUtil::StringDoubleMinus: ``first - second`` as text with ``precision`` decimals (a text
    that is not a number, "" too, counts as its numeric prefix or 0)."""
    return f"{_long_double(first) - _long_double(second):.{precision}f}"


_DOUBLE = re.compile(r"\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_DECIMAL = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)")


def is_double(text: str) -> bool:
    """NumberUtil::IsDouble: the whole text reads as a number (leading blanks allowed, "" is not one)."""
    return _DOUBLE.fullmatch(text) is not None


def truncated(text: str) -> str:
    """NumberUtil::TruncateNumberString: a decimal's integer part, "0" for any other text."""
    if not _DECIMAL.fullmatch(text.strip()):
        return "0"
    return str(min(max(int(_long_double(text)), INT64_MIN), INT64_MAX))


def _unsigned(text: str) -> int:
    """std::stoull as NumberUtil reads a request count: its integer prefix (a minus wraps), 0 if none."""
    found = _INT_PREFIX.match(text)
    if not found:
        return 0
    value = int(found.group(1))
    if abs(value) >= UINT64:
        return 0
    return value % UINT64


def request_minus(first: str, second: str) -> str:
    """NumberUtil::StringUnsignedLongLongMinus: the difference clamped to the signed 64-bit range."""
    return str(min(max(_unsigned(first) - _unsigned(second), INT64_MIN), INT64_MAX))


def text(value) -> str:
    return "" if value is None else str(value)


# ---- merges (DetailsService.cpp) -------------------------------------------------------------


def base_info(compare: dict, baseline: dict) -> dict:
    """ToResponseJson<DetailsBaseInfoResponse>: compare and baseline, no diff."""
    return {"compare": compare, "baseline": baseline}


EMPTY_BASE_INFO = {"name": "", "soc": "", "opType": "", "blockDim": "", "mixBlockDim": "", "duration": "",
                   "deviceId": "", "pid": "", "blockDetail": {"headerName": [], "size": [], "row": []}, "advice": []}


def _unit_placeholder(item: dict) -> dict:
    """SubBlockUnitData::BaseInfoClone over a default unit (value and originValue "-")."""
    return {key: (item[key] if key in ("blockId", "blockType", "name", "unit") else "-") for key in item}


def _sub_block(compare: dict, baseline: dict) -> dict:
    """DetailsService::MergeSubBlockData (the merged data has no advice)."""
    merged: dict[str, dict] = {}
    for item in compare["detailDataList"]:
        merged[f"{item['blockId']}_{item['blockType']}{item['name']}"] = {
            "compare": item, "baseline": _unit_placeholder(item), "diff": _unit_placeholder(item)}
    for item in baseline["detailDataList"]:
        entry = merged.get(f"{item['blockId']}_{item['blockType']}{item['name']}")
        if entry is None:
            continue
        diff = {key: item.get(key, "") for key in ("blockId", "blockType", "name", "unit")}
        diff["value"] = minus(text(entry["compare"]["value"]), text(item["value"]))
        if "originValue" in entry["compare"]:
            diff["originValue"] = minus(text(entry["compare"]["originValue"]), text(item.get("originValue", "")))
        entry["diff"] = {key: diff.get(key, "") for key in entry["compare"]}
        entry["baseline"] = item
    return {"detailDataList": list(merged.values()), "advice": []}


def _unmerged(data: dict) -> dict:
    """A sub-block of the compare card when the baseline has no load data: default baseline and diff."""
    default = {"blockId": "", "blockType": "", "name": "", "unit": "", "value": "-", "originValue": "-"}
    return {"detailDataList": [{"compare": item, "baseline": {k: default[k] for k in item if k in default},
                                "diff": {k: default[k] for k in item if k in default}}
                               for item in data["detailDataList"]], "advice": data["advice"]}


def compute_workload(compare: dict, baseline: dict | None) -> dict:
    """DetailsService::QueryDetailsLoadInfo: blockIdList of the compare card, both views merged."""
    if baseline is None:
        return {"blockIdList": compare["blockIdList"], "chartData": _unmerged(compare["chartData"]),
                "tableData": _unmerged(compare["tableData"])}
    return {"blockIdList": compare["blockIdList"],
            "chartData": _sub_block(compare["chartData"], baseline["chartData"]),
            "tableData": _sub_block(compare["tableData"], baseline["tableData"])}


EMPTY_L2 = {"hitRatio": "", "hit": "", "totalRequest": "", "miss": ""}
EMPTY_RATE = {"cycle": "", "totalCycles": "", "ratio": ""}
EMPTY_UNIT = {"request": "", "requestSuffix": "", "display": False, "peakRatio": "", "bandwidth": "",
              "bandwidthSuffix": "", "memoryPath": ""}
PIPE_KEYS = ("vector", "vector1", "cube")


def _pair(compare: dict, baseline: dict) -> dict:
    """MergeL2Cache / MergeUtilizationRate: every field subtracted."""
    return {"compare": compare, "baseline": baseline,
            "diff": {key: minus(text(compare.get(key)), text(baseline.get(key))) for key in compare}}


def _memory_units(compare: list[dict], baseline: list[dict]) -> list[dict]:
    """DetailsService::MergeMemoryUnit, matched on memoryPath; a baseline-only unit is kept."""
    merged: dict[str, dict] = {}
    for unit in compare:
        merged[unit["memoryPath"]] = {"compare": unit, "baseline": dict(EMPTY_UNIT), "diff": dict(EMPTY_UNIT)}
    for unit in baseline:
        entry = merged.get(unit["memoryPath"])
        if entry is not None:
            mine = entry["compare"]
            entry["diff"] = {"request": request_minus(text(mine["request"]), text(unit["request"])),
                             "requestSuffix": mine["requestSuffix"], "display": mine["display"],
                             "peakRatio": minus(text(mine["peakRatio"]), text(unit["peakRatio"])),
                             "bandwidth": minus(text(mine["bandwidth"]), text(unit["bandwidth"])),
                             "bandwidthSuffix": mine["bandwidthSuffix"], "memoryPath": unit["memoryPath"]}
        else:
            entry = merged[unit["memoryPath"]] = {"compare": dict(EMPTY_UNIT), "baseline": None,
                                                  "diff": dict(EMPTY_UNIT)}
        entry["baseline"] = unit
    return list(merged.values())


def _graph_block(block: dict) -> dict:
    """A block of the compare card before merging: its figures under compare, empty baseline and diff."""
    return {**block,
            "l2Cache": {"compare": block["l2Cache"], "baseline": dict(EMPTY_L2), "diff": dict(EMPTY_L2)},
            "memoryUnit": [{"compare": u, "baseline": dict(EMPTY_UNIT), "diff": dict(EMPTY_UNIT)}
                           for u in block["memoryUnit"]],
            **{k: {"compare": block[k], "baseline": dict(EMPTY_RATE), "diff": dict(EMPTY_RATE)} for k in PIPE_KEYS}}


def graph_unmerged(compare: dict) -> dict:
    """A memory graph without a baseline: each block's figures under compare, empty baseline and diff."""
    return {"coreMemory": [_graph_block(block) for block in compare["coreMemory"]]}


def memory_graph(compare: dict, baseline: dict) -> dict:
    """DetailsService::MergeMemoryGraph, blocks matched on blockId."""
    blocks = {block["blockId"]: _graph_block(block) for block in compare["coreMemory"]}
    for other in baseline["coreMemory"]:
        block = blocks.get(other["blockId"])
        if block is None:
            block = blocks[other["blockId"]] = _graph_block({
                "advice": [], "blockId": other["blockId"], "l2Cache": dict(EMPTY_L2),
                "blockType": other["blockType"], "chipType": other["chipType"], "memoryUnit": [],
                **{k: dict(EMPTY_RATE) for k in PIPE_KEYS}})
        block["advice"] = []
        block["l2Cache"] = _pair(block["l2Cache"]["compare"], other["l2Cache"])
        for key in PIPE_KEYS:
            block[key] = _pair(block[key]["compare"], other[key])
        block["memoryUnit"] = _memory_units([u["compare"] for u in block["memoryUnit"]], other["memoryUnit"])
    return {"coreMemory": list(blocks.values())}


def _row_placeholder(row: dict) -> dict:
    """TableRow::BaseInfoClone: the name, "-" for each value."""
    return {"name": row["name"], "value": ["-"] * len(row["value"])}


def _table(table: dict) -> dict:
    """A table of the compare card before merging (MemoryTable::FillBaseInfoFromCompare)."""
    return {**table, "row": [{"compare": row, "baseline": _row_placeholder(row), "diff": _row_placeholder(row)}
                             for row in table["row"]]}


def _rows(compare: list[dict], baseline: list[dict]) -> list[dict]:
    """DetailsService::MergeCompareRows, matched on name; baseline-only rows are dropped."""
    merged = {entry["compare"]["name"]: entry for entry in compare}
    for row in baseline:
        entry = merged.get(row["name"])
        if entry is None:
            continue
        values = entry["diff"]["value"]
        for i in range(min(len(entry["compare"]["value"]), len(row["value"]))):
            values[i] = minus(text(entry["compare"]["value"][i]), text(row["value"][i]))
        entry["baseline"] = row
    return list(merged.values())


def table_unmerged(compare: dict) -> dict:
    """Memory tables without a baseline: each row under compare, placeholder baseline and diff."""
    return {"memoryTable": [{**entry, "tableDetail": [_table(t) for t in entry["tableDetail"]]}
                            for entry in compare["memoryTable"]]}


def memory_table(compare: dict, baseline: dict) -> dict:
    """DetailsService::MergeMemoryTables / MergeCompareTableList."""
    blocks = {entry["blockId"]: {**entry, "tableDetail": [_table(t) for t in entry["tableDetail"]]}
              for entry in compare["memoryTable"]}
    for other in baseline["memoryTable"]:
        block = blocks.get(other["blockId"])
        if block is None:
            block = blocks[other["blockId"]] = {"advice": [], "blockId": other["blockId"],
                                                "tableOpType": other["tableOpType"], "tableDetail": []}
        tables = {table["tableName"]: table for table in block["tableDetail"]}
        for table in other["tableDetail"]:
            mine = tables.get(table["tableName"])
            if mine is None:
                continue
            mine["row"] = _rows(mine["row"], table["row"])
            mine["size"] = [str(len(mine["headerName"])), str(len(mine["row"]))]
        block["tableDetail"] = list(tables.values())
    return {"memoryTable": list(blocks.values())}
