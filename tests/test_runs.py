"""Runs as first-class (issue 16): each input joins the run its layout says, runs are never
mixed, one fact of one rank has one answering input, and the derived answers reconcile with
the profiler's own summaries (warehouse check)."""

from __future__ import annotations

import json
import shutil

import pytest

from factories.analysis_db import AnalysisDbFactory
from factories.rank_db import RankDbFactory
from factories.text_exports import (
    CommunicationJsonFactory,
    KernelDetailsFactory,
    KernelRowFactory,
    ProfilerInfoFactory,
    StepTraceTimeFactory,
)
from factories.trace_json import EventFactory, render
from warehouse import audits, db
from warehouse.analysis import findings
from warehouse.cli import cli
from warehouse.ingest import ingest_paths
from warehouse.model.runs import run_root

TS0 = 1_736_410_576_000_000_000


def rank_folder(root, run, rank):
    folder = root / run / f"rank{rank}_ascend_pt" / "ASCEND_PROFILER_OUTPUT"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def failed_audits(conn) -> dict[str, list]:
    return {r.audit.name: r.examples for r in audits.run_audits(conn) if not r.passed}


def test_run_roots_from_the_layout(tmp_path):
    rank_file = tmp_path / "job" / "rank3_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv"
    prof_file = tmp_path / "PROF_000001_x" / "device_0" / "data" / "op_summary_0.csv"
    nested = tmp_path / "job" / "host_123_456_ascend_pt" / "PROF_000001_y" / "mindstudio_profiler_output" / "a.csv"
    cluster = tmp_path / "job" / "cluster_analysis_output" / "cluster_step_trace_time.csv"
    assert run_root(rank_file) == tmp_path / "job"
    assert run_root(prof_file) == tmp_path / "PROF_000001_x"
    assert run_root(nested) == tmp_path / "job"  # the rank folder wins over the PROF_* folder inside it
    assert run_root(cluster) == tmp_path / "job"
    assert run_root(tmp_path / "traces" / "worker0.pt.trace.json") == tmp_path / "traces" / "worker0.pt.trace.json"
    assert run_root(tmp_path / "csvs" / "kernel_details.csv") == tmp_path / "csvs"
    # MindSpore's device JSONs (data pipeline, FLOPs, the timeline and its summary) are their profiler folder's;
    # another trace is a run of its own
    for name in ("pipeline_profiling_0.json", "minddata_cpu_utilization_1.json", "flops_summary_2.json",
                 "ascend_timeline_summary_0.json", "gpu_timeline_summary_0.json", "ascend_timeline_display_0.json",
                 "gpu_timeline_display_1.json", "timeline_display_2.json", "ascend_timeline_display_3.json.gz"):
        assert run_root(tmp_path / "profiler" / name) == tmp_path / "profiler"
    assert run_root(tmp_path / "profiler" / "timeline_0.json") == tmp_path / "profiler" / "timeline_0.json"


def test_several_runs_in_one_folder_are_several_runs(tmp_path, warehouse_path, runner):
    """Two runs' rank dbs of the same ranks side by side: both go in, as two runs, never mixed."""
    for run, ts0 in (("before", TS0), ("after", TS0 + 3_600_000_000_000)):
        for rank in (0, 1):
            RankDbFactory(path=rank_folder(tmp_path / "all", run, rank) / f"ascend_pytorch_profiler_{rank}.db",
                          rank_id=rank, ts0=ts0 + rank * 1_000_000)
    result = runner.invoke(cli, ["ingest", str(tmp_path / "all"), "--db", str(warehouse_path), "-q"])
    assert result.exit_code == 0, result.output
    conn = db.connect_readonly(warehouse_path)
    assert conn.execute("SELECT name FROM run ORDER BY name").fetchall() == [("after",), ("before",)]
    assert conn.execute("SELECT run_id, count(*) FROM rank GROUP BY run_id").fetchall() == [(1, 2), (2, 2)]
    steps = conn.execute("SELECT run_id, rank_id, step_id, free_ns, computing_ns, duration_ns FROM step_answer "
                         "ORDER BY run_id, rank_id, step_id").fetchall()
    assert all(free >= 0 for _, _, _, free, _, _ in steps if free is not None)
    # the factory's step 2 holds no device activity: its figures are unknown, not zero
    assert {(step, free, computing, duration) for _, _, step, free, computing, duration in steps
            if free is None} == {(2, None, None, None)}
    # each run holds the same rows an hour apart: the same answers, not the doubled compute of a mixed run
    first, second = ([row[1:] for row in steps if row[0] == run] for run in (1, 2))
    assert first == second and len(first) == 4 and first[0][3] > 0
    assert failed_audits(conn) == {}
    info = runner.invoke(cli, ["info", "--db", str(warehouse_path), "--json"])
    assert [(r["name"], r["ranks"]) for r in json.loads(info.output)["runs"]] == [("after", 2), ("before", 2)]


