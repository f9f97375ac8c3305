"""MindInsight's analysers as named queries: MindSpore's step phases, its AI Core and AI CPU operators and
the profiler's own operator type table (queries/mindspore/mindspore_step_phases.sql,
mindspore_step_phase_summary.sql, mindspore_aicore_ops.sql, mindspore_aicpu_ops.sql,
mindspore_dynamic_shape.sql, mindspore_cluster_steps.sql, mindspore_step_reduce_ops.sql, mindspore_flops_scopes.sql,
mindspore_hccl_ops.sql, mindspore_step_intervals.sql, queries/kernels/op_type_statistic.sql), on the real MindSpore
files of MindInsight's test resources and a real torch_npu text export.

The figures are MindInsight's for the same files: its step trace summary is the average record
MindSpore writes last in step_trace_raw_{device}_detail_time.csv (mindinsight/profiler/analyser/
step_trace_analyser.py ``summary``, common/util.py ``get_summary_for_step_trace``: milliseconds to
4 decimals, percents to 2), and its AI Core type table is get_type_infos of
tests/ut/profiler/analyser/test_analyser_aicore_type.py over aicore_intermediate_1_type.csv
(total time in us to 3 decimals, count, mean = total / count to 3 decimals). Its AI Core detail table
is get_detail_infos of test_analyser_aicore_detail.py (the framework's op name, kernel name and type
beside each operator's mean time in us to 3 decimals and count, row by row in the files' order); the AI
CPU table is MindSpore's own, output_data_preprocess_aicpu_0.txt of MindInsight's JOB_AICPU/expect.
"""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from tests.factories.mindspore import AicpuIntermediateFactory, HwtsTextFactory, TimelineDataFactory
from tests.factories.mindspore_summaries import ADD_KERNEL
from tests.sources.test_mindspore_dynamic_shape import MINDINSIGHT_ADD_KERNEL, MINDINSIGHT_GET_NEXT
from warehouse.ingest import ingest_paths

MINDINSIGHT = Path("/work/shared/realdata/mindinsight")
TEXT_EXPORT = Path("/work/shared/realdata/msinsight/pytorch/text/level1/rank0_ascend_pt")
#: MindSpore's step points are cycles of 100 MHz: ns per cycle, cycles per ms (MindInsight's PER_MS_SYSCNT)
NS_PER_CYCLE, CYCLES_PER_MS = 10, 100_000
PHASES = ("total", "iteration_interval", "fp_and_bp", "tail")


def records(path: Path) -> list[dict]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture
def profiler(rows, tmp_path) -> Path:
    """The step traces of devices 0 and 10 and the AI Core tables of MindInsight's profiler folder, ingested."""
    folder = tmp_path / "profiler"
    folder.mkdir()
    for name in ("step_trace_raw_0_detail_time.csv", "step_trace_raw_10_detail_time.csv",
                 "aicore_intermediate_1_type.csv", "aicore_intermediate_1_detail.csv", "framework_raw_1.csv"):
        shutil.copy(MINDINSIGHT / "profiler" / name, folder / name)
    assert [r.status for r in ingest_paths(rows, [folder])] == ["ok"] * 5
    return folder


@pytest.mark.parametrize("device", [0, 10])
def test_the_summary_is_mindinsights_over_mindspores_average_record(run, profiler, device):
    steps = records(profiler / f"step_trace_raw_{device}_detail_time.csv")
    average = steps.pop()
    assert average["step_num"] == "-"
    (summary,) = run("mindspore_step_phase_summary", rank_id=device)
    assert (summary["rank_id"], summary["mean_source"], summary["total_steps"], summary["averaged_steps"]) == (
        device, "average_record", len(steps), len(steps) - 1)
    for phase in PHASES:  # MindInsight's to_millisecond: ms to 4 decimals
        mine = summary[f"{phase}_ns"] / NS_PER_CYCLE
        assert round(mine / CYCLES_PER_MS, 4) == round(int(average[phase]) / CYCLES_PER_MS, 4), phase
    for phase in PHASES[1:]:  # MindInsight's calculate_percent
        assert round(summary[f"{phase}_share"] * 100, 2) == round(int(average[phase]) / int(average["total"]) * 100, 2)


