"""One definition of a GPU (kineto) trace's kernels (issue 33): the gpu_kernel view, and the
kernel answer that lists them (issue 34).

A trace's slices of category kernel (or Kernel) are GPU kernels, an NCCL one communication, the
others class gpu. Rank 0's trace (no kernel input) has step 1 = [0, 1000): a GEMM at 100, an NCCL
all-reduce at 300 and a Kernel-category copy at 700, beside a host slice that is no kernel.
gpu_kernel lists the three; step_activity counts the NCCL one as communication; the kernel answer
(kernel_answer: top_kernels, compare, the rules, the report) lists the two others, as it leaves
HCCL operators out, unless a kernel input answers the rank. On pytorch/kineto's ResNet-50 sample,
top_kernels and the report give the trace's own kernel figures.
"""

from __future__ import annotations

import gzip
import json
from collections import Counter

import pytest

from factories.warehouse_rows import KernelFactory, SliceFactory, StepFactory, ThreadFactory, rank_source
from warehouse import db, ingest, queries, report

#: pytorch/kineto's tb_plugin sample: ResNet-50 training on a CUDA GPU, 8,772 kernels
RESNET50 = "kineto/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz"

GEMM = "ampere_sgemm_128x64_nn"
NCCL = "ncclKernel_AllReduce_RING_LL_Sum_float"
COPY = "Memcpy DtoD (Device -> Device)"


@pytest.fixture
def trace(rows):
    source_id = rank_source(0, kind="trace_json")
    StepFactory(rank_id=0, step_id=1, start_ns=0, end_ns=1000, source_id=source_id)
    stream = ThreadFactory(process__source_id=source_id, process__rank_id=0, name="stream 7")
    host = ThreadFactory(process__source_id=source_id, process__rank_id=0, name="python")
    SliceFactory(thread_id=host["id"], ts=50, dur=900, name="aten::mm", category="cpu_op")
    SliceFactory(thread_id=stream["id"], ts=100, dur=100, name=GEMM, category="kernel")
    SliceFactory(thread_id=stream["id"], ts=300, dur=300, name=NCCL, category="kernel")
    SliceFactory(thread_id=stream["id"], ts=700, dur=50, name=COPY, category="Kernel")
    return rows


def test_gpu_kernel_lists_the_kernel_slices_with_nccl_as_communication(trace):
    kernels = trace.execute("SELECT rank_id, name, op_class, ts, dur FROM gpu_kernel ORDER BY ts").fetchall()
    assert kernels == [(0, GEMM, "gpu", 100, 100), (0, NCCL, "communication", 300, 300), (0, COPY, "gpu", 700, 50)]


def test_step_activity_counts_the_nccl_kernel_as_communication(trace):
    activity = trace.execute("SELECT step_id, kind, unit, lo, hi FROM step_activity ORDER BY lo").fetchall()
    assert activity == [(1, "compute", "kernel", 100, 200), (1, "communication", "kernel", 300, 600),
                        (1, "compute", "kernel", 700, 750)]
    computing, communication, overlapped = trace.execute(
        "SELECT computing_ns, communication_ns, overlapped_ns FROM step_breakdown").fetchone()
    assert (computing, communication, overlapped) == (150, 300, 0)


def test_compare_kernels_leaves_the_nccl_kernel_out(trace, run):
    (run_id,) = trace.execute("SELECT run_id FROM run").fetchone()
    listed = {r["name"]: r["run_count"] for r in run("compare_kernels", run_id=run_id, base_run_id=run_id)}
    assert listed == {GEMM: 1, COPY: 1}


def test_top_kernels_lists_the_gpu_kernels_and_leaves_nccl_out(trace, run):
    listed = [(r["name"], r["op_class"], r["count"], r["total_ns"], r["ratio"]) for r in run("top_kernels")]
    assert listed == [(GEMM, "gpu", 1, 100, 100 / 150), (COPY, "gpu", 1, 50, 50 / 150)]


def test_a_rank_a_kernel_input_answers_keeps_its_kernels_alone(trace):
    # an Ascend rank's trace_view.json beside its kernel_details.csv: the trace's slices are not read again
    KernelFactory(source_id=rank_source(0, kind="kernel_details_csv"), rank_id=0, name="MatMul_1", ts=100, dur=90)
    assert trace.execute("SELECT name, origin, op_class FROM kernel_answer").fetchall() == [
        ("MatMul_1", "kernel_details_csv", "aic")]


def test_the_report_counts_the_gpu_kernels(trace):
    (chapter,) = report.collect(trace, "warehouse.db")
    assert chapter.counts["kernels"] == 2


def test_a_gpu_kernel_is_evidence_as_its_slice(trace, run):
    (run_id,) = trace.execute("SELECT run_id FROM run").fetchone()
    (gemm_slice,) = trace.execute("SELECT slice_id FROM gpu_kernel WHERE name = ?", (GEMM,)).fetchone()
    params = {"run_id": str(run_id), "name": GEMM, "exact": "1"}
    _, evidence = queries.get("compare_kernel_evidence").run(trace, params)
    assert [(table, value) for _, _, table, _, _, value, _ in evidence] == [("slice", 100)]
    hotspots = {r["subject"]: (r["evidence_table"], r["evidence_slice_id"], r["evidence_kernel_id"])
                for r in run("rule_kernel_hotspot")}
    assert hotspots[GEMM] == ("slice", gemm_slice, None)


def _trace_kernels(path) -> tuple[Counter, Counter]:
    """Runs and summed ns per name of a kineto trace's kernel events, read from the JSON itself."""
    with gzip.open(path) as stream:
        events = json.load(stream)["traceEvents"]
    runs, total_ns = Counter(), Counter()
    for e in events:
        if e.get("ph") == "X" and str(e.get("cat")).lower() == "kernel":
            runs[e["name"]] += 1
            total_ns[e["name"]] += round(e["dur"] * 1000)  # kineto's dur: integer µs
    return runs, total_ns


@pytest.fixture(scope="module")
def resnet50(tmp_path_factory, realdata):
    conn = db.connect(tmp_path_factory.mktemp("kineto") / "warehouse.db")
    ingest.ingest_paths(conn, [realdata / RESNET50])
    return conn, _trace_kernels(realdata / RESNET50)


def test_top_kernels_of_the_resnet50_sample_are_its_cudnn_kernels(resnet50):
    conn, (runs, total_ns) = resnet50
    _, rows = queries.get("top_kernels").run(conn, {"limit": "1000"})
    listed = {name: (count, total) for _, name, op_class, count, total, *_ in rows if op_class == "gpu"}
    assert len(listed) == len(rows) == len(runs)
    cudnn = [name for name in runs if "cudnn" in name]
    assert sum(listed[n][0] for n in cudnn) == sum(runs[n] for n in cudnn) == 2_370
    assert sum(listed[n][1] for n in cudnn) == sum(total_ns[n] for n in cudnn) == 375_022_000
    (top, top_ns), = total_ns.most_common(1)
    assert top.startswith("void cudnn::detail::dgrad_engine<")
    assert rows[0][1:5] == (top, "gpu", runs[top], top_ns) == (top, "gpu", 162, 80_756_000)


def test_the_kernel_answer_holds_every_kernel_of_the_resnet50_sample(resnet50):
    conn, (runs, total_ns) = resnet50
    answer = conn.execute("SELECT count(*), sum(dur), count(DISTINCT name) FROM kernel_answer").fetchone()
    assert answer == (sum(runs.values()), sum(total_ns.values()), len(runs)) == (8_772, 591_532_000, 67)
