"""unit/kernelDetail ("Find in Communication" on an HCCL slice) through ``warehouse serve --insight-port``.

The real 2-rank db export (level1: each rank's analysis.db holds its communication summary) is imported
over a real WebSocket, and each rank's HCCL slices are asked as the frontend's actionFindInCommunication
asks (Ascend/msinsight ``modules/timeline/src/actions/actionFindInCommunication.ts``: ``rankId``, ``dbPath``,
``name``), answered in the shape of ``server/src/modules/timeline/protocol/TimelineProtocolUtil.cpp``
ToResponseJson<CommunicationKernelResponse>, checked against SQL on the warehouse (slice view,
communication_time_answer) and against what communication/matrix/group names the group. A lone text rank
is no cluster: refused.
"""

from __future__ import annotations

import shutil

import pytest
from websockets.sync.client import connect

from test_insight_timeline import TIMELINE_INPUTS, imported, sql
from test_insight_ws import Page, serving
from warehouse import db

pytestmark = pytest.mark.slow

DB_RUN = "msinsight/pytorch/db/level1"
TEXT_RANK = "msinsight/pytorch/text/level0/rank0_ascend_pt"


@pytest.fixture(scope="module")
def cluster(tmp_path_factory, realdata):
    """One server whose page imported the 2-rank run and a lone text rank: yields (page, database, the
    run's import results, the text card's import result)."""
    folder = tmp_path_factory.mktemp("communication_kernel")
    root, database = folder / "root", folder / "warehouse.db"
    db.connect(database).close()
    shutil.copytree(realdata / DB_RUN, root / "level1")
    shutil.copytree(realdata / TEXT_RANK, root / "lone" / "rank0_ascend_pt")
    with serving(database, root) as (url, _), connect(url) as socket:
        page = Page(socket)
        run = imported(page, root / "level1")["result"]
        (lone,) = imported(page, root / "lone")["result"]
        page.events.clear()
        yield page, database, run, lone


def test_each_ranks_hccl_slices_find_their_step_and_group(cluster):
    page, database, run, _ = cluster
    assert len(run) == 2
    for rank_id, card in enumerate(run):
        timed = sql(database, "SELECT op_name, min(step_id) FROM communication_time_answer WHERE rank_id = ? "
                              "AND op_name LIKE 'hcom%' GROUP BY op_name ORDER BY op_name", rank_id)
        (zero,), = sql(database, "SELECT min(sl.ts) FROM slice AS sl JOIN thread AS t ON t.id = sl.thread_id "
                                 f"WHERE t.source_id IN ({TIMELINE_INPUTS})", card["dbPath"])
        groups = page.body("communication", "communication/matrix/group", {
            "clusterPath": str(sql(database, "SELECT root FROM run WHERE run_id = (SELECT run_id FROM source "
                                             "WHERE path = ?)", card["dbPath"])[0][0]), "iterationId": "50"})["data"]
        assert len(timed) > 1 and len(groups) == 1
        for name, step in timed:
            (slice_id, thread, process, ts, depth), = sql(
                database, "SELECT sl.id, sl.thread_id, t.process_id, sl.ts, sl.depth FROM slice AS sl "
                          f"JOIN thread AS t ON t.id = sl.thread_id WHERE t.source_id IN ({TIMELINE_INPUTS}) "
                          "AND sl.name = ? ORDER BY sl.ts, sl.thread_id, sl.id LIMIT 1", card["dbPath"], name)
            answer = page.body("timeline", "unit/kernelDetail", {"rankId": card["rankId"], "dbPath": card["dbPath"],
                                                                 "name": name})
            assert answer == {"id": str(slice_id), "rankId": card["rankId"], "depth": depth,
                              "threadId": str(thread), "pid": str(process), "step": str(step),
                              "group": groups[0]["group"], "startTime": ts - zero}


def test_an_operator_the_summary_does_not_time_or_a_lone_rank_is_refused(cluster):
    page, _, run, lone = cluster
    answer = page.send("timeline", "unit/kernelDetail", {"rankId": run[0]["rankId"], "name": "hcom_allReduce_"})
    assert answer["result"] is False and "times no operator 'hcom_allReduce_'" in answer["error"]["message"]
    answer = page.send("timeline", "unit/kernelDetail", {"rankId": run[0]["rankId"], "name": "no such slice"})
    assert answer["result"] is False and "no slice named 'no such slice'" in answer["error"]["message"]
    answer = page.send("timeline", "unit/kernelDetail", {"rankId": lone["rankId"], "name": "hcom_allReduce_"})
    assert answer["result"] is False and "not part of a cluster" in answer["error"]["message"]
