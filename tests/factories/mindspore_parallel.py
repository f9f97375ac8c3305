"""factory-boy factories that write MindSpore's parallel strategy file (parallel_strategy_{rank}.json) and
MindInsight's marey graph files (ascend_marey_timeline_{step}.json, scope_map_{step}.json) byte for byte.

The marey graph files are ``json.dumps`` of their dicts (the real ones of tests/utils/resource/marey_graph
pass it byte for byte), the stage figures computed as MindInsight's get_ops_by_step does.

As the real files of MindInsight's test resources (tests/utils/resource/parallel_strategy) are laid out:
the graph proto in protobuf's JSON mapping (64-bit integers as strings), written by a styled writer
(``"key" : value``, an object value on the line after its key at the key's indent, a list's ``[`` on the
key's line, two spaces a level, no line end after the last ``}``). The real files pass :func:`styled`
byte for byte but for one hand-edited space each (rank 0's indent of its second device, rank 1's
``"instanceName":``).
"""

from __future__ import annotations

import json

import factory

from factories.text_exports import CsvExportFactory


def styled(value, indent: int = 0) -> str:
    """``value`` as the styled writer lays it out (module doc)."""
    pad = " " * indent
    if isinstance(value, dict) and value:
        members = []
        for key, item in value.items():
            head = f"{pad}  {json.dumps(key)} :"
            members.append(f"{head}\n{pad}  {styled(item, indent + 2)}" if isinstance(item, dict)
                           else f"{head} {styled(item, indent + 2)}")
        return "{\n" + ",\n".join(members) + f"\n{pad}}}"
    if isinstance(value, list) and value:
        return "[\n" + ",\n".join(f"{pad}  {styled(item, indent + 2)}" for item in value) + f"\n{pad}]"
    return json.dumps(value)


def value_proto(value) -> dict:
    """A ValueProto of nested tuples of integers (a strategy, a shape) or one integer."""
    if isinstance(value, (list, tuple)):
        return {"dtype": "DT_TUPLE", "values": [value_proto(item) for item in value]}
    return {"dtype": "DT_INT64", "intVal": str(value)}


def node(name: str, op_type: str, scope: str, number: int, strategy=None, group: int | None = None) -> dict:
    """One operator node: its attributes the strategy (``gen_strategy``) and group when given."""
    attributes = [{"name": "gen_strategy", "value": value_proto(strategy)}] if strategy is not None else []
    if group is not None:
        attributes.append({"name": "group", "value": value_proto(group)})
    return {"name": name, "opType": op_type, "scope": scope, "attribute": attributes,
            "fullName": f"{scope}/{op_type}-op{number}", "instanceName": ""}


def strategy_document(rank: int, stage: int, parallel_type: str, devices, nodes) -> dict:
    """The file's document: its config and a graph of ``nodes`` (no parameters or constants)."""
    return {"config": {"rankId": rank, "stageId": stage, "parallelType": parallel_type,
                       "stageDevices": [{"dim": [{"size": str(device)} for device in devices]}]},
            "graph": {"node": nodes}}


class ParallelStrategyFactory(CsvExportFactory):
    """parallel_strategy: the real rank's config (auto_parallel, stage 0 of devices 0 and 1) and its two
    operators, GetNext and the Conv2D of strategy ((2, 1, 1, 1), (1, 1, 1, 1)) in the rank's group."""

    rank = 0
    stage = 0
    parallel_type = "auto_parallel"
    devices = (0, 1)
    rows = factory.LazyAttribute(lambda o: [
        node("1", "GetNext", "Default", 767),
        node("2", "Conv2D", "Default/conv1-Conv2d", 2, ((2, 1, 1, 1), (1, 1, 1, 1)), o.rank),
    ])
    data = factory.LazyAttribute(lambda o: styled(
        strategy_document(o.rank, o.stage, o.parallel_type, o.devices, o.rows)).encode("utf-8"))

    class Meta:
        exclude = ("rank", "stage", "parallel_type", "devices")


