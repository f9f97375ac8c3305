"""factory-boy factories that write MindSpore's communication, FLOPs and timeline summaries byte for byte.

As MindSpore writes them (the real files of MindInsight's test resources, tests/utils/resource):
``hccl_raw_{device}.csv`` through Python's csv writer with LF line ends, its JSON cells as
``json.dumps`` writes them, the steps then the ``-`` record of their means; ``flops_{device}.txt``
with ``", "`` between fields and no line end after the last; ``flops_summary_{device}.json``, ``flops_scope_{device}.json`` and
the timeline summaries as ``json.dump`` writes a dict, ``dynamic_shape_info_{device}.json`` indented, the older
``profiler_info_{rank}.json`` as ``json.dumps`` writes it. Each factory takes ``path`` and returns a
:class:`~factories.text_exports.CsvFile` (``rows`` what was written, ``data`` the bytes).
"""

from __future__ import annotations

import csv
import io
import json

import factory

from factories.text_exports import CsvExportFactory

HCCL_HEADER = ("step_num", "communication_cost", "wait_cost", "link_info", "communication_operator_cost")


def hccl_step(step, cost, wait, links: dict, ops: dict) -> dict:
    """One step: links {"src-dst": {type: [ms, KB, KB/s]}}, ops {name: [ms, wait ms]}."""
    return {"step_num": step, "communication_cost": cost, "wait_cost": wait, "link_info": links,
            "communication_operator_cost": {name: [str(step), *figures, links] for name, figures in ops.items()}}


def hccl_mean(steps: list[dict]) -> dict:
    """MindSpore's ``-`` record: the mean of the steps' costs and of each link's figures."""
    count = len(steps)
    links: dict = {}
    for step in steps:
        for name, kinds in step["link_info"].items():
            for kind, figures in kinds.items():
                total = links.setdefault(name, {}).setdefault(kind, [0, 0, 0])
                links[name][kind] = [a + b for a, b in zip(total, figures)]
    return {"step_num": "-", "communication_cost": sum(s["communication_cost"] for s in steps) / count,
            "wait_cost": sum(s["wait_cost"] for s in steps) / count,
            "link_info": {name: {kind: [v / count for v in figures] for kind, figures in kinds.items()}
                          for name, kinds in links.items()},
            "communication_operator_cost": {}}


def hccl_bytes(rows: list[dict]) -> bytes:
    text = io.StringIO(newline="")
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(HCCL_HEADER)
    for row in rows:
        writer.writerow([row["step_num"], row["communication_cost"], row["wait_cost"], json.dumps(row["link_info"]),
                         json.dumps(row["communication_operator_cost"])])
    return text.getvalue().encode("utf-8")


class HcclRawFactory(CsvExportFactory):
    """hccl_raw: two steps of rank 2 (the real file's first links and operators, cut short), and their mean."""

    steps = factory.LazyFunction(lambda: [
        hccl_step(1, 7.93334, 2000.81932,
                  {"1-0": {"SDMA": [5.18921, 95579.136, 916792464.3096149]},
                   "0-0": {"SDMA": [2.74413, 99171.84, 1610922525.9022422]}},
                  {"stream_32_0_AllReduce-op17602": [0.00342, 0.01505]}),
        hccl_step(2, 1.62459, 9.2728,
                  {"1-0": {"SDMA": [0.37393, 1039.36, 396687549.29681545]},
                   "0-0": {"SDMA": [1.25066, 26210.816, 607575039.4072617]}},
                  {"stream_32_0_AllReduce-op17602": [0.00342, 0.01505],
                   "stream_35_7_AllReduce-op2892": [0.00332, 3e-05]}),
    ])
    rows = factory.LazyAttribute(lambda o: o.steps + [hccl_mean(o.steps)])
    data = factory.LazyAttribute(lambda o: hccl_bytes(o.rows))

    class Meta:
        exclude = ("steps",)


FLOPS_HEADER = ("op_full_name", "MFLOPs(10^6)", "GFLOPS(10^9)", "FLOPS utilization(%)")
FLOPS_SPLIT_HEADER = ("full_kernel_name", "MFLOPs(10^6 cube)", "GFLOPS(10^9 cube)", "FLOPS utilization(cube)",
                      "MFLOPs(10^6 vector)", "GFLOPS(10^9 vector)", "FLOPS utilization(vec)")


