"""The Communication module of MindStudio Insight for a cluster: steps, matrix, durations per rank.

Once the cluster is parsed the Communication page asks, with the cluster's folder as
``clusterPath`` (Ascend/msinsight ``modules/cluster/src/utils/RequestUtils.ts`` withClusterPath):
``communication/duration/iterations`` (queryIterations), then for a step
``communication/matrix/bandwidthInfo`` (queryCommunicationMatrix: the matrix) and
``communication/duration/list`` (queryCommunication: the durations per rank). The real server
answers from its cluster database (``server/src/modules/communication/database/DbClusterDataBase.cpp``
QueryIterations, QueryMatrixList, QueryDurationList) in the shapes of
``server/src/modules/communication/protocol/CommunicationProtocolUtil.cpp``
(ToResponseJson<IterationsOrRanksResponse>, <MatrixListResponse>, <DurationResponse>), in the
profiler's units: sizes in MB (10**6 bytes), times in ms, bandwidths in GB/s.

Here the answers are the warehouse's named queries on the cluster's run: ``communication_time_summary``
(steps, durations: the operators' times summed per rank and step, as the real server's "Total Op
Info"), ``communication_bandwidth_summary`` (SDMA and RDMA bandwidth per rank) and
``communication_matrix_summary`` (the matrix of a step). The page's filter picks a group and an
operator first (Filter.tsx getStageOptions, getOperatorOptions): ``communication/matrix/group``
(queryStages) lists the step's groups (``communication_groups``: the ranks whose operators name
each, its process-group name when an input says it), ``communication/duration/operatorNames`` and
``communication/matrix/sortOpNames`` the group's operators (``communication_group_operators``),
as DbClusterDataBase.cpp QueryOperatorNames and QueryMatrixSortOpNames do; the durations and the
matrix then answer for that group (``groupIdHash``; empty: every group) and operator (``operatorName``;
"Total Op Info": every operator summed). ``communication/operatorLists`` draws each rank's operators
of the group in the step on a chart (``communication_op_times``; lanes moved as the real server moves
them: communication_lanes.py).
A rank's bar opens its operators: ``communication/operatorDetails``
(a page of them, ``communication_op_times``), ``communication/bandwidth`` and
``communication/distribution`` (per transport, and its packet sizes: ``communication_op_transports``).
``communication/duration/slow-rank/list`` names the step's likely slow ranks of the group
(``communication_group_slow_ranks``: the rank with the most communication time waited for the others;
a rank 10 % short of it arrived late), with the operators where each lost most against it.
Not kept: a cluster baseline (``baseline`` and ``diff`` are
zeros) and the bandwidth advice (``advice`` is empty).
"""

from __future__ import annotations

import json

from service.insight import communication_lanes, paging, ranks, timeline
from service.insight.protocol import Params, rows

TOTAL_OP = "Total Op Info"
NS_PER_MS, BYTES_PER_MB, BYTES_PER_S_PER_GB_S = 1e6, 1e6, 1e9
DURATION_KEYS = ("startTime", "elapseTime", "transitTime", "synchronizationTime", "waitTime", "idleTime",
                 "synchronizationTimeRatio", "waitTimeRatio", "sdmaBw", "rdmaBw")
MATRIX_KEYS = ("transportType", "transitSize", "transitTime", "bandwidth", "opName")
#: communication/operatorDetails' sortable columns (VirtualClusterDatabase.cpp ExecuteQueryAllOperators) -> key
DETAIL_COLUMNS = {key: key for key in ("operatorName", "startTime", "elapseTime", "synchronizationTime", "waitTime",
                                        "idleTime", "transitTime", "sdmaBw", "rdmaBw", "synchronizationTimeRatio",
                                        "waitTimeRatio")}


def _run(conn, params: Params) -> int:
    return ranks.of_cluster(conn, params.text("clusterPath"))[0].run_id


def _step(params: Params) -> int:
    """The step asked (``iterationId``, a step number as a string)."""
    return params.integer("iterationId")


def _operator(params: Params) -> str | None:
    """The operator asked (``operatorName``); None for "Total Op Info", every operator summed."""
    name = params.text("operatorName", required=False) or TOTAL_OP
    return None if name == TOTAL_OP else name


def _group(params: Params) -> str | None:
    """The communication group asked (``groupIdHash``, the group's name in the summary); None for every group."""
    return params.text("groupIdHash", required=False) or None


def _compared(compare: dict, keys: tuple[str, ...]) -> dict:
    """``{compare, baseline, diff}`` with no baseline: baseline zeros, diff the compare's figures."""
    zeros = {key: "" if isinstance(compare[key], str) else 0 for key in keys}
    return {"compare": compare, "baseline": zeros, "diff": dict(compare)}


