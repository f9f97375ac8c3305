"""The Summary page's pipeline parallelism chart (parallelism/pipeline/fwdBwdTimeline) through ``warehouse serve``.

The page (modules/cluster ``components/summary/FlowChart.tsx``, ``utils/RequestUtils.ts`` queryFwpBwdTimeline)
asks a pipeline group's ranks (``stageId``), a step (``stepId``) and ``clusterPath``, and draws per rank its
micro-batches' forward and backward passes ("FP/BP") and its point-to-point operators ("P2P Op"), in the shape of
``server/src/modules/summary/protocol/SummaryProtocolUtil.cpp`` ToResponseJson<PipelineFwdBwdTimelineResponse>.
The blocks equal the named query ``insight_fwd_bwd_blocks``'s, the operators ``insight_p2p_ops``'s.

Two clusters: the real two-rank sample (one micro-batch per rank: 27 forward operators linked to their
backward ones, by the trace's fwdbwd flows in the text export and by the connections between framework
operators in the db export, which give the same blocks), and a factory cluster of 8 ranks (tensor 2 x data 2 x
pipeline 2) where each rank runs two micro-batches per step on a known schedule, with sends and receives.
"""

from __future__ import annotations

import shutil

import pytest
from websockets.sync.client import connect

from test_insight_cluster import named
from test_insight_parallelism import FACTORY_ROOT, GROUPS
from test_insight_timeline import DB_RUN, TEXT_RUN, extent_of_sources, opened
from test_insight_ws import Page, empty, root, serving  # noqa: F401 - empty and root are fixtures
from service.insight.pipeline import micro_batches
from tests.diagnosis import cluster as diagnosis_cluster
from tests.factories import warehouse_rows as rows
from warehouse import db

# each test runs `warehouse serve` in a child process: seconds each
pytestmark = pytest.mark.slow

TRACE_KEYS = {"name", "start", "duration", "pid", "tid", "id", "cname"}
#: the factory's forward operators per micro-batch (their backward ones run in reverse order)
LAYERS = ("embedding", "attention", "mlp")
FWD_NS, BWD_NS, GAP_NS = 40_000, 70_000, 2_000
P2P_NS = 15_000


def timeline(page: Page, cluster: str, stage: str, step: str = "All") -> dict:
    body = page.body("summary", "parallelism/pipeline/fwdBwdTimeline",
                     {"stepId": step, "stageId": stage, "clusterPath": cluster})
    assert set(body) == {"minTime", "maxTime", "flowList", "rankList"}
    for rank in body["rankList"]:
        assert set(rank) == {"rank", "componentList"}
        for component in rank["componentList"]:
            assert all(set(trace) == TRACE_KEYS for trace in component["traceList"])
    return body


def components(body: dict) -> dict[str, dict[str, list[dict]]]:
    return {rank["rank"]: {c["component"]: c["traceList"] for c in rank["componentList"]} for rank in body["rankList"]}


def cluster_zero(database, run_id: int = 1) -> int:
    """The earliest time zero of the run's cards (each card's zero is its timeline's first slice or counter
    lane sample)."""
    return extent_of_sources(database, "SELECT source_id FROM answer_source WHERE fact = 'timeline' AND run_id = ?",
                             run_id)[0]


def expected_blocks(database, rank: int, zero: int, step_id=None, run_id: int = 1) -> list[dict]:
    """The FP/BP lane of a rank from the named query, numbered one micro-batch per block (no virtual pipeline)."""
    found = named(database, "insight_fwd_bwd_blocks", run_id=run_id, rank_id=rank, step_id=step_id)
    return [{"name": str(number), "start": block[f"{half}_start"] - zero,
             "duration": block[f"{half}_end"] - block[f"{half}_start"], "pid": str(rank), "tid": "FP/BP", "id": "",
             "cname": half.upper()}
            for number, block in enumerate(found) for half in ("fp", "bp")]