def test_a_second_rank_db_of_a_rank_in_the_same_run_is_still_refused(tmp_path, warehouse_path):
    first = RankDbFactory(path=rank_folder(tmp_path, "job", 0) / "ascend_pytorch_profiler_0.db", rank_id=0)
    other = tmp_path / "job" / "rank0_ascend_pt" / "again"
    other.mkdir()
    RankDbFactory(path=other / "ascend_pytorch_profiler_0.db", rank_id=0, ts0=TS0 + 5)
    conn = db.connect(warehouse_path)
    results = ingest_paths(conn, [first.path, other / "ascend_pytorch_profiler_0.db"])
    assert [r.status for r in results] == ["ok", "failed"]
    assert "a run holds one rank db per rank" in results[1].error


def test_run_names_from_the_command_line(tmp_path, warehouse_path, runner):
    RankDbFactory(path=rank_folder(tmp_path, "job", 0) / "ascend_pytorch_profiler_0.db", rank_id=0)
    assert runner.invoke(cli, ["ingest", str(tmp_path / "job"), "--db", str(warehouse_path), "-q",
                               "--run", "baseline"]).exit_code == 0
    # the same bytes in another run's folder are that run's input (not 'unchanged')
    RankDbFactory(path=rank_folder(tmp_path, "a", 0) / "ascend_pytorch_profiler_0.db", rank_id=0)
    RankDbFactory(path=rank_folder(tmp_path, "b", 0) / "ascend_pytorch_profiler_0.db", rank_id=0, ts0=TS0 + 7)
    assert runner.invoke(cli, ["ingest", str(tmp_path / "a"), str(tmp_path / "b"), "--db", str(warehouse_path),
                               "-q", "--run", "sweep"]).exit_code == 0
    conn = db.connect_readonly(warehouse_path)
    assert [n for (n,) in conn.execute("SELECT name FROM run ORDER BY run_id")] == ["baseline", "sweep/a", "sweep/b"]
    report = runner.invoke(cli, ["report", "--db", str(warehouse_path), "-o", str(tmp_path / "r.md"), "--run", "nope"])
    assert report.exit_code != 0 and "no run 'nope' in this warehouse (runs: baseline, sweep/a, sweep/b)" in report.output


def test_analysis_db_beside_communication_json_counts_each_collective_once(tmp_path, warehouse_path):
    folder = rank_folder(tmp_path, "job", 0)
    document = CommunicationJsonFactory.build(path=None).document
    AnalysisDbFactory(path=folder / "analysis.db", communication=document)
    CommunicationJsonFactory(path=folder / "communication.json", document=document)
    StepTraceTimeFactory(path=folder / "step_trace_time.csv")
    conn = db.connect(warehouse_path)
    assert {r.status for r in ingest_paths(conn, [tmp_path / "job"])} == {"ok"}
    # both files are stored and visible ...
    assert conn.execute("SELECT count(*) FROM communication_time WHERE op_name != 'Total Op Info'").fetchone() == (4,)
    # ... and analysis.db answers alone: 2 operators, their time once
    answer = conn.execute("SELECT kind, count(*), sum(elapse_ns) FROM communication_time_answer "
                          "WHERE op_name != 'Total Op Info' GROUP BY kind").fetchall()
    assert answer == [("analysis_db", 2, 2 * 79_089_520)]
    assert conn.execute("SELECT kind, count(*) FROM step_summary GROUP BY kind").fetchall() == [("analysis_db", 1)]
    assert conn.execute("SELECT count(*) FROM communication_bandwidth_answer WHERE kind != 'analysis_db'"
                        ).fetchone() == (0,)


