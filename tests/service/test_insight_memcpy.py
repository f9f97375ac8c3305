"""The System View's Memcpy Overall (memcpy/total/list, memcpy/detail/list) through ``warehouse serve --insight-port``.

Each card is asked what the frontend's MemcpyOverallMetrics asks (Ascend/msinsight
``modules/timeline/src/components/detailViews/MemcpyOverallMetrics.tsx``): the whole card's lanes with
copies, then a row's copies by duration, longest first. The real 2-rank text export (level1) holds 24
MEMCPY_ASYNC slices per rank whose args name no direction or size; the real db export of the same run has
no MEMCPY_INFO (torch_npu writes it at level 2 only), so no copy is described; a factory rank db holds
MEMCPY_INFO rows with directions. Figures are checked against SQL on the warehouse's slices and against the
factory's rows, shapes against the real server's (QueryMemcpyOverallHandler.cpp, QueryMemcpyDetailHandler.cpp).
"""

from __future__ import annotations

import shutil

import pytest

from tests.factories.rank_db import RankDbFactory
from test_insight_timeline import extent_in_sql, opened, sql
from test_insight_ws import empty, root  # noqa: F401 - fixtures

pytestmark = pytest.mark.slow

TEXT_RUN, DB_RUN = "msinsight/pytorch/text/level1", "msinsight/pytorch/db/level1"
#: the factory's copies: (start, end, stream, bytes, direction), times from its ts0
COPIES = ((20_000, 20_400, 5, 4096, "host to device"), (21_000, 21_100, 5, 1024, "device to host"),
          (22_000, 22_800, 5, 8192, "host to device"), (23_000, 23_050, 6, 512, "device to device"))
ROW_KEYS = {"key", "name", "totalSize", "totalTime", "number", "avgSize", "minSize", "maxSize", "avgTime",
            "minTime", "maxTime", "level"}


def totals(page, card: dict, **more) -> dict:
    return page.body("timeline", "memcpy/total/list", {"rankId": card["rankId"], "dbPath": card["dbPath"],
                                                       "pageSize": 10, "current": 1, "startTime": 0, "endTime": 0,
                                                       **more})


def details(page, card: dict, categories: list[str], **more) -> dict:
    return page.body("timeline", "memcpy/detail/list", {
        "rankId": card["rankId"], "dbPath": card["dbPath"], "categoryList": categories, "order": "descend",
        "orderBy": "duration", "pageSize": 10, "current": 1, "startTime": 0, "endTime": 0, **more})


def figures(key: str, name: str, level: int, sizes: list[int], times: list[int]) -> dict:
    return {"key": key, "name": name, "totalSize": sum(sizes), "totalTime": float(sum(times)), "number": len(sizes),
            "avgSize": round(sum(sizes) / len(sizes), 2), "minSize": min(sizes), "maxSize": max(sizes),
            "avgTime": round(sum(times) / len(times), 2), "minTime": float(min(times)), "maxTime": float(max(times)),
            "level": level}


