"""The Summary page's parallel strategy view of MindStudio Insight's frontend, through ``warehouse serve``.

The page (modules/cluster ``components/communicatorContainer/CommunicatorContainer.tsx``,
``ParallelismGraph.tsx``, ``components/summary/Index.tsx``; ``utils/RequestUtils.ts``) asks the
strategy (``summary/query/parallelStrategy``), may set its own (``summary/set/parallelStrategy``),
then asks the arrangement of a dimension (``parallelism/arrangement/all``), its figures
(``parallelism/performance/data``) and its slow ranks (``summary/slowRank/advisor``), each with the
strategy and ``clusterPath``. Answers are in the
shapes of ``server/src/modules/summary/protocol/SummaryProtocolUtil.cpp``; strategies equal the named
query ``parallel_strategy``, groups the parallel groups the profiler's metadata names
(``cluster_shape``), figures the named query ``parallel_rank_time``, slow ranks the waits of ``parallel_group_comm_time``.

Two clusters: the real two-rank sample (it says no parallel shape: level "undefined" until the user
sets one) over a real import, and a factory cluster of known shape (tensor 2 x data 2 x pipeline 2,
some ranks slower) served as it is.
"""

from __future__ import annotations

import json
import shutil

import pytest
from websockets.sync.client import connect

from test_insight_cluster import named
from test_insight_timeline import DB_RUN, opened
from test_insight_ws import Page, empty, root, serving  # noqa: F401 - empty and root are fixtures
from tests.diagnosis import cluster as diagnosis_cluster
from warehouse import db

# each test runs `warehouse serve` in a child process: seconds each
pytestmark = pytest.mark.slow

DIMENSIONS = ("ep-dp", "ep-dp-pp", "ep-dp-pp-cp", "ep-dp-pp-cp-tp")
STRATEGY_KEYS = {"algorithm", "level", "tpSize", "ppSize", "dpSize", "cpSize", "epSize", "moeTpSize"}
ELEMENT_KEYS = {"index", "name", "position", "attribute", "formattedRanks", "ranks"}
INDICATOR_KEYS = {"key", "name", "renderHeatMap", "renderChart", "visible", "chart", "stack", "yAxisType"}
#: Megatron-LM's default order (tensor fastest, then data, pipeline outermost) for 8 ranks
GROUPS = {"tp": [[0, 1], [2, 3], [4, 5], [6, 7]], "dp": [[0, 2], [1, 3], [4, 6], [5, 7]],
          "pp": [[0, 4], [1, 5], [2, 6], [3, 7]]}
#: ranks whose kernels run longer (a slower tensor-parallel peer, a heavier second stage)
SLOWER = {1: 1.1, 4: 1.27, 5: 1.4, 7: 1.2}
FACTORY_ROOT = "/runs/shaped"


def strategy_of(row: dict) -> dict:
    """The request's strategy from a parallel_strategy row."""
    return {"algorithm": row["algorithm"], "tpSize": row["tp_size"], "ppSize": row["pp_size"],
            "dpSize": row["dp_size"], "cpSize": row["cp_size"], "epSize": row["ep_size"], "moeTpSize": 1}


def check_shapes(arrangement: dict) -> None:
    assert set(arrangement) == {"size", "arrangements", "indicators", "rankDbPathList", "connections"}
    assert arrangement["size"] == len(arrangement["arrangements"])
    assert [element["index"] for element in arrangement["arrangements"]] == list(range(arrangement["size"]))
    assert all(set(element) == ELEMENT_KEYS for element in arrangement["arrangements"])
    assert all(set(indicator) == INDICATOR_KEYS for indicator in arrangement["indicators"])


def performance(page: Page, asked: dict, dimension: str, step="All") -> tuple[dict[int, dict], dict[int, dict]]:
    """Each element's figures and its communication per kind of group; baselines empty, diffs equal to compares."""
    body = page.body("summary", "parallelism/performance/data",
                     {**asked, "dimension": dimension, "step": step, "isCompare": False})
    assert set(body) == {"performance", "advice"}
    assert body["advice"] == [] or dimension == "ep-dp-pp-cp-tp"  # advice in the ranks' view only
    found, comm = {}, {}
    for item in body["performance"]:
        for part in ("indicators", "commTimeIndicator"):
            assert item[part]["baseline"] == {} and item[part]["diff"] == item[part]["compare"]
        found[item["index"]] = item["indicators"]["compare"]
        comm[item["index"]] = item["commTimeIndicator"]["compare"]
    return found, comm