def test_a_text_export_with_only_step_trace_time_has_its_steps(tmp_path, warehouse_path):
    """kernel_details.csv and step_trace_time.csv of 2 ranks, no trace: step 13 of each rank
    comes from the profiler's summary (no step markers to derive it from)."""
    for rank in (0, 1):
        folder = rank_folder(tmp_path, "job", rank)
        KernelDetailsFactory(path=folder / "kernel_details.csv", rows=[KernelRowFactory(**{"Step Id": "13"})])
        row = dict(StepTraceTimeFactory.build(path=None).rows[0], Step="13")
        StepTraceTimeFactory(path=folder / "step_trace_time.csv", rows=[row])
    conn = db.connect(warehouse_path)
    assert {r.status for r in ingest_paths(conn, [tmp_path / "job"])} == {"ok"}
    steps = conn.execute("SELECT rank_id, step_id, basis, computing_ns, preparing_ns FROM step_answer "
                         "ORDER BY rank_id").fetchall()
    assert steps == [(0, 13, "step_trace_time_csv", 8_873_756, 17_902_500),
                     (1, 13, "step_trace_time_csv", 8_873_756, 17_902_500)]


def gpu_trace(path, nccl_ms):
    """A kineto GPU trace: ProfilerStep#1 (0-10 ms) on the CPU, two CUDA kernels (1-3 ms, 2-5 ms)
    and an NCCL kernel (4-4+nccl_ms) on the GPU stream."""
    base = 1_700_000_000_000_000

    def at(ms):
        return f"{base + ms * 1000}.000"

    events = [
        EventFactory(name="ProfilerStep#1", cat="user_annotation", ts=at(0), dur=10_000.0),
        EventFactory(name="ampere_sgemm", cat="kernel", pid=0, tid=7, ts=at(1), dur=2_000.0),
        EventFactory(name="vectorized_elementwise", cat="kernel", pid=0, tid=7, ts=at(2), dur=3_000.0),
        EventFactory(name="ncclKernel_AllReduce_RING_LL_Sum_float", cat="kernel", pid=0, tid=8, ts=at(4),
                     dur=nccl_ms * 1000.0),
    ]
    path.write_bytes(render(events, shape="kineto"))
    return path


def test_a_gpu_trace_counts_cuda_kernels_as_compute_and_nccl_as_communication(tmp_path, warehouse_path):
    conn = db.connect(warehouse_path)
    assert ingest_paths(conn, [gpu_trace(tmp_path / "worker0.pt.trace.json", 3)])[0].status == "ok"
    (row,) = conn.execute("SELECT computing_ns, communication_ns, overlapped_ns, free_ns, preparing_ns, stage_ns "
                          "FROM step_answer").fetchall()
    # compute 1-5 ms (4 ms), NCCL 4-7 ms (3 ms), overlap 4-5 ms, no gap, first kernel 1 ms after the step starts
    assert row == (4_000_000, 3_000_000, 1_000_000, 0, 1_000_000, 6_000_000)


def test_force_after_analyze_keeps_the_warehouse_true(tmp_path, warehouse_path, runner):
    """Re-ingesting with --force after analyze: no finding points at a deleted row, check passes."""
    for rank in (0, 1):
        RankDbFactory(path=rank_folder(tmp_path, "job", rank) / f"ascend_pytorch_profiler_{rank}.db", rank_id=rank)
    args = ["--db", str(warehouse_path)]
    assert runner.invoke(cli, ["ingest", str(tmp_path / "job"), *args, "-q"]).exit_code == 0
    assert runner.invoke(cli, ["analyze", *args]).exit_code == 0
    conn = db.connect_readonly(warehouse_path)
    before = conn.execute("SELECT count(*) FROM finding").fetchone()[0]
    conn.close()
    assert runner.invoke(cli, ["ingest", str(tmp_path / "job"), *args, "-q", "--force"]).exit_code == 0
    conn = db.connect_readonly(warehouse_path)
    assert failed_audits(conn) == {}
    dangling = conn.execute(
        "SELECT count(*) FROM finding_evidence AS e WHERE (e.input_source_id IS NOT NULL AND e.input_source_id "
        "NOT IN (SELECT id FROM source)) OR (e.kernel_id IS NOT NULL AND e.kernel_id NOT IN (SELECT id FROM kernel)) "
        "OR (e.slice_id IS NOT NULL AND e.slice_id NOT IN (SELECT id FROM _slice))").fetchone()[0]
    assert dangling == 0
    # the run's findings were drawn from the replaced rows: they are gone until the next analyze
    assert conn.execute("SELECT count(*) FROM finding").fetchone()[0] == 0 or before == 0
    check = runner.invoke(cli, ["check", *args])
    assert check.exit_code == 0, check.output


