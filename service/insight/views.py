"""The operator views the frontend opens beside the details: source/details/roofline,
source/details/interCoreLoadAnalysis, source/queryTopWarpStallReason, source/cache/cachelineRecords.

As the MindStudio Insight server answers them (Ascend/msinsight ``server/src/modules/source/``):
``parser/RooflineParserImpl.cpp`` (block 0x0D, numbers as written text),
``parser/InterCoreLoadGraphParser.cpp`` with the levels of ``protocol/SourceProtocolResponse.h``
(block 0x0C: each sub-core's figure against the mean and sample deviation of its sub-core type,
level = int(10 * sigmoid(z)), 0 when the deviation is 0; a vector operator's cores are paired),
``protocol/SourceProtocolUtil.cpp`` (the cacheline records are block 0x0E's JSON object as it is).
A missing or unreadable block answers the empty body, as the real handlers do. The stall reasons
(block 0x0F) are ``{unit: "count", data: [{compare, baseline, diff}]}`` of ``{name, value}`` as the
frontend reads them (``modules/.../TopWarpStallReason/index.tsx``), baseline and diff 0 without a
baseline (``isCompared`` with ``baselineRankId``: its counts and compare minus baseline).
"""

from __future__ import annotations

import math
import re
import statistics
import struct

from service.insight import cards, compare
from service.insight.details import BASE_INFO, block_doc, field
from service.insight.hotspot import api_block
from service.insight.protocol import Params

CORE_LOAD, ROOFLINE, CACHELINE, STALL_REASONS = 0x0C, 0x0D, 0x0E, 0x0F
#: the sub-core figures an inter-core load answer levels, and the keys the block gives them under
DIMENSIONS = ("cycles", "throughput", "cacheHitRate", "simtVfInstructions")
_INT_PREFIX = re.compile(r"\s*([+-]?\d+)")
_FLOAT_PREFIX = re.compile(r"\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)")


def _integer(text: str) -> int:
    """JsonUtil::GetInteger of a number kept as text: its integer prefix, 0 when none."""
    found = _INT_PREFIX.match(text)
    return int(found[1]) if found else 0


def _float32(text: str) -> float:
    """JsonUtil::GetFloat of a number kept as text, as the 32-bit float the server holds."""
    found = _FLOAT_PREFIX.match(text)
    value = float(found[1]) if found else 0.0
    return struct.unpack("f", struct.pack("f", value))[0] if math.isfinite(value) and abs(value) < 3.4e38 else 0.0


def roofline(conn, params: Params) -> dict:
    """The roofline charts (block 0x0D) with the SoC of the base information."""
    source_id = cards.operator(conn, params)
    doc = block_doc(conn, source_id, ROOFLINE)
    charts = doc.get("multiple_rooflines")
    if not isinstance(charts, list):
        return {"soc": "", "advice": "", "data": []}
    data = []
    for chart in charts:
        lines = chart.get("rooflines") if isinstance(chart, dict) else None
        data.append({"title": field(chart, "title"), "rooflines": [{
            "bw": field(line, "bw"), "bwName": field(line, "bw_name"), "computility": field(line, "computility"),
            "computilityName": field(line, "computility_name"), "point": _point(line), "ratio": field(line, "ratio"),
        } for line in (lines if isinstance(lines, list) else []) if isinstance(line, dict)]})
    return {"soc": field(block_doc(conn, source_id, BASE_INFO), "soc"), "advice": field(doc, "advice"), "data": data}


def _point(line: dict) -> list[str]:
    point = line.get("point")
    point = [p if isinstance(p, str) else "" for p in point] if isinstance(point, list) else []
    return point if len(point) == 2 else []