def figures(page: Page, asked: dict, dimension: str, step="All") -> dict[int, dict]:
    """Each element's figures."""
    return performance(page, asked, dimension, step)[0]


def check_rank_figures(found: dict[int, dict], times: list[dict]) -> None:
    """The ranks' view: each rank's figures are parallel_rank_time's (the real server's keys
    "notOverlapped" and "overlapped" hold the overlapped and the not overlapped communication)."""
    assert sorted(found) == [row["rank_id"] for row in times]
    for row in times:
        rank = found[row["rank_id"]]
        assert (rank["computing"], rank["communication"], rank["notOverlapped"], rank["overlapped"], rank["free"],
                rank["preparing"], rank["stage"], rank["bubble"]) == (
            row["computing_us"], row["communication_us"], row["overlapped_us"], row["communication_not_overlapped_us"],
            row["free_us"], row["preparing_us"], row["stage_us"], row["bubble_us"])
        assert rank["pureComputing"] == pytest.approx(row["computing_us"] - row["overlapped_us"], abs=1e-3)
        end_to_end = row["computing_us"] + row["communication_not_overlapped_us"] + row["free_us"] + row["preparing_us"]
        assert rank["computingRatio"] == pytest.approx(row["computing_us"] / end_to_end * 100, abs=1e-3)
        assert rank["communicationRatio"] == pytest.approx(row["communication_us"] / end_to_end * 100, abs=1e-3)


def check_advice(page: Page, asked: dict, times: list[dict]) -> None:
    """The ranks' view's advice: a figure whose spread over the ranks passes 5 % of their mean end-to-end
    time (computing + communication not overlapped + free + preparing) has an issue."""
    body = page.body("summary", "parallelism/performance/data",
                     {**asked, "dimension": "ep-dp-pp-cp-tp", "step": "All", "isCompare": False})
    mean = sum(row["computing_us"] + row["communication_not_overlapped_us"] + row["free_us"] + row["preparing_us"]
               for row in times) / len(times)
    expected = []
    for column, name, subject in (("computing_us", "Computing", "Computing"),
                                  ("communication_not_overlapped_us", "Communication(Not Overlapped)", "Communication"),
                                  ("free_us", "Free", "Free")):
        spread = max(row[column] for row in times) - min(row[column] for row in times)
        if spread / mean > 0.05:
            expected.append(f'{subject} has some issues, because the max difference of "{name}" has reached '
                            f"{round(spread, 3):.6f}us.")
    # the slower ranks' computing spreads by 40 %
    assert expected and expected[0].startswith("Computing has some issues")
    assert body["advice"] == expected


def check_slow_ranks(page: Page, database, asked: dict, stages: list[dict]) -> None:
    """summary/slowRank/advisor: in each stage, a replica (its tensor pair's mean data-parallel communication,
    parallel_group_comm_time) waiting more than 5 % less than the longest is slow, by how much less."""
    comm = {row["rank_id"]: row["comm_us"] for row in named(database, "parallel_group_comm_time", run_id=1)
            if row["group_kind"] == "dp"}
    assert len(comm) == 8
    means = {e["name"]: (e["position"]["y"], sum(comm[r] for r in e["ranks"]) / 2) for e in stages}
    longest = {stage: max(mean for y, mean in means.values() if y == stage) for stage in (0, 1)}
    waits = {name: round(longest[y] - mean, 3) for name, (y, mean) in means.items()}
    slow = sorted(((wait, name) for name, wait in waits.items() if wait / longest[means[name][0]] > 0.05), reverse=True)
    assert slow  # the planted slower ranks arrive late at their replicas' allreduce
    body = page.body("summary", "summary/slowRank/advisor", {**asked, "dimension": "ep-dp-pp"})
    assert body == {"topNElements": [
        {"index": next(e["index"] for e in stages if e["name"] == name), "name": name, "dpSynchronizeTime": wait}
        for wait, name in slow[:3]], "hasSlowRank": True, "matchSuccess": True}
    # the replicas' view gives no advice; the ranks' view finds no tensor-parallel communication to compare
    assert page.body("summary", "summary/slowRank/advisor", {**asked, "dimension": "ep-dp"}) == {
        "topNElements": [], "hasSlowRank": False, "matchSuccess": True}
    assert page.body("summary", "summary/slowRank/advisor", {**asked, "dimension": "ep-dp-pp-cp-tp"}) == {
        "topNElements": [], "hasSlowRank": True, "matchSuccess": False}