def iterations(conn, params: Params) -> dict:
    """communication/duration/iterations: the steps whose communication the cluster's run holds."""
    steps = rows(conn, "communication_time_summary", run_id=_run(conn, params))
    found = list(dict.fromkeys(str(row["step_id"]) for row in steps if row["step_id"] is not None))
    return {"iterationOrRankId": {"compare": found, "baseline": []}}


def matrix(conn, params: Params) -> dict:
    """communication/matrix/bandwidthInfo: per sending rank, receiving rank and transport, a step's traffic."""
    run_id, step_id, name = _run(conn, params), _step(params), _operator(params)
    asked = rows(conn, "communication_matrix_summary", run_id=run_id, step_id=step_id, group_name=_group(params),
                 op_name=name)
    return {"matrixList": [
        {"srcRank": row["src_rank"], "dstRank": row["dst_rank"], "matrixData": _compared({
            "transportType": row["transport_type"], "transitSize": row["transit_bytes"] / BYTES_PER_MB,
            "transitTime": row["transit_ns"] / NS_PER_MS,
            "bandwidth": (row["bandwidth_bytes_per_s"] or 0) / BYTES_PER_S_PER_GB_S, "opName": name or TOTAL_OP},
            MATRIX_KEYS)}
        for row in asked]}


def duration_list(conn, params: Params) -> dict:
    """communication/duration/list: per rank, a step's communication time split and its SDMA/RDMA bandwidth."""
    cards = ranks.of_cluster(conn, params.text("clusterPath"))
    run_id, step_id = cards[0].run_id, _step(params)
    chosen = {"run_id": run_id, "group_name": _group(params), "op_name": _operator(params)}
    paths = {card.rank_id: card.path for card in cards}
    bandwidth = {(row["rank_id"], row["transport_type"]): row["bandwidth_bytes_per_s"] or 0
                 for row in rows(conn, "communication_bandwidth_summary", **chosen) if row["step_id"] == step_id}
    items = []
    for row in rows(conn, "communication_time_summary", **chosen):
        if row["step_id"] != step_id:
            continue
        rank = row["rank_id"]
        items.append({"rankId": str(rank), "dbPath": paths.get(rank, ""), "compareData": _compared({
            "startTime": 0, "elapseTime": row["elapse_ns"] / NS_PER_MS, "transitTime": row["transit_ns"] / NS_PER_MS,
            "synchronizationTime": row["synchronization_ns"] / NS_PER_MS, "waitTime": row["wait_ns"] / NS_PER_MS,
            "idleTime": row["idle_ns"] / NS_PER_MS,
            "synchronizationTimeRatio": row["synchronization_ratio"] or 0, "waitTimeRatio": row["wait_ratio"] or 0,
            "sdmaBw": bandwidth.get((rank, "SDMA"), 0) / BYTES_PER_S_PER_GB_S,
            "rdmaBw": bandwidth.get((rank, "RDMA"), 0) / BYTES_PER_S_PER_GB_S}, DURATION_KEYS)})
    return {"items": items, "advice": []}


def group_label(group: dict) -> str:
    """A communication_groups row's ranks as the page names the group: ``(0, 1)``."""
    return f"({group['group_ranks'].replace(',', ', ')})"


def groups(conn, params: Params) -> dict:
    """communication/matrix/group: the step's communication groups, each as its ranks ``(0, 1)`` (as
    StringUtil::JoinNumberStrWithParenthesesByOrder writes a rank set), its process-group name and its name
    in the summary (ClusterService.cpp MergeGroupInfoWithPgName)."""
    found = rows(conn, "communication_groups", run_id=_run(conn, params), step_id=_step(params))
    return {"data": [{"group": group_label(row), "parallelStrategy": row["pg_name"] or "",
                      "type": "", "groupIdHash": {"compare": row["group_name"], "baseline": ""}} for row in found]}


def _operator_names(conn, params: Params, counted: str) -> dict:
    """The group's operators that have ``counted`` entries, "Total Op Info" first (every operator summed)."""
    found = rows(conn, "communication_group_operators", run_id=_run(conn, params), step_id=_step(params),
                 group_name=_group(params))
    return {"operatorName": [TOTAL_OP, *dict.fromkeys(row["op_name"] for row in found if row[counted])]}


def operator_names(conn, params: Params) -> dict:
    """communication/duration/operatorNames: the operators the group's time summary holds in the step."""
    return _operator_names(conn, params, "timed_ranks")


def matrix_operator_names(conn, params: Params) -> dict:
    """communication/matrix/sortOpNames: the operators (or families) the group's matrix holds in the step."""
    return _operator_names(conn, params, "matrix_entries")