def test_the_summary_of_a_file_cut_short_is_its_average_record(run, rows, tmp_path):
    """cluster_propose keeps five steps and MindSpore's average record of many more: MindInsight's summary is the
    record (get_summary_for_step_trace of its last line), whose iteration intervals are
    tests/st/func/profiler/test_parallel_proposer.py's step intervals (lines 91-103), not the kept steps' mean."""
    shutil.copytree(MINDINSIGHT / "cluster_propose", tmp_path / "cluster_propose")
    ingest_paths(rows, [tmp_path / "cluster_propose"])
    summaries = run("mindspore_step_phase_summary")
    assert [(r["rank_id"], r["mean_source"], round(r["iteration_interval_ns"] / 1e6, 4)) for r in summaries] == [
        (0, "average_record", 1.5722), (1, "average_record", 1.5588), (2, "average_record", 2.4318),
        (3, "average_record", 2.3954)]
    for summary in summaries:
        average = records(tmp_path / "cluster_propose" / f"step_trace_raw_{summary['rank_id']}_detail_time.csv")[-1]
        assert [summary[f"{phase}_ns"] for phase in PHASES] == [int(average[phase]) * NS_PER_CYCLE for phase in PHASES]
        # MindInsight's calculate_percent: rank 0's iteration interval 0.87 % of its step
        assert round(summary["iteration_interval_share"] * 100, 2) == round(
            int(average["iteration_interval"]) / int(average["total"]) * 100, 2)
    assert round(summaries[0]["iteration_interval_share"] * 100, 2) == 0.87


def test_every_step_has_the_files_points_and_phases(run, profiler):
    for device in (0, 10):
        steps = [r for r in records(profiler / f"step_trace_raw_{device}_detail_time.csv") if r["step_num"] != "-"]
        mine = run("mindspore_step_phases", rank_id=device)
        assert [r["step_id"] for r in mine] == [int(r["step_num"]) for r in steps]
        for row, step in zip(mine, steps):
            assert (row["start_ns"], row["fp_point_ns"], row["bp_point_ns"], row["end_ns"]) == tuple(
                int(step[column]) * NS_PER_CYCLE for column in ("start_point", "fp_point", "bp_point", "end_point"))
            assert [row[f"{phase}_ns"] for phase in PHASES] == [int(step[phase]) * NS_PER_CYCLE for phase in PHASES]
            assert row["source_kind"] == "mindspore_step_trace_csv"
    assert run("mindspore_step_phases", rank_id=1) == []


def test_the_ai_core_type_table_is_mindinsights(run, profiler):
    expected = [(r["kernel_type"], round(float(r["total_time"]) * 1e3, 3), int(r["execution_frequency"]),
                 round(round(float(r["total_time"]) * 1e3, 3) / int(r["execution_frequency"]), 3), float(r["percent"]))
                for r in records(profiler / "aicore_intermediate_1_type.csv")]
    mine = run("op_type_statistic", rank_id=1)
    assert sorted((r["op_type"], r["total_ns"] / 1000, r["count"], round(r["avg_ns"] / 1000, 3), r["ratio_pct"])
                  for r in mine) == sorted(expected)
    assert [r["op_type"] for r in mine] == ["MatMul", "TransData", "Conv2D", "Cast", "AtomicAddrClean"]  # longest first
    assert {(r["core_type"], r["source_kind"]) for r in mine} == {("AI_CORE", "mindspore_aicore_type_csv")}


def test_a_torch_npu_op_statistic_answers_as_its_file(run, rows, tmp_path):
    export = tmp_path / "rank0_ascend_pt"
    shutil.copytree(TEXT_EXPORT, export)
    assert {r.status for r in ingest_paths(rows, [export])} == {"ok"}
    expected = {(r["OP Type"], r["Core Type"]): (int(r["Count"]), round(float(r["Total Time(us)"]) * 1000),
                                                 round(float(r["Avg Time(us)"]) * 1000), float(r["Ratio(%)"]))
                for r in records(export / "ASCEND_PROFILER_OUTPUT" / "op_statistic.csv")}
    mine = run("op_type_statistic", rank_id=0)
    assert {(r["op_type"], r["core_type"]): (r["count"], r["total_ns"], r["avg_ns"], r["ratio_pct"]) for r in mine} \
        == expected
    assert len(mine) == 33 and {r["source_kind"] for r in mine} == {"op_statistic_csv"}


def test_the_raw_training_trace_answers_the_steps_of_its_device(run, rows, tmp_path):
    job = tmp_path / "JOB3"
    shutil.copytree(MINDINSIGHT / "JOB3", job)
    assert {r.status for r in ingest_paths(rows, [job]) if "training_trace" in r.path.name} == {"ok"}
    steps = run("mindspore_step_phases", rank_id=1)
    assert len(steps) == 322 and {r["source_kind"] for r in steps} == {"mindspore_training_trace_raw"}
    assert steps[0]["iteration_interval_ns"] == 0 and steps[0]["start_ns"] == steps[0]["fp_point_ns"]
    for before, step in zip(steps, steps[1:]):
        assert step["start_ns"] == before["end_ns"]
        assert step["iteration_interval_ns"] + step["fp_and_bp_ns"] + step["tail_ns"] == step["total_ns"]
    (summary,) = run("mindspore_step_phase_summary", rank_id=1)
    assert (summary["mean_source"], summary["total_steps"], summary["averaged_steps"]) == ("steps", 322, 321)
    assert summary["total_ns"] == pytest.approx(sum(s["total_ns"] for s in steps[1:]) / 321)