def test_force_on_a_text_export_keeps_its_rank_and_the_row_counts(tmp_path, warehouse_path, runner):
    """profiler_info and kernel_details.csv of rank 3, ingested then forced: rank 3 stays (a view over
    the inputs: no row moves between inputs) and every row count still matches."""
    folder = rank_folder(tmp_path, "job", 3)
    ProfilerInfoFactory(path=folder.parent / "profiler_info_3.json")
    KernelDetailsFactory(path=folder / "kernel_details.csv")
    args = ["--db", str(warehouse_path), "-q"]
    for extra in ([], ["--force"], ["--force"]):
        assert runner.invoke(cli, ["ingest", str(tmp_path / "job"), *args, *extra]).exit_code == 0
        conn = db.connect_readonly(warehouse_path)
        assert conn.execute("SELECT run_id, rank_id, source_count FROM rank").fetchall() == [(1, 3, 2)]
        assert failed_audits(conn) == {}
        conn.close()


def test_check_lists_a_derived_answer_that_disagrees_with_the_profiler(tmp_path, warehouse_path, runner):
    """A rank db whose analysis.db states three times the computing time of its rows: check fails on it."""
    folder = rank_folder(tmp_path, "job", 0)
    RankDbFactory(path=folder / "ascend_pytorch_profiler_0.db", rank_id=0)
    conn = db.connect(warehouse_path)
    ingest_paths(conn, [folder / "ascend_pytorch_profiler_0.db"])
    derived = conn.execute("SELECT * FROM step_breakdown WHERE computing_ns > 0 LIMIT 1").fetchone()
    figures = dict(zip([c[0] for c in conn.execute("SELECT * FROM step_breakdown LIMIT 0").description], derived))
    row = {"Step": str(figures["step_id"]), "Computing": str(figures["computing_ns"] * 3 / 1000)}
    for column, name in (("Communication(Not Overlapped)", "communication_not_overlapped_ns"),
                         ("Overlapped", "overlapped_ns"), ("Communication", "communication_ns"), ("Free", "free_ns"),
                         ("Stage", "stage_ns"), ("Bubble", "bubble_ns"), ("Preparing", "preparing_ns"),
                         ("Communication(Not Overlapped and Exclude Receive)",
                          "communication_not_overlapped_exclude_receive_ns")):
        row[column] = str(figures[name] / 1000)
    AnalysisDbFactory(path=folder / "analysis.db", step_trace=[row], omit=("CommAnalyzerTime",))
    ingest_paths(conn, [folder / "analysis.db"])
    problems = failed_audits(conn)
    assert list(problems) == ["step_breakdown_agrees"]
    assert [example[6] for example in problems["step_breakdown_agrees"]] == ["computing_ns"]
    result = runner.invoke(cli, ["check", "--db", str(warehouse_path)])
    assert result.exit_code == 1 and "step_breakdown_agrees" in result.output


#: the regressions one ingest of every real sample holds (run, baseline): one, between two captures of one
#: model (the db export of level 0 after its text export, 1.1x); none between runs of other devices or sizes
REAL_REGRESSIONS = [("level0", "text/level0")]