def test_the_real_two_rank_sample_has_no_strategy_until_the_user_sets_one(empty, root, realdata):
    run = root / "level0"
    shutil.copytree(realdata / DB_RUN, run)
    with opened(empty, root, run) as (page, _):
        cluster = {"clusterPath": str(run)}
        said = page.body("summary", "summary/query/parallelStrategy", cluster)
        [row] = named(empty, "parallel_strategy", run_id=1)
        # the sample says no parallel shape: every size 1, Megatron-LM's default order
        assert row["shape_known"] == 0
        assert said == {**strategy_of(row), "level": "undefined"} and set(said) == STRATEGY_KEYS
        assert (said["tpSize"], said["dpSize"], said["algorithm"]) == (1, 1, "megatron-lm(tp-cp-ep-dp-pp)")
        times = named(empty, "parallel_rank_time", run_id=1)
        assert [row["rank_id"] for row in times] == [0, 1]

        # unconfigured, the ranks' view is one element holding no rank, and every rank's figures
        asked = {**strategy_of(row), **cluster}
        whole = page.body("summary", "parallelism/arrangement/all", {**asked, "dimension": "ep-dp-pp-cp-tp"})
        check_shapes(whole)
        assert (whole["size"], whole["connections"], whole["arrangements"][0]["ranks"]) == (1, [], [])
        assert {item["rankId"] for item in whole["rankDbPathList"]} == {"0", "1"}
        assert all(item["dbPath"].startswith(str(run)) for item in whole["rankDbPathList"])
        found, comm = performance(page, asked, "ep-dp-pp-cp-tp")
        check_rank_figures(found, times)
        # the sample names no parallel group: its communication is not split by kind
        assert comm == {0: {}, 1: {}}
        # one step: the sample's only step, 50; a step it does not hold is refused
        check_rank_figures(figures(page, asked, "ep-dp-pp-cp-tp", step="50"),
                           named(empty, "parallel_rank_time", run_id=1, step_id=50))
        refused = page.send("summary", "parallelism/performance/data",
                            {**asked, "dimension": "ep-dp-pp-cp-tp", "step": "7", "isCompare": False})
        assert refused["result"] is False and "step 7" in refused["error"]["message"]

        # the user says the two ranks are two data-parallel replicas: kept for this page
        chosen = {**strategy_of(row), "dpSize": 2}
        assert page.body("summary", "summary/set/parallelStrategy", {**chosen, **cluster}) == {
            "result": True, "msg": ""}
        assert page.body("summary", "summary/query/parallelStrategy", cluster) == {**chosen, "level": "configured"}
        replicas = page.body("summary", "parallelism/arrangement/all", {**chosen, **cluster, "dimension": "ep-dp"})
        check_shapes(replicas)
        assert [(e["name"], e["ranks"], e["formattedRanks"], e["position"]) for e in replicas["arrangements"]] == [
            ("dp0", [0], "0", {"x": 0, "y": 0}), ("dp1", [1], "1", {"x": 1, "y": 0})]
        assert replicas["connections"] == []  # the replicas' view draws no group (the real server's)
        ranks_view = page.body("summary", "parallelism/arrangement/all",
                               {**chosen, **cluster, "dimension": "ep-dp-pp-cp-tp"})
        assert ranks_view["connections"] == [{"type": "dp", "list": [0, 1], "group": []}]
        summed = figures(page, {**chosen, **cluster}, "ep-dp")
        assert summed == {row["rank_id"]: {
            "Sum of Max computing": row["computing_us"], "Sum of Max communication": row["communication_us"],
            "Sum of Max overlapped": row["communication_not_overlapped_us"], "Sum of Max free": row["free_us"]}
            for row in times}

        # the sample names no parallel group: its communication cannot be split by the user's strategy
        assert page.body("summary", "summary/slowRank/advisor", {**chosen, **cluster, "dimension": "ep-dp-pp"}) == {
            "topNElements": [], "hasSlowRank": True, "matchSuccess": False}

        # a strategy the real server's checks refuse, and an algorithm not laid out here
        for wrong, words in (({"epSize": 3}, "DP size must be evenly divided by EP size"),
                             ({"tpSize": 0}, "tpSize must be between 1 and 10000"),
                             ({"algorithm": "vllm(tp-pp-dp-ep)"}, "lays out"),
                             ({"algorithm": "nonsense"}, "Algorithm is not allowed")):
            refused = page.send("summary", "summary/set/parallelStrategy", {**chosen, **cluster, **wrong})
            assert refused["result"] is False and words in refused["error"]["message"]
        refused = page.send("summary", "parallelism/arrangement/all", {**chosen, **cluster, "dimension": "dp"})
        assert refused["result"] is False and "dimension must be one of" in refused["error"]["message"]
        # a million ranks is more than a view answers; 4096 are laid out
        huge = {**chosen, **cluster, "tpSize": 100, "dpSize": 100, "ppSize": 100}
        refused = page.send("summary", "parallelism/arrangement/all", {**huge, "dimension": "ep-dp"})
        assert refused["result"] is False and "1000000 ranks, more than the 65536" in refused["error"]["message"]
        large = page.body("summary", "parallelism/arrangement/all",
                          {**huge, "tpSize": 8, "dpSize": 16, "ppSize": 32, "dimension": "ep-dp"})
        assert large["size"] == 16 and sum(len(e["ranks"]) for e in large["arrangements"]) == 4096


