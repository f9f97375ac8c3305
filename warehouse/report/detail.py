"""What the HTML report's step inspector shows of each step beyond its breakdown (seed 004
section 10): its longest kernels with every field of their kernel rows, the idle intervals of its
device, and its top kernels.

One pass over the run's step kernels (``step_kernels.sql``), one step at a time: the report
never holds a run's kernels at once. The timeline embeds at most :data:`MAX_KERNELS_PER_STEP`
kernels of a step (its longest) and :data:`MAX_KERNELS_PER_RUN` of a run, so the file stays
bounded on a big run; the idle intervals and top kernels are computed from every kernel.
"""

from __future__ import annotations

import heapq
import sqlite3
from collections import defaultdict
from dataclasses import dataclass, field
from itertools import groupby
from pathlib import Path
from typing import NamedTuple

from warehouse.analysis.steps import StepBreakdown

STEP_KERNELS_SQL = (Path(__file__).parent / "step_kernels.sql").read_text(encoding="utf-8")
#: the longest kernels of a step the timeline embeds (every field of their rows)
MAX_KERNELS_PER_STEP = 400
#: the kernels of a run the timeline embeds over all its steps (later steps get fewer, or none)
MAX_KERNELS_PER_RUN = 20_000
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


@dataclass(frozen=True)
class Kernel:
    """A kernel the timeline draws: its start from the step's origin, duration, stream and kernel row."""

    offset_ns: int
    dur_ns: int
    stream: object
    row: tuple


@dataclass
class StepDetail:
    """One rank's step as the inspector shows it; times in ns from ``origin_ns`` (the step's start)."""

    step: StepBreakdown
    origin_ns: int | None = None
    window_ns: int = 0
    kernel_count: int = 0
    kernels: list[Kernel] = field(default_factory=list)
    gaps: list[tuple[int, int]] = field(default_factory=list)
    gap_count: int = 0
    top: list[tuple[str, int, int]] = field(default_factory=list)


@dataclass
class RunDetail:
    """The steps of one run with the kernel table's field names (those of every :attr:`Kernel.row`)."""

    fields: list[str]
    steps: list[StepDetail]


def run_detail(conn: sqlite3.Connection, run_id: int, steps: list[StepBreakdown]) -> RunDetail:
    """Every step of ``steps`` (one run's, in order) with its kernels read once from the warehouse."""
    details = {(s.rank_id, s.step_id): StepDetail(s) for s in steps}
    cursor = conn.execute(STEP_KERNELS_SQL, {"run_id": run_id})
    columns = [d[0] for d in cursor.description]
    at = Positions(*(columns.index(name) for name in Positions._fields))
    budget = MAX_KERNELS_PER_RUN
    for key, rows in groupby(cursor, key=lambda row: row[:2]):
        detail = details.get(key)
        if detail is not None:
            budget -= _fill(detail, rows, at, min(MAX_KERNELS_PER_STEP, budget))
    return RunDetail(columns[2:], list(details.values()))


def _fill(detail: StepDetail, rows, at: Positions, cap: int) -> int:
    """Read one step's kernel rows into ``detail``; return how many kernels it embeds (at most ``cap``)."""
    step = detail.step
    count, longest, totals = 0, [], defaultdict(lambda: [0, 0])
    gaps, busy_until = [], None
    for index, row in enumerate(rows):
        start, length = row[at.ts], row[at.dur] or 0
        if detail.origin_ns is None:
            detail.origin_ns = step.start_ns if step.start_ns is not None else start
            busy_until = detail.origin_ns
        if start > busy_until:
            gaps.append((busy_until, start))
        busy_until = max(busy_until, start + length)
        count += 1
        total = totals[row[at.name]]
        total[0] += 1
        total[1] += length
        if cap:
            item = (length, -index, row)
            (heapq.heappush if len(longest) < cap else heapq.heappushpop)(longest, item)
    end = step.end_ns if step.end_ns is not None else busy_until
    if end > busy_until:
        gaps.append((busy_until, end))
    origin = detail.origin_ns
    detail.window_ns = max(end, busy_until) - origin
    detail.kernel_count = count
    detail.kernels = [Kernel(row[at.ts] - origin, length, row[at.stream_id], row[2:])
                      for length, _, row in sorted(longest, key=lambda item: (item[2][at.ts], -item[1]))]
    detail.gap_count = len(gaps)
    kept = sorted(gaps, key=lambda gap: gap[0] - gap[1])[:MAX_GAPS_PER_STEP]
    detail.gaps = sorted((a - origin, b - origin) for a, b in kept)
    detail.top = sorted(((name, n, ns) for name, (n, ns) in totals.items()),
                        key=lambda item: (-item[2], str(item[0])))[:TOP_STEP_KERNELS]
    return len(detail.kernels)

