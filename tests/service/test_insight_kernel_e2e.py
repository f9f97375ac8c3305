"""The System View's Kernel E2E Time table (unit/kernelE2ETime) through ``warehouse serve --insight-port``.

The real 2-rank db export (level1) is imported over a real WebSocket and each card asked as the frontend's
KernelE2ETimeTable asks (Ascend/msinsight ``modules/timeline/src/components/detailViews/KernelE2ETimeTable.tsx``,
``Common.tsx`` queryKernelE2ETime); so is each card of the text export of the same run. A normal chain's events
are checked against SQL on the warehouse (each highlighted slice is the slice named, at its time; each step
holds the next, the task queue and the device task bound by their connection ids in a db, by the trace's
arrows in a text export) and its durations against those slices, as KernelE2ECalculator.cpp computes them;
the filters, the order and the counts against the whole answer.
"""

from __future__ import annotations

import shutil

import pytest

from test_insight_timeline import extent_of_sources, opened, sql
from test_insight_ws import empty, root  # noqa: F401 - fixtures

pytestmark = pytest.mark.slow

DB_RUN, TEXT_RUN = "msinsight/pytorch/db/level1", "msinsight/pytorch/text/level1"
ROLES = ["PYTHON_CALL", "PYTHON_OP", "ENQUEUE", "DEQUEUE", "CANN_API", "LAUNCH", "HARDWARE_TASK"]


def e2e(page, card: dict, **more) -> dict:
    return page.body("timeline", "unit/kernelE2ETime", {
        "rankId": card["rankId"], "dbPath": card["dbPath"], "startTime": 0, "endTime": 0, "current": 1,
        "pageSize": 1000, "pathType": "all", **more})


def rows_of(records: list[dict]) -> list[dict]:
    return [row for record in records for row in [record] + rows_of(record.get("children", []))]


def check_chain(database, record: dict, is_db: bool) -> None:
    """A normal chain's slices are the warehouse's, nested and bound as the real server binds them, and its
    durations are theirs."""
    slices = {s["role"]: s for s in record["highlightSlices"]}
    assert list(slices) == ROLES
    zero = extent_of_sources(database, "SELECT t.source_id FROM slice AS s JOIN thread AS t ON t.id = s.thread_id "
                                       "WHERE s.id = ?", int(slices["LAUNCH"]["id"]))[0]
    at = {}
    for role, found in slices.items():
        (name, ts, dur, thread, process), = sql(database, "SELECT s.name, s.ts, s.dur, s.thread_id, t.process_id "
                                                           "FROM slice AS s JOIN thread AS t ON t.id = s.thread_id "
                                                           "WHERE s.id = ?", int(found["id"]))
        assert (name, ts - zero, dur, str(thread), str(process)) == (
            found["name"], found["startTime"], found["duration"], found["tid"], found["pid"])
        at[role] = (ts, ts + dur)
    for outer, inner in (("PYTHON_CALL", "PYTHON_OP"), ("PYTHON_OP", "ENQUEUE"), ("DEQUEUE", "CANN_API"),
                         ("CANN_API", "LAUNCH")):
        assert at[outer][0] <= at[inner][0] and at[inner][1] <= at[outer][1], (outer, inner)
    ids = {role: int(found["id"]) for role, found in slices.items()}
    if is_db:  # the dequeue is bound to the enqueue by a connection id, the device task to the launch
        keys = {role: {key for key, in sql(database, "SELECT flow_key FROM flow WHERE category = 'CONNECTION_IDS' "
                                                     "AND (slice_out = ? OR slice_in = ?)", ids[role], ids[role])}
                for role in ("ENQUEUE", "DEQUEUE")}
        assert keys["ENQUEUE"] & keys["DEQUEUE"]
        assert sql(database, "SELECT c.connection_id = json_extract(s.args, '$.connection_id') FROM cann_api AS c, "
                             "slice AS s WHERE c.slice_id = ? AND s.id = ?",
                   ids["LAUNCH"], ids["HARDWARE_TASK"]) == [(1,)]
    else:  # by the trace's arrows
        for category, out, into in (("async_task_queue", "ENQUEUE", "DEQUEUE"), ("HostToDevice", "LAUNCH",
                                                                                   "HARDWARE_TASK")):
            assert sql(database, "SELECT count(*) FROM flow WHERE category = ? AND slice_out = ? AND slice_in = ?",
                       category, ids[out], ids[into]) == [(1,)]
    call, enqueue, dequeue, launch = at["PYTHON_CALL"], at["ENQUEUE"], at["DEQUEUE"], at["LAUNCH"]
    assert {key: record[key] for key in ("prepareTime", "pythonApiTime", "enqueueTime", "queueTime", "pipeline2Time",
                                         "launchTime", "endToEndTime")} == {
        "prepareTime": enqueue[0] - call[0], "pythonApiTime": call[1] - call[0], "enqueueTime": enqueue[1] - enqueue[0],
        "queueTime": dequeue[0] - enqueue[1], "pipeline2Time": launch[1] - dequeue[0],
        "launchTime": launch[1] - launch[0], "endToEndTime": launch[1] - call[0]}


