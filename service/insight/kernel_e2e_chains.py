"""The dispatch chains of a rank's kernels, recovered as MindStudio Insight's "Kernel E2E Time" recovers them.

A kernel reaches the device along a chain of host events: a Python call (``<built-in ...``) running a
framework operator (``aten::...``), which enqueues a task (``Enqueue``) that a worker thread dequeues
(``Dequeue@...``) to call CANN (``aclopCompileAndExecute`` or ``aclnn...``), which launches (``launch``) the
device task. The real server recovers the chains from the rank's events and the arrows binding them
(:mod:`service.insight.kernel_e2e_events`) in two ways (Ascend/msinsight
``server/src/modules/timeline/core/kernelE2E/KernelE2EAnalyzer.cpp``): from each ``aclopCompileAndExecute``
call, one chain per launch inside it (ACLOP); from each device task named ``aclnn...``, back through the
launch bound to it, the smallest ``aclnn`` call around that launch (ACLNN). Up from the CANN call: the
smallest dequeue around it, the enqueue the task queue binds to that dequeue, the smallest framework operator around the
enqueue on its thread, the smallest Python call around that. Chains sharing a CANN call, then a Python call,
are grouped under a parent row (BuildParentChildChains).

Each chain's times are KernelE2ECalculator.cpp's (prepare: Python call to enqueue; Python API: the call;
enqueue; queue: enqueue end to dequeue; pipeline 2: dequeue to launch end, else to dequeue end; launch;
end to end: Python call to launch end, else to dequeue end), its status ``normal`` (Python call, enqueue,
dequeue and launch in time order), ``fallback`` (no launch) or ``incomplete``; a parent sums its children's
durations and takes their longest end to end. A record computed for a chain is kept with it
(GetOrCalculate): a chain's record computed before it was grouped under a parent stays its record, as the
real server answers its child rows.
"""

from __future__ import annotations

import bisect
import copy
from dataclasses import dataclass, field

from service.insight.kernel_e2e_events import (ACLNN, ACLOP, CANN_API, DEQUEUE, DEVICE, HARDWARE, LAUNCH, PYTHON_CALL,
                                               PYTHON_OP, QUEUE, Event, is_aclnn, is_aclop)

UNKNOWN = "Unknown"
NORMAL, FALLBACK, INCOMPLETE = "normal", "fallback", "incomplete"
#: the durations of a record, in the real server's order
DURATIONS = ("prepareTime", "pythonApiTime", "enqueueTime", "queueTime", "pipeline2Time", "launchTime",
             "endToEndTime")


@dataclass
class Chain:
    """One recovered chain (KernelE2EChain), or a parent row of chains."""

    path_type: str = UNKNOWN
    python_call: Event | None = None
    python_op: Event | None = None
    enqueue: Event | None = None
    dequeue: Event | None = None
    cann_api: Event | None = None
    launch: Event | None = None
    hardware_task: Event | None = None
    children: list[Chain] = field(default_factory=list)
    parent_id: str = ""
    is_parent: bool = False
    diagnostic: str = ""
    #: the record computed for the chain (KernelE2EChain::cachedRecord), copied with it
    record: dict | None = None


class _ByStart:
    """Events in start order, with their starts to search."""

    def __init__(self, events: list[Event]):
        self.events = sorted(events, key=lambda e: e.start)
        self.starts = [e.start for e in self.events]


class _Index:
    """The events by kind, and the task-queue and host-to-device arrows both ways, the first arrow to an event
    kept (BuildIndex)."""

    def __init__(self, events: list[Event], flows: list[tuple[str, Event, Event]]):
        by_kind: dict[str, list[Event]] = {}
        for event in events:
            by_kind.setdefault(event.kind, []).append(event)
        self.cann_apis, self.hardware_tasks = by_kind.get(CANN_API, []), by_kind.get(HARDWARE, [])
        self.dequeues, self.launches = _ByStart(by_kind.get(DEQUEUE, [])), _ByStart(by_kind.get(LAUNCH, []))
        self.sorted_cann_apis = _ByStart(self.cann_apis)
        self.calls_by_thread = _by_thread(by_kind.get(PYTHON_CALL, []))
        self.ops_by_thread = _by_thread(by_kind.get(PYTHON_OP, []))
        self.queue_from, self.device_from, self.device_to = {}, {}, {}
        for category, source, target in flows:
            if category == QUEUE:
                self.queue_from.setdefault(target.key, source)
            elif category == DEVICE:
                self.device_from.setdefault(target.key, source)
                self.device_to.setdefault(source.key, target)


def _by_thread(events: list[Event]) -> dict[int, _ByStart]:
    found: dict[int, list[Event]] = {}
    for event in events:
        if event.global_tid:
            found.setdefault(event.global_tid, []).append(event)
    return {tid: _ByStart(bucket) for tid, bucket in found.items()}


def _contains(outer: Event, inner: Event) -> bool:
    return outer.start <= inner.start and outer.end >= inner.end


