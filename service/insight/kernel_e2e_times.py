"""The times of a dispatch chain (:mod:`service.insight.kernel_e2e_chains`) as MindStudio Insight's "Kernel E2E
Time" table shows them (Ascend/msinsight ``server/src/modules/timeline/core/kernelE2E/KernelE2ECalculator.cpp``).

A record: the row's id and operator name (a Python call's row: the call; a CANN call's row under it: the
framework operator; a launch's row under a CANN call: the device task), path, parent, and the durations in
ns of the steps its events give (absent when they do not): prepare, Python API, enqueue, queue, pipeline 2,
launch, end to end; its status and the reason when not normal. A parent row's durations are its children's
summed, its end to end their longest; its status the worst of theirs.
"""

from __future__ import annotations

from service.insight.kernel_e2e_chains import DURATIONS, FALLBACK, INCOMPLETE, NORMAL, UNKNOWN, Chain, Event, record_id

#: the events a row is named after, first found first (ResolvePythonParentOpName, ResolveCannParentOpName,
#: ResolvePythonOpLeafName, ResolveLaunchHardwareLeafName)
PYTHON_PARENT_NAME = ("python_call", "python_op", "cann_api", "launch", "hardware_task")
CANN_PARENT_NAME = ("python_op", "cann_api", "launch", "hardware_task", "dequeue", "enqueue")
LAUNCH_LEAF_NAME = ("hardware_task", "launch", "cann_api", "python_op", "dequeue", "enqueue")
#: the event a row's id is, first found first (ResolveRecordId, for a row that is no parent)
ID_EVENTS = ("hardware_task", "launch", "cann_api", "dequeue", "python_call")
#: the durations a launch's row under a CANN call leaves to its parent (ClearLeafUpstreamTimes)
UPSTREAM = ("prepareTime", "pythonApiTime", "enqueueTime", "queueTime")
#: the durations a Python call's row sums from its leaves (AddChildDurations)
SUMMED = ("enqueueTime", "queueTime", "pipeline2Time", "launchTime")


def _length(event: Event | None) -> int | None:
    return event.end - event.start if event is not None and event.end >= event.start else None


def _from(first: Event | None, first_at: str, last: Event | None, last_at: str) -> int | None:
    """From ``first``'s start or end to ``last``'s, when both are there and in that order."""
    if first is None or last is None:
        return None
    begin, end = getattr(first, first_at), getattr(last, last_at)
    return end - begin if end >= begin else None


