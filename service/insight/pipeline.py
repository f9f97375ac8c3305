"""parallelism/pipeline/fwdBwdTimeline: the Summary page's pipeline parallelism chart of one pipeline group.

The page shows the chart when a pipeline group is chosen in the parallel view (modules/cluster
``components/summary/Index.tsx``: an "activeCommunicator" whose name starts with "pipeline"; ``FlowChart.tsx``)
and asks ``stepId`` (the step chosen, "All" for every one), ``stageId`` (the group's ranks, "0,4" or "(0, 4)")
and ``clusterPath`` (``utils/RequestUtils.ts`` queryFwpBwdTimeline). It draws one row per rank: its
micro-batches' forward and backward passes (component "FP/BP", ``cname`` "FP"/"BP", ``name`` the micro-batch)
and its point-to-point operators (component "P2P Op", ``cname`` "SEND", "RECV" or "BATCH_SEND_RECV"), with
arrows between a send and its receive from ``flowList``.

The real server (``server/src/modules/summary/handler/QueryFwdBwdTimelineHandler.cpp``) reads each rank of
the group from its mstx step tasks when the rank db holds them, else from its timeline
(QueryFwdBwdTimelineFromFlow): the forward/backward blocks (named query ``insight_fwd_bwd_blocks``), each
block's micro-batch numbered as TraceDatabaseHelper.cpp ExecuteQueryFwdBwdDataByFlow and
CalculateParallelParameter number them (:func:`micro_batches`: the micro-batch count is the run of
later-starting backwards from the first block, the virtual pipeline's size where the earliest backward is;
blocks that do not fit that pattern are not drawn), and the point-to-point operators (named query
``insight_p2p_ops``), both in the step's range; times in ns from the cluster's earliest card (each card's time
zero here, the earliest of them the cluster's, as the real server's global start). The
timeline path gives no operator a connection id, so ``flowList`` is empty, as the real server's there; the
warehouse reads no mstx step task, so every rank takes that path. A rank the cluster does not hold has no
component. Shape: ``summary/protocol/SummaryProtocolUtil.cpp`` ToResponseJson<PipelineFwdBwdTimelineResponse>;
``minTime`` the earliest first item's start and ``maxTime`` the latest last item's end, 0 and 0 when nothing
is drawn (the real server's UINT64_MAX start is past what a browser's numbers hold).
"""

from __future__ import annotations

from service.insight import ranks, timeline
from service.insight.protocol import InsightError, Params, rows

FP_BP, P2P = "FP/BP", "P2P Op"
#: an operator's cname by the start of its name (TraceDatabaseHelper.cpp ExecuteQueryP2POpData), else BATCH
SEND_RECV = (("hcom_send", "SEND"), ("hcom_receive", "RECV"))
BATCH = "BATCH_SEND_RECV"
ALL_STEPS = ("", "All")


def stage_ranks(stage: str) -> list[str]:
    """The rank ids of ``stageId``: its parentheses dropped, split at commas, blanks left out
    (StringUtil::SplitStringWithParenthesesByComma)."""
    bare = stage.replace("(", "").replace(")", "")
    return [part.strip() for part in bare.split(",") if part.strip()]


def micro_batches(bp_starts: list[int]) -> list[int] | None:
    """Each block's micro-batch from its backward's start (in block order), or None when the blocks fit no
    virtual pipeline (CalculateParallelParameter fails: the earliest backward is not at a whole chunk)."""
    if not bp_starts:
        return []
    size, chunks = 1, 1
    earliest = min(bp_starts)
    if bp_starts[0] != earliest:
        while size < len(bp_starts) and bp_starts[size] > bp_starts[size - 1]:
            size += 1
        at = bp_starts.index(earliest)
        if at % size:
            return None
        chunks = at // size + 1
    period = size * chunks
    return [(index // period) * size + (index % period) % size for index in range(len(bp_starts))]


def _blocks(conn, card: ranks.RankCard, step_id: int | None, zero: int) -> list[dict]:
    found = rows(conn, "insight_fwd_bwd_blocks", run_id=card.run_id, rank_id=card.rank_id, step_id=step_id)
    numbers = micro_batches([block["bp_start"] for block in found]) or []
    rank = str(card.rank_id)
    traces = []
    for block, number in zip(found, numbers):
        for cname, start, end in (("FP", block["fp_start"], block["fp_end"]), ("BP", block["bp_start"],
                                                                               block["bp_end"])):
            traces.append({"name": str(number), "start": max(start - zero, 0), "duration": end - start,
                           "pid": rank, "tid": FP_BP, "id": "", "cname": cname})
    return traces


def _p2p(conn, card: ranks.RankCard, step_id: int | None, zero: int) -> list[dict]:
    found = rows(conn, "insight_p2p_ops", run_id=card.run_id, rank_id=card.rank_id, step_id=step_id)
    return [{"name": op["name"], "start": max(op["ts"] - zero, 0), "duration": op["dur"],
             "pid": "" if op["process_id"] is None else str(op["process_id"]),
             "tid": "" if op["thread_id"] is None else str(op["thread_id"]), "id": "",
             "cname": next((cname for prefix, cname in SEND_RECV if op["name"].startswith(prefix)), BATCH)}
            for op in found]


def _step(params: Params) -> int | None:
    """The step asked (None: every step; a step that is no number is no step the rank has: every step too,
    as the real server goes on with the whole range)."""
    given = params.text("stepId", required=False) or ""
    return int(given) if given not in ALL_STEPS and given.strip().isdigit() else None


def fwd_bwd_timeline(conn, params: Params) -> dict:
    """parallelism/pipeline/fwdBwdTimeline: each rank of the pipeline group ``stageId``, its forward/backward
    blocks and point-to-point operators in the step ``stepId``."""
    cluster = ranks.of_cluster(conn, params.text("clusterPath", required=False))
    stage = params.text("stageId", required=False)
    if stage is None:
        raise InsightError("missing parameter stageId (the pipeline group's ranks)")
    asked = stage_ranks(stage)
    if not asked:
        raise InsightError(f"stageId {stage!r} names no rank")
    step_id = _step(params)
    by_rank = {str(card.rank_id): card for card in cluster}
    zero = min((timeline.card_zero(conn, card) for card in cluster if card.timeline_ids), default=0)
    rank_list = []
    for rank in asked:
        card = by_rank.get(rank)
        components = [] if card is None else [
            {"component": FP_BP, "traceList": _blocks(conn, card, step_id, zero)},
            {"component": P2P, "traceList": _p2p(conn, card, step_id, zero)}]
        rank_list.append({"rank": rank, "componentList": components})
    drawn = [component["traceList"] for item in rank_list for component in item["componentList"]
             if component["traceList"]]
    return {"minTime": min((traces[0]["start"] for traces in drawn), default=0),
            "maxTime": max((traces[-1]["start"] + traces[-1]["duration"] for traces in drawn), default=0),
            "flowList": [], "rankList": rank_list}
