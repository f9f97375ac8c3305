"""A 4-rank torch_npu text export with an analysis.db beside each rank's files (issue 34): every rank's
HCCL operators answer communication_ops, as every rank's summary answers communication_time_summary."""

from __future__ import annotations

import pytest

from tests.factories.analysis_db import AnalysisDbFactory
from tests.factories.text_exports import (
    CommunicationJsonFactory,
    HcclKernelRowFactory,
    KernelDetailsFactory,
    KernelRowFactory,
    ProfilerInfoFactory,
)
from warehouse import queries
from warehouse.ingest import ingest_paths

RANKS = range(4)


def write_rank(run, folder_name: str, rank: int) -> None:
    """One rank as torch_npu writes it: profiler_info_{rank}.json beside ASCEND_PROFILER_OUTPUT, which
    holds kernel_details.csv (a MatMul and an allReduce lasting 1000 + rank us), communication.json
    and the analysis.db derived from it."""
    folder = run / folder_name
    output = folder / "ASCEND_PROFILER_OUTPUT"
    info = ProfilerInfoFactory.build(path=None).document | {"rank_id": rank}
    ProfilerInfoFactory(path=folder / f"profiler_info_{rank}.json", document=info)
    KernelDetailsFactory(path=output / "kernel_details.csv",
                         rows=[KernelRowFactory(), HcclKernelRowFactory(duration=f"{1000 + rank}.5")])
    communication = CommunicationJsonFactory(path=output / "communication.json")
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
