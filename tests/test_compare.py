"""``warehouse compare`` (issue 17): two runs named by name or id, what differs between them said first
(issue 35), the answers printed, the report escaped; labels through ``warehouse ingest --label``; two GPU
(kineto) traces compared by kernel name; real unrelated runs in one warehouse, none a regression of another;
how the ranks pair said up front (by place, as each run's only rank, by rank id)."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

from factories import warehouse_rows
from factories.trace_json import EventFactory, render
from tests.queries.test_compare_queries import renumbered_runs
from warehouse import db, ingest
from warehouse.analysis import findings
from warehouse.cli import cli

HOSTILE = '<img src=x onerror="alert(1)">'


def two_runs(path, names=("base", "after")):
    """Runs ``names`` of one rank, one step and one kernel (named :data:`HOSTILE`), the second's kernel
    twice as long."""
    conn = db.connect(path)
    with warehouse_rows.bound(conn):
        for name, dur in zip(names, (1000, 2000)):
            source = warehouse_rows.rank_source(0, run=name)
            warehouse_rows.StepFactory(rank_id=0, step_id=1, start_ns=0, end_ns=10_000, source_id=source)
            warehouse_rows.KernelFactory(rank_id=0, source_id=source, name=HOSTILE, ts=100, dur=dur)
        conn.execute("UPDATE run SET start_ns = run_id")
    conn.commit()
    conn.close()


def test_compare_prints_the_answers_and_writes_an_escaped_report(tmp_path, runner):
    path = tmp_path / "w.db"
    two_runs(path)
    result = runner.invoke(cli, ["compare", "--db", str(path), "base", "2", "--format", "json",
                                 "-o", str(tmp_path / "c.html")])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    kernel = document["compare_kernels"][0]
    assert (kernel["name"], kernel["difference_ns"], kernel["ratio"]) == (HOSTILE, 1000, 2.0)
    assert document["base"]["name"] == "base" and document["run"]["name"] == "after"
    # said first: nothing of the device, cluster, export or profiler differs; one kernel, in both
    assert document["differs"] == []
    assert document["comparable"] == {"comparable": True,
                                      "reason": "comparable: the same NPU, 1 rank, 100 % of kernel names shared"}
    html = (tmp_path / "c.html").read_text()
    assert HOSTILE not in html and "<img" not in html
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in html
    assert "Top regressions" in html and "/runs/after/rank0/rank_db" in html  # evidence: the input's path
    assert runner.invoke(cli, ["compare", "--db", str(path), "base", "after", "-o", str(tmp_path / "c.md")]).exit_code == 0
    markdown = (tmp_path / "c.md").read_text()
    assert "<img" not in markdown and "&lt;img" in markdown


def test_the_html_report_shows_run_names_of_markup_as_text(tmp_path, runner):
    """Run names holding an ``<img onerror>`` are text: in the runs table, in the evidence rows' run cells."""
    path = tmp_path / "w.db"
    two_runs(path, (HOSTILE, "after " + HOSTILE))
    result = runner.invoke(cli, ["compare", "--db", str(path), "1", "2", "-o", str(tmp_path / "c.html")])
    assert result.exit_code == 0, result.output
    html = (tmp_path / "c.html").read_text()
    assert "<img" not in html
    tables = {key: [[unescape(cell) for cell in re.findall(r"<td>(.*?)</td>", row)]
                    for row in re.findall(r"<tr>(.*?)</tr>", table)[1:]]
              for key, table in re.findall(r'<h3 id="compare-(\w+)">.*?</h3>\n<table>(.*?)</table>', html)}
    assert tables["runs"] == [["base", "1", HOSTILE, "-"], ["run", "2", "after " + HOSTILE, "-"]]
    # the kernel regression: its evidence row in each run, led by the run's name
    assert [row[0] for row in tables["regression2"]] == [HOSTILE, "after " + HOSTILE]


def test_compare_an_unknown_run_is_one_line(tmp_path, runner):
    path = tmp_path / "w.db"
    two_runs(path)
    result = runner.invoke(cli, ["compare", "--db", str(path), "base", "nope"])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        f"Error: {path}: no run 'nope' in this warehouse (runs: base, after)"]


