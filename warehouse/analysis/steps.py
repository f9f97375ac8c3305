"""Where each rank's step time went (seed 004 section 5), from named queries.

Per run, rank and step: the profiler's breakdown (computing, communication not overlapped,
overlapped, communication, free, preparing, stage, bubble) comes from the ``step_time``
query (the profiler's own summary where it wrote one, else derived in SQL with its
arithmetic); the layers come from segmenting the step's kernel sequence (``kernel_sequence``,
:mod:`warehouse.analysis.segment`), which gives head (step start -> first layer), main
(first layer -> end of the last) and tail (-> step end) where layers can be observed.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from itertools import groupby

import numpy as np

from warehouse import queries
from warehouse.analysis.segment import ANCHOR_ROLES, Layer, segment

#: whether any kernel has an anchor role (segmentation has something to find)
ANCHORS_SEEN = (
    "SELECT EXISTS (SELECT 1 FROM kernel AS k JOIN kernel_signature AS s ON s.category = k.category "
    f"WHERE s.role IN {ANCHOR_ROLES!r})"
)


@dataclass
class StepBreakdown:
    """One rank's step: the profiler's time buckets in ns (None, unknown, in a step in which the rank's inputs
    hold no device activity), and the observed layers (empty when none)."""

    run_id: int
    rank_id: int
    step_id: int
    start_ns: int | None
    end_ns: int | None
    duration_ns: int | None
    computing_ns: int | None
    communication_not_overlapped_ns: int | None
    overlapped_ns: int | None
    communication_ns: int | None
    free_ns: int | None
    preparing_ns: int | None
    stage_ns: int | None
    bubble_ns: int | None
    #: which input answers: the profiler's summary (its kind) or 'derived'
    basis: str
    layers: list[Layer] = field(default_factory=list)
    head_ns: int | None = None
    main_ns: int | None = None
    tail_ns: int | None = None
    block_ns: dict[str, int] = field(default_factory=dict)


def rows_of(conn: sqlite3.Connection, name: str, params: dict | None = None) -> list[dict]:
    """A named query's rows as dicts."""
    columns, rows = queries.get(name).run(conn, params)
    return [dict(zip(columns, row)) for row in rows]


def step_breakdown(conn: sqlite3.Connection, rank_id: int | None = None, *,
                   run_id: int | None = None) -> list[StepBreakdown]:
    """Every step of every rank (or of one) of every run (or of one), in run, rank and step order."""
    params = {"run_id": run_id, "rank_id": rank_id}
    steps = [StepBreakdown(**row) for row in rows_of(conn, "step_time", params)]
    if not conn.execute(ANCHORS_SEEN).fetchone()[0]:
        return steps  # no attention, moe or matmul kernel anywhere: no layer to observe, skip the sequence
    by_key = {(s.run_id, s.rank_id, s.step_id): s for s in steps}
    columns, sequence = queries.get("kernel_sequence").run(conn, params)
    picked = [columns.index(name) for name in ("run_id", "rank_id", "step_id", "role", "category", "ts", "dur")]
    for key, group in groupby((tuple(row[i] for i in picked) for row in sequence), key=lambda r: r[:3]):
        step = by_key.get(key)
        if step is not None:
            _add_layers(step, [row[3:] for row in group])
    return steps


def _add_layers(step: StepBreakdown, kernels: list[tuple]) -> None:
    """Segment one step's (role, category, ts, dur) rows; fill head/main/tail and time per block kind."""
    roles, categories, starts, durations = zip(*kernels)
    step.layers = segment(roles, categories)
    if not step.layers:
        return
    starts = np.asarray(starts, dtype=np.int64)
    durations = np.asarray(durations, dtype=np.int64)
    busy_before = np.concatenate(([0], np.cumsum(durations)))  # busy_before[i]: kernel time of rows < i
    first, last = step.layers[0].first, step.layers[-1].last
    main_end = int((starts[first:last + 1] + durations[first:last + 1]).max())
    step.main_ns = main_end - int(starts[first])
    if step.start_ns is not None:  # a step only the profiler's summary gives has no window
        step.head_ns = int(starts[first]) - step.start_ns
        step.tail_ns = step.end_ns - main_end
    for layer in step.layers:
        for block in layer.blocks:
            busy = int(busy_before[block.last + 1] - busy_before[block.first])
            step.block_ns[block.kind] = step.block_ns.get(block.kind, 0) + busy