@pytest.mark.parametrize("sample, is_db", ((DB_RUN, True), (TEXT_RUN, False)))
def test_each_kernels_dispatch_chain_and_its_times(empty, root, realdata, sample, is_db):
    run = root / "level1"
    shutil.copytree(realdata / sample, run)
    with opened(empty, root, run) as (page, body):
        for card in body["result"]:
            answer = e2e(page, card)
            records = answer["records"]
            counts = [answer[key] for key in ("normalCount", "fallbackCount", "incompleteCount")]
            assert answer["totalCount"] == len(records) == sum(counts) > 0
            assert answer["launchMatchRate"] == answer["normalCount"] / answer["totalCount"]
            assert {record["status"] for record in records} <= {"normal", "fallback", "incomplete"}
            # a normal chain alone in its row (no parent): its seven events and its times
            alone = [r for r in records if not r["isParent"] and r["status"] == "normal"]
            assert alone
            for record in alone:
                check_chain(empty, record, is_db)
                assert record["id"] == f"{card['rankId']}:HARDWARE:" + record["id"].rsplit(":", 1)[1]
            # a parent row sums its children's launches and takes their longest end to end
            parent = next(r for r in records if r["isParent"] and r["highlightSlices"][-1]["role"] == "CANN_API")
            children = parent["children"]
            assert parent["launchTime"] == sum(child["launchTime"] for child in children)
            assert parent["endToEndTime"] == max(child["endToEndTime"] for child in children)
            assert {child["highlightSlices"][4]["id"] for child in children} == {parent["highlightSlices"][4]["id"]}
            # the path filter, the name search (any case; a parent keeps the children that match), the order
            aclop = e2e(page, card, pathType="ACLOP")
            assert {row["pathType"] for row in rows_of(aclop["records"])} == {"ACLOP"}
            assert aclop["totalCount"] + e2e(page, card, pathType="ACLNN")["totalCount"] == answer["totalCount"] - sum(
                1 for r in records if r["isParent"] and len({c["pathType"] for c in r["children"]}) > 1)
            searched = e2e(page, card, opName="CONV")["records"]
            assert searched and all("conv" in r["opName"].lower() or all(
                "conv" in c["opName"].lower() for c in r["children"]) for r in searched)
            by_launch = e2e(page, card, sortField="launchTime", sortOrder="asc")["records"]
            launches = [r.get("launchTime") for r in by_launch if not r["isParent"]]
            given = [value for value in launches if value is not None]
            assert given == sorted(given) and launches == given + [None] * (len(launches) - len(given))
            # a page of 10: the second ten rows
            assert e2e(page, card, pageSize=10, current=2)["records"] == records[10:20]
        answer = page.send("timeline", "unit/kernelE2ETime", {"rankId": card["rankId"], "startTime": 10,
                                                              "endTime": 5})
        assert answer["result"] is False and "before" in answer["error"]["message"]
