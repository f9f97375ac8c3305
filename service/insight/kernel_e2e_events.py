"""The events of a rank's kernel dispatch chains and the arrows binding them, as MindStudio Insight's "Kernel E2E
Time" reads them (Ascend/msinsight ``server/src/modules/timeline/core/kernelE2E/``).

A database export's events (DbKernelE2ERepo.cpp) are its framework calls, CANN calls and the device tasks bound
to them (named query ``insight_kernel_e2e_events``), classified by name (KernelE2EDef.h: a CANN call named
``launch...`` is a launch before anything else); they are bound by connection ids: a dequeue to the latest
enqueue of its connection id started by then, a device task to the CANN call of its connection id
(QueryFlows). A text export's (TextKernelE2ERepo.cpp) are the slices of its Python, CANN and Ascend Hardware
processes (``insight_kernel_e2e_trace_events``; a CANN slice is an aclop, then an aclnn call, then a
launch), bound by the trace's own arrows (``insight_kernel_e2e_trace_flows``), whose ends are classified
again, then named by the arrow's category (BuildFlowFromPoints).
"""

from __future__ import annotations

from dataclasses import dataclass

PYTHON_CALL, PYTHON_OP, ENQUEUE, DEQUEUE = "PYTHON_CALL", "PYTHON_OP", "ENQUEUE", "DEQUEUE"
CANN_API, LAUNCH, HARDWARE = "CANN_API", "LAUNCH", "HARDWARE"
ACLOP, ACLNN = "ACLOP", "ACLNN"
#: the arrows' categories: an enqueue to its dequeue, a framework operator to a device task, a CANN call to one
QUEUE, NPU, DEVICE = "async_task_queue", "async_npu", "HostToDevice"


@dataclass
class Event:
    """One event of a chain (KernelE2EEvent): its kind, the real server's id, name, times, host thread, path,
    connection ids, and where the warehouse draws it (slice, process and thread lanes)."""

    kind: str
    id: int
    name: str
    start: int
    end: int
    global_tid: int
    path_type: str
    connections: tuple[int, ...]
    slice_id: int
    process_id: int
    thread_id: int

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.id}"


def is_aclop(name: str) -> bool:
    return "aclopCompileAndExecute" in name


def is_aclnn(name: str) -> bool:
    return name.startswith("aclnn") or name.startswith("AscendCL@aclnn")


def _is_launch(name: str) -> bool:
    return name in ("launch", "Node@launch") or name.startswith("launch")


def _python_kind(name: str) -> str | None:
    kind = next((k for prefix, k in (("Enqueue", ENQUEUE), ("Dequeue", DEQUEUE), ("<built-in", PYTHON_CALL))
                 if name.startswith(prefix)), None)
    return kind or (PYTHON_OP if name.startswith(("aten::", "npu::", "vllm::")) else None)


def _cann_kind(name: str, launch_first: bool) -> tuple[str, str] | None:
    """(kind, path) of a CANN call: a database's launch before anything else (DbKernelE2ERepo), a trace's after
    the aclop and aclnn calls (ClassifyCannEvent, None for another name)."""
    if launch_first and _is_launch(name):
        return LAUNCH, ""
    if is_aclop(name):
        return CANN_API, ACLOP
    if is_aclnn(name):
        return CANN_API, ACLNN
    if _is_launch(name):
        return LAUNCH, ""
    return (CANN_API, "") if launch_first else None


def _kind(role: str, name: str, launch_first: bool) -> tuple[str, str] | None:
    if role == "python":
        kind = _python_kind(name)
        return (kind, "") if kind else None
    if role == "cann":
        return _cann_kind(name, launch_first)
    return HARDWARE, ACLNN if is_aclnn(name) else ""


def db_events(rows: list[dict]) -> list[Event]:
    """The events of ``insight_kernel_e2e_events``'s rows (one per connection id), in their order, each with
    its connection ids; a framework call of no kind the chains use is left out."""
    found: dict[tuple[str, int], Event | None] = {}
    for row in rows:
        key = (row["role"], row["slice_id"])
        if key not in found:
            kind = _kind(row["role"], row["name"] or "", launch_first=True)
            found[key] = kind and Event(kind[0], row["event_id"], row["name"] or "", row["ts"], row["end_ns"],
                                        row["global_tid"] or 0, kind[1], (), row["slice_id"], row["process_id"],
                                        row["thread_id"])
        if found[key] is not None and row["connection_id"] is not None:
            found[key].connections += (row["connection_id"],)
    return [event for event in found.values() if event is not None]