def gpu_trace(path, sgemm_ms):
    base = 1_700_000_000_000_000

    def at(ms):
        return f"{base + int(ms * 1000)}.000"

    events = [
        EventFactory(name="ProfilerStep#1", cat="user_annotation", ts=at(0), dur=10_000.0),
        EventFactory(name="ampere_sgemm", cat="kernel", pid=0, tid=7, ts=at(1), dur=sgemm_ms * 1000.0),
        EventFactory(name="vectorized_elementwise", cat="kernel", pid=0, tid=7, ts=at(5), dur=1_000.0),
        EventFactory(name="ncclKernel_AllReduce_RING_LL_Sum_float", cat="kernel", pid=0, tid=8, ts=at(6),
                     dur=1_000.0),
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(render(events, shape="kineto"))
    return path


def test_two_kineto_traces_compare_by_kernel_name_and_keep_their_labels(tmp_path, runner):
    path = tmp_path / "w.db"
    for name, sgemm in (("gpu_base", 2), ("gpu_after", 3)):
        trace = gpu_trace(tmp_path / name / "worker0.pt.trace.json", sgemm)
        result = runner.invoke(cli, ["ingest", str(trace), "--db", str(path), "--run", name, "-q",
                                     "--label", f"commit={name}", "--label", "batch=32"])
        assert result.exit_code == 0, result.output
    result = runner.invoke(cli, ["compare", "--db", str(path), "gpu_base", "gpu_after", "--format", "json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["run"]["labels"] == {"batch": "32", "commit": "gpu_after"}
    kernels = [(k["name"], k["matched_by"], k["base_total_ns"], k["run_total_ns"], k["ratio"])
               for k in document["compare_kernels"]]
    # NCCL kernels are communication, not compared as kernels
    assert kernels == [("ampere_sgemm", "name, op_type, input_shapes", 2_000_000, 3_000_000, 1.5),
                       ("vectorized_elementwise", "name, op_type, input_shapes", 1_000_000, 1_000_000, 1.0)]
    duration = [r for r in document["compare_step_time"] if r["scope"] == "overall" and r["component"] == "computing"]
    # computing is the union of the compute kernels: 1-3 (1-4) ms and 5-6 ms
    assert [(r["base_ns"], r["run_ns"]) for r in duration] == [(3_000_000.0, 4_000_000.0)]


def launched_trace(path, kernel: str, dur_us: float):
    """A kineto trace of one step: aten::mm on two 8x8 inputs launches ``kernel`` (the runtime's launch
    call, its ac2g flow to the kernel)."""
    base = 1_700_000_000_000_000
    events = [
        EventFactory(name="ProfilerStep#1", cat="user_annotation", ts=f"{base}.000", dur=1_000.0),
        EventFactory(name="aten::mm", ts=f"{base + 10}.000", dur=100.0, args={"Input Dims": [[8, 8], [8, 8]]}),
        EventFactory(name="cudaLaunchKernel", cat="cuda_runtime", ts=f"{base + 20}.000", dur=20.0),
        EventFactory(ph="s", name="ac2g", cat="ac2g", id=1, dur=None, ts=f"{base + 25}.000"),
        EventFactory(name=kernel, cat="kernel", pid=0, tid=7, ts=f"{base + 200}.000", dur=dur_us),
        EventFactory(ph="f", name="ac2g", cat="ac2g", id=1, bp="e", dur=None, pid=0, tid=7, ts=f"{base + 200}.000"),
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(render(events, shape="kineto"))
    return path


def test_a_kernel_another_gpu_names_otherwise_is_matched_by_its_launching_operator(tmp_path, runner):
    path = tmp_path / "w.db"
    for name, kernel, dur in (("v100", "volta_sgemm_128x64_nn", 30.0), ("a100", "ampere_sgemm_128x64_nn", 20.0)):
        trace = launched_trace(tmp_path / name / "worker0.pt.trace.json", kernel, dur)
        assert runner.invoke(cli, ["ingest", str(trace), "--db", str(path), "--run", name, "-q"]).exit_code == 0
    result = runner.invoke(cli, ["compare", "--db", str(path), "v100", "a100", "--format", "json",
                                 "-o", str(tmp_path / "c.md")])
    assert result.exit_code == 0, result.output
    kernels = [(k["name"], k["base_name"], k["op_type"], k["input_shapes"], k["matched_by"], k["ratio"])
               for k in json.loads(result.stdout)["compare_kernels"]]
    assert kernels == [("ampere_sgemm_128x64_nn", "volta_sgemm_128x64_nn", "aten::mm", "[[8,8],[8,8]]",
                        "op_type, input_shapes", 20 / 30)]
    # the improvement's evidence: each run's own kernel
    report = (tmp_path / "c.md").read_text()
    assert "kernel: ampere_sgemm_128x64_nn (base: volta_sgemm_128x64_nn) (matched by op_type, input_shapes)" in report
    assert report.count("| slice |") == 2


def test_a_malformed_label_is_a_usage_error(tmp_path, runner):
    trace = gpu_trace(tmp_path / "t" / "worker0.pt.trace.json", 2)
    result = runner.invoke(cli, ["ingest", str(trace), "--db", str(tmp_path / "w.db"), "--label", "nokey"])
    assert result.exit_code == 2 and "expected key=value" in result.output


KINETO_V100 = "worker0.1623143089861.pt.trace.json.gz"
HTA_A100 = "rank0.json.gz"


@pytest.fixture(scope="module")
def unrelated(tmp_path_factory, realdata):
    """One warehouse of real runs of three setups: two kineto traces of ResNet50 on a V100 (one rank),
    a trace of rank 0 of a 16-rank job on an A100 (HTA), a 2-rank Ascend 910B rank-db export (level 0)."""
    path = tmp_path_factory.mktemp("unrelated") / "w.db"
    conn = db.connect(path)
    ingest.ingest_paths(conn, [realdata / "kineto", realdata / "hta" / "negative_queue_length_values_check",
                               realdata / "msinsight" / "pytorch" / "db" / "level0"])
    conn.close()
    return path


def test_real_runs_of_other_devices_and_clusters_are_no_regression_of_each_other(unrelated):
    conn = db.connect_readonly(unrelated)
    signatures = conn.execute("SELECT name, device_kind, device_type, cluster_size, export_kind FROM run_signature "
                              "ORDER BY run_id").fetchall()
    assert signatures == [(KINETO_V100, "GPU", "Tesla V100-DGXS-32GB", 1, "kineto"),
                          ("worker0.1623143566756.pt.trace.json.gz", "GPU", "Tesla V100-DGXS-32GB", 1, "kineto"),
                          (HTA_A100, "GPU", "NVIDIA A100-SXM4-80GB", 16, "kineto"),
                          ("level0", "NPU", "Ascend910B", 2, "db")]
    # flagging any run over half its baseline's step, only the V100's second trace has a baseline, its
    # first: the A100 trace (its steps 1.37x the V100's, started after them) and the Ascend run have none
    names = dict(conn.execute("SELECT run_id, name FROM run"))
    flagged = [(names[f.values["run_id"]], names[json.loads(f.values["numbers"])["previous_run_id"]])
               for f in findings.evaluate(conn, "run_regression", {"threshold": 0.5})]
    assert flagged == [("worker0.1623143566756.pt.trace.json.gz", KINETO_V100)]


def test_compare_says_first_that_the_devices_differ(unrelated, runner):
    result = runner.invoke(cli, ["compare", "--db", str(unrelated), KINETO_V100, HTA_A100, "--top", "1"])
    assert result.exit_code == 0, result.output
    # the V100 trace's rank is unknown (-1), the A100 trace is rank 0 of its job: each its run's only rank
    assert result.stdout.splitlines()[2:5] == [
        "differs: device type Tesla V100-DGXS-32GB → NVIDIA A100-SXM4-80GB; cluster size 1 → 16",
        "not comparable: the device type differs (Tesla V100-DGXS-32GB / NVIDIA A100-SXM4-80GB)",
        "ranks paired as each run's only rank; paired ranks of other ids: baseline rank -1 = run rank 0"]


def test_two_real_kineto_traces_pair_as_one_rank_each(unrelated, runner):
    result = runner.invoke(cli, ["compare", "--db", str(unrelated), KINETO_V100,
                                 "worker0.1623143566756.pt.trace.json.gz", "--format", "json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["rank_pairing"] == {"paired_by": "only rank", "note": "ranks paired as each run's only rank"}
    ranks = {(r["rank_id"], r["base_rank_id"], r["paired_by"]) for r in document["compare_step_time"]
             if r["scope"] == "rank"}
    assert ranks == {(-1, None, "only rank")}


def test_compare_says_the_ranks_pair_by_place(tmp_path, runner):
    """Two runs of one PP 2 x DP 2 shape numbered otherwise: the header says the ranks pair by place and
    which ids differ; the slower place's peer is named by both its group's numberings, its evidence read
    on each run's own ranks; a higher memory peak of the run's rank 2 is read against the baseline's rank 1."""
    path = tmp_path / "w.db"
    conn = db.connect(path)
    _, after = renumbered_runs(conn)
    source, = conn.execute("SELECT id FROM source WHERE run_id = ? AND rank_id = 2 AND kind = 'rank_db'", (after,))
    with warehouse_rows.bound(conn):
        warehouse_rows.MemoryRecordFactory(rank_id=2, source_id=source[0], ts=1, total_reserved_bytes=70 * 2**30,
                                           total_allocated_bytes=2**30)
    conn.close()
    result = runner.invoke(cli, ["compare", "--db", str(path), "base", "after", "--top", "1",
                                 "-o", str(tmp_path / "c.md")])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[4] == (
        "ranks paired by place in the cluster (pipeline stage, data- and tensor-parallel index), as both runs "
        "state their shape; paired ranks of other ids: baseline rank 1 = run rank 2, baseline rank 2 = run rank 1")
    report = (tmp_path / "c.md").read_text()
    assert "| place | ranks paired by place in the cluster" in report
    title = "### communication: hcom_allReduce\\_ group of ranks 1,3 (baseline: 2,3), rank 3: mean_time_ns:"
    # the baseline's group 2,3 is named group_2, the run's 1,3 group_1: each run's rows of its own group
    assert _evidence_inputs(report, title) == {"/base/rank3/profiler_3.db", "/after/rank3/profiler_3.db"}
    title = "### memory: rank 2 (baseline rank 1) PTA: peak_reserved_bytes: 61,440.0 MiB → 71,680.0 MiB"
    assert _evidence_inputs(report, title) == {"/base/rank1/profiler_1.db", "/after/rank2/profiler_2.db"}


def _evidence_inputs(report: str, title: str) -> set[str]:
    """The inputs of the evidence rows under the report's item ``title``."""
    evidence = report.split(title, 1)[1].split("###", 1)[0]
    return {line.split(" | ")[1] for line in evidence.splitlines() if line.startswith("| ")} - {"input", "---"}
