"""factory-boy factory that writes MindSpore's parallel strategy file (parallel_strategy_{rank}.json) byte for byte.

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