def _rank(params: Params) -> int:
    """The rank asked (``rankId``, a number or its text)."""
    return params.integer("rankId")


def _trace_zero(conn, cards: list) -> int:
    """The cluster's time zero: its ranks' earliest timeline start (the real server's TraceTime start), else,
    for ranks with no timeline, the run's start (``runs``), so that times stay small numbers for the page."""
    starts = [timeline.card_zero(conn, card) for card in cards if card.timeline_ids]
    if starts:
        return min(starts)
    run = next((row for row in rows(conn, "runs") if row["run_id"] == cards[0].run_id), None)
    return (run or {}).get("start_ns") or 0


def _ms(ns: float, digits: int = 4) -> float:
    return round(ns / NS_PER_MS, digits)


def operator_details(conn, params: Params) -> dict:
    """communication/operatorDetails: a page of one rank's operators of the group in the step, with their
    times in ms from the trace's start and their SDMA/RDMA GB/s (DbClusterDataBase.cpp QueryAllOperators:
    longest first unless ``orderBy`` says otherwise)."""
    cards = ranks.of_cluster(conn, params.text("clusterPath"))
    zero = _trace_zero(conn, cards)
    found = rows(conn, "communication_op_times", run_id=cards[0].run_id, rank_id=_rank(params),
                 step_id=_step(params), group_name=_group(params))
    items = [{"operatorName": row["op_name"], "startTime": _ms((row["ts"] or zero) - zero, 3),
              "elapseTime": _ms(row["elapse_ns"]), "transitTime": _ms(row["transit_ns"]),
              "synchronizationTime": _ms(row["synchronization_ns"]), "waitTime": _ms(row["wait_ns"]),
              "idleTime": _ms(row["idle_ns"]), "synchronizationTimeRatio": round(row["synchronization_ratio"], 4),
              "waitTimeRatio": round(row["wait_ratio"], 4),
              "sdmaBw": round(row["sdma_bytes_per_s"] / BYTES_PER_S_PER_GB_S, 4),
              "rdmaBw": round(row["rdma_bytes_per_s"] / BYTES_PER_S_PER_GB_S, 4)} for row in found]
    shown = paging.page(paging.ordered(items, params, DETAIL_COLUMNS, default="elapseTime"), params, "currentPage")
    return {"currentPage": params.integer("currentPage", required=False) or 1,
            "pageSize": params.integer("pageSize", required=False) or 10, "count": len(items), "allOperators": shown}


def _transports(conn, params: Params) -> dict[str, dict]:
    """Per transport, the asked operator's figures on the rank, or with "Total Op Info" the group's operators
    summed: bytes and time added, bandwidth their ratio, each packet size's count and time added, the large
    packets' share weighted by each operator's packet count."""
    found = rows(conn, "communication_op_transports", run_id=_run(conn, params), rank_id=_rank(params),
                 step_id=_step(params), group_name=_group(params), op_name=_operator(params))
    summed: dict[str, dict] = {}
    for row in found:
        packets = json.loads(row["size_distribution"] or "{}")
        count = sum(int(value[0]) for value in packets.values())
        into = summed.setdefault(row["transport_type"], {"bytes": 0, "ns": 0, "large": 0.0, "packets": 0,
                                                         "sizes": {}, "stated": row["bandwidth_bytes_per_s"]})
        into["bytes"] += row["transit_bytes"] or 0
        into["ns"] += row["transit_ns"] or 0
        into["large"] += (row["large_packet_ratio"] or 0) * count
        into["packets"] += count
        for size, (number, ms) in packets.items():
            before = into["sizes"].get(size, (0, 0.0))
            into["sizes"][size] = (before[0] + number, before[1] + ms)
    return summed


def bandwidth(conn, params: Params) -> dict:
    """communication/bandwidth: per transport, the operator's MB, ms, GB/s and large packet share on the rank
    (DbClusterDataBase.cpp QueryBandwidthData; one operator's bandwidth as the summary states it)."""
    items, one_operator = [], _operator(params) is not None
    for transport, figures in _transports(conn, params).items():
        stated = figures["stated"] if one_operator else None
        speed = stated if stated is not None else 1e9 * figures["bytes"] / figures["ns"] if figures["ns"] else 0
        items.append({"transportType": transport, "transitSize": round(figures["bytes"] / BYTES_PER_MB, 4),
                      "transitTime": _ms(figures["ns"]), "bandwidth": round(speed / BYTES_PER_S_PER_GB_S, 4),
                      "largePacketRatio": round(figures["large"] / figures["packets"], 4) if figures["packets"] else 0})
    return {"items": items}