class FlopsFactory(CsvExportFactory):
    """flops: three operators, their MFLOPs summing to 30.5 and their GFLOPS averaging 4.0."""

    header = FLOPS_HEADER
    rows = factory.LazyFunction(lambda: [
        ["Default/Cast-op6", "0.5", "1.5", "0.25"],
        ["Default/network-WithLossCell/_backbone-LeNet5/conv1-Conv2d/Conv2D-op13", "20.0", "8.0", "3.9"],
        ["Default/network-WithLossCell/_backbone-LeNet5/fc3-Dense/MatMul-op9", "10.0", "2.5", "1.2"],
    ])
    data = factory.LazyAttribute(lambda o: "\n".join(", ".join(row) for row in [o.header, *o.rows]).encode("utf-8"))


def summary_json(document: dict) -> bytes:
    """A dict as ``json.dump`` writes it."""
    return json.dumps(document).encode("utf-8")


class FlopsSummaryFactory(CsvExportFactory):
    """flops_summary: the summary MindSpore writes for FlopsFactory's operators."""

    rows = factory.LazyFunction(lambda: [{"FLOPs": 30.5, "FLOPS": 4.0, "FLOPS_Utilization": 1.783}])
    data = factory.LazyAttribute(lambda o: summary_json(o.rows[0]))


class ProfilerInfoFactory(CsvExportFactory):
    """profiler_info_{rank}.json in MindSpore's older, flat layout (``json.dumps`` of a flat dict, no line end):
    MindInsight's parallel_strategy/profiler_info_0.json whole, rank 0 of two in one stage."""

    rows = factory.LazyFunction(lambda: [{
        "context_mode": "graph", "rank_id": "0", "rank_size": 2, "parallel_mode": "auto_parallel", "stage_num": 1,
        "profiling_stop_time": "2023-05-16 17:17:17", "graph_ids": [0], "analyse_end_time": "2023-05-16 17:27:17"}])
    data = factory.LazyAttribute(lambda o: summary_json(o.rows[0]))

CLUSTER_HEADER = ("computation_time", "communication_alone_time", "stage_time", "receive_alone_time",
                  "collective_communication_alone_time")


class ClusterAnalyseFactory(CsvExportFactory):
    """ascend_cluster_analyse (pipeline parallel): three steps of the real rank 0's figures (ms, LF ends) and,
    last, their mean as MindSpore writes it (each column's mean, rounded to 4 decimals)."""

    header = CLUSTER_HEADER
    rows = factory.LazyFunction(lambda: [
        ["13.8202", "164.476", "121.8989", "56.3973", "108.0787"],
        ["14.5806", "165.8363", "124.2475", "56.1695", "109.6669"],
        ["14.8119", "163.7359", "123.1551", "55.3927", "108.3432"],
    ])
    data = factory.LazyAttribute(lambda o: "".join(
        ",".join(row) + "\n" for row in [o.header, *o.rows, cluster_mean(o.rows)]).encode("utf-8"))

    class Params:
        #: the older data-parallel layout of MindInsight's run_2 (its whole file): a step's phases in counter
        #: cycles, ", " between fields, no mean
        phases = factory.Trait(
            header=("iteration_interval", "fp_and_bp", "tail"),
            rows=factory.LazyFunction(lambda: [["0", "2366808", "4097"]]),
            data=factory.LazyAttribute(lambda o: "".join(
                ", ".join(row) + "\n" for row in [o.header, *o.rows]).encode("utf-8")),
        )
        #: the older pipeline-parallel layout of MindInsight's run_4 (its whole file): ``computation`` and
        #: ``collective_communication_time`` in the header, one step in ms, no mean
        older = factory.Trait(
            header=("computation", "communication_alone_time", "stage_time", "receive_alone_time",
                    "collective_communication_time"),
            rows=factory.LazyFunction(lambda: [["651.9051", "1293.1231", "1577.1234", "368.7766", "227.1234"]]),
            data=factory.LazyAttribute(lambda o: "".join(
                ",".join(row) + "\n" for row in [o.header, *o.rows]).encode("utf-8")),
        )


def cluster_mean(rows) -> list[str]:
    """Each column's mean over ``rows``, rounded to 4 decimals and written as Python prints a float."""
    return [str(round(sum(float(row[at]) for row in rows) / len(rows), 4)) for at in range(len(rows[0]))]


def scope_json(links, max_scope_num: int) -> bytes:
    """flops_scope as ``json.dump`` writes it: the nodes (every link's ends, in order of first use) and the links
    ``(source, target, value)``."""
    names = list(dict.fromkeys(name for source, target, _ in links for name in (source, target)))
    return json.dumps({"data": {"nodes": [{"name": name} for name in names],
                                "links": [{"source": source, "target": target, "value": value}
                                          for source, target, value in links]},
                       "max_scope_num": max_scope_num}).encode("utf-8")


