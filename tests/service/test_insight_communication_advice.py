"""The Communication page's expert advice of MindStudio Insight's frontend on a cluster, through ``warehouse serve``.

Real samples (the cluster of two text ranks with the cluster's analysis output; the two-rank export of level 1
as dbs, whose rank dbs hold COMMUNICATION_TASK_INFO and whose analysis.db the communication summary, and as
text, trace_view.json's HCCL task slices and communication.json; the level-0 db export, whose tasks say N/A)
and a factory cluster of two ranks, exported as dbs or as text, with each analyzer's condition planted or not,
are imported over a real WebSocket, then ``communication/advisor`` is asked as the page's AdviceLabel.tsx does
(only ``clusterPath``). The answer is in the shape of ``server/src/modules/communication/protocol/
CommunicationProtocolUtil.cpp`` (ToResponseJson<CommunicationAdvisorResponse>): an item per analyzer of
``server/src/modules/communication/advisor/CommunicationAdvisor.cpp`` in title order, each column a list
of text; each item equals its named query (``communication_small_packets``,
``communication_unaligned_transfers``, ``communication_contended_transfers``,
``communication_retransmissions``) and the planted cases the values the analyzers' thresholds give.
"""

from __future__ import annotations

import shutil

import pytest

from factories.analysis_db import AnalysisDbFactory
from factories.hostile import alter_db
from factories.rank_db import RankDbFactory
from factories.text_exports import (CommunicationEntryFactory, CommunicationJsonFactory, KernelDetailsFactory,
                                    KernelRowFactory, ProfilerInfoFactory, TransportStatsFactory)
from factories.trace_json import EventFactory, TraceFileFactory
from test_insight_cluster import CLUSTER, CLUSTER_PARTS, named
from test_insight_timeline import opened
from test_insight_ws import empty, root  # noqa: F401 - fixtures

# each test runs `warehouse serve` in a child process and imports a sample: seconds each
pytestmark = pytest.mark.slow

DB_RUN = "msinsight/pytorch/db/level1"
TEXT_RUN = "msinsight/pytorch/text/level1"
TITLES = ["Bandwidth Contention Analysis", "Byte Alignment Analysis", "Communication Retransmission Analysis",
          "Packet Analysis"]
GROUP = "17148521525495523210"


def advice(page, run) -> dict:
    """The advisor's items by title, checked to come in the server's title order."""
    body = page.body("communication", "communication/advisor", {"clusterPath": str(run)})
    assert [item["name"] for item in body["items"]] == TITLES
    return {item["name"]: item["statistics"] for item in body["items"]}


def check_named(database, items: dict) -> None:
    """Byte alignment, bandwidth contention and retransmission items equal their named queries' rows."""
    unaligned = named(database, "communication_unaligned_transfers", run_id=1)
    assert items["Byte Alignment Analysis"] == {
        "name": [row["op_name"] for row in unaligned], "rankId": [str(row["rank_id"]) for row in unaligned]}
    contended = named(database, "communication_contended_transfers", run_id=1)
    assert items["Bandwidth Contention Analysis"] == {
        "bandwidth(GB/s)": [f"{row['bandwidth_bytes_per_s'] / 1e9:.6f}" for row in contended],
        "duration(us)": [f"{row['elapse_ns'] / 1e3:.6f}" for row in contended],
        "name": [row["op_name"] for row in contended], "rankId": [str(row["rank_id"]) for row in contended]}
    resent = named(database, "communication_retransmissions", run_id=1)
    ranks = {(row["step_id"], row["group_name"]): row["group_ranks"]
             for row in named(database, "communication_groups", run_id=1)}
    assert items["Communication Retransmission Analysis"] == {
        "group name": [f"({ranks[row['step_id'], row['group_name']].replace(',', ', ')})" for row in resent],
        "name": [row["op_name"] for row in resent]}


