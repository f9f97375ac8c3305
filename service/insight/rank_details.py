"""The Summary page's rank details: one rank's kernels of an accelerator core, or its communication operators.

Opening a row of a rank's compute or communication table (modules/cluster
``components/summary/StatisticsTable.tsx`` DetailTable, searchData; ``utils/RequestUtils.ts``
queryComputeDetail, queryCommunicationDetail) asks ``summary/queryComputeDetail`` or
``summary/queryCommunicationDetail`` with ``rankId``, ``dbPath``, ``timeFlag`` (the row's
accelerator core), ``currentPage``, ``pageSize``, ``orderBy`` (a column's key), ``order`` and
``clusterPath``; ``step`` is sent but not read (the real server's ``protocol/SummaryProtocol.cpp``
ToComputeDetailRequest, ToCommunicationRequest). The rows are the real server's
(``server/src/modules/operator/database/DbSummaryDataBase.cpp`` GenComputeSql, GetCommSql): the start
in ms from the rank's time zero as text, the duration and wait in us; shaped as
``summary/protocol/SummaryProtocolUtil.cpp`` ToResponseJson<ComputeDetailResponse> and
<CommunicationDetailResponse>, ``totalNum`` the rows before paging.

The rows are the named query ``insight_operators`` (the kernels that answer for the rank, or its HCCL
operators), in start order unless a column is asked; a communication operator's wait is the one its
kernel_details.csv row gives, else 0 (the real server's is always 0).
"""

from __future__ import annotations

from service.insight import paging, ranks, timeline
from service.insight.operator import operators
from service.insight.protocol import InsightError, Params

NS_PER_US, NS_PER_MS = 1000.0, 1_000_000.0
#: a column's key -> its key in a row of insight_operators
COMPUTE_COLUMNS = {"name": "name", "type": "op_type", "startTime": "ts", "duration": "dur", "waitTime": "wait_ns",
                   "blockNum": "block_dim", "inputShapes": "input_shapes", "inputDataTypes": "input_dtypes",
                   "inputFormats": "input_formats", "outputShapes": "output_shapes",
                   "outputDataTypes": "output_dtypes", "outputFormats": "output_formats"}
COMMUNICATION_COLUMNS = {key: COMPUTE_COLUMNS[key] for key in ("name", "type", "startTime", "duration", "waitTime")}


def _rank(conn, params: Params) -> ranks.RankCard:
    """The card of rank ``rankId`` of the cluster at ``clusterPath``."""
    cards = ranks.of_cluster(conn, params.text("clusterPath"))
    rank = params.integer("rankId")
    card = next((card for card in cards if card.rank_id == rank), None)
    if card is None:
        raise InsightError(f"no rank {rank} in the cluster (its ranks: {', '.join(str(c.rank_id) for c in cards)})")
    return card


def _page(found: list[dict], params: Params, columns: dict[str, str]) -> list[dict]:
    """The page asked, in ``orderBy``'s order, else in start order."""
    in_time = sorted(found, key=lambda row: (row["ts"] or 0, row["name"] or ""))
    return paging.page(paging.ordered(in_time, params, columns), params, current="currentPage")


def _start(ts: int | None, zero: int) -> str:
    """The start in ms from the rank's time zero as the real server writes it ("NA" without one)."""
    return "NA" if not ts else str(round((ts - zero) / NS_PER_MS, 4))


def compute_detail(conn, params: Params) -> dict:
    """summary/queryComputeDetail: a page of the rank's kernels of the accelerator core ``timeFlag``."""
    card = _rank(conn, params)
    found = operators(conn, card, False, acc_core=params.text("timeFlag"))
    zero = timeline.card_zero(conn, card)
    return {"computeDetails": [
        {"name": row["name"] or "", "type": row["op_type"] or "", "startTime": _start(row["ts"], zero),
         "duration": round(row["dur"] / NS_PER_US, 2), "waitTime": round((row["wait_ns"] or 0) / NS_PER_US, 3),
         "blockNum": row["block_dim"] or 0, "inputShapes": row["input_shapes"] or "",
         "inputDataTypes": row["input_dtypes"] or "", "inputFormats": row["input_formats"] or "",
         "outputShapes": row["output_shapes"] or "", "outputDataTypes": row["output_dtypes"] or "",
         "outputFormats": row["output_formats"] or ""}
        for row in _page(found, params, COMPUTE_COLUMNS)], "totalNum": len(found)}


def communication_detail(conn, params: Params) -> dict:
    """summary/queryCommunicationDetail: a page of the rank's communication operators."""
    card = _rank(conn, params)
    found = operators(conn, card, True)
    zero = timeline.card_zero(conn, card)
    return {"communicationDetails": [
        {"name": row["name"] or "", "type": row["op_type"] or "", "startTime": _start(row["ts"], zero),
         "duration": round(row["dur"] / NS_PER_US, 4), "waitTime": round((row["wait_ns"] or 0) / NS_PER_US, 4)}
        for row in _page(found, params, COMMUNICATION_COLUMNS)], "totalNum": len(found)}