class Calculator:
    """The records of one rank's chains (``rank`` the card whose rows they are)."""

    def __init__(self, rank: str):
        self.rank = rank

    def of(self, chain: Chain) -> dict:
        """The chain's record, computed once and kept with it (GetOrCalculate)."""
        if chain.record is None:
            chain.record = self.calculate(chain)
        return chain.record

    def is_launch_leaf(self, chain: Chain) -> bool:
        """A launch's row under its CANN call's row (IsLaunchHardwareLeaf)."""
        return (not chain.is_parent and chain.cann_api is not None
                and chain.parent_id == record_id(chain.cann_api, self.rank))

    def _id(self, chain: Chain) -> str:
        if chain.is_parent:
            return record_id(chain.cann_api or chain.python_call, self.rank)
        event = next((getattr(chain, name) for name in ID_EVENTS if getattr(chain, name) is not None), None)
        return record_id(event, self.rank) if event is not None else chain.path_type

    def _name(self, chain: Chain) -> str:
        if chain.is_parent and chain.cann_api is not None:
            order = PYTHON_PARENT_NAME if not chain.parent_id else CANN_PARENT_NAME
        elif chain.is_parent or not chain.parent_id:
            order = PYTHON_PARENT_NAME
        else:
            order = LAUNCH_LEAF_NAME if self.is_launch_leaf(chain) else CANN_PARENT_NAME
        events = (getattr(chain, name) for name in order)
        return next((event.name for event in events if event is not None and event.name), UNKNOWN)

    def _base(self, chain: Chain) -> dict:
        return {"id": self._id(chain), "opName": self._name(chain), "pathType": chain.path_type,
                "parentId": chain.parent_id, "isParent": chain.is_parent, **dict.fromkeys(DURATIONS),
                "status": "", "diagnostic": ""}

    def calculate(self, chain: Chain) -> dict:
        """KernelE2ECalculator::Calculate."""
        record = self._base(chain)
        if chain.is_parent and chain.cann_api is not None:
            return self._cann_parent(chain, record)
        if chain.is_parent:
            return self._python_parent(chain, record)
        self._fill(chain, record)
        if self.is_launch_leaf(chain):
            record.update(dict.fromkeys(UPSTREAM))
        return self._finish(chain, record)

    @staticmethod
    def _fill(chain: Chain, record: dict) -> None:
        """FillRecoveredEventTimes."""
        record["pythonApiTime"] = _length(chain.python_call)
        record["enqueueTime"] = _length(chain.enqueue)
        record["launchTime"] = _length(chain.launch)
        record["prepareTime"] = _from(chain.python_call, "start", chain.enqueue, "start")
        record["queueTime"] = _from(chain.enqueue, "end", chain.dequeue, "start")
        if chain.launch is not None:
            record["pipeline2Time"] = _from(chain.dequeue, "start", chain.launch, "end")
            record["endToEndTime"] = _from(chain.python_call, "start", chain.launch, "end")
        else:
            record["pipeline2Time"] = _length(chain.dequeue)
            record["endToEndTime"] = _from(chain.python_call, "start", chain.dequeue, "end")

    @staticmethod
    def _finish(chain: Chain, record: dict) -> dict:
        """FinalizeChildRecord: normal with the whole queue path and a launch in time order, fallback without
        the launch, else incomplete."""
        if chain.python_call is not None and chain.enqueue is not None and chain.dequeue is not None:
            call, enqueue, dequeue = chain.python_call, chain.enqueue, chain.dequeue
            ordered = call.start <= enqueue.start <= enqueue.end <= dequeue.start and (
                dequeue.start <= chain.launch.end if chain.launch is not None else dequeue.start <= dequeue.end)
            if not ordered:
                record.update(status=INCOMPLETE, diagnostic="non-monotonic timestamps")
            elif chain.launch is not None:
                record["status"] = NORMAL
            else:
                record.update(status=FALLBACK, diagnostic="CANN Launch not found, fallback to DEQUEUE_END")
            return record
        record.update(status=INCOMPLETE, diagnostic=chain.diagnostic or "missing python call/enqueue/dequeue")
        return record

    @staticmethod
    def _status(children: list[dict], record: dict) -> None:
        """UpdateParentStatus: the first incomplete child's, else the last fallback child's, else normal."""
        record["status"] = NORMAL
        for child in children:
            if child["status"] == INCOMPLETE:
                record.update(status=INCOMPLETE, diagnostic=child["diagnostic"])
                return
            if child["status"] == FALLBACK:
                record.update(status=FALLBACK, diagnostic=child["diagnostic"])

    @staticmethod
    def _add(record: dict, name: str, value: int | None) -> None:
        if value is not None:
            record[name] = (record[name] or 0) + value

    def _python_parent(self, chain: Chain, record: dict) -> dict:
        """CalculatePythonParentRecord: the leaves below, however deep, computed afresh."""
        record["pythonApiTime"] = _length(chain.python_call)
        leaves, enqueue_starts = [], []

        def visit(row: Chain) -> None:
            if row.children:
                for child in row.children:
                    visit(child)
                return
            leaf = self._base(row)
            self._fill(row, leaf)
            leaf = self._finish(row, leaf)
            for name in SUMMED:
                self._add(record, name, leaf[name])
            if row.enqueue is not None:
                enqueue_starts.append(row.enqueue.start)
            leaves.append(leaf)

        for child in chain.children:
            visit(child)
        if chain.python_call is not None and enqueue_starts and min(enqueue_starts) >= chain.python_call.start:
            record["prepareTime"] = min(enqueue_starts) - chain.python_call.start
        ends = [leaf["endToEndTime"] for leaf in leaves if leaf["endToEndTime"] is not None]
        record["endToEndTime"] = max(ends) if ends else None
        self._status(leaves, record)
        return record

    def _cann_parent(self, chain: Chain, record: dict) -> dict:
        """CalculateCannParentRecord: the upstream steps of the call's row, its launches' summed."""
        record["pythonApiTime"] = _length(chain.python_call)
        record["enqueueTime"] = _length(chain.enqueue)
        record["prepareTime"] = _from(chain.python_call, "start", chain.enqueue, "start")
        record["queueTime"] = _from(chain.enqueue, "end", chain.dequeue, "start")
        children = [self.calculate(child) for child in chain.children]
        for child in children:
            self._add(record, "pipeline2Time", child["pipeline2Time"])
            self._add(record, "launchTime", child["launchTime"])
        ends = [child["endToEndTime"] for child in children if child["endToEndTime"] is not None]
        record["endToEndTime"] = max(ends) if ends else None
        self._status(children, record)
        return record