def test_a_cluster_shows_its_packet_analysis(empty, root, realdata):
    run = root / "cluster"
    for part in CLUSTER_PARTS:
        shutil.copytree(realdata / CLUSTER / part, run / part)
    with opened(empty, root, run) as (page, _):
        items = advice(page, run)
        statistics = items["Packet Analysis"]
        assert list(statistics) == ["Category", "Issue", "Small Size Duration(ms)",
                                    "Small Size Proportion Standard(%)", "Small Size Proportion(%)",
                                    "Small Size Standard(MB)"]
        assert statistics["Category"] == ["SDMA", "RDMA"]
        assert statistics["Small Size Standard(MB)"] == ["16.000000", "1.000000"]
        assert statistics["Small Size Proportion Standard(%)"] == ["20.000000", "20.000000"]
        found = {row["transport_type"]: row for row in named(empty, "communication_small_packets", run_id=1)}
        # the same transfers, counted from the operators' transports
        transfers = [row for row in named(empty, "communication_op_transports", run_id=1)
                     if row["transport_type"] in found and row["transit_bytes"] > 0]
        for column, transport in enumerate(("SDMA", "RDMA")):
            own = [row for row in transfers if row["transport_type"] == transport]
            small = [row for row in own if row["transit_bytes"] < {"SDMA": 16e6, "RDMA": 1e6}[transport]]
            assert (found[transport]["transfers"], found[transport]["small_transfers"]) == (len(own), len(small))
            share = len(small) / len(own)
            assert float(statistics["Small Size Proportion(%)"][column]) == pytest.approx(share * 100, abs=1e-6)
            assert float(statistics["Small Size Duration(ms)"][column]) == pytest.approx(
                sum(row["transit_ns"] for row in small) / 1e6, abs=1e-6)
            assert statistics["Issue"][column] == ("Yes" if share > 0.2 else "No")
        # the sample's small transfers: 9 of 27 over SDMA, 5 of 9 over RDMA, both above 20 %
        assert statistics["Issue"] == ["Yes", "Yes"]
        # text ranks without MatMul kernels, without an operator of 4 s: the other analyses list nothing
        check_named(empty, items)
        assert items["Bandwidth Contention Analysis"] == {"bandwidth(GB/s)": [], "duration(us)": [], "name": [],
                                                          "rankId": []}
        assert items["Communication Retransmission Analysis"] == {"group name": [], "name": []}
        refused = page.send("communication", "communication/advisor", {"clusterPath": str(root / "elsewhere")})
        assert refused["result"] is False and "no cluster at" in refused["error"]["message"]


@pytest.mark.parametrize("sample, number", ((DB_RUN, 210), (TEXT_RUN, 586)))
def test_a_two_rank_export_shows_its_unaligned_transfers(empty, root, realdata, sample, number):
    run = root / "level1"
    shutil.copytree(realdata / sample, run)
    with opened(empty, root, run) as (page, _):
        items = advice(page, run)
        check_named(empty, items)
        # each rank's allReduce _0_1 and _3_1 move 1937312 and 1162496 bytes over HCCS (1937312 % 512 = 416,
        # 1162496 % 512 = 256) in one Memcpy and one Reduce_Inline each; _1_1 and _2_1 move multiples of 512:
        # the same from the rank db's COMMUNICATION_TASK_INFO and from the text export's trace_view.json
        assert items["Byte Alignment Analysis"] == {
            "name": [f"hcom_allReduce__{number}_0_1", f"hcom_allReduce__{number}_3_1"] * 2,
            "rankId": ["0", "0", "1", "1"]}
        assert [(row["unaligned_tasks"], row["unaligned_bytes"])
                for row in named(empty, "communication_unaligned_transfers", run_id=1)] == [
            (2, 2 * 1937312), (2, 2 * 1162496)] * 2
        # the SDMA transfers under 14.4 GB/s (_1_1, _3_1) start after every MatMul kernel; _0_1 meets seven
        # of them on each rank but reaches 15.5 to 15.8 GB/s: listed only under a higher threshold
        assert items["Bandwidth Contention Analysis"]["name"] == []
        assert [(row["rank_id"], row["op_name"], row["matmuls"]) for row in named(
            empty, "communication_contended_transfers", run_id=1, threshold_gb_s=20.0)] == [
            (rank, f"hcom_allReduce__{number}_0_1", 7) for rank in (0, 1)]
        # no transfer over RDMA
        assert items["Communication Retransmission Analysis"]["name"] == []