@pytest.mark.parametrize("sample", (DB_RUN, TEXT_RUN))
def test_the_real_two_ranks_run_one_micro_batch_each(empty, root, realdata, sample):
    run = root / "level0"
    shutil.copytree(realdata / sample, run)
    with opened(empty, root, run) as (page, _):
        zero = cluster_zero(empty)
        body = timeline(page, str(run), "(0, 1)")
        drawn = components(body)
        assert list(drawn) == ["0", "1"] and body["flowList"] == []
        for rank in (0, 1):
            # the 27 linked forward/backward operators make one block: forwards in order, backwards in reverse
            [block] = named(empty, "insight_fwd_bwd_blocks", run_id=1, rank_id=rank)
            assert block["block"] == 0 and block["fp_start"] < block["fp_end"] < block["bp_start"] < block["bp_end"]
            assert drawn[str(rank)]["FP/BP"] == expected_blocks(empty, rank, zero)
            # level0 holds no send or receive
            assert drawn[str(rank)]["P2P Op"] == [] == named(empty, "insight_p2p_ops", run_id=1, rank_id=rank)
        lanes = [drawn[rank]["FP/BP"] for rank in ("0", "1")]
        assert body["minTime"] == min(lane[0]["start"] for lane in lanes)
        assert body["maxTime"] == max(lane[-1]["start"] + lane[-1]["duration"] for lane in lanes)
        # the sample's one step, 50, holds the blocks; a step it does not hold is the whole time line, as the
        # real server's; a rank the cluster does not hold has no component
        assert timeline(page, str(run), "0,1", step="50") == body
        assert timeline(page, str(run), "0,1", step="7") == body
        assert components(timeline(page, str(run), "0,9"))["9"] == {}
        refused = page.send("summary", "parallelism/pipeline/fwdBwdTimeline",
                            {"stepId": "All", "stageId": "(,)", "clusterPath": str(run)})
        assert refused["result"] is False and "names no rank" in refused["error"]["message"]


def _plant_rank(cluster, rank: int) -> dict:
    """One rank's two micro-batches per step on its pipeline stage's schedule (stage 0: F0 F1 B0 B1, each
    forward followed by a send and each backward preceded by a receive; stage 1, the last: F0 B0 F1 B1, each
    forward preceded by a receive and each backward followed by a send); returns per step the planted blocks
    (fp start, fp end, bp start, bp end) and operators (name, start, duration)."""
    source = cluster.sources[rank]
    stage = rank // 4
    thread = rows.ThreadFactory(process=rows.ProcessFactory(source_id=source, rank_id=rank, pid=str(100 + rank),
                                                            name="Python"), source_id=source, name="main")
    scale = 1 + rank / 10  # each rank its own durations: a block of another rank is not this one's
    fwd, bwd = int(FWD_NS * scale), int(BWD_NS * scale)
    planted = {}
    for step in cluster.steps:
        ts = step * diagnosis_cluster.STEP_NS + 1_000_000
        forwards: dict[int, list[tuple[int, int]]] = {}
        blocks, ops = {}, []

        def p2p(kind: str, micro: int) -> None:
            nonlocal ts
            name = f"hcom_{kind}__{step}{micro}{rank}_0_1"
            rows.CommunicationOpFactory(rank_id=rank, source_id=source, name=name, op_type=f"hcom_{kind}_",
                                        ts=ts, dur=P2P_NS, group_name="pp")
            ops.append((name, ts, P2P_NS))
            ts += P2P_NS + GAP_NS

        def forward(micro: int) -> None:
            nonlocal ts
            if stage == 1:
                p2p("receive", micro)
            forwards[micro] = []
            for layer in LAYERS:
                row = rows.SliceFactory(thread_id=thread["id"], ts=ts, dur=fwd, name=f"aten::{layer}")
                rows.PytorchApiFactory(rank_id=rank, source_id=source, ts=ts, dur=fwd, name=f"aten::{layer}",
                                       type="op", slice_id=row["id"])
                forwards[micro].append((row["id"], ts))
                ts += fwd + GAP_NS
            if stage == 0:
                p2p("send", micro)

        def backward(micro: int) -> None:
            nonlocal ts
            if stage == 0:
                p2p("receive", micro)
            first_bwd = ts
            for (fwd_slice, _), layer in reversed(list(zip(forwards[micro], LAYERS))):
                row = rows.SliceFactory(thread_id=thread["id"], ts=ts, dur=bwd, name=f"{layer}Backward0")
                rows.PytorchApiFactory(rank_id=rank, source_id=source, ts=ts, dur=bwd, name=f"{layer}Backward0",
                                       type="op", slice_id=row["id"])
                rows.FlowFactory(source_id=source, slice_out=fwd_slice, slice_in=row["id"], name="framework",
                                 category="CONNECTION_IDS")
                ts += bwd + GAP_NS
            starts = [start for _, start in forwards[micro]]
            blocks[micro] = (starts[0], starts[-1] + fwd, first_bwd, ts - GAP_NS)
            if stage == 1:
                p2p("send", micro)

        for act in (("F", 0), ("F", 1), ("B", 0), ("B", 1)) if stage == 0 else (
                ("F", 0), ("B", 0), ("F", 1), ("B", 1)):
            (forward if act[0] == "F" else backward)(act[1])
        # an enqueue linked to the first forward: a framework connection, but not between two operators
        queue = rows.SliceFactory(thread_id=thread["id"], ts=ts, dur=1_000, name="Enqueue")
        rows.PytorchApiFactory(rank_id=rank, source_id=source, ts=ts, dur=1_000, name="Enqueue", type="queue",
                               slice_id=queue["id"])
        rows.FlowFactory(source_id=source, slice_out=forwards[0][0][0], slice_in=queue["id"], name="framework",
                         category="CONNECTION_IDS")
        planted[step] = {"blocks": [blocks[0], blocks[1]], "ops": ops}
    return planted


