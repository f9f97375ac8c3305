"""Shape-strict step classes and the observed layers of every step (seed 004 sections 5 and 7).

``write_step_classes(conn)`` (called by ``warehouse analyze``) replaces the tables ``step_class``
and ``layer_block`` (migration 0013) with, per run, rank and step:

- the layers and blocks the step's kernel sequence shows (:mod:`warehouse.analysis.segment`),
  each layer with the attention family of its attention block (:mod:`warehouse.analysis.families`,
  from the set of categories of the block's kernels);
- its class: steps are grouped only when their kernel sequences are equal kernel for kernel,
  in order, name and input shapes alike ((3,4) and (4,3) are two classes), so a prefill step is
  never averaged with a decode step. The class is ``step_`` + the BLAKE2b digest (8 bytes) of
  ``json.dumps([structure, "step", [[name, shape], ...]])``. A step none of whose kernels has a
  shape (graph mode erases them) cannot be shown equal to another: it is
  ``step_unknown_shape_<digest>``, the digest taken over the step's identity too, never merged.

Steps are the step markers' windows. A rank without markers is cut at its selection kernels
(role ``selection``: argmax, top-k/top-p sampling end a decode step): a step ends at the last
selection kernel before the next layer anchor (attention, moe or matmul kernel), so a sampler
of several kernels closes one step; what follows the last cut is a step of its own. Such steps
are numbered 1, 2, ... and marked ``is_derived``; a rank with neither keeps one step, -1.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from hashlib import blake2b
from itertools import groupby
from pathlib import Path

from warehouse import sqlfiles
from warehouse.analysis.families import category_sets, resolve
from warehouse.analysis.segment import ANCHOR_ROLES, Layer, segment

WINDOWS_SQL, KERNELS_SQL = sqlfiles.statements(Path(__file__).with_name("step_classes.sql"))
#: the scope label hashed with every class (classes of whole steps)
SCOPE_LABEL = "step"
#: shape texts that mean the input wrote none
NO_SHAPE = ("", "N/A")
STEP_COLUMNS = ("run_id", "rank_id", "step_id", "is_derived", "start_ns", "end_ns", "wall_ns", "step_class",
                "structure", "kernel_count", "cube_ns", "vector_ns", "aic_mte_ns", "aiv_mte_ns", "scalar_ns",
                "first_kernel_id", "last_kernel_id")
BLOCK_COLUMNS = ("run_id", "rank_id", "step_id", "is_derived", "layer_index", "layer_kind", "layer_start_ns",
                 "layer_end_ns", "block_index", "block_kind", "start_ns", "end_ns", "block_ns", "kernel_count",
                 "attention_family", "first_kernel_id", "last_kernel_id")


@dataclass(frozen=True)
class Kernel:
    """One kernel of a step, as step_classes.sql reads it."""

    kernel_id: int
    name: str | None
    shape: str | None
    category: str | None
    role: str | None
    ts: int
    dur: int
    #: pipeline family times in ns: cube, vector, aic_mte, aiv_mte, scalar
    pipeline: tuple[int, int, int, int, int]

    @property
    def end(self) -> int:
        return self.ts + self.dur


@dataclass
class Step:
    """One step of one rank: its window and its kernels in device order."""

    run_id: int
    rank_id: int
    step_id: int
    is_derived: int
    start_ns: int | None
    end_ns: int | None
    kernels: list[Kernel]


def write_step_classes(conn: sqlite3.Connection) -> int:
    """Replace ``step_class`` and ``layer_block`` with every step's; return the number of steps.

    Runs inside the caller's transaction.
    """
    sets = category_sets(conn)
    step_rows, block_rows = [], []
    for step in steps_of(conn):
        layers = segment([k.role for k in step.kernels], [k.category for k in step.kernels])
        families = [layer_family(layer, step.kernels, sets) for layer in layers]
        structure = describe(layers, families)
        step_rows.append(_step_row(step, structure))
        block_rows.extend(_block_rows(step, layers, families))
    conn.execute("DELETE FROM step_class")
    conn.execute("DELETE FROM layer_block")
    for table, columns, rows in (("step_class", STEP_COLUMNS, step_rows), ("layer_block", BLOCK_COLUMNS, block_rows)):
        conn.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})", rows)
    return len(step_rows)


def steps_of(conn: sqlite3.Connection) -> Iterator[Step]:
    """Every step of every run and rank (kernel_step's, through step_kernel): the markers' windows, a
    named step's kernels' extent, or the steps cut at selection kernels."""
    windows = {tuple(row[:3]): tuple(row[3:]) for row in conn.execute(WINDOWS_SQL)}
    kernels = conn.execute(KERNELS_SQL)  # streamed: one step's kernels in memory at a time
    for key, group in groupby(kernels, key=lambda row: tuple(row[:3])):
        rows = [Kernel(row[3], row[4], _shape(row[5]), *row[6:10], tuple(row[10:])) for row in group]
        # a step the input named (its own Step Id) without a marker: its kernels' extent is its window
        window = windows.pop(key, None) or (rows[0].ts, max(kernel.end for kernel in rows))
        if key[2] == -1 and any(kernel.role == "selection" for kernel in rows):
            for number, part in enumerate(split_at_selection(rows), start=1):
                yield Step(key[0], key[1], number, 1, part[0].ts, max(k.end for k in part), part)
        else:
            yield Step(*key, 0, *window, rows)
    for key, (start_ns, end_ns) in windows.items():  # a step window without kernels
        yield Step(*key, 0, start_ns, end_ns, [])


def split_at_selection(kernels: list[Kernel]) -> list[list[Kernel]]:
    """The kernels cut after the last selection kernel before each next layer anchor, and after the
    last selection kernel; what follows that is one more part."""
    cuts, pending = [], None
    for row, kernel in enumerate(kernels):
        if kernel.role == "selection":
            pending = row
        elif kernel.role in ANCHOR_ROLES and pending is not None:
            cuts.append(pending + 1)
            pending = None
    if pending is not None:
        cuts.append(pending + 1)
    bounds = [0, *cuts] + ([len(kernels)] if cuts[-1] < len(kernels) else [])
    return [kernels[first:last] for first, last in zip(bounds, bounds[1:])]


def layer_family(layer: Layer, kernels: list[Kernel], sets: dict[str, frozenset[str]]) -> str | None:
    """The attention family of a layer's attention block, from its kernels' categories; None without one."""
    categories: set[str] = set()
    attention = [block for block in layer.blocks if block.kind == "attention"]
    for block in attention:
        for kernel in kernels[block.first:block.last + 1]:
            if kernel.category is not None:
                categories |= {kernel.category, *sets.get(kernel.category, ())}
    return resolve(categories) if attention else None


def describe(layers: list[Layer], families: list[str | None]) -> str:
    """The step's structure: each layer as kind[blocks], consecutive equal layers counted."""
    tokens = [
        f"{layer.kind}[{'+'.join(f'{b.kind}:{family}' if b.kind == 'attention' else b.kind for b in layer.blocks)}]"
        for layer, family in zip(layers, families)
    ]
    if not tokens:
        return "no_layers"
    return ", ".join(f"{len(list(group))}x {token}" for token, group in groupby(tokens))


def step_class(structure: str, step: Step) -> str:
    """The step's shape-strict class (see the module's description)."""
    pairs = [[kernel.name, kernel.shape] for kernel in step.kernels]
    if all(kernel.shape is None for kernel in step.kernels):
        identity = [step.run_id, step.rank_id, step.step_id, step.is_derived]
        return f"step_unknown_shape_{_digest([structure, SCOPE_LABEL, pairs, identity])}"
    return f"step_{_digest([structure, SCOPE_LABEL, pairs])}"


def _digest(payload: list) -> str:
    return blake2b(json.dumps(payload).encode(), digest_size=8).hexdigest()


def _shape(text: str | None) -> str | None:
    return None if text is None or text.strip() in NO_SHAPE else text


def _step_row(step: Step, structure: str) -> tuple:
    kernels = step.kernels
    wall = None if step.start_ns is None or step.end_ns is None else step.end_ns - step.start_ns
    pipeline = [sum(values) for values in zip(*(k.pipeline for k in kernels))] or [0] * 5
    return (step.run_id, step.rank_id, step.step_id, step.is_derived, step.start_ns, step.end_ns, wall,
            step_class(structure, step), structure, len(kernels), *pipeline,
            kernels[0].kernel_id if kernels else None, kernels[-1].kernel_id if kernels else None)


def _block_rows(step: Step, layers: list[Layer], families: list[str | None]) -> Iterator[tuple]:
    kernels = step.kernels
    for index, (layer, family) in enumerate(zip(layers, families)):
        layer_rows = kernels[layer.first:layer.last + 1]
        for block_index, block in enumerate(layer.blocks):
            rows = kernels[block.first:block.last + 1]
            yield (step.run_id, step.rank_id, step.step_id, step.is_derived, index, layer.kind, layer_rows[0].ts,
                   max(k.end for k in layer_rows), block_index, block.kind, rows[0].ts, max(k.end for k in rows),
                   sum(k.dur for k in rows), len(rows), family, rows[0].kernel_id, rows[-1].kernel_id)
