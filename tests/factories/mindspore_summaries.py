"""factory-boy factories that write MindSpore's communication, FLOPs and timeline summaries byte for byte.

As MindSpore writes them (the real files of MindInsight's test resources, tests/utils/resource):
``hccl_raw_{device}.csv`` through Python's csv writer with LF line ends, its JSON cells as
``json.dumps`` writes them, the steps then the ``-`` record of their means; ``flops_{device}.txt``
with ``", "`` between fields and no line end after the last; ``flops_summary_{device}.json`` and the
timeline summaries as ``json.dump`` writes a dict. Each factory takes ``path`` and returns a
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


class TimelineSummaryFactory(CsvExportFactory):
    """ascend_timeline_summary: the real file's figures."""

    rows = factory.LazyFunction(lambda: [{"total_time": 23147.013999999992, "num_of_streams": 2, "num_of_ops": 213,
                                          "op_exe_times": 112, "max_scope_name_num": 0}])
    data = factory.LazyAttribute(lambda o: summary_json(o.rows[0]))
