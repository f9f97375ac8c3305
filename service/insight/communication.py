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
"Total Op Info": every operator summed). Not kept: a cluster baseline (``baseline`` and ``diff`` are
zeros) and the bandwidth advice (``advice`` is empty).
"""

from __future__ import annotations

from service.insight import ranks
from service.insight.protocol import InsightError, Params, rows

TOTAL_OP = "Total Op Info"
NS_PER_MS, BYTES_PER_MB, BYTES_PER_S_PER_GB_S = 1e6, 1e6, 1e9
DURATION_KEYS = ("startTime", "elapseTime", "transitTime", "synchronizationTime", "waitTime", "idleTime",
                 "synchronizationTimeRatio", "waitTimeRatio", "sdmaBw", "rdmaBw")
MATRIX_KEYS = ("transportType", "transitSize", "transitTime", "bandwidth", "opName")


def _run(conn, params: Params) -> int:
    return ranks.of_cluster(conn, params.text("clusterPath"))[0].run_id


def _step(params: Params) -> int:
    """The step asked (``iterationId``, a step number as a string)."""
    given = params.text("iterationId")
    try:
        return int(given)
    except ValueError:
        raise InsightError(f"iterationId must be a step number, not {given!r}") from None


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


def groups(conn, params: Params) -> dict:
    """communication/matrix/group: the step's communication groups, each as its ranks ``(0, 1)`` (as
    StringUtil::JoinNumberStrWithParenthesesByOrder writes a rank set), its process-group name and its name
    in the summary (ClusterService.cpp MergeGroupInfoWithPgName)."""
    found = rows(conn, "communication_groups", run_id=_run(conn, params), step_id=_step(params))
    return {"data": [{"group": f"({row['group_ranks'].replace(',', ', ')})", "parallelStrategy": row["pg_name"] or "",
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
