"""Layer and block segmentation of one step's kernel sequence (seed 004 section 5).

Deterministic on purpose: no duration percentiles, no fuzzy similarity, no expected layer
count. The number of layers is what the sequence shows. Rows are indices into the step's
kernels in device order (start time); a row's role and category come from the kernel
signatures (``kernel_signature``).

- Block heads are the norm rows (category ``compute.norm``): a pre-norm starts each block.
- Anchors are the rows whose role is ``attention`` or ``moe``; consecutive anchors of one
  kind form a run (other rows between them allowed) unless a block head lies between them.
  A run of attention opens a layer; the moe run after it joins that layer; a moe run with
  no attention before it in its layer opens a companion layer (moe only).
- A step with no attention or moe row is anchored by its matmuls (role ``matmul``, category
  ``compute.matmul``; a matmul fused with a collective has the communication role): each run
  of them opens a ``matmul`` layer of one ``matmul`` block, so a model whose attention
  kernels no signature names still shows its layers (seed 004 ``anchor_kind``: attention,
  then moe, then compute.matmul). Such a layer is what lies between block heads, so a
  transformer layer with a pre-norm before attention and one before the FFN shows as two.
- A layer after the first starts at the last block head between the previous layer's last
  anchor and its own first anchor, or, with none there, at the row midpoint between the two
  anchors (row order is the device's order, independent of stream skew, unlike a time
  midpoint). The first layer starts at the last block head before its first anchor, or at
  that anchor. The last layer ends as many rows after its last anchor as the layer before
  it does (an observed count), a single layer at the step's last row; neither reaches a
  selection row (sampling: argmax, top-k/top-p) or past the step.
- A layer has at most two blocks. With attention and moe, they split at the row midpoint
  between the last attention row and the first moe row. A dense layer splits attention +
  ffn at the first block head after its last attention row, and stays one attention block
  without one. A companion layer is one moe block.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field

#: the roles that anchor layers; ``matmul`` only in a step without the others
ANCHOR_ROLES = ("attention", "moe", "matmul")
PRIMARY_ANCHOR_ROLES = ("attention", "moe")
#: the kind of the layer a run of anchors opens
LAYER_KIND_OPENED_BY = {"attention": "dense", "moe": "companion", "matmul": "matmul"}
BLOCK_HEAD_CATEGORY = "compute.norm"


@dataclass(frozen=True)
class Block:
    """Rows first..last (inclusive) of one functional block: attention, moe, ffn or matmul."""

    kind: str
    first: int
    last: int


@dataclass
class Layer:
    """Rows first..last (inclusive) of one observed layer: dense, moe, companion or matmul."""

    kind: str
    first: int
    last: int
    anchor_first: int
    anchor_last: int
    runs: list[tuple[str, int, int]] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)


def anchor_roles(roles: Sequence[str | None]) -> tuple[str, ...]:
    """The roles anchoring this step's layers: attention and moe, else (none of them) matmul."""
    return PRIMARY_ANCHOR_ROLES if any(role in PRIMARY_ANCHOR_ROLES for role in roles) else ("matmul",)


def anchor_runs(roles: Sequence[str | None], categories: Sequence[str | None]) -> list[tuple[str, int, int]]:
    """Runs of anchors: (kind, first row, last row); a block head between two anchors ends a run."""
    runs: list[tuple[str, int, int]] = []
    head_since_anchor = False
    anchors = anchor_roles(roles)
    for row, role in enumerate(roles):
        if categories[row] == BLOCK_HEAD_CATEGORY:
            head_since_anchor = True
        if role not in anchors:
            continue
        if runs and runs[-1][0] == role and not head_since_anchor:
            runs[-1] = (role, runs[-1][1], row)
        else:
            runs.append((role, row, row))
        head_since_anchor = False
    return runs


def midpoint(last: int, first: int) -> int:
    """The first row of the second part when splitting between rows ``last`` and ``first``."""
    return (last + first + 1) // 2


def segment(roles: Sequence[str | None], categories: Sequence[str | None]) -> list[Layer]:
    """The layers (with their blocks) of one step's rows, given each row's role and category."""
    layers: list[Layer] = []
    for run in anchor_runs(roles, categories):
        kind = run[0]
        opens = kind != "moe" or not layers or any(r[0] == "moe" for r in layers[-1].runs)
        if opens:
            layers.append(Layer(LAYER_KIND_OPENED_BY[kind], run[1], run[2], run[1], run[2]))
        layer = layers[-1]
        layer.runs.append(run)
        layer.anchor_last = run[2]
        if kind == "moe" and layer.kind == "dense":
            layer.kind = "moe"
    if not layers:
        return layers
    heads = [row for row, category in enumerate(categories) if category == BLOCK_HEAD_CATEGORY]
    _place_boundaries(layers, heads, _end_row(roles, layers[-1].anchor_last))
    for layer in layers:
        layer.blocks = _blocks(layer, heads)
    return layers


def _end_row(roles: Sequence[str | None], after: int) -> int:
    """The last row a layer may reach: before the first selection row after ``after``, else the last row."""
    return next((row - 1 for row in range(after + 1, len(roles)) if roles[row] == "selection"), len(roles) - 1)


def _last_head(heads: list[int], low: int, high: int) -> int | None:
    """The last block-head row strictly between ``low`` and ``high`` (``heads`` is sorted)."""
    index = bisect_left(heads, high) - 1
    return heads[index] if index >= 0 and heads[index] > low else None


def _first_head(heads: list[int], low: int, high: int) -> int | None:
    """The first block-head row after ``low`` and at most ``high``."""
    index = bisect_right(heads, low)
    return heads[index] if index < len(heads) and heads[index] <= high else None


def _place_boundaries(layers: list[Layer], heads: list[int], end_row: int) -> None:
    for before, after in zip(layers, layers[1:]):
        head = _last_head(heads, before.anchor_last, after.anchor_first)
        after.first = head if head is not None else midpoint(before.anchor_last, after.anchor_first)
        before.last = after.first - 1
    head = _last_head(heads, -1, layers[0].anchor_first)
    layers[0].first = head if head is not None else layers[0].anchor_first
    if len(layers) > 1:
        tail_out = layers[-2].last - layers[-2].anchor_last
        layers[-1].last = min(end_row, layers[-1].anchor_last + tail_out)
    else:
        layers[0].last = end_row


def _blocks(layer: Layer, heads: list[int]) -> list[Block]:
    if layer.kind == "matmul":
        return [Block("matmul", layer.first, layer.last)]
    attention = [r for r in layer.runs if r[0] == "attention"]
    moe = [r for r in layer.runs if r[0] == "moe"]
    if not attention:
        return [Block("moe", layer.first, layer.last)]
    last_attention = attention[-1][2]
    if moe:
        split = midpoint(last_attention, moe[0][1])
        return [Block("attention", layer.first, split - 1), Block("moe", split, layer.last)]
    head = _first_head(heads, last_attention, layer.last)
    if head is None:
        return [Block("attention", layer.first, layer.last)]
    return [Block("attention", layer.first, head - 1), Block("ffn", head, layer.last)]