def test_a_level0_db_export_lists_no_advice(empty, root, realdata):
    run = root / "level0"
    shutil.copytree(realdata / "msinsight/pytorch/db/level0", run)
    with opened(empty, root, run) as (page, _):
        items = advice(page, run)
        check_named(empty, items)
        # level 0 writes every HCCL task's type, transport and link as N/A and its size as -1 (no Memcpy to
        # check), and analysis.db holds no communication summary
        assert items["Byte Alignment Analysis"] == {"name": [], "rankId": []}
        assert items["Bandwidth Contention Analysis"]["name"] == items["Communication Retransmission Analysis"][
            "name"] == []
        assert items["Packet Analysis"]["Small Size Proportion(%)"] == ["0.000000", "0.000000"]


def entry(start_us: float, elapse_ms: float, transport: str, transit_ms: float, bandwidth: float) -> dict:
    """One operator of a rank's communication summary moving 0.5 MB over ``transport``."""
    return CommunicationEntryFactory(
        time_info={"Start Timestamp(us)": start_us, "Elapse Time(ms)": elapse_ms, "Transit Time(ms)": transit_ms,
                   "Wait Time(ms)": 0.0, "Synchronization Time(ms)": 0.0, "Idle Time(ms)": 0.0,
                   "Wait Time Ratio": 0.0, "Synchronization Time Ratio": 0.0},
        bandwidth_info={transport: TransportStatsFactory(transit_size=0.5, transit_time=transit_ms, bandwidth=bandwidth,
                                                         size_distribution={"0.5": [1, transit_ms]})})


#: where RankDbFactory's ranks start (rank r: r ms later); their MatMul_1 runs 5 to 7.5 us after it, their
#: hcom_allReduce__1 7.9 to 9.1 us after it
TS0 = 1_736_410_576_000_000_000
#: the allReduce's Memcpy / Reduce tasks: (task type, transport, link, bytes) with the enums' ids of RankDbFactory;
#: aligned, on chip, small, over RDMA: none unaligned as the server checks
TASKS = (("Memcpy", 0, 1, 1024), ("Reduce_Inline", 0, 0, 1000), ("Memcpy", 0, 1, 500), ("Memcpy", 1, 3, 1000))
UNALIGNED = ("Reduce_Inline", 0, 1, 1000)


def summary(rank: int, planted: bool) -> dict:
    """A rank's communication summary: the allReduce from 6 us for 2 us beside the MatMul over SDMA at 20 GB/s
    (planted on rank 1: 10 GB/s), an allReduce__2 at 5 GB/s after every MatMul, and hcom_send__3 over RDMA for
    5000 ms, 4500 ms in transit (not planted: rank 0's takes 3000 ms)."""
    start_us = (TS0 + rank * 1_000_000) / 1000
    return {"step50": {"p2p": {
        f"hcom_send__3@{GROUP}": entry(start_us + 50_000, 5000.0 if planted or rank else 3000.0, "RDMA", 4500.0, 0.1)},
        "collective": {
            f"hcom_allReduce__1@{GROUP}": entry(start_us + 6, 0.002, "SDMA", 0.001,
                                                10.0 if planted and rank == 1 else 20.0),
            f"hcom_allReduce__2@{GROUP}": entry(start_us + 20, 0.002, "SDMA", 0.001, 5.0)}}}


def db_rank(output, rank: int, tasks, document: dict) -> None:
    """A rank db (RankDbFactory's, its allReduce given ``tasks`` too) and its analysis.db."""
    made = RankDbFactory(path=output / f"ascend_pytorch_profiler_{rank}.db", rank_id=rank)
    alter_db(made.path, "INSERT INTO STRING_IDS VALUES (9001, 'Memcpy'), (9002, 'Reduce_Inline')", *(
        "INSERT INTO COMMUNICATION_TASK_INFO SELECT id, 12, "
        f"{9001 if task == 'Memcpy' else 9002}, 0, id, 5, 65535, 0, 1, {transport}, {size}, 3, {link}, 1 "
        "FROM STRING_IDS WHERE value = 'hcom_allReduce__1'" for task, transport, link, size in tasks))
    AnalysisDbFactory(path=output / "analysis.db", communication=document)