def test_a_text_cards_copies_are_its_memcpy_slices_per_stream(empty, root, realdata):
    run = root / "level1"
    shutil.copytree(realdata / TEXT_RUN, run)
    with opened(empty, root, run) as (page, body):
        for card in body["result"]:
            copies = sql(empty, "SELECT t.tid, t.name, s.id, s.ts, s.dur FROM slice AS s JOIN thread AS t "
                                "ON t.id = s.thread_id JOIN source AS src ON src.id = t.source_id "
                                "WHERE src.path = ? AND s.name = 'MEMCPY_ASYNC' ORDER BY s.ts", card["dbPath"])
            streams = sorted({str(tid) for tid, *_ in copies})
            assert streams == ["2", "3"] and len(copies) == 24
            answer = totals(page, card)
            assert (answer["count"], answer["pageSize"], answer["current"], answer["isLoading"]) == (2, 10, 1, False)
            expected = []
            for stream in streams:
                mine = [(name, dur) for tid, name, _, _, dur in copies if str(tid) == stream]
                durations = [dur for _, dur in mine]
                # no direction or size in a torch_npu trace's args: one child, "" and 0 bytes
                expected.append({**figures(stream, mine[0][0], 1, [0] * len(mine), durations),
                                 "children": [figures("", "", 2, [0] * len(mine), durations)]})
            assert answer["data"] == expected
            assert [row["number"] for row in answer["data"]] == [22, 2]
            assert set(answer["data"][0]) == ROW_KEYS | {"children"}
            # stream 2's copies, longest first, a page of 10; the slices unit/threadTraces draws
            zero = extent_in_sql(empty, card["dbPath"])[0]
            listed = details(page, card, ["2", ""])
            stream2 = sorted(((ts - zero, dur, str(slice_id)) for tid, _, slice_id, ts, dur in copies if str(tid) == "2"),
                             key=lambda row: -row[1])
            assert (listed["count"], listed["pageSize"], listed["currentPage"]) == (22, 10, 1)
            assert [(row["timestamp"], row["duration"], row["id"]) for row in listed["sameOperatorsDetails"]] == (
                stream2[:10])
            assert {(row["size"], row["name"]) for row in listed["sameOperatorsDetails"]} == {(0, "MEMCPY_ASYNC")}
            # the third page, by start time ascending; a range holding only the first copy
            listed = details(page, card, ["2"], orderBy="startTime", order="ascend", current=3)
            assert [row["timestamp"] for row in listed["sameOperatorsDetails"]] == sorted(r[0] for r in stream2)[20:]
            first = copies[0]
            ranged = totals(page, card, startTime=first[3] - zero, endTime=first[3] - zero + first[4])
            assert [(row["key"], row["number"]) for row in ranged["data"]] == [(str(first[0]), 1)]
        answer = page.send("timeline", "memcpy/detail/list", {"rankId": card["rankId"], "categoryList": "2"})
        assert answer["result"] is False and "categoryList" in answer["error"]["message"]


def test_a_level1_db_describes_no_copy(empty, root, realdata):
    run = root / "level1"
    shutil.copytree(realdata / DB_RUN, run)
    with opened(empty, root, run) as (page, body):
        for card in body["result"]:
            # its TASK has 24 MEMCPY_ASYNC tasks, which no MEMCPY_INFO row describes
            assert sql(empty, "SELECT count(*) FROM slice AS s JOIN thread AS t ON t.id = s.thread_id JOIN source "
                              "AS src ON src.id = t.source_id WHERE src.path = ? AND s.name = 'MEMCPY_ASYNC'",
                       card["dbPath"]) == [(24,)]
            assert totals(page, card) == {"data": [], "count": 0, "pageSize": 10, "current": 1, "isLoading": False}
            assert details(page, card, ["2"]) == {"sameOperatorsDetails": [], "count": 0, "pageSize": 10,
                                                  "currentPage": 1}


def test_a_level2_dbs_copies_are_summed_per_stream_and_direction(empty, root):
    folder = root / "rank0_ascend_pt" / "ASCEND_PROFILER_OUTPUT"
    rank = RankDbFactory(path=folder / "ascend_pytorch_profiler_0.db", rank_id=0, memcpy=COPIES)
    with opened(empty, root, folder) as (page, body):
        (card,) = body["result"]
        zero = extent_in_sql(empty, card["dbPath"])[0]

        def row(key, name, level, copies):
            return figures(key, name, level, [c[3] for c in copies], [c[1] - c[0] for c in copies])

        h2d, d2h = [COPIES[0], COPIES[2]], [COPIES[1]]
        assert totals(page, card)["data"] == [
            {**row("5", "Stream 5", 1, COPIES[:3]),
             "children": [row("device to host", "device to host", 2, d2h), row("host to device", "host to device", 2,
                                                                                  h2d)]},
            {**row("6", "Stream 6", 1, COPIES[3:]), "children": [row("device to device", "device to device", 2,
                                                                     COPIES[3:])]}]
        listed = details(page, card, ["5", "host to device"], orderBy="size")
        assert [(r["timestamp"], r["duration"], r["size"], r["name"]) for r in listed["sameOperatorsDetails"]] == [
            (rank.ts0 + start - zero, end - start, size, "MEMCPY_ASYNC") for start, end, _, size, _ in h2d[::-1]]
        assert listed["count"] == 2
        # a page holds only the first lane; the second is on page 2
        assert [r["key"] for r in totals(page, card, pageSize=1, current=2)["data"]] == ["6"]