def distribution(conn, params: Params) -> dict:
    """communication/distribution: the operator's packet sizes on the rank over ``transportType``, as the JSON
    text ``{"size in MB": [count, ms]}`` the real server writes ("" when the summary gives none:
    DbClusterDataBase.cpp QueryDistributionData)."""
    figures = _transports(conn, params).get(params.text("transportType"))
    sizes = figures["sizes"] if figures else {}
    return {"distributionData": json.dumps({size: list(value) for size, value in sizes.items()},
                                           separators=(",", ":")) if sizes else ""}


NS_PER_US = 1e3
#: the process group whose ranks are pipeline stages: no slow rank advice (ClusterService.h ppPgName)
PIPELINE_GROUP = "pp"


def _us(ns: float) -> float:
    return round(ns / NS_PER_US, 3)


def slow_ranks(conn, params: Params) -> dict:
    """communication/duration/slow-rank/list: the group's likely slow ranks in the step, each with its operators
    against the same operators of the rank that waited longest, biggest loss first, times in us
    (ClusterService.cpp AnalyzeCommunicationSlowRanks, DbClusterDataBase.cpp QuerySlowOpByCommDuration). No
    advice for one operator, a pipeline group, or a group whose ranks need not wait alike."""
    cards = ranks.of_cluster(conn, params.text("clusterPath"))
    found = rows(conn, "communication_group_slow_ranks", run_id=cards[0].run_id, step_id=_step(params),
                 group_name=_group(params))
    no_advice = {"hasAdvice": False, "fastRankId": "", "fastTotalElapseTime": 0, "data": []}
    if _operator(params) is not None or params.text("pgName", required=False) == PIPELINE_GROUP:
        return no_advice
    if any(row["unequal_waits"] for row in found):
        return no_advice
    if len(found) < 2:
        return {**no_advice, "hasAdvice": True}
    waiting = found[0]["waiting_rank_id"]
    zero = _trace_zero(conn, cards)
    times = {row["rank_id"]: {} for row in found}
    for row in rows(conn, "communication_op_times", run_id=cards[0].run_id, step_id=_step(params),
                    group_name=_group(params)):
        times.setdefault(row["rank_id"], {})[row["op_name"]] = row
    return {"hasAdvice": True, "fastRankId": str(waiting), "fastTotalElapseTime": _us(found[0]["waiting_comm_ns"]),
            "data": [{"rankId": str(row["rank_id"]), "totalDiffTime": _us(row["shortfall_ns"]),
                      "totalElapseTime": _us(row["comm_ns"]),
                      "opList": _lost_by_operator(times[waiting], times[row["rank_id"]], zero)}
                     for row in found if row["slow"]]}


def _lost_by_operator(waited: dict, late: dict, zero: int) -> list[dict]:
    """The operators of both ranks, the waiting rank's time less the late rank's, the biggest first."""
    def start(row: dict) -> float:
        return _us(row["ts"] - zero) if row["ts"] else 0

    paired = [{"name": name, "startTime": start(late[name]),
               "diffTime": _us(waited[name]["elapse_ns"] - late[name]["elapse_ns"]),
               "elapseTime": _us(late[name]["elapse_ns"]), "maxTime": _us(waited[name]["elapse_ns"]),
               "maxStartTime": start(waited[name])} for name in waited if name in late]
    return sorted(paired, key=lambda op: op["diffTime"], reverse=True)


def operator_lists(conn, params: Params) -> dict:
    """communication/operatorLists: per rank (by number) its operators of the group in the step, by start, in ns
    from the trace's start, for one operator only that one (DbClusterDataBase.cpp QueryOperatorList), with
    the chart's first start and last end (ClusterService.cpp MergeOperatorList)."""
    cards = ranks.of_cluster(conn, params.text("clusterPath"))
    zero, name = _trace_zero(conn, cards), _operator(params)
    paths = {card.rank_id: card.path for card in cards}
    lanes: dict[int, list[dict]] = {}
    for row in rows(conn, "communication_op_times", run_id=cards[0].run_id, step_id=_step(params),
                    group_name=_group(params)):
        if name is None or row["op_name"] == name:
            lanes.setdefault(row["rank_id"], []).append({
                "operatorName": row["op_name"], "startTime": max(int((row["ts"] or zero) - zero), 0),
                "duration": max(int(row["elapse_ns"] or 0), 0)})
    ordered = [sorted(lanes[rank], key=lambda item: item["startTime"]) for rank in sorted(lanes)]
    first, last = communication_lanes.aligned(ordered, name)
    return {"data": [{"rankId": str(rank), "dbPath": paths.get(rank, ""), "lists": {"compare": lane, "baseline": []}}
                     for rank, lane in zip(sorted(lanes), ordered)], "minTime": first, "maxTime": last}
