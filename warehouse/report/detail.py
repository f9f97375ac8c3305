"""What the HTML report's step inspector shows of each step beyond its breakdown (seed 004
section 10): its longest kernels and HCCL operators with every field of their rows, the idle
intervals of its device (where neither runs: the bubble axis), and its top kernels.

One pass over the run's step kernels (``step_kernels.sql``), one step at a time, merged in
start order with the step's HCCL operators (``step_operators.sql``): the report never holds a
run's kernels at once. The timeline embeds at most :data:`MAX_KERNELS_PER_STEP` kernels and
operators of a step (its longest) and :data:`MAX_KERNELS_PER_RUN` of a run, shared evenly among
the run's steps (:func:`step_share`), so the file stays bounded on a big run and no step that
ran kernels is left without any (a budget spent in step order left a big run's later ranks
empty); the idle intervals and top kernels are computed from all of them.
"""

from __future__ import annotations

import heapq
import sqlite3
from collections import defaultdict
from dataclasses import dataclass, field, replace
from itertools import groupby
from pathlib import Path
from typing import NamedTuple

from warehouse import sqlfiles
from warehouse.analysis.steps import StepBreakdown

STEP_KERNELS_SQL = sqlfiles.text(Path(__file__).parent / "step_kernels.sql")
STEP_OPERATORS_SQL = sqlfiles.text(Path(__file__).parent / "step_operators.sql")
#: the longest kernels and HCCL operators of a step the timeline embeds (every field of their rows)
MAX_KERNELS_PER_STEP = 400
#: the kernels of a run the timeline embeds over all its steps, an equal share each: a kernel with
#: every field as text takes 0.5-1 kB of the page, so a run adds 10 MB at most
MAX_KERNELS_PER_RUN = 10_000
#: the longest idle intervals of a step the bubble axis marks
MAX_GAPS_PER_STEP = 400
#: kernel names listed per step (by their summed time)
TOP_STEP_KERNELS = 10


class Positions(NamedTuple):
    """Where the fields the report reads sit in a row of ``step_kernels.sql``."""

    ts: int
    dur: int
    stream_id: int
    name: int


class Lane:
    """The timeline's lane of the HCCL operators (a kernel's lane is its stream): an object of its own,
    equal to no stream an input could name."""


HCCL = Lane()


class Activity(NamedTuple):
    """A kernel or HCCL operator: its start (absolute, or from the step's start once embedded),
    duration, lane (the kernel's stream, or :data:`HCCL`), every field of its row, and its name."""

    ts: int
    dur: int
    lane: object
    row: tuple
    name: object = None


@dataclass
class StepDetail:
    """One rank's step as the inspector shows it; times in ns from ``origin_ns`` (the step's start)."""

    step: StepBreakdown
    origin_ns: int | None = None
    window_ns: int = 0
    kernel_count: int = 0
    operator_count: int = 0
    #: the kernels and HCCL operators the timeline draws (the longest), times from the step's start
    shown: list[Activity] = field(default_factory=list)
    gaps: list[tuple[int, int]] = field(default_factory=list)
    gap_count: int = 0
    top: list[tuple[str, int, int]] = field(default_factory=list)


@dataclass
class RunDetail:
    """The steps of one run with the field names of a kernel's row and of an HCCL operator's."""

    fields: list[str]
    operator_fields: list[str]
    steps: list[StepDetail]