def us(ns: int) -> str:
    """A time in ns as the text exports write us: three decimals."""
    return "{}.{:03d}".format(*divmod(ns, 1000))


def text_rank(output, rank: int, tasks, document: dict) -> None:
    """The same rank exported as text: kernel_details.csv with the MatMul, trace_view.json with the HCCL
    process's allReduce and its task slices (their fields in the args, as torch_npu writes them), and
    communication.json."""
    ts0 = TS0 + rank * 1_000_000
    ProfilerInfoFactory(path=output.parent / f"profiler_info_{rank}.json",
                        document={**ProfilerInfoFactory.build(path=None).document, "rank_id": rank})
    KernelDetailsFactory(path=output / "kernel_details.csv", rows=[
        KernelRowFactory(name="aclnnMm_MatMulCommon_MatMulV2", start=us(ts0 + 5_000), duration="2.500")])
    links, transports = dict(enumerate(("ON_CHIP", "HCCS", "PCIE", "ROCE"))), dict(enumerate(("SDMA", "RDMA")))
    TraceFileFactory(path=output / "trace_view.json", events=[
        EventFactory(ph="M", name="process_name", pid=900, tid=0, ts=None, dur=None, cat=None,
                     args={"name": "HCCL"}),
        EventFactory(name="hcom_allReduce__1", pid=900, tid=0, ts=us(ts0 + 7_900), dur=1.2, cat=None,
                     args={"alg_type": "MESH-RING", "count": 1024}),
        *(EventFactory(name=task, pid=900, tid=1, ts=us(ts0 + 8_000 + 100 * i), dur=0.05, cat=None, args={
            "task type": task, "src rank": 0, "dst rank": 1, "transport type": transports[transport],
            "size(Byte)": size, "data type": "FP16", "link type": links[link]})
          for i, (task, transport, link, size) in enumerate(tasks))])
    CommunicationJsonFactory(path=output / "communication.json", document=document)


def factory_cluster(run, export: str, planted: bool) -> None:
    """Two ranks exported as ``export`` (db or text): RankDbFactory's MatMul and allReduce with TASKS (planted:
    rank 1's allReduce moves 1000 bytes more over SDMA/HCCS) and each rank's summary()."""
    for rank in (0, 1):
        output = run / f"rank{rank}_ascend_pt" / "ASCEND_PROFILER_OUTPUT"
        tasks = [*TASKS, UNALIGNED] if planted and rank == 1 else list(TASKS)
        {"db": db_rank, "text": text_rank}[export](output, rank, tasks, summary(rank, planted))


@pytest.mark.parametrize("export", ("db", "text"))
@pytest.mark.parametrize("planted", (True, False))
def test_a_factory_cluster_shows_what_is_planted(empty, root, export, planted):
    run = root / "planted"
    factory_cluster(run, export, planted)
    with opened(empty, root, run) as (page, _):
        items = advice(page, run)
        check_named(empty, items)
        if not planted:
            assert items["Byte Alignment Analysis"] == {"name": [], "rankId": []}
            assert items["Bandwidth Contention Analysis"]["name"] == []
            assert items["Communication Retransmission Analysis"] == {"group name": [], "name": []}
            return
        assert items["Byte Alignment Analysis"] == {"name": ["hcom_allReduce__1"], "rankId": ["1"]}
        assert items["Bandwidth Contention Analysis"] == {
            "bandwidth(GB/s)": ["10.000000"], "duration(us)": ["2.000000"], "name": ["hcom_allReduce__1"],
            "rankId": ["1"]}
        assert items["Communication Retransmission Analysis"] == {"group name": ["(0, 1)"], "name": ["hcom_send__3"]}