def inter_core_load(conn, params: Params) -> dict:
    """Each core's sub-cores (block 0x0C): cycles, throughput, L2 hit rate, SIMT figures with their levels."""
    source_id = cards.operator(conn, params)
    doc = block_doc(conn, source_id, CORE_LOAD)
    cores = doc.get("op_detail")
    if not isinstance(cores, list):
        return {"soc": "", "opType": "", "advice": "", "opDetails": []}
    parsed = [(_integer(field(core, "core_id")) % 256, [_sub_core(sub) for sub in _subs(core)])
              for core in cores if isinstance(core, dict)]
    samples: dict[tuple[str, str], list[float]] = {}
    for _, subs in parsed:
        for sub in subs:
            for key in DIMENSIONS:
                samples.setdefault((sub["type"], key), []).append(float(sub[key]))
    stats = {key: (statistics.fmean(values), statistics.stdev(values) if len(values) > 1 else 0.0)
             for key, values in samples.items()}
    if field(doc, "op_type") == "vector":
        parsed = _pair_vector_cores(parsed)
    return {"soc": field(doc, "soc"), "opType": field(doc, "op_type"), "advice": field(doc, "advice"),
            "opDetails": [{"coreId": core_id, "subCoreDetails": [_leveled(sub, stats) for sub in subs]}
                          for core_id, subs in parsed]}


def _subs(core: dict) -> list[dict]:
    subs = core.get("core_detail")
    return [sub for sub in subs if isinstance(sub, dict)] if isinstance(subs, list) else []


def _sub_core(sub: dict) -> dict:
    simt = sub.get("simt_vf_instructions") if isinstance(sub.get("simt_vf_instructions"), dict) else {}
    return {"type": field(sub, "subcore_type"), "index": _integer(field(sub, "subcore_id")) % 256,
            "cycles": max(_integer(field(sub, "cycles")), 0), "throughput": max(_integer(field(sub, "throughput")), 0),
            "cacheHitRate": _float32(field(sub, "L2cache_hit_rate")),
            "simtVfInstructions": _integer(field(simt, "instructions")),
            "simtVfInstructionPerCycle": _float32(field(simt, "instruction_per_cycle"))}


def _pair_vector_cores(parsed: list[tuple[int, list[dict]]]) -> list[tuple[int, list[dict]]]:
    """TransformAnalysisDetail: a vector operator's cores two by two, the first sub-core of each as index 0, 1."""
    ordered = sorted(parsed, key=lambda core: core[0])
    paired = []
    for start in range(0, min(len(ordered), 253), 2):
        subs = [{**core[1][0], "index": position}
                for position, core in enumerate(ordered[start:start + 2]) if core[1]]
        paired.append((start // 2, subs))
    return paired


def _leveled(sub: dict, stats: dict) -> dict:
    answer = {"subCoreName": f"{sub['type']}{sub['index']}"}
    for key in DIMENSIONS:
        mean, sigma = stats[(sub["type"], key)]
        level = 0 if abs(sigma) < 1e-18 else int(10 / (1 + math.exp(-(sub[key] - mean) / sigma)))
        zero = 0.0 if isinstance(sub[key], float) else 0
        answer[key] = {"value": {"compare": sub[key], "baseline": zero, "diff": zero}, "level": level}
    answer["simtVfInstructionPerCycle"] = {
        "value": {"compare": sub["simtVfInstructionPerCycle"], "baseline": 0.0, "diff": 0.0}, "level": 0}
    return answer


def stall_reasons(conn, params: Params) -> dict:
    """The top warp stall reasons (block 0x0F): name and count, in the block's order; in compare
    mode the baseline's count of the same reason and the difference."""
    source_id = cards.operator(conn, params)
    baseline_id = compare.baseline_source(conn, params)
    counts = _stall_counts(conn, source_id)
    baseline = {} if baseline_id is None else _stall_counts(conn, baseline_id)
    return {"unit": "count", "data": [
        {"compare": {"name": name, "value": value}, "baseline": {"name": name, "value": baseline.get(name, 0)},
         "diff": {"name": name, "value": value - baseline.get(name, 0) if baseline_id is not None else 0}}
        for name, value in counts.items()]}


def _stall_counts(conn, source_id: int) -> dict[str, int]:
    table = block_doc(conn, source_id, STALL_REASONS).get("top_stall_reason_table")
    table = table if isinstance(table, dict) else {}
    return {name: _integer(value) if isinstance(value, str) else 0 for name, value in table.items()}


def cacheline_records(conn, params: Params) -> dict:
    """The cacheline records (block 0x0E) as the profile holds them ({} when none)."""
    return api_block(conn, cards.operator(conn, params), CACHELINE)
