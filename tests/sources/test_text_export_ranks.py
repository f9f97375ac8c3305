"""A 4-rank torch_npu text export with an analysis.db beside each rank's files (issue 34): every rank's
HCCL operators answer communication_ops, as every rank's summary answers communication_time_summary,
a rank written without kernel_details.csv too (its communication summary's operators)."""

from __future__ import annotations

import pytest

from tests.factories.analysis_db import AnalysisDbFactory
from tests.factories.text_exports import (
    CommunicationEntryFactory,
    CommunicationJsonFactory,
    CommunicationMatrixFactory,
    HcclKernelRowFactory,
    KernelDetailsFactory,
    KernelRowFactory,
    ProfilerInfoFactory,
    ProfilerMetadataFactory,
    StepTraceTimeFactory,
)
from warehouse import audits, queries
from warehouse.ingest import ingest_paths

AUDITS = {audit.name: audit for audit in audits.load_audits()}

RANKS = range(4)


def write_rank(run, folder_name: str, rank: int) -> None:
    """One rank as torch_npu writes it: profiler_info_{rank}.json beside ASCEND_PROFILER_OUTPUT, which
    holds kernel_details.csv (a MatMul and an allReduce lasting 1000 + rank us), communication.json
    and the analysis.db derived from it."""
    folder = run / folder_name
    output = folder / "ASCEND_PROFILER_OUTPUT"
    info = ProfilerInfoFactory.build(path=None).document | {"rank_id": rank}
    ProfilerInfoFactory(path=folder / f"profiler_info_{rank}.json", document=info)
    KernelDetailsFactory(path=output / "kernel_details.csv", rows=[
        KernelRowFactory(), HcclKernelRowFactory(name="hcom_allReduce__586_0_1", duration=f"{1000 + rank}.5")])
    # the same capture: its communication.json lists the operator kernel_details.csv holds, no other
    communication = CommunicationJsonFactory(path=output / "communication.json", document={"step50": {
        "p2p": {}, "collective": {"hcom_allReduce__586_0_1@17522688603477080586": CommunicationEntryFactory()}}})
    AnalysisDbFactory(path=output / "analysis.db", communication=communication.document)