@pytest.fixture
def shaped(tmp_path):
    """A warehouse of one factory cluster of 8 ranks, tensor 2 x data 2 x pipeline 2 (GROUPS)."""
    path = tmp_path / "shaped.db"
    conn = db.connect(path)
    built = diagnosis_cluster.build(conn, ranks=8, steps=(1, 2), run="shaped", compute_scale=SLOWER,
                                    collective_groups=GROUPS["dp"])
    diagnosis_cluster.place(conn, built, GROUPS)
    conn.close()
    return path


def test_a_cluster_of_known_shape_is_laid_out_by_its_groups(shaped, root):
    with serving(shaped, root) as (url, _), connect(url) as socket:
        page = Page(socket)
        cluster = {"clusterPath": FACTORY_ROOT}
        [row] = named(shaped, "parallel_strategy", run_id=1)
        said = page.body("summary", "summary/query/parallelStrategy", cluster)
        assert said == {**strategy_of(row), "level": "collected"}
        assert (said["tpSize"], said["dpSize"], said["ppSize"], said["algorithm"]) == (
            2, 2, 2, "megatron-lm(tp-cp-ep-dp-pp)")
        asked = {**strategy_of(row), **cluster}
        shape = named(shaped, "cluster_shape", run_id=1)

        # the ranks' view: element i is rank i; its groups are those the profiler's metadata names
        whole = page.body("summary", "parallelism/arrangement/all", {**asked, "dimension": "ep-dp-pp-cp-tp"})
        check_shapes(whole)
        assert [(e["ranks"], e["formattedRanks"]) for e in whole["arrangements"]] == [
            ([rank], str(rank)) for rank in range(8)]
        assert [e["name"] for e in whole["arrangements"][:3]] == ["dp0-pp0-tp0", "dp0-pp0-tp1", "dp1-pp0-tp0"]
        assert [e["position"] for e in whole["arrangements"][3:5]] == [{"x": 3, "y": 0}, {"x": 0, "y": 1}]
        groups = {}
        for connection in whole["connections"]:
            groups.setdefault(connection["type"], []).append(connection["list"])
        assert set(groups) == {"dp", "tp", "pp", "mp", "tp-dp"}
        assert sorted(groups["dp"]) == sorted(map(sorted, {tuple(json.loads(r["dp_ranks"])) for r in shape}))
        assert sorted(groups["pp"]) == sorted(map(sorted, {tuple(json.loads(r["pp_ranks"])) for r in shape}))
        assert sorted(groups["tp"]) == GROUPS["tp"]
        assert {item["rankId"]: item["dbPath"] for item in whole["rankDbPathList"]} == {
            str(rank): f"/shaped/rank{rank}/profiler_{rank}.db" for rank in range(8)}

        times = named(shaped, "parallel_rank_time", run_id=1)
        assert [row["steps"] for row in times] == [2] * 8
        found, comm = performance(page, asked, "ep-dp-pp-cp-tp")
        check_rank_figures(found, times)
        by_rank = {row["rank_id"]: row for row in times}
        # each rank's communication in its data-parallel group (the only collectives the cluster runs)
        dp_time = {row["rank_id"]: row["comm_us"] for row in named(shaped, "parallel_group_comm_time", run_id=1)}
        assert comm == {rank: {"dp": dp_time[rank]} for rank in range(8)}
        # of step 2 only: the operators in each rank's step-2 window
        step_two = {row["rank_id"]: row["comm_us"]
                    for row in named(shaped, "parallel_group_comm_time", run_id=1, step_id=2)}
        assert sorted(step_two) == list(range(8)) and step_two != dp_time
        assert performance(page, asked, "ep-dp-pp-cp-tp", step="2")[1] == {
            rank: {"dp": step_two[rank]} for rank in range(8)}
        check_rank_figures(figures(page, asked, "ep-dp-pp-cp-tp", step="2"),
                           named(shaped, "parallel_rank_time", run_id=1, step_id=2))
        check_advice(page, asked, times)

        # the stages' view: one element per replica and stage holding its tensor-parallel pair, whose
        # figures are the pair's max, min and range
        stages = page.body("summary", "parallelism/arrangement/all", {**asked, "dimension": "ep-dp-pp"})
        check_shapes(stages)
        assert [(e["name"], e["formattedRanks"]) for e in stages["arrangements"]] == [
            ("dp0-pp0", "0,1"), ("dp1-pp0", "2,3"), ("dp0-pp1", "4,5"), ("dp1-pp1", "6,7")]
        assert sorted(c["list"] for c in stages["connections"] if c["type"] == "pp") == [[0, 2], [1, 3]]
        folded, folded_comm = performance(page, asked, "ep-dp-pp")
        for element in stages["arrangements"]:
            pair = [by_rank[rank]["computing_us"] for rank in element["ranks"]]
            assert folded_comm[element["index"]] == {
                "dp": round(sum(dp_time[rank] for rank in element["ranks"]) / 2, 3)}
            got = folded[element["index"]]
            assert (got["computingMax"], got["computingMin"]) == (max(pair), min(pair))
            assert got["computingRange"] == pytest.approx(max(pair) - min(pair), abs=1e-3)
        # the context-parallel view folds the same pairs (no context parallelism)
        assert figures(page, asked, "ep-dp-pp-cp") == folded
        check_slow_ranks(page, shaped, asked, stages["arrangements"])

        # the replicas' view: per replica, the sum over its stages of each stage's slowest rank
        replicas = page.body("summary", "parallelism/arrangement/all", {**asked, "dimension": "ep-dp"})
        assert [(e["name"], e["formattedRanks"]) for e in replicas["arrangements"]] == [
            ("dp0", "0,1,4,5"), ("dp1", "2,3,6,7")]
        summed, summed_comm = performance(page, asked, "ep-dp")
        assert summed_comm == {0: {}, 1: {}}  # the replicas' view splits no communication (the real server's)
        for element in replicas["arrangements"]:
            stage_max = [max(by_rank[r]["computing_us"] for r in pair)
                         for pair in (element["ranks"][:2], element["ranks"][2:])]
            assert summed[element["index"]]["Sum of Max computing"] == pytest.approx(sum(stage_max), abs=1e-3)


