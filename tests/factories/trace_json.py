"""factory-boy factories that write Chrome trace-event JSON in the three shapes the source reads.

``EventFactory`` builds one event (a dict); ``TraceFileFactory`` writes a list of them as
a file and returns its path::

    path = TraceFileFactory(path=tmp_path / "trace_view.json", events=[
        EventFactory(name="step", ts="1736408883688177.930", dur=10.5),
    ])

Shapes, byte for byte as their producers write them:

- ``array`` (torch_npu trace_view.json): ``[{...}, {...}]`` on one line, ``ts`` strings;
- ``kineto`` (PyTorch profiler): an indented object with ``schemaVersion`` and
  ``deviceProperties`` before ``traceEvents``, one event per line, ``distributedInfo`` and
  ``traceName`` after it;
- ``op`` (the op simulator): ``{"displayTimeUnit": "ns", "profilingType": "op",
  "schemaVersion": 1, "traceEvents": [...]}``.

``gz=True`` compresses the file.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import factory

BASE_US = 1_736_408_883_688_000


class EventFactory(factory.DictFactory):
    """An X event on thread (100, 1); every field can be overridden, ``None`` drops it."""

    ph = "X"
    name = factory.Sequence(lambda n: f"op{n}")
    cat = "cpu_op"
    pid = 100
    tid = 1
    ts = factory.Sequence(lambda n: f"{BASE_US + n * 100}.000")
    dur = 10.0

    @classmethod
    def _create(cls, model_class, **kwargs):
        return {key: value for key, value in kwargs.items() if value is not None}


def render(events: list[dict], shape: str = "array", top: dict | None = None) -> bytes:
    """The bytes of a trace with ``events`` in ``shape``; ``top`` adds top-level keys (object shapes)."""
    top = top or {}
    if shape == "array":
        return json.dumps(events).encode()
    if shape == "kineto":
        before = {"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "Ascend910B", "totalGlobalMem": 1 << 36}]}
        after = {"distributedInfo": {"backend": "hccl", "rank": 3, "world_size": 8}, "traceName": "trace.json"}
        before.update({k: v for k, v in top.items() if k not in after})
        after.update({k: v for k, v in top.items() if k in after})
        lines = ["{"]
        lines += [f'  "{key}": {json.dumps(value, indent=2)},' for key, value in before.items()]
        lines.append('  "traceEvents": [')
        lines.append(",\n".join("  " + json.dumps(event) for event in events))
        lines.append("  ],")
        lines.append(",\n".join(f'  "{key}": {json.dumps(value)}' for key, value in after.items()))
        lines.append("}")
        return "\n".join(lines).encode()
    if shape == "op":
        document = {"displayTimeUnit": "ns", "profilingType": "op", "schemaVersion": 1, **top, "traceEvents": events}
        return json.dumps(document, indent=4).encode()
    raise ValueError(f"unknown shape {shape!r}")


class TraceFileFactory(factory.Factory):
    """Writes a trace file; returns its path."""

    class Meta:
        model = Path

    path = factory.Sequence(lambda n: Path(f"trace_{n}.json"))
    events = factory.LazyFunction(lambda: EventFactory.create_batch(3))
    shape = "array"
    top = None
    gz = False

    @classmethod
    def _create(cls, model_class, path, events, shape, top, gz):
        data = render(events, shape, top)
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(gzip.compress(data) if gz else data)
        return path


#: the kernel names of grouped matmuls (Ascend/msinsight ExpertHotspotManager.h groupedMatmulComputeNameList)
GROUPED_MATMULS = ("aclnnGroupedMatmulV4_GroupedMatmul_GroupedMatmul",
                   "aclnnGroupedMatmulSwiglu_GroupedMatmulSwiglu_GroupedMatmulSwiglu")


def moe_events(kernels_us: list[float]) -> list[dict]:
    """The trace of an MoE inference service's rank: a prefill pass then a decode pass of three layers each (a
    dense one, one of two grouped matmuls, one of one), each ended by LmHead, on the CANN lane (pid 1); the six
    grouped-matmul kernels (durations ``kernels_us`` in us, in order, the two names in turn) and an unrelated
    kernel on the Ascend Hardware lane (pid 2)."""
    events = [{"ph": "M", "name": "process_name", "pid": 1, "tid": 0, "args": {"name": "CANN"}},
              {"ph": "M", "name": "process_name", "pid": 2, "tid": 0, "args": {"name": "Ascend Hardware"}}]
    apis = []
    for stage in ("Prefill", "Decoder"):
        layer = f"AscendCL@{stage}_layer::Execute"
        apis += [layer, layer, "AscendCL@aclnnGroupedMatmulV4", "AscendCL@aclnnGroupedMatmulSwiglu",
                 layer, "AscendCL@aclnnGroupedMatmulV4", "AscendCL@LmHead::Execute"]
    events += [{"ph": "X", "name": name, "pid": 1, "tid": 1, "ts": f"{BASE_US + n * 100}.000", "dur": 5.0}
               for n, name in enumerate(apis)]
    events += [{"ph": "X", "name": GROUPED_MATMULS[n % 2], "pid": 2, "tid": 7, "ts": f"{BASE_US + 50 + n * 100}.000",
                "dur": dur} for n, dur in enumerate(kernels_us)]
    events.append({"ph": "X", "name": "MatMulV2", "pid": 2, "tid": 7, "ts": f"{BASE_US + 60}.000", "dur": 99.0})
    return events
