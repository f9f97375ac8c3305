"""unit/kernelDetail: where a communication operator of the Timeline is on the Communication page.

"Find in Communication" on an HCCL slice (``hcom_...``) of a cluster's card (Ascend/msinsight
``modules/timeline/src/actions/actionFindInCommunication.ts``; ``api/request.ts``
queryCommunicationKernelDetail: ``rankId``, ``dbPath``, ``name``) switches to the Communication page at
the operator's step (``iterationId``) and group (``stage``). As the real server answers it
(``server/src/modules/timeline/handler/QueryCommunicationKernelHandler.cpp``: the first slice of that
name on the card, then the step and the group's ranks from the cluster's communication summary,
``communication/database/DbClusterDataBase.cpp`` QueryIterationAndCommunicationGroup; refused for a card
outside a cluster) in the shape of ``protocol/TimelineProtocolUtil.cpp``
ToResponseJson<CommunicationKernelResponse>: ``{id, rankId, depth, threadId, pid, step, group, startTime}``.
The slice is the earliest of the name (:func:`service.insight.search.named`), the
step the rank's first in the named query ``communication_time_summary`` timing the operator, the group
the one of that step whose operators include it (``communication_group_operators``), named by its ranks
as communication/matrix/group names it (``communication_groups``).
"""

from __future__ import annotations

from service.insight import communication, ranks, search, timeline
from service.insight.protocol import InsightError, Params, rows


def _step_and_group(conn, card: ranks.RankCard, name: str) -> tuple[str, str]:
    """The first step timing ``name`` on the card's rank, and its group's label."""
    for timed in rows(conn, "communication_time_summary", run_id=card.run_id, rank_id=card.rank_id, op_name=name):
        step_id = timed["step_id"]
        named = {row["group_name"] for row in rows(conn, "communication_group_operators", run_id=card.run_id,
                                                   step_id=step_id) if row["op_name"] == name and row["timed_ranks"]}
        for group in rows(conn, "communication_groups", run_id=card.run_id, step_id=step_id):
            if group["group_name"] in named:
                return str(step_id), communication.group_label(group)
    raise InsightError(f"the communication summary of card {card.card_id!r} times no operator {name!r}")


def kernel_detail(conn, params: Params) -> dict:
    """unit/kernelDetail: the operator's first slice on the card, its step and its group."""
    card = ranks.asked(conn, params)
    name = params.text("name")
    if card.run_ranks < 2:
        raise InsightError(f"card {card.card_id!r} is not part of a cluster (a run of several ranks): "
                           "the Communication page has no operator to find")
    named = search.named(conn, card, name)
    if not named:
        raise InsightError(f"card {card.card_id!r} has no slice named {name!r}")
    first = named[0]
    step, group = _step_and_group(conn, card, name)
    return {"id": str(first["id"]), "rankId": card.card_id, "depth": first["depth"],
            "threadId": str(first["thread_id"]), "pid": str(first["process_id"]), "step": step, "group": group,
            "startTime": first["ts"] - timeline.card_zero(conn, card)}