def connection_flows(events: list[Event]) -> tuple[list[Event], list[tuple[str, Event, Event]]]:
    """A database's device tasks bound to a framework operator, enqueue, dequeue or CANN call
    (QueryHardwareTaskEvents), with every event else; and the arrows binding the events by connection id
    (QueryFlows): (category, from, to)."""
    bound = {connection for event in events if event.kind in (PYTHON_OP, ENQUEUE, DEQUEUE)
             for connection in event.connections}
    bound |= {event.id for event in events if event.kind in (CANN_API, LAUNCH)}
    kept = [event for event in events if event.kind != HARDWARE or bound & set(event.connections)]
    enqueues: dict[int, list[Event]] = {}
    for enqueue in (event for event in kept if event.kind == ENQUEUE):
        for connection in enqueue.connections:
            enqueues.setdefault(connection, []).append(enqueue)
    flows = []
    for dequeue in (event for event in kept if event.kind == DEQUEUE):
        for connection in dequeue.connections:
            before = [enqueue for enqueue in sorted(enqueues.get(connection, []), key=lambda e: e.start)
                      if enqueue.start <= dequeue.start]
            if before:
                flows.append((QUEUE, before[-1], dequeue))
    tasks: dict[int, list[Event]] = {}
    for task in (event for event in kept if event.kind == HARDWARE):
        for connection in task.connections:
            tasks.setdefault(connection, []).append(task)
    flows += [(DEVICE, call, task) for call in kept if call.kind in (CANN_API, LAUNCH)
              for task in tasks.get(call.id, [])]
    return kept, flows


def _trace_event(name: str, ts: int, end: int, slice_id: int, process_id: int, thread_id: int,
                 kind: tuple[str, str]) -> Event:
    """A trace slice as an event: its id the slice's, its host thread its lane (the real server's track)."""
    return Event(kind[0], slice_id, name, ts, end, thread_id, kind[1], (), slice_id, process_id, thread_id)


def trace_events(rows: list[dict]) -> list[Event]:
    """The events of ``insight_kernel_e2e_trace_events``'s rows, a slice of no kind left out."""
    found = []
    for row in rows:
        kind = _kind(row["role"], row["name"] or "", launch_first=False)
        if kind is not None:
            found.append(_trace_event(row["name"] or "", row["ts"], row["end_ns"], row["slice_id"],
                                      row["process_id"], row["thread_id"], kind))
    return found


def _end_of(row: dict, end: str, category: str, is_from: bool) -> Event:
    """An arrow's end as an event: classified as a framework call, else a CANN call, else a device task
    (QuerySliceEventById), then named by the arrow (BuildFlowFromPoints)."""
    name = row[f"{end}_name"] or ""
    kind = _kind("python", name, False) or _kind("cann", name, False) or _kind("task", name, False)
    if category == QUEUE:
        kind = (ENQUEUE if is_from else DEQUEUE, kind[1])
    elif category == NPU:
        kind = (PYTHON_OP, kind[1]) if is_from else (HARDWARE, ACLNN if is_aclnn(name) else kind[1])
    elif is_from and is_aclnn(name):
        kind = (CANN_API, ACLNN)
    elif not is_from:
        kind = (HARDWARE, ACLNN if is_aclnn(name) else kind[1])
    return _trace_event(name, row[f"{end}_ts"], row[f"{end}_end"], row[f"{end}_slice"], row[f"{end}_process"],
                        row[f"{end}_thread"], kind)


def trace_flows(rows: list[dict]) -> list[tuple[str, Event, Event]]:
    """The arrows of ``insight_kernel_e2e_trace_flows``'s rows: (category, from, to)."""
    return [(row["category"], _end_of(row, "from", row["category"], True), _end_of(row, "to", row["category"], False))
            for row in rows]