@pytest.mark.parametrize("folder_name", (
    "rank{rank}_ascend_pt",  # the worker name states the rank
    "node{node}_{pid}_20250109101010123_ascend_pt",  # torch_npu's default: host, pid, time; profiler_info says
))
def test_every_rank_answers_communication_ops(warehouse_db, tmp_path, folder_name):
    run = tmp_path / "run"
    for rank in RANKS:
        write_rank(run, folder_name.format(rank=rank, node=rank // 2, pid=3000 + rank), rank)
    results = ingest_paths(warehouse_db, [run])
    assert {result.status for result in results} == {"ok"} and len(results) == 4 * 4
    _, ops = queries.get("communication_ops").run(warehouse_db)
    assert [(row[1], row[2], row[3], row[4]) for row in ops] == [
        (rank, "hcom_allReduce_", 1, (1000 + rank) * 1000 + 500) for rank in RANKS]
    _, summary = queries.get("communication_time_summary").run(warehouse_db)
    assert [row[1] for row in summary] == list(RANKS)


# Issue 34 on MindStudio Insight's 4-rank level-2 text export: ranks 1 and 3 carry analysis.db,
# communication.json, communication_matrix.json, step_trace_time.csv, profiler_info_N.json and
# profiler_metadata.json, no kernel_details.csv nor trace_view.json; ranks 0 and 2 carry
# kernel_details.csv too. Each rank runs three operators of one 4-rank group: two all-reduces and a
# broadcast; rank r starts the first all-reduce 100 us after rank r - 1 and spends 1.25 (r + 1) ms on
# it (binary fractions, so ms, us and ns agree exactly).
START_US = 1736408883700000
GROUP = "17522688603477080586"
KERNEL_RANKS = (0, 2)


def planted_operators(rank: int) -> list[tuple[str, int, float]]:
    """(name, start in us, Elapse Time in ms) of the rank's operators."""
    return [
        ("hcom_allReduce__586_0_1", START_US + 100 * rank, 1.25 * (rank + 1)),
        ("hcom_allReduce__586_1_1", START_US + 10_000 + rank, 0.5),
        ("hcom_broadcast__586_2_1", START_US + 20_000 + rank, 0.25 * (rank + 1)),
    ]


def write_level2_rank(run, rank: int, kernel_ms: dict[str, float] | None = None) -> None:
    """One rank of the level-2 layout. A rank of KERNEL_RANKS lists its operators in kernel_details.csv
    too, lasting what communication.json says unless ``kernel_ms`` says otherwise (name -> ms)."""
    folder = run / f"rank_{rank}_ascend_pt"
    output = folder / "ASCEND_PROFILER_OUTPUT"
    ProfilerInfoFactory(path=folder / f"profiler_info_{rank}.json",
                        document=ProfilerInfoFactory.build(path=None).document | {"rank_id": rank})
    ProfilerMetadataFactory(path=folder / "profiler_metadata.json", document={"ENV_VARIABLES": {"HCCL_RDMA_TC": "4"}})
    operators = planted_operators(rank)
    document = {"step50": {"p2p": {}, "collective": {
        f"{name}@{GROUP}": CommunicationEntryFactory(time_info={
            "Start Timestamp(us)": float(start), "Elapse Time(ms)": ms, "Transit Time(ms)": ms / 2,
            "Wait Time(ms)": ms / 4, "Synchronization Time(ms)": 0.0, "Idle Time(ms)": ms / 4,
            "Wait Time Ratio": 0.3333, "Synchronization Time Ratio": 0.0,
        })
        for name, start, ms in operators
    }}}
    communication = CommunicationJsonFactory(path=output / "communication.json", document=document)
    CommunicationMatrixFactory(path=output / "communication_matrix.json")
    steps = StepTraceTimeFactory(path=output / "step_trace_time.csv")
    AnalysisDbFactory(path=output / "analysis.db", step_trace=steps.rows, communication=communication.document)
    if rank in KERNEL_RANKS:
        kernel_ms = kernel_ms or {}
        hccl = [HcclKernelRowFactory(name=name, type=name[:name.index("__") + 1], start=f"{start}.000",
                                     duration=f"{1000 * kernel_ms.get(name, ms):.3f}")
                for name, start, ms in operators]
        KernelDetailsFactory(path=output / "kernel_details.csv",
                             rows=[KernelRowFactory(start=f"{START_US - 5_000 + rank}.000"), *hccl])


def planted_ops(rank: int) -> list[tuple]:
    """communication_ops' rows of the rank: (rank, type, count, total ns, mean ns, longest ns)."""
    first, _, broadcast = (round(ms * 1_000_000) for _, _, ms in planted_operators(rank))
    reduces = first + 500_000
    return sorted([(rank, "hcom_allReduce_", 2, reduces, reduces // 2, max(first, 500_000)),
                   (rank, "hcom_broadcast_", 1, broadcast, broadcast, broadcast)], key=lambda row: -row[3])


@pytest.fixture
def level2(warehouse_db, tmp_path):
    run = tmp_path / "level2"
    for rank in RANKS:
        write_level2_rank(run, rank)
    results = ingest_paths(warehouse_db, [run])
    assert {result.status for result in results} == {"ok"}
    assert len(results) == 2 * 7 + 2 * 6
    return warehouse_db


def test_a_rank_without_kernel_details_answers_communication_ops_from_its_summary(level2):
    _, ops = queries.get("communication_ops").run(level2)
    assert [row[1:] for row in ops] == [row for rank in RANKS for row in planted_ops(rank)]
    # ranks 0 and 2 from their HCCL kernels, ranks 1 and 3 from analysis.db (it answers before communication.json)
    read = level2.execute(
        "SELECT DISTINCT h.rank_id, h.table_name, s.kind FROM hccl_operator AS h JOIN source AS s ON s.id = h.source_id "
        "ORDER BY h.rank_id").fetchall()
    assert read == [(0, "kernel", "kernel_details_csv"), (1, "communication_time", "analysis_db"),
                    (2, "kernel", "kernel_details_csv"), (3, "communication_time", "analysis_db")]
    # the summary's step is the operator's step
    steps = level2.execute("SELECT DISTINCT rank_id, step_id FROM kernel_step WHERE op_class = 'communication' "
                           "ORDER BY rank_id").fetchall()
    assert steps == [(rank, 50) for rank in RANKS]
    # the kernels and both summaries of every rank agree
    assert audits.run_audit(level2, AUDITS["hccl_operators_agree"]).violations == 0


def test_every_rank_takes_part_in_the_collectives(level2):
    _, slow = queries.get("communication_slow_rank").run(level2)
    # (rank, instances it took part in, last to start): rank 3 starts every operator last
    assert [(row[1], row[2], row[3]) for row in slow] == [(3, 3, 3), (0, 3, 0), (1, 3, 0), (2, 3, 0)]
    columns, rows = queries.get("communication_bottleneck").run(level2)
    first = dict(zip(columns, next(row for row in rows if row[1] == "hcom_allReduce__586_0_1")))
    # rank 3 came 300 us late; no input says what its device did meanwhile: not idle, unknown
    assert (first["fast_rank_id"], first["slow_rank_id"], first["wait_ns"]) == (0, 3, 300_000)
    assert (first["slow_rank_kernel_ns"], first["reason"]) == (None, "slow rank's kernels not recorded")
    # a rank's idle gaps need its kernels: ranks 1 and 3 have none recorded
    _, gaps = queries.get("free_analysis").run(level2, {"min_gap_ns": 0})
    assert {row[1] for row in gaps} == set(KERNEL_RANKS)


def test_kernels_answer_where_they_exist_and_the_audit_says_where_the_summary_differs(warehouse_db, tmp_path):
    run = tmp_path / "level2"
    for rank in RANKS:
        write_level2_rank(run, rank, kernel_ms={"hcom_broadcast__586_2_1": 2.0} if rank == 2 else None)
    ingest_paths(warehouse_db, [run])
    _, ops = queries.get("communication_ops").run(warehouse_db, {"rank_id": 2})
    assert [row[2:5] for row in ops] == [("hcom_allReduce_", 2, 4_250_000), ("hcom_broadcast_", 1, 2_000_000)]
    result = audits.run_audit(warehouse_db, AUDITS["hccl_operators_agree"])
    found = sorted((row[1], row[2], row[3], row[7], row[8]) for row in result.examples)
    assert found == [(2, "hcom_broadcast_", kind, 750_000, 2_000_000) for kind in ("analysis_db", "communication_json")]


def test_a_rank_whose_kernels_lack_an_operator_its_summary_lists_answers_from_the_summary(warehouse_db, tmp_path):
    """kernel_details.csv cut short (as MindStudio Insight's server test data keeps 21 rows of each rank's)
    holds the first all-reduce only; communication.json lists both: the summary is the whole record, so
    communication_ops counts both, and the kernel row is not counted beside it."""
    output = tmp_path / "run" / "rank0_ascend_pt" / "ASCEND_PROFILER_OUTPUT"
    ProfilerInfoFactory(path=output.parent / "profiler_info_0.json",
                        document=ProfilerInfoFactory.build(path=None).document | {"rank_id": 0})
    KernelDetailsFactory(path=output / "kernel_details.csv", rows=[
        KernelRowFactory(), HcclKernelRowFactory(name="hcom_allReduce__586_0_1", duration="79089.52")])
    communication = CommunicationJsonFactory(path=output / "communication.json")  # 586_0_1 and 586_1_1
    ingest_paths(warehouse_db, [tmp_path / "run"])
    assert warehouse_db.execute("SELECT rank_id, reason FROM hccl_summary_rank").fetchall() == [(0, "kernels partial")]
    entries = communication.document["step50"]["collective"].values()
    elapse_ns = sum(round(entry["Communication Time Info"]["Elapse Time(ms)"] * 1e6) for entry in entries)
    _, ops = queries.get("communication_ops").run(warehouse_db)
    assert [(row[1], row[2], row[3], row[4]) for row in ops] == [(0, "hcom_allReduce_", 2, elapse_ns)]
    steps = warehouse_db.execute("SELECT table_name, step_id FROM kernel_step WHERE op_class = 'communication'")
    assert sorted(steps.fetchall()) == [("communication_time", 50), ("communication_time", 50)]