@pytest.fixture
def pipelined(tmp_path):
    """A factory cluster of 8 ranks (GROUPS: pipeline groups (0, 4), (1, 5), ...) whose ranks run two
    micro-batches per step, and what each rank was given."""
    path = tmp_path / "pipelined.db"
    conn = db.connect(path)
    built = diagnosis_cluster.build(conn, ranks=8, steps=(1, 2), run="shaped", collective_groups=GROUPS["dp"])
    diagnosis_cluster.place(conn, built, GROUPS)
    with rows.bound(conn):
        planted = {rank: _plant_rank(built, rank) for rank in range(8)}
    conn.close()
    return path, planted


def test_a_pipeline_group_shows_each_stage_s_micro_batches(pipelined, root):
    path, planted = pipelined
    zero = cluster_zero(path)
    with serving(path, root) as (url, _), connect(url) as socket:
        page = Page(socket)
        for group in GROUPS["pp"]:
            stage = f"({group[0]}, {group[1]})"
            for step in (1, 2):
                body = timeline(page, FACTORY_ROOT, stage, step=str(step))
                drawn = components(body)
                assert list(drawn) == [str(rank) for rank in group] and body["flowList"] == []
                for rank in group:
                    given = planted[rank][step]
                    # the blocks planted: micro-batch 0 then 1, each its forward then its backward
                    lane = [(t["name"], t["cname"], t["start"] + zero, t["start"] + zero + t["duration"])
                             for t in drawn[str(rank)]["FP/BP"]]
                    assert lane == [(str(micro), cname, start, end)
                                    for micro, (fp_start, fp_end, bp_start, bp_end) in enumerate(given["blocks"])
                                    for cname, start, end in (("FP", fp_start, fp_end), ("BP", bp_start, bp_end))]
                    assert drawn[str(rank)]["FP/BP"] == expected_blocks(path, rank, zero, step_id=step)
                    assert all(t["pid"] == str(rank) and t["tid"] == "FP/BP" for t in drawn[str(rank)]["FP/BP"])
                    # the sends and receives, not the allreduce of the data-parallel group
                    ops = drawn[str(rank)]["P2P Op"]
                    assert [(t["name"], t["start"] + zero, t["duration"]) for t in ops] == given["ops"]
                    assert [t["cname"] for t in ops] == [
                        "SEND" if name.startswith("hcom_send") else "RECV" for name, _, _ in given["ops"]]
                    assert [t["name"] for t in ops] == [
                        row["name"] for row in named(path, "insight_p2p_ops", run_id=1, rank_id=rank, step_id=step)]
                lanes = [traces for rank in drawn.values() for traces in rank.values()]
                assert body["minTime"] == min(lane[0]["start"] for lane in lanes)
                assert body["maxTime"] == max(lane[-1]["start"] + lane[-1]["duration"] for lane in lanes)
            # every step: four blocks, numbered on from step to step (the backwards keep starting later)
            every = components(timeline(page, FACTORY_ROOT, stage))
            for rank in group:
                assert [t["name"] for t in every[str(rank)]["FP/BP"]] == ["0", "0", "1", "1", "2", "2", "3", "3"]
                assert len(every[str(rank)]["P2P Op"]) == 8


def test_blocks_of_a_virtual_pipeline_are_numbered_by_chunk():
    # two micro-batches, two chunks: the chunks' backwards run last chunk first, so the earliest backward is
    # the third block's; blocks 0, 1 (chunk 0) and 2, 3 (chunk 1) are micro-batches 0, 1, 0, 1
    assert micro_batches([30, 40, 10, 20]) == [0, 1, 0, 1]
    # one chunk, backwards in order: each block its own micro-batch
    assert micro_batches([10, 20, 30]) == [0, 1, 2]
    # three micro-batches, the earliest backward fifth: not at a chunk's start, no virtual pipeline fits
    assert micro_batches([30, 40, 50, 20, 10]) is None
    assert micro_batches([]) == []