def test_the_other_rank_order_is_read_from_the_groups(tmp_path, root):
    """Pipeline stages numbered inside a replica (dp [[0, 2], [1, 3]], pp [[0, 1], [2, 3]]): Megatron-LM's
    tp-cp-pp-ep-dp, whose groups the ranks' view draws as the metadata names them."""
    path = tmp_path / "renumbered.db"
    conn = db.connect(path)
    groups = {"dp": [[0, 2], [1, 3]], "pp": [[0, 1], [2, 3]]}
    diagnosis_cluster.place(conn, diagnosis_cluster.build(conn, ranks=4, steps=(1,), run="renumbered",
                                                          collective_groups=groups["dp"]), groups)
    conn.close()
    with serving(path, root) as (url, _), connect(url) as socket:
        page = Page(socket)
        cluster = {"clusterPath": "/runs/renumbered"}
        said = page.body("summary", "summary/query/parallelStrategy", cluster)
        [row] = named(path, "parallel_strategy", run_id=1)
        assert said == {**strategy_of(row), "level": "collected"}
        assert said["algorithm"] == "megatron-lm(tp-cp-pp-ep-dp)"
        whole = page.body("summary", "parallelism/arrangement/all",
                          {**strategy_of(row), **cluster, "dimension": "ep-dp-pp-cp-tp"})
        drawn = {kind: sorted(c["list"] for c in whole["connections"] if c["type"] == kind) for kind in ("dp", "pp")}
        assert drawn == groups
        replicas = page.body("summary", "parallelism/arrangement/all",
                             {**strategy_of(row), **cluster, "dimension": "ep-dp"})
        assert [(e["name"], e["formattedRanks"]) for e in replicas["arrangements"]] == [("dp0", "0,1"), ("dp1", "2,3")]
