"""The report's tables, built once from the report's rows so all three writers show the same figures.

A :class:`Table` keeps each cell's value as the warehouse gave it (nanoseconds, bytes, a 0-1
ratio, a name) and each :class:`Column` its :class:`Unit`: the HTML and Markdown writers show
:meth:`Table.text_rows` (a value from an input goes through :func:`text_of`: ``None`` as ``-``,
a BLOB as hex, plain text that each writer escapes), the spreadsheet writes the numbers as
numbers, scaled to the unit its header names. Only the report's own wording that carries
Markdown markup is a :class:`Fixed`, which the Markdown writer writes as it is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import groupby
from typing import Callable

from warehouse.analysis.steps import StepBreakdown
from warehouse.report import Report
from warehouse.report.detail import StepDetail
from warehouse.report.format import general, gib, ms, pct, text_of, us


class Fixed(str):
    """The report's own text (never an input's), written as Markdown as it is (the HTML escapes it)."""


def _text(value) -> str:
    """A cell as text; the report's own :class:`Fixed` wording stays Fixed."""
    return value if isinstance(value, Fixed) else text_of(value)


@dataclass(frozen=True)
class Unit:
    """How a column's values show: as text, and in a spreadsheet as ``value / scale`` in ``number_format``."""

    text: Callable[[object], str]
    scale: float = 1
    number_format: str = "General"


#: names, ids, counts: as they are
PLAIN = Unit(_text)
#: nanoseconds shown in milliseconds (the header says "ms")
MS = Unit(ms, 1e6, "#,##0.000")
#: nanoseconds shown in microseconds (the header says "us")
US = Unit(us, 1e3, "#,##0.0")
#: a 0-1 ratio shown as a percentage
SHARE = Unit(pct, 1, "0.0%")
#: bytes shown in GiB (the header says "GiB")
GIB = Unit(gib, 2**30, "#,##0.00")
#: a named query's column as it comes (its header names the unit): floats to 6 significant digits
AS_GIVEN = Unit(general)


@dataclass(frozen=True)
class Column:
    """A column's header (with its unit) and how its values show."""

    header: str
    unit: Unit = PLAIN


@dataclass
class Table:
    """A titled table: a short ``name`` (the spreadsheet's sheet), columns and rows of values."""

    key: str
    name: str
    title: str
    columns: list[Column]
    rows: list[list]
    #: when set, each row's first cell names an anchor ``{anchor}{cell}`` (the HTML links it)
    anchor: str | None = None
    #: when set, row i's first cell links to the page's ``#{links[i]}`` (the HTML; ``anchor`` aside)
    links: list[str] | None = None

    @property
    def headers(self) -> list[str]:
        return [c.header for c in self.columns]

    def text_rows(self) -> list[list[str]]:
        """Every cell as the text the HTML and Markdown show."""
        return [[c.unit.text(v) for c, v in zip(self.columns, row)] for row in self.rows]


@dataclass
class Chapter:
    """A heading and its tables: a report written as tables alone (``warehouse compare``'s)."""

    title: str
    tables: list[Table]


def _columns(*specs) -> list[Column]:
    """Columns from headers, a ``(header, unit)`` pair where the values have a unit."""
    return [Column(*spec) if isinstance(spec, tuple) else Column(spec) for spec in specs]


def evidence_id(finding_id, position) -> str:
    """The id of a finding's evidence row: ``E{finding}.{position}``, named in the findings table."""
    return f"E{text_of(finding_id)}.{text_of(position)}"


def summary(report: Report) -> Table:
    c = report.counts
    slow = ", ".join(f"rank {r}" for r in report.slow_ranks) or "none suspected"
    rows = [
        ["run", f"{text_of(report.run_name)} (run_id {report.run_id})"],
        ["inputs ingested", c["sources"]], ["ranks", c["ranks"]], ["steps", c["steps"]],
        ["kernels", c["kernels"]], ["slow rank", slow],
        ["slow collective", ", ".join(report.slow_collectives) or "none found"],
        ["findings high", c["findings_high"]], ["findings medium", c["findings_medium"]],
        ["findings low", c["findings_low"]],
        ["analysed at", report.analysed_at or Fixed("never: run `warehouse analyze` first")],
    ]
    if report.still_coming:
        rows.insert(1, ["still coming", report.still_coming])
    return Table("summary", "Summary", "Summary", _columns("what", "value"), rows)


