"""A torch_npu-like ``trace_view.json`` of any size, written as it is generated.

The output looks like what torch_npu's profiler writes (reference/FORMATS.md): a bare JSON
array, ``ts`` as decimal strings of microseconds with three decimals (epoch origin), the 12
process names with their metadata (``process_name``, ``process_labels``,
``process_sort_index``, ``thread_name``, ``thread_sort_index``), nested ``X`` slices of
Python functions and aten operators on the Python thread, CANN API slices, device tasks on
the Ascend Hardware streams, HCCL communication, ``s``/``f`` flows (``torch_to_npu`` from an
operator to its device task, ``enqueue_to_dequeue`` across the task queue) and ``C`` counters.

Every thread's slices are written in (ts, dur desc) order, as torch_npu does. The output is
a function of (events, seed): the same call writes the same bytes. :func:`write_planned_trace`
writes a rank of a planned cluster (``plan.py``) instead, on the clock of its other ranks.
"""

from __future__ import annotations

import gzip
import json
import random
import re
from collections.abc import Iterable, Iterator
from itertools import islice
from pathlib import Path
from typing import IO

from warehouse.synth.plan import OPS, Step, Unit

#: torch_npu's 12 processes (pid offset, name, sort index); the Python process has the real pid
PROCESSES = (
    ("Python", 0), ("CANN", 1), ("Ascend Hardware", 2), ("HCCL", 3), ("Overlap Analysis", 4),
    ("AI Core Freq", 5), ("Acc PMU", 6), ("HBM", 7), ("LLC", 8), ("NPU MEM", 9), ("QoS", 10),
    ("Stars Soc Info", 11),
)
OPERATORS = ("aten::matmul", "aten::add", "aten::mul", "aten::softmax", "aten::layer_norm", "aten::gelu",
             "aten::linear", "aten::copy_", "aten::cat", "aten::view", "aten::transpose", "aten::sum")
CHILDREN = ("aten::empty", "aten::to", "aten::_to_copy", "aten::empty_strided", "aten::as_strided", "aten::reshape")
KERNELS = ("MatMulV2", "Add", "Mul", "SoftmaxV2", "LayerNormV3", "GeluV2", "Cast", "TransData", "ConcatD",
           "ReduceSum", "Transpose", "MemSet")
PY_FUNCTIONS = ("train.py(42): train_step", "model.py(88): forward", "nn/modules/module.py(1501): _call_impl",
                "optim/adam.py(141): step")
START_NS = 1_736_408_883_688_177_930
#: torch_npu's string ts, rewritten as a number for the kineto shape
KINETO_TS = re.compile(r'"ts": "([0-9.]+)"')


def us(ns: int) -> str:
    """ns -> microseconds with three decimals: torch_npu writes ts as this string, dur as this number."""
    return f"{ns // 1000}.{ns % 1000:03d}"