def test_the_ai_core_detail_table_is_mindinsights(run, profiler):
    framework = records(profiler / "framework_raw_1.csv")
    detail = records(profiler / "aicore_intermediate_1_detail.csv")
    expected = [(f["op_name"], f["kernel_name"], f["kernel_type"], round(float(d["execution_time"]) * 1e3, 3),
                 int(d["execution_frequency"])) for f, d in zip(framework, detail)]
    mine = run("mindspore_aicore_ops", rank_id=1)
    assert [(r["full_name"], r["kernel_name"], r["op_type"], r["avg_ns"] / 1000, r["count"]) for r in mine] == expected
    assert len(mine) == 10 and mine[9]["op_type"] == "MatMul"
    assert (mine[9]["input_shapes"], mine[9]["output_shapes"]) == ("32,120;84,120;84", "32,84")


def test_the_ai_cpu_table_is_mindspores_from_the_raw_file(run, rows, tmp_path):
    job = tmp_path / "JOB_AICPU"
    shutil.copytree(MINDINSIGHT / "JOB_AICPU" / "data", job / "data")
    assert {r.status for r in ingest_paths(rows, [job])} == {"ok"}
    lines = (MINDINSIGHT / "JOB_AICPU" / "expect" / "output_data_preprocess_aicpu_0.txt").read_text().splitlines()
    table = [line.split() for line in lines[2:-1]]
    total_ms = float(lines[-1].split(":")[1])
    mine = run("mindspore_aicpu_ops", rank_id=0)
    assert [(r["serial_number"], r["op_type"], r["total_ns"], r["dispatch_ns"], r["run_start"], r["run_end"])
            for r in mine] == [(int(n), kind, round(float(total) * 1e6), round(float(dispatch) * 1e6), int(start),
                                int(end)) for n, kind, total, dispatch, start, end in table]
    assert [round(r["share"], 6) for r in mine] == [round(float(t[2]) / total_ms, 6) for t in table]
    assert {r["source_kind"] for r in mine} == {"mindspore_aicpu_raw"}


def test_a_folder_of_the_intermediates_alone_answers_its_kernels_and_ai_cpu_tasks(run, rows, tmp_path):
    """The HWTS dump, the kernel timeline and aicpu_intermediate_{device}.csv alone (factory files): the AI CPU
    table answers from the CSV, the kernel answers (top_kernels) from the timeline. op_type_statistic and
    mindspore_aicore_ops read MindSpore's own AI Core tables (aicore_intermediate_*), which the folder lacks."""
    folder = tmp_path / "profiler"
    for factory, name in ((HwtsTextFactory, "output_format_data_hwts_2.txt"),
                          (TimelineDataFactory, "output_timeline_data_2.txt"),
                          (AicpuIntermediateFactory, "aicpu_intermediate_2.csv")):
        factory(path=folder / name)
    assert {r.status for r in ingest_paths(rows, [folder])} == {"ok"}
    tasks = run("mindspore_aicpu_ops")
    assert [(r["serial_number"], r["op_type"], r["total_ns"], r["source_kind"]) for r in tasks] == [
        (1, "InitData", 1567000, "mindspore_aicpu_csv"), (2, "GetNext", 989000, "mindspore_aicpu_csv"),
        (3, "TruncatedNormal", 1566000, "mindspore_aicpu_csv")]
    # the timeline's two MatMul runs (64.22 and 20 us) and its Cast (12.34 us)
    assert [(r["name"], r["op_class"], r["count"], r["total_ns"]) for r in run("top_kernels", rank_id=2)] == [
        ("MatMul-op38", "aic", 2, 84220), ("Cast-op41", "aic", 1, 12340)]
    assert run("op_type_statistic") == [] and run("mindspore_aicore_ops") == []


def test_the_dynamic_shape_steps_are_mindinsights_filters(run, rows, tmp_path):
    folder = tmp_path / "profiler"
    folder.mkdir()
    shutil.copy(MINDINSIGHT / "profiler" / "dynamic_shape_info_0.json", folder)
    ingest_paths(rows, [folder])
    get_next = {r["step_id"]: r["avg_ns"] for r in run("mindspore_dynamic_shape", op_type="GetNext")}
    assert [round(get_next.get(step, 0) / 1000, 3) for step in range(1, 10)] == MINDINSIGHT_GET_NEXT
    kernels = [r for r in run("mindspore_dynamic_shape", op_type="cuLaunchKernel") if r["op_name"] == ADD_KERNEL]
    assert [(r["record"], r["runs"], r["avg_ns"] / 1000) for r in kernels] == [
        ("kernel", 1, us) for us in MINDINSIGHT_ADD_KERNEL]