def steps(report: Report) -> Table:
    """The steps chapter: each row's rank links to the step in the HTML's inspector (``#inspect-{run}-{row}``)."""
    table = step_table(report.steps)
    table.links = [f"inspect-{report.run_id}-{index}" for index in range(len(report.steps))]
    return table


def step_table(steps: list[StepBreakdown]) -> Table:
    """The breakdown of ``steps`` in the profiler's terms, with the layers observed (the steps chapter's rows)."""
    rows = [
        [s.rank_id, s.step_id, s.duration_ns, s.preparing_ns, s.computing_ns, s.communication_not_overlapped_ns,
         s.overlapped_ns, s.communication_ns, s.free_ns, s.bubble_ns, s.basis, len(s.layers) if s.layers else None,
         s.head_ns, s.main_ns, s.tail_ns]
        for s in steps
    ]
    columns = _columns("rank", "step", ("duration ms", MS), ("preparing ms", MS), ("computing ms", MS),
                       ("communication not overlapped ms", MS), ("overlapped ms", MS), ("communication ms", MS),
                       ("free ms", MS), ("bubble ms", MS), "from", "layers", ("head ms", MS), ("main ms", MS),
                       ("tail ms", MS))
    return Table("steps", "Steps", "Step breakdown per rank", columns, rows)


def step_percentiles(report: Report) -> Table:
    """Per rank, the spread of its step time: nearest-rank p50 and p90 (a step's own duration), max and mean,
    over the steps whose duration is known (the rank's inputs hold device activity in them)."""
    rows = []
    timed = sorted((s for s in report.steps if s.duration_ns is not None), key=lambda s: s.rank_id)
    for rank, steps in groupby(timed, key=lambda s: s.rank_id):
        durations = sorted(s.duration_ns for s in steps)
        rows.append([rank, len(durations), nearest_rank(durations, 0.5), nearest_rank(durations, 0.9),
                     durations[-1], sum(durations) / len(durations)])
    columns = _columns("rank", "steps", ("p50 ms", MS), ("p90 ms", MS), ("max ms", MS), ("mean ms", MS))
    return Table("percentiles", "Step percentiles", "Step time percentiles per rank", columns, rows)


def nearest_rank(ordered: list, fraction: float):
    """The smallest value with at least ``fraction`` of ``ordered`` (ascending) at or below it."""
    return ordered[max(math.ceil(fraction * len(ordered)), 1) - 1]


def pipeline_coverage(report: Report) -> Table:
    rows = [[p["rank_id"], p["kernel_count"], p["kernel_ns"], p["covered_count"], p["covered_ns"], p["coverage"],
             p["cube_share"], p["vector_share"], p["aic_mte_share"], p["aiv_mte_share"], p["scalar_share"]]
            for p in report.pipeline]
    columns = _columns("rank", "kernels", ("kernel ms", MS), "with pipeline data", ("their ms", MS),
                       ("coverage", SHARE), ("cube", SHARE), ("vector", SHARE), ("aic_mte", SHARE),
                       ("aiv_mte", SHARE), ("scalar", SHARE))
    return Table("pipeline", "Pipeline coverage",
                 "Pipeline coverage (kernel time with pipeline data; the families' shares of pipeline time)",
                 columns, rows)


def step_classes(report: Report) -> Table:
    """The shape-strict step classes of each rank, heaviest (summed wall time) first, as ``step_classes`` gives them."""
    rows = [[c["rank_id"], c["step_class"], c["structure"], c["step_count"], "yes" if c["is_derived"] else "no",
             c["kernel_count"], c["wall_ns_sum"], c["wall_ns_mean"], c["wall_ns_p50"], c["wall_ns_p90"],
             c["wall_ns_max"], c["bound_family"]] for c in report.step_classes]
    columns = _columns("rank", "class", "structure", "steps", "derived steps", "kernels per step", ("wall sum ms", MS),
                       ("wall mean ms", MS), ("wall p50 ms", MS), ("wall p90 ms", MS), ("wall max ms", MS),
                       "bound family")
    return Table("classes", "Step classes", "Step classes (steps alike kernel for kernel, shapes included; "
                 "heaviest first)", columns, rows)


def layer_blocks(report: Report) -> Table:
    return block_table(report.layers, {(s.rank_id, s.step_id): s.start_ns for s in report.steps})


