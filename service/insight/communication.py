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

Compare mode (``isCompare`` true, the cluster global/setBaseline chose:
:func:`~service.insight.baseline.cluster_baseline`) pairs the cluster with the baseline cluster as
ClusterService.cpp does: the steps of both (QueryIterations); the groups of both matched on process-group name
and ranks when both clusters name their groups, else on their ranks and operator types (MergeGroupInfo), each
with ``groupIdHash`` ``{compare, baseline}``; the durations per rank (MergeDurationData) and the matrix per
sending and receiving rank (MergeMatrixInfo), the baseline's for ``baselineIterationId`` and
``baselineGroupIdHash``, each ``{compare, baseline, diff}`` with the diff rounded to 4 digits
(CommunicationProtocolResponse.h DurationData and MatrixData operator-) and zeros for the side that lacks it.
Without a baseline, ``baseline`` holds those zeros too. ``communication/operatorLists`` gives each rank's lane of
both clusters (MergeOperatorList), moved together. Not kept: the bandwidth advice (``advice`` is empty).
"""

from __future__ import annotations

import json
import re

from service.insight import baseline, communication_lanes, paging, ranks, timeline
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


def _step(params: Params, name: str = "iterationId", *, required: bool = True) -> int | None:
    """The step asked (``iterationId``, or the baseline's ``baselineIterationId``: a step number as a string);
    None when not ``required`` and empty (every step)."""
    return params.integer(name, required=required)


def _operator(params: Params) -> str | None:
    """The operator asked (``operatorName``); None for "Total Op Info", every operator summed."""
    name = params.text("operatorName", required=False) or TOTAL_OP
    return None if name == TOTAL_OP else name


def _group(params: Params, name: str = "groupIdHash") -> str | None:
    """The communication group asked (``groupIdHash``, or the baseline's ``baselineGroupIdHash``: the group's name
    in the summary); None for every group."""
    return params.text(name, required=False) or None


#: DurationData and MatrixData operator- round each difference to this many digits
DIFF_DIGITS = 4


def _zeros(keys: tuple[str, ...], like: dict) -> dict:
    """The figures of a side that has none: "" for a text, 0 for a number (a default DurationData, MatrixData)."""
    return {key: "" if isinstance(like[key], str) else 0 for key in keys}


def _paired(compare: dict | None, other: dict | None, keys: tuple[str, ...]) -> dict:
    """``{compare, baseline, diff}`` of two sides' figures (at least one given): each number's difference to
    4 digits, each text "" (CompareData with DurationData or MatrixData operator-)."""
    like = compare if compare is not None else other
    compare, other = compare or _zeros(keys, like), other or _zeros(keys, like)
    diff = {key: "" if isinstance(like[key], str) else round(compare[key] - other[key], DIFF_DIGITS) for key in keys}
    return {"compare": compare, "baseline": other, "diff": diff}


def _step_ids(conn, run_id: int) -> list[str]:
    """The steps whose communication a run holds (QueryIterations)."""
    steps = rows(conn, "communication_time_summary", run_id=run_id)
    return list(dict.fromkeys(str(row["step_id"]) for row in steps if row["step_id"] is not None))


def iterations(conn, params: Params) -> dict:
    """communication/duration/iterations: the steps whose communication the cluster's run holds, and the baseline
    cluster's in compare mode."""
    other = baseline.cluster_baseline(conn, params)
    return {"iterationOrRankId": {"compare": _step_ids(conn, _run(conn, params)),
                                  "baseline": [] if other is None else _step_ids(conn, other[0].run_id)}}


def _matrix(conn, run_id: int, step_id: int, group: str | None, name: str | None) -> dict[tuple[int, ...], dict]:
    """One cluster's matrix of a step in the page's units, per (sending rank, receiving rank, n): the n-th
    transport the summary gives between the two ranks (the real server's matrix has one per pair)."""
    found: dict[tuple[int, ...], dict] = {}
    seen: dict[tuple[int, int], int] = {}
    for row in rows(conn, "communication_matrix_summary", run_id=run_id, step_id=step_id, group_name=group,
                    op_name=name):
        pair = row["src_rank"], row["dst_rank"]
        seen[pair] = seen.get(pair, -1) + 1
        found[(*pair, seen[pair])] = {
            "transportType": row["transport_type"], "transitSize": row["transit_bytes"] / BYTES_PER_MB,
            "transitTime": row["transit_ns"] / NS_PER_MS,
            "bandwidth": (row["bandwidth_bytes_per_s"] or 0) / BYTES_PER_S_PER_GB_S, "opName": name or TOTAL_OP}
    return found


def matrix(conn, params: Params) -> dict:
    """communication/matrix/bandwidthInfo: per sending rank, receiving rank and transport, a step's traffic; in
    compare mode paired with the baseline cluster's in its step and group, by sending and receiving rank, in
    MergeMatrixInfo's order (the text "src_dst")."""
    name, other = _operator(params), baseline.cluster_baseline(conn, params)
    mine = _matrix(conn, _run(conn, params), _step(params), _group(params), name)
    if other is None:
        pairs, theirs = list(mine), {}
    else:
        theirs = _matrix(conn, other[0].run_id, _step(params, "baselineIterationId"),
                         _group(params, "baselineGroupIdHash"), name)
        pairs = sorted(mine.keys() | theirs.keys(), key=lambda key: (f"{key[0]}_{key[1]}", key[2]))
    return {"matrixList": [{"srcRank": key[0], "dstRank": key[1],
                            "matrixData": _paired(mine.get(key), theirs.get(key), MATRIX_KEYS)} for key in pairs]}


def _durations(conn, run_id: int, step_id: int, group: str | None, name: str | None) -> dict[int, dict]:
    """One cluster's communication time split and SDMA/RDMA bandwidth of a step, per rank, in the page's units."""
    chosen = {"run_id": run_id, "group_name": group, "op_name": name}
    bandwidth = {(row["rank_id"], row["transport_type"]): row["bandwidth_bytes_per_s"] or 0
                 for row in rows(conn, "communication_bandwidth_summary", **chosen) if row["step_id"] == step_id}
    return {row["rank_id"]: {
        "startTime": 0, "elapseTime": row["elapse_ns"] / NS_PER_MS, "transitTime": row["transit_ns"] / NS_PER_MS,
        "synchronizationTime": row["synchronization_ns"] / NS_PER_MS, "waitTime": row["wait_ns"] / NS_PER_MS,
        "idleTime": row["idle_ns"] / NS_PER_MS,
        "synchronizationTimeRatio": row["synchronization_ratio"] or 0, "waitTimeRatio": row["wait_ratio"] or 0,
        "sdmaBw": bandwidth.get((row["rank_id"], "SDMA"), 0) / BYTES_PER_S_PER_GB_S,
        "rdmaBw": bandwidth.get((row["rank_id"], "RDMA"), 0) / BYTES_PER_S_PER_GB_S}
        for row in rows(conn, "communication_time_summary", **chosen) if row["step_id"] == step_id}


def duration_list(conn, params: Params) -> dict:
    """communication/duration/list: per rank, a step's communication time split and its SDMA/RDMA bandwidth; in
    compare mode paired with the baseline cluster's in its step and group, by rank number (``dbPath``: the open
    cluster's rank file, "" for a rank only the baseline has)."""
    cards, other = ranks.of_cluster(conn, params.text("clusterPath")), baseline.cluster_baseline(conn, params)
    name, paths = _operator(params), {card.rank_id: card.path for card in cards}
    mine = _durations(conn, cards[0].run_id, _step(params), _group(params), name)
    if other is None:
        listed, theirs = list(mine), {}
    else:
        theirs = _durations(conn, other[0].run_id, _step(params, "baselineIterationId"),
                            _group(params, "baselineGroupIdHash"), name)
        listed = sorted(mine.keys() | theirs.keys(), key=str)  # MergeDurationData's order: rank ids as text
    return {"items": [{"rankId": str(rank), "dbPath": paths.get(rank, ""),
                       "compareData": _paired(mine.get(rank), theirs.get(rank), DURATION_KEYS)} for rank in listed],
            "advice": []}


def _op_types(conn, run_id: int, step_id: int) -> dict[str, str]:
    """Per group of a step, its operators' types (VirtualClusterDatabase.cpp NormalizeOpName: the name without
    digits and "_", hcom_allGather_612_0_1 -> hcomallGather) as MergeGroupInfo joins them: distinct, sorted,
    "_" between."""
    types: dict[str, set[str]] = {}
    for row in rows(conn, "communication_group_operators", run_id=run_id, step_id=step_id, group_name=None):
        if row["timed_ranks"]:
            types.setdefault(row["group_name"], set()).add(re.sub(r"[0-9_]", "", row["op_name"]))
    return {group: "_".join(sorted(found)) for group, found in types.items()}


def _groups(conn, run_id: int, step_id: int, named: bool) -> dict[str, dict]:
    """One cluster's communication groups of a step, each with its ranks as StringUtil::
    JoinNumberStrWithParenthesesByOrder writes a rank set, ``(0, 1)``, by MergeGroupInfo's key: its process-group
    name and ranks when ``named``, else its ranks and operator types (GetRankSetAndOpTypeToGroupInfoMap)."""
    found = [{**row, "rank_set": group_label(row)}
             for row in rows(conn, "communication_groups", run_id=run_id, step_id=step_id)]
    if named:
        return {f"{row['pg_name'] or ''}_{row['rank_set']}": row for row in found}
    types = _op_types(conn, run_id, step_id)
    return {f"{row['rank_set']}#{types[row['group_name']]}" if row["group_name"] in types else row["rank_set"]: row
            for row in found}


def _named_groups(conn, run_id: int, step_id: int) -> bool:
    """ClusterService::IsHavePgName: the first group that is not point-to-point has a process-group name (no
    group: true)."""
    found = rows(conn, "communication_groups", run_id=run_id, step_id=step_id)
    return next((bool(row["pg_name"]) for row in found if row["group_ranks"] != "p2p"), not found)


def group_label(group: dict) -> str:
    """A communication_groups row's ranks as the page names the group: ``(0, 1)``."""
    return f"({group['group_ranks'].replace(',', ', ')})"


def groups(conn, params: Params) -> dict:
    """communication/matrix/group: the step's communication groups, each as its ranks, its process-group name and
    its name in the summary (ClusterService.cpp MergeGroupInfoWithPgName); in compare mode the groups of both
    clusters, matched as MergeGroupInfo matches them, in the order of that key, the baseline's name under
    ``baseline`` (the group's ranks and process-group name: the baseline's when it has the group). An empty
    ``iterationId`` (the page sends it when communication/duration/iterations listed no step: an export without
    the profiler's communication summary) is allowed as MatrixGroupParam::CheckParams allows it: every step's
    groups, each once."""
    run_id, other = _run(conn, params), baseline.cluster_baseline(conn, params)
    step_id = _step(params, required=False)
    if other is None:
        first = {}
        for row in rows(conn, "communication_groups", run_id=run_id, step_id=step_id):
            first.setdefault(row["group_name"], row)
        return {"data": [{"group": group_label(row), "parallelStrategy": row["pg_name"] or "", "type": "",
                          "groupIdHash": {"compare": row["group_name"], "baseline": ""}}
                         for row in first.values()]}
    base_run, base_step = other[0].run_id, _step(params, "baselineIterationId", required=False)
    named = _named_groups(conn, run_id, step_id) and _named_groups(conn, base_run, base_step)
    mine, theirs = _groups(conn, run_id, step_id, named), _groups(conn, base_run, base_step, named)
    merged = []
    for key in sorted(mine.keys() | theirs.keys()):
        compare, base = mine.get(key), theirs.get(key)
        shown = base or compare
        merged.append({"group": shown["rank_set"], "parallelStrategy": shown["pg_name"] or "", "type": "",
                       "groupIdHash": {"compare": compare["group_name"] if compare else "",
                                       "baseline": base["group_name"] if base else ""}})
    return {"data": merged}


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


def _lanes(conn, cards: list, step_id: int, group: str | None, name: str | None) -> dict[int, list[dict]]:
    """One cluster's operators of the group in the step per rank, by start, in ns from its trace's start; for one
    operator only that one (DbClusterDataBase.cpp QueryOperatorList)."""
    zero, lanes = _trace_zero(conn, cards), {}
    for row in rows(conn, "communication_op_times", run_id=cards[0].run_id, step_id=step_id, group_name=group):
        if name is None or row["op_name"] == name:
            lanes.setdefault(row["rank_id"], []).append({
                "operatorName": row["op_name"], "startTime": max(int((row["ts"] or zero) - zero), 0),
                "duration": max(int(row["elapse_ns"] or 0), 0)})
    return {rank: sorted(lane, key=lambda item: item["startTime"]) for rank, lane in lanes.items()}


def operator_lists(conn, params: Params) -> dict:
    """communication/operatorLists: per rank (by number) its operators of the group in the step, with the chart's
    first start and last end (ClusterService.cpp MergeOperatorList); in compare mode each rank's lane of the
    baseline cluster too (its step and group, from its own trace's start), both moved as one set of lanes."""
    cards, other, name = ranks.of_cluster(conn, params.text("clusterPath")), baseline.cluster_baseline(conn, params), \
        _operator(params)
    mine = _lanes(conn, cards, _step(params), _group(params), name)
    theirs = {} if other is None else _lanes(conn, other, _step(params, "baselineIterationId"),
                                             _group(params, "baselineGroupIdHash"), name)
    listed = sorted(mine.keys() | theirs.keys())
    lists = [{"compare": mine.get(rank, []), "baseline": theirs.get(rank, [])} for rank in listed]
    first, last = communication_lanes.aligned([lane for pair in lists for lane in pair.values()], name)
    paths = {card.rank_id: card.path for card in cards}
    return {"data": [{"rankId": str(rank), "dbPath": paths.get(rank, ""), "lists": pair}
                     for rank, pair in zip(listed, lists)], "minTime": first, "maxTime": last}
