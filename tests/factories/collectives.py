"""One collective instance across ranks, written row by row: the smallest input of the
communication_collective_slow rule.

Each rank gets its rank-db input (rows.rank_source) holding one COMMUNICATION_OP row of the
instance, from its start to its end; optionally the profiler's own wait / transit split of it
(an analysis.db CommAnalyzerTime row, the communication_time table) and a Notify Wait task (the
rank db's COMMUNICATION_TASK, its slice the wait). Bind the warehouse first
(``with warehouse_rows.bound(conn):``).
"""

from __future__ import annotations

from tests.factories import warehouse_rows as rows

NAME = "hcom_allReduce__210_0_1"
GROUP = "10.0.0.1%eth0_60000_0_1"


class CommunicationTimeFactory(rows.RowFactory):
    """A row of the profiler's per-operator communication figures (CommAnalyzerTime, communication.json)."""

    class Meta:
        model = rows.Table("communication_time")

    source_row = 0
    rank_id = 0
    step_id = 1
    comm_type = "collective"
    op_name = NAME
    group_name = "17148521525495523210"
    ts = 0
    elapse_ns = 0
    transit_ns = 0
    wait_ns = 0
    synchronization_ns = 0
    idle_ns = 0


def collective(starts: dict[int, int], ends: dict[int, int], *, name: str = NAME, run: str = "run",
               split: dict[int, tuple[int, int]] | None = None,
               notify_waits: dict[int, int] | None = None) -> dict[int, dict]:
    """Write one instance of ``name``: rank r runs it from ``starts[r]`` to ``ends[r]`` (ns).

    ``split`` gives, per rank, the profiler's (wait_ns, transit_ns) of the call, written as that
    rank's analysis.db row; ``notify_waits`` its Notify Wait task time. Return each rank's
    COMMUNICATION_OP row."""
    ops = {}
    for rank, start in starts.items():
        source_id = rows.rank_source(rank, run)
        op = rows.CommunicationOpFactory(rank_id=rank, device_id=rank, source_id=source_id, name=name,
                                         group_name=GROUP, ts=start, dur=ends[rank] - start, op_id=1,
                                         rank_size=len(starts))
        if split and rank in split:
            wait_ns, transit_ns = split[rank]
            CommunicationTimeFactory(source_id=rows.rank_source(rank, run, kind="analysis_db"), rank_id=rank,
                                     op_name=name, ts=start, elapse_ns=ends[rank] - start, wait_ns=wait_ns,
                                     transit_ns=transit_ns, synchronization_ns=wait_ns,
                                     idle_ns=ends[rank] - start - wait_ns - transit_ns)
        if notify_waits and rank in notify_waits:
            thread = rows.ThreadFactory(process=rows.ProcessFactory(source_id=source_id, rank_id=rank),
                                        name="Stream 100")
            wait = rows.SliceFactory(thread_id=thread["id"], ts=start, dur=notify_waits[rank], name="Notify_Wait",
                                     category="hccl", source_id=source_id)
            rows.CommunicationTaskFactory(rank_id=rank, source_id=source_id, name=name, op_id=1,
                                          task_type="Notify_Wait", slice_id=wait["id"])
        ops[rank] = op
    return ops