@pytest.mark.slow
def test_every_real_sample_reconciles_with_the_profilers_summaries(realdata, tmp_path):
    """Ingest every real sample: the derived step breakdown and communication agree with every
    summary the profiler wrote (analysis.db, step_trace_time.csv, communication.json), and they
    are compared on real runs (not vacuously)."""
    shutil.copytree(realdata, tmp_path / "realdata")  # some samples are WAL databases: work on a copy
    conn = db.connect(tmp_path / "w.db")
    results = ingest_paths(conn, [tmp_path / "realdata"])
    assert not [r.error for r in results if r.status == "failed"]
    # every audit passes but three, on the samples whose files disagree: MindStudio Insight's server test
    # data keeps a cluster_communication.json of 3 of each rank's 28 HCCL operators (tests/test_check.py);
    # MindInsight's profiler resources keep run_2's pipeline JSON beside run_1's pipeline CSV
    # (tests/sources/test_mindspore_minddata.py) and a FLOPs summary beside another run's operators
    # (tests/sources/test_mindspore_summaries.py)
    failed = failed_audits(conn)
    assert list(failed) == ["hccl_operators_agree", "mindspore_flops_agree", "mindspore_minddata_agrees"]
    assert [row[3] for row in failed["mindspore_minddata_agrees"]] == ["op_type"] * 4
    assert [row[5:7] for row in failed["mindspore_flops_agree"]] == [(8167.743, 1332.0)]
    assert {(row[1], row[2], row[3]) for row in failed["hccl_operators_agree"]} == {
        (rank, name, "cluster_communication_json") for rank in (0, 1)
        for name in ("hcom_allGather_", "hcom_allReduce_", "hcom_reduceScatter_")}
    compared = conn.execute(
        "SELECT r.name, count(*) FROM step_breakdown AS b JOIN step_trace_time AS t ON t.rank_id = b.rank_id "
        "AND t.step_id = b.step_id JOIN source AS s ON s.id = t.source_id AND s.run_id = b.run_id "
        "JOIN run AS r ON r.run_id = b.run_id GROUP BY r.name ORDER BY r.name").fetchall()
    # "db/level0" is the 2024-10 torch_npu export (pytorch_2024-10-21), "level0" the 2025 one
    assert compared == [("db/level0", 2), ("level0", 2), ("level1", 2), ("text/level0", 2), ("text/level1", 2)]
    # db level1 rank 0: the answer is the profiler's, and the derivation equals it to the nanosecond
    derived = conn.execute("SELECT b.computing_ns, b.communication_not_overlapped_ns, b.free_ns, b.preparing_ns "
                           "FROM step_breakdown AS b JOIN run AS r ON r.run_id = b.run_id "
                           "WHERE r.name = 'level1' AND b.rank_id = 0").fetchone()
    assert derived == (8_903_431, 98_071_947, 25_258_144, 18_055_693)
    # each torch_npu version's rank 0 to the nanosecond of its analysis.db: the 2024 one measured
    # communication over the HCCL tasks (over the operators: 38_522_184 and free 3_508_839), the 2025 one
    # over the operators (over the tasks: 89_785_053)
    breakdowns = conn.execute(
        "SELECT r.name, m.value, b.communication_not_overlapped_ns, b.overlapped_ns, b.communication_ns, b.free_ns "
        "FROM step_breakdown AS b JOIN run AS r ON r.run_id = b.run_id "
        "JOIN source AS s ON s.run_id = b.run_id AND s.rank_id = b.rank_id AND s.kind = 'rank_db' "
        "JOIN run_metadata AS m ON m.source_id = s.id AND m.name = 'stepTraceCommunication' "
        "WHERE r.name IN ('db/level0', 'level0') AND b.rank_id = 0 ORDER BY r.name").fetchall()
    assert breakdowns == [("db/level0", "task", 33_783_177, 4_250_392, 38_033_569, 3_997_454),
                          ("level0", "operator", 85_881_122, 3_999_454, 89_880_576, 25_900_158)]
    # MindStudio Insight's text export without step markers (kernel_details.csv, step_trace_time.csv,
    # cluster_step_trace_time.csv): its steps come from the profiler's summaries, none from "step -1"
    steps = conn.execute("SELECT a.rank_id, a.step_id, a.basis FROM step_answer AS a JOIN run AS r ON r.run_id = a.run_id "
                         "WHERE r.name = 'server_test_data' ORDER BY a.rank_id").fetchall()
    assert len(steps) == 16 and {step for _, step, _ in steps} == {2}
    assert steps[:3] == [(0, 2, "step_trace_time_csv"), (1, 2, "step_trace_time_csv"),
                         (2, 2, "cluster_step_trace_time_csv")]
    # one ingest of every folder: run_regression compares comparable runs only (issue 35): a Ascend cluster
    # run is never "5.17x" a GPU trace; each finding's baseline is comparable to it, and says why
    regressions = [(f.values["run_id"], json.loads(f.values["numbers"])) for f in findings.evaluate(conn, "run_regression")]
    for run, numbers in regressions:
        comparable, reason = conn.execute("SELECT comparable, reason FROM run_comparable WHERE run_id = ? "
                                          "AND other_run_id = ?", (run, numbers["previous_run_id"])).fetchone()
        assert comparable == 1 and reason.startswith("comparable: the same NPU (Ascend910B), 2 ranks"), reason
    names = dict(conn.execute("SELECT run_id, name FROM run"))
    assert sorted((names[run], names[numbers["previous_run_id"]]) for run, numbers in regressions) == REAL_REGRESSIONS