def _smallest_around(target: Event, ordered: _ByStart | None, wanted=lambda event: True) -> Event | None:
    """The shortest event of ``ordered`` (by start) containing ``target``; the latest started of equals
    (FindSmallestEnclosing's walk back from the last one started by then)."""
    best, best_length = None, None
    index = bisect.bisect_right(ordered.starts, target.start) - 1 if ordered else -1
    while index >= 0:
        candidate = ordered.events[index]
        if best is not None and target.end >= candidate.start and target.end - candidate.start >= best_length:
            break
        if _contains(candidate, target) and wanted(candidate):
            length = candidate.end - candidate.start
            if best is None or length < best_length:
                best, best_length = candidate, length
        index -= 1
    return best


def _on_thread(target: Event, by_thread: dict[int, _ByStart]) -> Event | None:
    return _smallest_around(target, by_thread.get(target.global_tid)) if target.global_tid else None


def _climb(chain: Chain, index: _Index) -> None:
    """Fill the chain up from its dequeue: enqueue, framework operator, Python call."""
    if chain.dequeue is None:
        return
    chain.enqueue = index.queue_from.get(chain.dequeue.key)
    if chain.enqueue is not None:
        chain.python_op = _on_thread(chain.enqueue, index.ops_by_thread)
        chain.python_call = _on_thread(chain.python_op or chain.enqueue, index.calls_by_thread)


def _upper_diagnostic(chain: Chain, missing_dequeue: str) -> str:
    if chain.dequeue is None:
        return missing_dequeue
    if chain.enqueue is None:
        return "missing enqueue (async_task_queue not found)"
    return "missing python call" if chain.python_call is None else ""


def recover(events: list[Event], flows: list[tuple[str, Event, Event]]) -> list[Chain]:
    """The chains of the events bound by the arrows: ACLOP chains, then ACLNN chains (AnalyzeChains)."""
    index = _Index(events, flows)
    chains = []
    for cann_api in index.cann_apis:
        if not is_aclop(cann_api.name):
            continue
        chain = Chain(path_type=ACLOP, cann_api=cann_api, dequeue=_smallest_around(cann_api, index.dequeues))
        _climb(chain, index)
        start = bisect.bisect_left(index.launches.starts, cann_api.start)
        launches = sorted((launch for launch in index.launches.events[start:]
                           if launch.start <= cann_api.end and _contains(cann_api, launch)),
                          key=lambda e: (e.start, e.end, e.id))
        for launch in launches or [None]:
            found = copy.copy(chain)
            found.launch = launch
            found.hardware_task = index.device_to.get(launch.key) if launch else None
            found.diagnostic = _upper_diagnostic(found, "missing dequeue for aclopCompileAndExecute")
            chains.append(found)
    for task in index.hardware_tasks:
        if not is_aclnn(task.name):
            continue
        chain = Chain(path_type=ACLNN, hardware_task=task, launch=index.device_from.get(task.key))
        if chain.launch is not None:
            chain.cann_api = _smallest_around(chain.launch, index.sorted_cann_apis, lambda e: is_aclnn(e.name))
        if chain.cann_api is not None:
            chain.dequeue = _smallest_around(chain.cann_api, index.dequeues)
            _climb(chain, index)
        if chain.launch is None:
            chain.diagnostic = "missing launch for aclnn hardware task"
        elif chain.cann_api is None:
            chain.diagnostic = "missing CANN aclnn API for launch"
        else:
            chain.diagnostic = _upper_diagnostic(chain, "missing dequeue for aclnn API")
        chains.append(chain)
    return chains


def record_id(event: Event, rank: str) -> str:
    """BuildEventRecordId: ``<rank>:<kind>:<id>``."""
    return f"{rank or 'unknown'}:{event.kind}:{event.id}"


def grouped(chains: list[Chain], rank: str) -> list[Chain]:
    """Chains sharing a CANN call under a parent row of that call, then rows sharing a Python call under a
    parent row of that call; a chain alone stays a row (BuildParentChildChains)."""
    def group(rows: list[Chain], event_of_row, parent_of) -> list[Chain]:
        counts: dict[int, int] = {}
        for row in rows:
            if event_of_row(row) is not None:
                counts[event_of_row(row).id] = counts.get(event_of_row(row).id, 0) + 1
        result, parents = [], {}
        for row in rows:
            event = event_of_row(row)
            if event is None or counts[event.id] <= 1:
                result.append(row)
                continue
            if event.id not in parents:
                parents[event.id] = parent_of(row)
                result.append(parents[event.id])
            child = copy.copy(row)
            child.parent_id = record_id(event, rank)
            parents[event.id].children.append(child)
        return result

    by_cann = group(chains, lambda row: row.cann_api, lambda row: Chain(
        path_type=row.path_type, python_call=row.python_call, python_op=row.python_op, enqueue=row.enqueue,
        dequeue=row.dequeue, cann_api=row.cann_api, is_parent=True))
    return group(by_cann, lambda row: row.python_call, lambda row: Chain(
        path_type=row.path_type, python_call=row.python_call, is_parent=True))