def test_the_cluster_steps_carry_each_ranks_stage_and_mean(run, rows, tmp_path):
    shutil.copytree(MINDINSIGHT / "cluster_propose", tmp_path / "cluster_propose")
    ingest_paths(rows, [tmp_path / "cluster_propose"])
    steps = run("mindspore_cluster_steps")
    assert [(r["rank_id"], r["stage_id"]) for r in steps if r["step_id"] is None] == [(0, 1), (1, 1), (2, 2), (3, 2)]
    assert {r["parallel_mode"] for r in steps} == {"pipeline-parallel"} and len(steps) == 4 * 6
    with (tmp_path / "cluster_propose" / "ascend_cluster_analyse_pipeline-parallel_2_4_2.csv").open() as handle:
        mean = handle.read().splitlines()[-1].split(",")
    (rank2,) = [r for r in steps if r["rank_id"] == 2 and r["step_id"] is None]
    assert [rank2[c] for c in ("computation_ns", "communication_alone_ns", "stage_ns", "receive_alone_ns",
                               "collective_communication_alone_ns")] == [round(float(ms) * 1e6) for ms in mean]


def test_the_step_intervals_are_mindinsights_get_step_interval(run, rows, tmp_path, profiler):
    shutil.copytree(MINDINSIGHT / "cluster_propose", tmp_path / "cluster_propose")
    ingest_paths(rows, [tmp_path / "cluster_propose"])
    cluster = [r for r in run("mindspore_step_intervals") if r["stage_id"] is not None]
    # tests/st/func/profiler/test_parallel_proposer.py test_get_step_interval: ms to 4 decimals, each rank's
    # average record (rank 0's 157225 cycles, though its four steps after the first average 83906.75)
    assert [(r["rank_id"], r["stage_id"], round(r["step_interval_ms"], 4)) for r in cluster] == [
        (0, 1, 1.5722), (1, 1, 1.5588), (2, 2, 2.4318), (3, 2, 2.3954)]
    assert [round(r["excess"] * 100, 2) for r in cluster] == [-20.98, -21.65, 22.23, 20.4]
    assert {r["ranks_mean_ns"] for r in cluster} == {1989562.5}
    # the profiler folder's devices 0 and 10, a run without cluster analysis files: no stage; device 10's
    # average record says 9037347 cycles
    (device_10,) = run("mindspore_step_intervals", rank_id=10)
    assert (device_10["stage_id"], device_10["step_interval_ns"]) == (None, 90373470)


def test_the_reduce_operators_of_a_step_are_the_files_groups(run, profiler):
    with (profiler / "step_trace_raw_0_detail_time.csv").open(newline="") as handle:
        header, first = list(csv.reader(handle))[:2]
    # the older layout: stream_{s}_parallel_{i}_start_point, _end_point, then the duration, in cycles
    groups = {header[at + 2]: [int(first[at + k]) * NS_PER_CYCLE for k in range(3)]
              for at in range(9, len(header), 3) if int(first[at + 2])}
    mine = run("mindspore_step_reduce_ops", rank_id=0, step_id=1)
    assert {r["name"]: [r["start_ns"], r["end_ns"], r["duration_ns"]] for r in mine} == groups
    assert [r["duration_ns"] for r in mine] == sorted((r["duration_ns"] for r in mine), reverse=True)


def test_the_flops_scopes_are_the_files_links(run, rows, tmp_path):
    folder = tmp_path / "profiler"
    folder.mkdir()
    shutil.copy(MINDINSIGHT / "profiler" / "flops_scope_0.json", folder)
    ingest_paths(rows, [folder])
    document = json.loads((folder / "flops_scope_0.json").read_text())["data"]
    links = {(link["source"], link["target"]): link["value"] for link in document["links"]}
    mine = run("mindspore_flops_scopes", rank_id=0)
    assert {(r["parent_scope"], r["scope"]): r["mflops"] for r in mine} == links
    assert sum(r["share"] for r in mine if r["parent_scope"] == "Total") == pytest.approx(1)


def test_the_communication_operators_are_the_files_costs(run, rows, tmp_path):
    folder = tmp_path / "cluster_propose"
    folder.mkdir()
    shutil.copy(MINDINSIGHT / "cluster_propose" / "hccl_raw_0.csv", folder)
    ingest_paths(rows, [folder])
    step = records(folder / "hccl_raw_0.csv")[0]
    costs = json.loads(step["communication_operator_cost"])
    mine = run("mindspore_hccl_ops", rank_id=0, step_id=1)
    assert {r["name"]: (r["communication_ns"], r["wait_ns"]) for r in mine} == {
        name: (round(cost[1] * 1e6), round(cost[2] * 1e6)) for name, cost in costs.items()}