class FlopsScopeFactory(CsvExportFactory):
    """flops_scope: FlopsFactory's operators summed by scope (its summary's 30.5 MFLOPs from Total)."""

    rows = factory.LazyFunction(lambda: [
        ("Total", "Default", 30.5), ("Default", "network-WithLossCell(Default)", 30.0),
        ("network-WithLossCell(Default)", "_backbone-LeNet5(Default)", 30.0),
        ("_backbone-LeNet5(Default)", "conv1-Conv2d(Default)", 20.0), ("_backbone-LeNet5(Default)", "fc3-Dense(Default)", 10.0),
    ])
    max_scope_num = 4
    data = factory.LazyAttribute(lambda o: scope_json(o.rows, o.max_scope_num))

    class Meta:
        exclude = ("max_scope_num",)


def op_run(step, op_type, op_name, dur, shapes=()) -> dict:
    """An operator run of dynamic_shape_info's ``operator`` lists (on the GPU, as the real file's)."""
    return {"step": step, "op_side": "gpu", "op_type": op_type, "op_name": op_name, "dur": dur,
            "shape_info": list(shapes)}


#: the CUDA kernel of the real file's Add operator
ADD_KERNEL = "ElewiseArithKernel<float, AddFunc<float> >(int, float const*, float const*, float*)"


def kernel_run(step, dur) -> dict:
    """A kernel run of dynamic_shape_info's ``kernel`` lists: the Add operator's kernel."""
    return {"step": step, "op_type": "cuLaunchKernel", "op_name": ADD_KERNEL, "op_full_name": "Default/network-Net/Add-op6",
            "dur": dur, "block_dim": "256,1,1", "grid_dim": "1,1,1"}


def by_type(runs, name: str, extra: str | None = None) -> dict:
    """MindSpore's per-step summary of ``runs``: per step and ``name``, [total, count, mean] (and ``extra``), the
    mean rounded to 3 decimals (the real file's GetNext of step 1: 307.03999999999996 in 2 runs, 153.52)."""
    summary: dict = {}
    for run in runs:
        figures = summary.setdefault(str(run["step"]), {}).setdefault(run[name], [0, 0, 0])
        figures[0] += run["dur"]
        figures[1] += 1
        figures[2] = round(figures[0] / figures[1], 3)
        if extra:
            figures[3:] = [run[extra]]
    return summary


def dynamic_shape_json(operators, kernels) -> bytes:
    """dynamic_shape_info as MindSpore writes it (json.dump, indent 2, a line end): the runs by step, then
    their per-step summaries by operator type and by kernel."""
    def by_step(runs):
        steps: dict = {}
        for run in runs:
            steps.setdefault(str(run["step"]), []).append(run)
        return steps

    document = {"operator": by_step(operators), "kernel": by_step(kernels),
                "operator_type": by_type(operators, "op_type"), "kernel_type": by_type(kernels, "op_name", "op_full_name")}
    return (json.dumps(document, indent=2) + "\n").encode("utf-8")


class DynamicShapeFactory(CsvExportFactory):
    """dynamic_shape_info: the real file's first two steps (four operator runs, two GetNext in step 1, and
    the Add's kernel per step)."""

    rows = factory.LazyFunction(lambda: [
        op_run(1, "InitDataSetQueue", "InitDataSetQueue-op0", 633.088), op_run(1, "GetNext", "GetNext-op7", 139.392),
        op_run(1, "Add", "Add-op6", 75.616, ["[32, 1]", "[32, 1]"]), op_run(1, "GetNext", "GetNext-op7", 167.648),
        op_run(2, "Add", "Add-op6", 48.64, ["[32, 1]", "[32, 1]"]), op_run(2, "GetNext", "GetNext-op7", 80.224),
    ])
    kernels = factory.LazyFunction(lambda: [kernel_run(1, 3.904), kernel_run(2, 3.232)])
    data = factory.LazyAttribute(lambda o: dynamic_shape_json(o.rows, o.kernels))

    class Meta:
        exclude = ("kernels",)


class TimelineSummaryFactory(CsvExportFactory):
    """ascend_timeline_summary: the real file's figures."""

    rows = factory.LazyFunction(lambda: [{"total_time": 23147.013999999992, "num_of_streams": 2, "num_of_ops": 213,
                                          "op_exe_times": 112, "max_scope_name_num": 0}])
    data = factory.LazyAttribute(lambda o: summary_json(o.rows[0]))

    class Params:
        #: the older profiler's timeline_summary_{device}.json (MindInsight's run_1, the whole file): four figures
        older = factory.Trait(rows=factory.LazyFunction(lambda: [
            {"total_time": 1771382.849999995, "num_of_streams": 11, "num_of_ops": 199, "op_exe_times": 2817}]))