def stage_data(maps: dict, stages: dict) -> dict:
    """Each stage's operators' spans over its devices as MindInsight's get_ops_by_step aggregates them (its
    running means included, so the floats are its own)."""
    result = {}
    for stage, devices in stages.items():
        data: dict = {}
        for device in devices:
            for name, span in maps.get(device, {}).items():
                if name not in data:
                    data[name] = {"st_max": span["st"], "st_min": span["st"], "st_avg": span["st"],
                                  "ed_max": span["ed"], "ed_min": span["ed"], "ed_avg": span["ed"], "n": 1}
                    continue
                seen = data[name]
                seen.update(st_max=max(seen["st_max"], span["st"]), st_min=min(seen["st_min"], span["st"]),
                            ed_max=max(seen["ed_max"], span["ed"]), ed_min=min(seen["ed_min"], span["ed"]),
                            st_avg=(span["st"] + seen["st_avg"] * seen["n"]) / (seen["n"] + 1),
                            ed_avg=(span["ed"] + seen["ed_avg"] * seen["n"]) / (seen["n"] + 1), n=seen["n"] + 1)
        result[stage] = {"data": data, "devices": list(devices)}
    return result


def marey_document(maps: dict, stages: dict) -> dict:
    """get_marey_timeline's answer: the spans, their bounds and the stages. MindInsight's minT is the least start
    of every span it saw, some replaced by a later span of the same operator on the device (the real step 1's
    174,248,391.06 us is below every kept start); here it is the kept spans' least start."""
    return {"maps": maps, "minT": min(span["st"] for spans in maps.values() for span in spans.values()),
            "maxT": max(span["ed"] for spans in maps.values() for span in spans.values()),
            "stage_data": stage_data(maps, stages)}


def span(start: float, end: float, dur: float) -> dict:
    return {"st": start, "ed": end, "dur": dur}


class MareyTimelineFactory(CsvExportFactory):
    """ascend_marey_timeline: spans of the real step 1 (us, aligned): Conv2D-op1547 and Receive-op1893 on
    devices 0 and 1 of stage 0, Mul-op6576 on device 3 of stage 1 (devices 2 and 3)."""

    rows = factory.LazyFunction(lambda: {
        "device0": {"Receive-op1893": span(183917308.62998962, 183917308.62998962, 0.0),
                    "Conv2D-op1547": span(183904930.10997772, 183904971.51997772, 41.410000000000004)},
        "device1": {"Receive-op1893": span(183917312.96998262, 183917312.9799826, 0.01),
                    "Conv2D-op1547": span(183904903.81997824, 183904945.24997824, 41.43)},
        "device3": {"Mul-op6576": span(183683446.0299611, 183683447.3399611, 1.31)},
    })
    stages = factory.LazyFunction(lambda: {"stage0": ["device0", "device1"], "stage1": ["device2", "device3"]})
    data = factory.LazyAttribute(lambda o: json.dumps(marey_document(o.rows, o.stages)).encode("utf-8"))

    class Meta:
        exclude = ("stages",)


class ScopeMapFactory(CsvExportFactory):
    """scope_map: the real step 1's scopes of Conv2D-op1547 and Receive-op1893 (none for Mul-op6576)."""

    rows = factory.LazyFunction(lambda: {
        "Conv2D-op1547": "/network-_TrainPipelineAccuStepCell/network-_VirtualDatasetCell/_backbone-PipelineCell"
                         "/network-WithLossCell/_backbone-ResNet/head-Head/conv1-Conv2d",
        "Receive-op1893": "/Default/network-_TrainPipelineAccuStepCell/gradSend",
        "StreamRecv-op10594": "",
    })
    data = factory.LazyAttribute(lambda o: json.dumps({"scope_map": o.rows}).encode("utf-8"))