def block_table(layers: list[dict], step_starts: dict) -> Table:
    """Each block of each observed layer (rows of the ``layers`` query) with its times from its step's
    start (``step_starts`` by rank and step; a step without one counts from its first layer)."""
    first = {}
    for row in layers:
        key = (row["rank_id"], row["step_id"])
        first[key] = min(first.get(key, row["start_ns"]), row["start_ns"])
    rows = []
    for row in layers:
        key = (row["rank_id"], row["step_id"])
        origin = step_starts.get(key) if step_starts.get(key) is not None else first[key]
        rows.append([row["rank_id"], row["step_id"], row["layer_index"], row["layer_kind"], row["attention_family"],
                     row["block_kind"], row["kernel_count"], row["block_start_ns"] - origin,
                     row["block_end_ns"] - origin, row["block_end_ns"] - row["block_start_ns"], row["block_ns"]])
    columns = _columns("rank", "step", "layer", "layer kind", "attention family", "block", "kernels", ("start ms", MS),
                       ("end ms", MS), ("span ms", MS), ("block ms", MS))
    return Table("layers", "Layers and blocks", "Layers and blocks (layers from 0; times from the step's start; "
                 "block ms: its kernels' summed time)", columns, rows)


def step_top_kernels(detail: StepDetail) -> Table:
    """The kernel names of one step that took the most time (every kernel of the step counted)."""
    columns = _columns("kernel", "runs", ("total ms", MS))
    return Table("step_kernels", "Step kernels", "Top kernels of the step", columns, [list(t) for t in detail.top])


def findings(report: Report) -> Table:
    rows = [
        [f["id"], f["severity"], f["confidence"], f["finding_type"], f["rank_id"], f["step_id"], f["message"],
         f["evidence_rows"],
         " ".join(evidence_id(f["id"], e["position"]) for e in report.evidence.get(f["id"], [])) or None]
        for f in report.findings
    ]
    columns = _columns("#", "severity", "confidence", "finding", "rank", "step", "message", "evidence rows",
                       "evidence")
    return Table("findings", "Findings", "Findings", columns, rows, anchor="finding-")


def evidence(report: Report) -> Table:
    """Every evidence row of the report's findings, each with the id the findings table names."""
    rows = [
        [evidence_id(e["finding_id"], e["position"]), e["finding_id"], e["finding_type"], e["path"], e["kind"],
         e["table_name"], e["source_row"], e["slice_id"], e["kernel_id"], e["note"]]
        for f in report.findings for e in report.evidence.get(f["id"], [])
    ]
    columns = _columns("evidence", "finding", "rule", "input", "kind", "table", "input row", "slice", "kernel",
                       "what it shows")
    return Table("evidence", "Evidence", "Evidence", columns, rows)


def top_kernels(report: Report) -> Table:
    rows = [[k["name"], k["op_class"], k["count"], k["total_ns"], k["avg_ns"], k["ratio"]] for k in report.top_kernels]
    columns = _columns("kernel", "class", "runs", ("total ms", MS), ("mean us", US), ("share", SHARE))
    return Table("kernels", "Top kernels", "Top kernels", columns, rows)


def bound_families(report: Report) -> Table:
    rows = [[b["bound_family"], b["bound_stage"], b["count"], b["total_ns"], b["ratio"], b["top_kernel"]]
            for b in report.bound_families]
    columns = _columns("family", "stage", "kernels", ("total ms", MS), ("share", SHARE), "top kernel")
    return Table("bound", "Bound families", "Bound families", columns, rows)


def communication(report: Report) -> Table:
    rows = [[c["rank_id"], c["name"], c["count"], c["total_ns"], c["avg_ns"], c["max_ns"]]
            for c in report.communication]
    columns = _columns("rank", "operator", "count", ("total ms", MS), ("mean us", US), ("max us", US))
    return Table("communication", "Communication", "Communication", columns, rows)


def memory(report: Report) -> Table:
    rows = [[m["rank_id"], m["device_id"], m["component"], m["peak_allocated_bytes"], m["peak_reserved_bytes"],
             m["ts_of_peak"] or m["ts_of_reserved_peak"]] for m in report.memory]
    columns = _columns("rank", "device", "component", ("peak allocated GiB", GIB), ("peak reserved GiB", GIB),
                       "at ns")
    return Table("memory", "Memory", "Memory (per component: APP the whole process, PTA / GE the framework)",
                 columns, rows)


def all_tables(report: Report) -> list[Table]:
    """Every chapter's table in report order (the evidence, which each writer lays out its own way, apart)."""
    return [summary(report), steps(report), step_percentiles(report), pipeline_coverage(report),
            step_classes(report), layer_blocks(report), findings(report), top_kernels(report), bound_families(report),
            communication(report), memory(report)]