class TraceWriter:
    """Generates the events of one rank's trace; :meth:`lines` yields their JSON text."""

    def __init__(self, events: int, *, seed: int = 0, rank: int = 0):
        self.target = events
        self.random = random.Random(seed * 7919 + rank)
        self.pid = 3_016_828 + 1000 * rank
        self.device_pid = 3_089_232_288 + 64 * rank
        self.rank = rank
        self.count = 0
        self.flow_id = 1000
        self.task_id = 0

    def _pid(self, offset: int) -> int:
        return self.pid if offset == 0 else self.device_pid + offset

    def lines(self) -> Iterator[str]:
        """The events, one JSON object each, in file order; stops at ``events``."""
        for line in self._all():
            if self.count >= self.target:
                return
            self.count += 1
            yield line

    def _all(self) -> Iterator[str]:
        yield from self._metadata()
        now = START_NS
        step = 0
        while True:
            yield from self._step(step, now)
            now += self._step_ns + self.random.randrange(50_000, 200_000)
            step += 1

    def planned(self, steps: list[Step], units: list[Unit]) -> Iterator[str]:
        """The events of a rank that follows a plan, one JSON object each, in file order (no cap)."""
        yield from self._metadata()
        by_step: dict[int, list[Unit]] = {}
        for unit in units:
            by_step.setdefault(unit.step_id, []).append(unit)
        for step in steps:
            yield from self._planned_step(step, by_step[step.step_id])

    def _planned_step(self, step: Step, units: list[Unit]) -> Iterator[str]:
        pid, tid, worker = self.pid, self.pid, self.pid + 5
        python, queue, cann, device, flows = [], [], [], [], []
        for unit in units:
            op, kernel_type = OPS[unit.op]
            s = unit.start_ns
            python.append(self._x(pid, tid, f"model.py({10 + unit.op}): {op.split('::')[-1]}", "python_function", s,
                                  9_000))
            python.append(self._x(pid, tid, op, "cpu_op", s + 500, 8_000,
                                  {"Sequence number": unit.index, "Fwd thread id": 0,
                                   "Input Dims": "[8, 1024];\r\n[1024, 1024]", "Input type": "float16;\r\nfloat16"}))
            python.append(self._x(pid, tid, "Enqueue", "enqueue", s + 1_000, 500))
            self.flow_id += 1
            for ph, thread, ts in (("s", tid, s + 1_000), ("f", worker, s + 2_000)):
                flows.append(self._flow(ph, "enqueue_to_dequeue", "async_task_queue", self.flow_id, pid, thread, ts))
            queue.append(self._x(pid, worker, f"Dequeue@{op}", "dequeue", s + 2_000, 5_000))
            cann.append(self._x(self._pid(1), self.pid, f"AscendCL@aclnn{kernel_type}", None, s + 2_100, 4_800))
            self.flow_id += 1
            self.task_id += 1
            core = "AI_VECTOR_CORE" if unit.vector else "AI_CORE"
            device.append(self._x(self._pid(2), 2, unit.kernel_name, None, unit.kernel_start_ns, unit.kernel_ns,
                                  {"Model Id": 4294967295, "Task Type": core, "Stream Id": 2, "Task Id": self.task_id,
                                   "Batch Id": 0, "Subtask Id": 4294967295, "connection_id": self.flow_id}))
            flows.append(self._flow("s", "torch_to_npu", "async_npu", self.flow_id, pid, tid, s + 500))
            flows.append(self._flow("f", "torch_to_npu", "async_npu", self.flow_id, self._pid(2), 2,
                                    unit.kernel_start_ns))
        # the host's step ends once the next one can start; the last step's window is its slice
        yield self._x(pid, tid, f"ProfilerStep#{step.step_id}", "cpu_op", step.start_ns, step.end_ns - step.start_ns)
        yield from python
        yield from queue
        yield from cann
        yield from device
        yield self._x(self._pid(3), 0, step.collective_name, "communication", step.collective_start_ns,
                      step.collective_end_ns - step.collective_start_ns,
                      {"connection_id": self.flow_id, "model id": 4294967295, "data_type": "FP16"})
        yield from flows

    def _metadata(self) -> Iterator[str]:
        for name, offset in PROCESSES:
            pid = self._pid(offset)
            yield json.dumps({"ph": "M", "name": "process_name", "pid": pid, "tid": 0, "args": {"name": name}})
            yield json.dumps({"ph": "M", "name": "process_labels", "pid": pid, "tid": 0,
                              "args": {"labels": "CPU" if offset < 2 else f"NPU {self.rank}"}})
            yield json.dumps({"ph": "M", "name": "process_sort_index", "pid": pid, "tid": 0,
                              "args": {"sort_index": offset}})
        threads = ((self.pid, self.pid, "Python main thread"), (self.pid, self.pid + 5, "acl_thread"),
                   (self._pid(1), self.pid, "CANN API"), (self._pid(2), 2, "Stream 2"),
                   (self._pid(2), 3, "Stream 3"), (self._pid(3), 0, "Group 0 Communication"))
        for index, (pid, tid, name) in enumerate(threads):
            yield json.dumps({"ph": "M", "name": "thread_name", "pid": pid, "tid": tid, "args": {"name": name}})
            yield json.dumps({"ph": "M", "name": "thread_sort_index", "pid": pid, "tid": tid,
                              "args": {"sort_index": index}})

    def _x(self, pid, tid, name, cat, ts, dur, args=None) -> str:
        head = f'{{"ph": "X", "name": {json.dumps(name)}, "pid": {pid}, "tid": {tid}, "ts": "{us(ts)}", ' \
               f'"dur": {us(dur)}'
        if cat:
            head += f', "cat": "{cat}"'
        if args:
            head += f', "args": {json.dumps(args)}'
        return head + "}"

    def _flow(self, ph, name, cat, flow_id, pid, tid, ts) -> str:
        return (f'{{"ph": "{ph}", "bp": "e", "name": "{name}", "id": {flow_id}, "pid": {pid}, "tid": {tid}, '
                f'"ts": "{us(ts)}", "cat": "{cat}"}}')

    def _step(self, step: int, start: int) -> Iterator[str]:
        """One training step: a ProfilerStep with operators, their device tasks, flows and counters."""
        rnd = self.random
        pid, tid = self.pid, self.pid
        ops = rnd.randrange(20, 40)
        python, device, cann, queue, flows = [], [], [], [], []
        now = start + 2_000
        device_now = start + 30_000
        for _ in range(ops):
            op = rnd.choice(OPERATORS)
            op_dur = rnd.randrange(20_000, 200_000)
            func = rnd.choice(PY_FUNCTIONS)
            python.append(self._x(pid, tid, func, "python_function", now, op_dur + 4_000))
            args = {"Sequence number": rnd.randrange(1, 1 << 20), "Fwd thread id": 0,
                    "Input Dims": "[2048, 4096];\r\n[4096, 1024]", "Input type": "float16;\r\nfloat16"}
            python.append(self._x(pid, tid, op, "cpu_op", now + 1_000, op_dur, args))
            child_now = now + 2_000
            for _ in range(rnd.randrange(1, 4)):
                child_dur = rnd.randrange(1_000, max(1_001, op_dur // 4))
                python.append(self._x(pid, tid, rnd.choice(CHILDREN), "cpu_op", child_now, child_dur,
                                      {"Sequence number": -1, "Fwd thread id": 0}))
                child_now += child_dur + rnd.randrange(100, 2_000)
                if child_now > now + op_dur - 10_000:
                    break
            # the operator goes through the task queue to CANN and on to a device stream
            self.flow_id += 1
            self.task_id += 1
            enqueue_ts = now + op_dur - 5_000
            python.append(self._x(pid, tid, "Enqueue", "enqueue", enqueue_ts, 3_000))
            flows.append(self._flow("s", "enqueue_to_dequeue", "async_task_queue", self.flow_id, pid, tid, enqueue_ts))
            dequeue_ts = max(enqueue_ts + 1_000, queue[-1][0] + 5_000 if queue else 0)
            queue.append((dequeue_ts, self._x(pid, self.pid + 5, "Dequeue", "dequeue", dequeue_ts, 4_000)))
            flows.append(self._flow("f", "enqueue_to_dequeue", "async_task_queue", self.flow_id, pid, self.pid + 5,
                                    dequeue_ts))
            acl_dur = rnd.randrange(1_000, 4_000)
            cann.append(self._x(self._pid(1), self.pid, f"AscendCL@aclnn{op.split('::')[1].title()}", None,
                                dequeue_ts + 500, acl_dur))
            kernel_dur = rnd.randrange(10_000, 400_000)
            device_now = max(device_now, dequeue_ts + 5_000)
            stream = 2 if rnd.random() < 0.8 else 3
            kernel = rnd.choice(KERNELS)
            device.append((stream, self._x(self._pid(2), stream, kernel, None, device_now, kernel_dur,
                                           {"Model Id": 4294967295, "Task Type": "AI_CORE", "Stream Id": stream,
                                            "Task Id": self.task_id, "Batch Id": 0, "Subtask Id": 4294967295,
                                            "connection_id": self.flow_id})))
            self.flow_id += 1
            flows.append(self._flow("s", "torch_to_npu", "async_npu", self.flow_id, pid, tid, now + 1_000))
            flows.append(self._flow("f", "torch_to_npu", "async_npu", self.flow_id, self._pid(2), stream, device_now))
            device_now += kernel_dur + rnd.randrange(1_000, 20_000)
            now += op_dur + rnd.randrange(5_000, 30_000)
        self._step_ns = max(now, device_now) - start
        yield self._x(pid, tid, f"ProfilerStep#{step}", "cpu_op", start, now - start)
        yield from python
        yield from (line for _, line in queue)
        yield from cann
        yield from (line for stream, line in device if stream == 2)
        yield from (line for stream, line in device if stream == 3)
        comm_ts = start + (now - start) // 2
        yield self._x(self._pid(3), 0, "hcom_allReduce__428_0_1", "communication", comm_ts, rnd.randrange(50_000, 500_000),
                      {"connection_id": self.flow_id, "model id": 4294967295, "data_type": "FP16"})
        yield self._x(self._pid(4), 0, "Computing", None, start + 30_000, device_now - start - 30_000)
        yield from flows
        for sample in range(4):
            ts = start + sample * (self._step_ns // 4)
            yield f'{{"name": "AI Core Freq", "ts": "{us(ts)}", "pid": {self._pid(5)}, "tid": 0, ' \
                  f'"args": {{"MHz": {rnd.choice((1800.0, 1650.0))}}}, "ph": "C"}}'
            yield f'{{"name": "HBM 0", "ts": "{us(ts)}", "pid": {self._pid(7)}, "tid": 0, "args": ' \
                  f'{{"Read(MB/s)": {rnd.uniform(0, 9000):.3f}, "Write(MB/s)": {rnd.uniform(0, 9000):.3f}}}, "ph": "C"}}'
            yield f'{{"name": "APP/HBM", "ts": "{us(ts)}", "pid": {self._pid(9)}, "tid": 0, ' \
                  f'"args": {{"KB": {rnd.randrange(1 << 20, 1 << 24)}}}, "ph": "C"}}'


def write_trace(path: str | Path, events: int, *, seed: int = 0, rank: int = 0, gz: bool | None = None) -> int:
    """Write a trace of ``events`` events to ``path`` (gzip when ``gz`` or the name ends in .gz); returns the count."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    compress = path.suffix == ".gz" if gz is None else gz
    writer = TraceWriter(events, seed=seed, rank=rank)
    opener = gzip.open(path, "wt", encoding="utf-8", compresslevel=1) if compress else path.open("w", encoding="utf-8")
    with opener as out:
        out.write("[")
        _write_events(out, writer.lines())
        out.write("]\n")
    return writer.count


def write_planned_trace(path: str | Path, rank: int, steps: list[Step], units: list[Unit]) -> int:
    """Write the trace of a rank that follows a plan (warehouse.synth.plan), on the clock of the
    cluster's other ranks: a ProfilerStep per step, each unit's operator on the Python thread, its
    task queue and CANN call, its kernel on stream 2 (with the flows between them), and each step's
    allReduce on the HCCL process. Returns the count of events."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    writer = TraceWriter(0, rank=rank)
    with path.open("w", encoding="utf-8") as out:
        out.write("[")
        count = _write_events(out, writer.planned(steps, units))
        out.write("]\n")
    return count


def _write_events(out: IO[str], lines: Iterable[str]) -> int:
    """Write the events, comma-separated, in batches; returns how many."""
    lines = iter(lines)
    count = 0
    while batch := list(islice(lines, 4096)):
        out.write(("" if count == 0 else ", ") + ", ".join(batch))
        count += len(batch)
    return count


def write_kineto_trace(path: str | Path, events: int, *, seed: int = 0, rank: int = 0) -> int:
    """The same events in the shape PyTorch's kineto profiler writes (what Holistic Trace Analysis reads).

    An object with ``schemaVersion``, ``distributedInfo`` (the rank) and ``deviceProperties``
    around ``traceEvents``; ``ts`` as a JSON number of microseconds instead of torch_npu's
    string. Used to compare with peers on one input; returns the count of events.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    writer = TraceWriter(events, seed=seed, rank=rank)
    head = {"schemaVersion": 1, "deviceProperties": [],
            "distributedInfo": {"backend": "hccl", "rank": rank, "world_size": 1}}
    with path.open("w", encoding="utf-8") as out:
        out.write(json.dumps(head)[:-1] + ', "traceEvents": [')
        _write_events(out, (KINETO_TS.sub(r'"ts": \1', line) for line in writer.lines()))
        out.write('], "traceName": "synthetic"}\n')
    return writer.count
