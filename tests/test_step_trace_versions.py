"""The step breakdown derived from a rank db follows the torch_npu version that wrote it (issue 32).

torch_npu's step trace (analysis.db StepTraceTime) measured Communication over the HCCL tasks
(COMMUNICATION_TASK_INFO joined to TASK) until 6.0.rc3, over the HCCL operators (COMMUNICATION_OP)
since; the rank db's HOST_INFO.hostUid, declared INTEGER before 6.0.rc3 and TEXT since, tells them apart.
The factory's step 1 holds one kernel (5.0-7.5 us after its start), one HCCL operator (7.9-9.1 us) and
its one HCCL task (8.0-9.0 us): each version's profiler figure, worked by hand, is below.
"""

from __future__ import annotations

import pytest

from factories.analysis_db import AnalysisDbFactory
from factories.rank_db import RankDbFactory
from warehouse import audits, db
from warehouse.ingest import ingest_paths

FIGURES = ("computing_ns", "communication_not_overlapped_ns", "overlapped_ns", "communication_ns", "free_ns",
           "stage_ns", "bubble_ns", "preparing_ns")
#: StepTraceTime's column for each figure (step_trace_time.csv's header, as the factory takes it)
COLUMNS = ("Computing", "Communication(Not Overlapped)", "Overlapped", "Communication", "Free", "Stage", "Bubble",
           "Preparing")
#: step 1 of the factory's rank db, in ns, as each torch_npu version computes it
PROFILER = {
    # the operator: communication 7.9-9.1 us (1200 ns), busy 5.0-7.5 and 7.9-9.1, free the 400 ns between
    "operator": (2_500, 1_200, 0, 1_200, 400, 4_100, 0, 5_000),
    # the task: communication 8.0-9.0 us (1000 ns), free the 500 ns between the kernel and it
    "task": (2_500, 1_000, 0, 1_000, 500, 4_000, 0, 5_000),
}


@pytest.mark.parametrize(("torch_npu_2024", "unit"), ((False, "operator"), (True, "task")))
def test_the_derived_breakdown_is_the_profilers_of_the_version_that_wrote_the_rank(tmp_path, torch_npu_2024, unit):
    folder = tmp_path / "job" / "rank0_ascend_pt" / "ASCEND_PROFILER_OUTPUT"
    folder.mkdir(parents=True)
    RankDbFactory(path=folder / "ascend_pytorch_profiler_0.db", rank_id=0, torch_npu_2024=torch_npu_2024)
    row = {"Step": "1", **{column: str(ns / 1000) for column, ns in zip(COLUMNS, PROFILER[unit])},
           "Communication(Not Overlapped and Exclude Receive)": str(PROFILER[unit][1] / 1000)}
    AnalysisDbFactory(path=folder / "analysis.db", step_trace=[row], omit=("CommAnalyzerTime",))
    conn = db.connect(tmp_path / "w.db")
    results = ingest_paths(conn, [tmp_path / "job"])
    assert [r.status for r in results] == ["ok", "ok"]

    assert conn.execute("SELECT value FROM run_metadata WHERE name = 'stepTraceCommunication'").fetchall() == [(unit,)]
    derived = conn.execute(f"SELECT {', '.join(FIGURES)} FROM step_breakdown WHERE step_id = 1").fetchone()
    assert derived == PROFILER[unit]
    assert conn.execute("SELECT count(*) FROM step_activity WHERE step_id = 1 AND kind = 'communication' "
                        "AND counted = 1 AND unit = ?", (unit,)).fetchone() == (1,)
    assert [r.audit.name for r in audits.run_audits(conn) if not r.passed] == []