def step_share(steps: int) -> int:
    """How many kernels and HCCL operators each of a run's ``steps`` steps may embed: the step cap, or
    an equal share of the run's budget when that is less; at least one, so a step that ran some
    shows some."""
    return max(1, min(MAX_KERNELS_PER_STEP, MAX_KERNELS_PER_RUN // max(steps, 1)))


def run_detail(conn: sqlite3.Connection, run_id: int, steps: list[StepBreakdown]) -> RunDetail:
    """Every step of ``steps`` (one run's, in order) with its kernels and HCCL operators read once:
    one detail per row of ``steps`` (the steps table links its rows to them by position), rows
    of one rank and step sharing it."""
    details = {}
    for s in steps:
        details.setdefault((s.rank_id, s.step_id), StepDetail(s))
    cap = step_share(len(details))
    operators, operator_fields = _operators(conn, run_id)
    cursor = conn.execute(STEP_KERNELS_SQL, {"run_id": run_id})
    columns = [d[0] for d in cursor.description]
    at = Positions(*(columns.index(name) for name in Positions._fields))
    filled = set()
    for key, rows in groupby(cursor, key=lambda row: row[:2]):
        if key in details:
            _fill(details[key], rows, operators.get(key, []), at, cap)
            filled.add(key)
    for key in operators.keys() & details.keys() - filled:  # steps with HCCL operators and no kernel
        _fill(details[key], [], operators[key], at, cap)
    return RunDetail(columns[2:], operator_fields, [_of(details[(s.rank_id, s.step_id)], s) for s in steps])


def _of(detail: StepDetail, step: StepBreakdown) -> StepDetail:
    """``detail`` as the detail of ``step``, another row of its rank and step when it is not the one it was made for."""
    return detail if detail.step is step else replace(detail, step=step)


def _operators(conn: sqlite3.Connection, run_id: int) -> tuple[dict, list[str]]:
    """The run's HCCL operators per (rank, step) as :class:`Activity`, and their row's field names."""
    cursor = conn.execute(STEP_OPERATORS_SQL, {"run_id": run_id})
    columns = [d[0] for d in cursor.description]
    ts, dur = columns.index("ts"), columns.index("dur")
    found = {}
    for row in cursor:
        found.setdefault(row[:2], []).append(Activity(row[ts], row[dur] or 0, HCCL, row[2:]))
    return found, columns[2:]


def _fill(detail: StepDetail, kernels, operators: list[Activity], at: Positions, cap: int) -> None:
    """Read one step's kernel rows and HCCL operators into ``detail``, embedding at most ``cap`` of
    them (the longest)."""
    step = detail.step
    count, longest, totals = 0, [], defaultdict(lambda: [0, 0])
    activities = heapq.merge((Activity(row[at.ts], row[at.dur] or 0, row[at.stream_id], row[2:], row[at.name])
                              for row in kernels), operators, key=lambda activity: activity.ts)
    gaps, busy_until = [], None
    for index, activity in enumerate(activities):
        if busy_until is None:
            detail.origin_ns = step.start_ns if step.start_ns is not None else activity.ts
            busy_until = detail.origin_ns
        if activity.ts > busy_until:
            gaps.append((busy_until, activity.ts))
        busy_until = max(busy_until, activity.ts + activity.dur)
        if activity.lane is not HCCL:
            count += 1
            total = totals[activity.name]
            total[0] += 1
            total[1] += activity.dur
        item = (activity.dur, -index, activity)
        (heapq.heappush if len(longest) < cap else heapq.heappushpop)(longest, item)
    end = step.end_ns if step.end_ns is not None else busy_until
    if end > busy_until:
        gaps.append((busy_until, end))
    origin = detail.origin_ns
    detail.window_ns = max(end, busy_until) - origin
    detail.kernel_count = count
    detail.operator_count = len(operators)
    detail.shown = [Activity(a.ts - origin, a.dur, a.lane, a.row)
                    for _, _, a in sorted(longest, key=lambda item: (item[2].ts, -item[1]))]
    detail.gap_count = len(gaps)
    kept = sorted(gaps, key=lambda gap: gap[0] - gap[1])[:MAX_GAPS_PER_STEP]
    detail.gaps = sorted((a - origin, b - origin) for a, b in kept)
    detail.top = sorted(((name, n, ns) for name, (n, ns) in totals.items()),
                        key=lambda item: (-item[2], str(item[0])))[:TOP_STEP_KERNELS]
