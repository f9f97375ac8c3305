"""A torch_npu trace_view.json alone answers its steps from its own overlap analysis (trace_overlap_interval).

torch_npu draws, for the device, a process "Overlap Analysis" whose lanes Computing and Communication
are the unions its step trace counts (step_trace_time.csv). A rank no kernel input answers (the trace
alone, without kernel_details.csv or a rank db) has no kernels to derive its steps from: step_activity
reads those two lanes instead, and the breakdown follows from them by the same arithmetic. Rank 0's
trace below has step 1 = [0, 1000): Computing [100, 200) and [250, 400), Communication [300, 600), the
other two lanes (Communication(Not Overlapped), Free) drawn too but not read. On the real level0 and
level1 traces, each alone, the answer is the profiler's step_trace_time.csv of the same run.
"""

from __future__ import annotations

import csv
import shutil

import pytest

from factories.warehouse_rows import KernelFactory, SliceFactory, StepFactory, ThreadFactory, rank_source
from warehouse import db, ingest

#: the real torch_npu text exports whose trace_view.json and step_trace_time.csv are compared
REAL_RANKS = [f"msinsight/pytorch/text/{level}/{rank}_ascend_pt/ASCEND_PROFILER_OUTPUT"
              for level in ("level0", "level1") for rank in ("rank0", "rank1")]
#: step_trace_time.csv's column for each step_answer figure
PROFILER_COLUMNS = {"computing_ns": "Computing", "communication_not_overlapped_ns": "Communication(Not Overlapped)",
                    "overlapped_ns": "Overlapped", "communication_ns": "Communication", "free_ns": "Free",
                    "bubble_ns": "Bubble", "stage_ns": "Stage", "preparing_ns": "Preparing"}
#: torch_npu gives Stage and Preparing in steps of 0.25 us (every real sample's value is one)
PROFILER_STEP_NS = 250


@pytest.fixture
def trace(rows):
    source_id = rank_source(0, kind="trace_json")
    StepFactory(rank_id=0, step_id=1, start_ns=0, end_ns=1000, source_id=source_id)
    host = ThreadFactory(process__source_id=source_id, process__rank_id=0, name="python")
    SliceFactory(thread_id=host["id"], ts=50, dur=900, name="aten::mm", category="cpu_op")
    lanes = {}
    for lane in ("Computing", "Communication", "Communication(Not Overlapped)", "Free"):
        lanes[lane] = ThreadFactory(process__source_id=source_id, process__rank_id=0,
                                    process__name="Overlap Analysis", name=lane)["id"]
    for lane, ts, dur in (("Computing", 100, 100), ("Computing", 250, 150), ("Communication", 300, 300),
                          ("Communication(Not Overlapped)", 400, 200), ("Free", 200, 50)):
        SliceFactory(thread_id=lanes[lane], ts=ts, dur=dur, name=lane)
    return rows


def test_a_trace_alone_answers_its_step_from_its_overlap_lanes(trace):
    activity = trace.execute("SELECT step_id, kind, unit, lo, hi FROM step_activity ORDER BY lo").fetchall()
    assert activity == [(1, "compute", "interval", 100, 200), (1, "compute", "interval", 250, 400),
                        (1, "communication", "interval", 300, 600)]
    answer = trace.execute(
        "SELECT computing_ns, communication_not_overlapped_ns, overlapped_ns, communication_ns, free_ns, stage_ns, "
        "preparing_ns, bubble_ns, basis FROM step_answer").fetchall()
    # busy = [100, 200) + [250, 600) = 450 of the span [100, 600); computing 250, communication 300
    assert answer == [(250, 200, 100, 300, 50, 500, 100, 0, "derived")]


def test_a_rank_a_kernel_input_answers_reads_its_kernels_not_the_lanes(trace):
    # trace_view.json beside kernel_details.csv: the kernels answer, the lanes are not read again
    KernelFactory(source_id=rank_source(0, kind="kernel_details_csv"), rank_id=0, step_id=1, name="MatMul_1",
                  ts=100, dur=90)
    assert trace.execute("SELECT kind, unit, lo, hi FROM step_activity").fetchall() == [("compute", "kernel", 100, 190)]
    assert trace.execute("SELECT computing_ns, free_ns FROM step_answer").fetchall() == [(90, 0)]


@pytest.mark.parametrize("folder", REAL_RANKS)
def test_a_real_trace_alone_answers_what_its_step_trace_time_says(tmp_path, realdata, folder):
    shutil.copy(realdata / folder / "trace_view.json.gz", tmp_path)
    conn = db.connect(tmp_path / "warehouse.db")
    ingest.ingest_paths(conn, [tmp_path / "trace_view.json.gz"])
    answers = [dict(zip(PROFILER_COLUMNS, row)) for row in conn.execute(
        f"SELECT {', '.join(PROFILER_COLUMNS)} FROM step_answer ORDER BY step_id")]
    with open(realdata / folder / "step_trace_time.csv", newline="") as stream:
        profiler = list(csv.DictReader(stream))
    assert conn.execute("SELECT step_id FROM step_answer").fetchall() == [(int(row["Step"]),) for row in profiler]
    for ours, theirs in zip(answers, profiler):
        for column, name in PROFILER_COLUMNS.items():
            expected = round(float(theirs[name]) * 1000)
            tolerance = PROFILER_STEP_NS if name in ("Stage", "Preparing") else 0
            assert abs(ours[column] - expected) <= tolerance, (folder, name, ours[column], expected)
