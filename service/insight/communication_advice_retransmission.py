"""The "Communication Retransmission Analysis" item of communication/advisor: operators slowed by RDMA resends.

The real server (``server/src/modules/communication/advisor/RetransmissionAnalyzer.cpp``) groups the
cluster's RDMA rows by step, group ranks and operator (``communication/database/DbClusterDataBase.cpp``
QueryRetransmissionAnalyzerData) and lists an operator whose least elapse reaches 4000 ms while its
longest RDMA transit exceeds it. Here the named query ``communication_retransmissions`` lists them;
each group is named by its ranks as the server's JoinNumberStrWithParenthesesByOrder writes a rank set,
``(0, 1)`` (the ranks whose operators name the group in the step: ``communication_groups``, as the
Communication page's groups), in the server's order (step, group, operator). Columns in name order (std::map):
``group name``, ``name``.
"""

from __future__ import annotations

from service.insight.communication import group_label
from service.insight.protocol import rows

TITLE = "Communication Retransmission Analysis"
#: least elapse and longest RDMA transit, in ms (MIN_RETRANSMISSION_TIME)
MIN_MS = 4000.0


def item(conn, run_id: int) -> dict:
    """The Communication Retransmission Analysis item of the run: each slowed operator and its group."""
    labels = {(row["step_id"], row["group_name"]): group_label(row)
              for row in rows(conn, "communication_groups", run_id=run_id)}
    found = sorted(((row["step_id"], labels[row["step_id"], row["group_name"]], row["op_name"])
                    for row in rows(conn, "communication_retransmissions", run_id=run_id, min_ms=MIN_MS)))
    return {"name": TITLE, "statistics": {
        "group name": [label for _, label, _ in found],
        "name": [op_name for _, _, op_name in found]}}
