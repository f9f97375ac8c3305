"""The data of the HTML report's step inspector (:file:`inspector.js`), as one JSON-ready dict.

Per run, each step of each rank: its breakdown, layers and top kernels as the tables of
:mod:`.tables` show them (text, so the three writers agree), its timeline (kernels and HCCL
operators as ``[start ns from the step's start, duration ns, lane, fields, 1 for an operator]``,
one lane per stream, the HCCL operators in a lane after them) and its idle intervals (the
bubble axis). Every field is the text :func:`text_of` makes of it
(an integer past 2**53 keeps its digits, which a JavaScript number would not; a BLOB is its hex),
so the operator card shows the row exactly.
"""

from __future__ import annotations

from warehouse.report import Report
from warehouse.report.detail import HCCL, StepDetail
from warehouse.report.format import text_of
from warehouse.report.tables import Table, block_table, step_table, step_top_kernels


def of(reports: list[Report]) -> dict:
    """What the inspector reads: the kernel fields' names and every run's steps."""
    first = next((r.detail for r in reports), None)
    return {"fields": first.fields if first else [], "operatorFields": first.operator_fields if first else [],
            "runs": [_run(r) for r in reports if r.steps]}


def _run(report: Report) -> dict:
    layers = {}
    for row in report.layers:
        layers.setdefault((row["rank_id"], row["step_id"]), []).append(row)
    return {"id": text_of(report.run_id), "name": text_of(report.run_name),
            "steps": [_step(d, layers.get((d.step.rank_id, d.step.step_id), [])) for d in report.detail.steps]}


def _step(detail: StepDetail, layers: list[dict]) -> dict:
    lanes = sorted({a.lane for a in detail.shown if a.lane is not HCCL}, key=_stream_order)
    labels = [f"stream {text_of(stream)}" for stream in lanes]
    if any(a.lane is HCCL for a in detail.shown):
        lanes.append(HCCL)
        labels.append("HCCL operators")
    lane = {stream: index for index, stream in enumerate(lanes)}
    breakdown = step_table([detail.step])
    shown, ran = len(detail.shown), detail.kernel_count + detail.operator_count
    what = f"{detail.kernel_count:,} kernels and {detail.operator_count:,} HCCL operators"
    if not ran:
        note = "No kernel or HCCL operator of the step is in the warehouse: the timeline is empty."
    elif shown == ran:
        note = f"{what} in the step."
    else:
        note = f"The timeline shows the {shown:,} longest of the step's {what}."
    if detail.gap_count > len(detail.gaps):
        note += f" The bubble axis marks the {len(detail.gaps):,} longest of {detail.gap_count:,} idle intervals."
    return {
        "rank": text_of(detail.step.rank_id),
        "step": text_of(detail.step.step_id),
        "window": detail.window_ns,
        "note": note,
        "breakdown": {"headers": ["what", "value"], "rows": [list(pair) for pair in
                                                             zip(breakdown.headers, breakdown.text_rows()[0])]},
        "layers": _text(block_table(layers, {(detail.step.rank_id, detail.step.step_id): detail.step.start_ns})),
        "top": _text(step_top_kernels(detail)),
        "lanes": labels,
        "kernels": [[a.ts, a.dur, lane[a.lane], [text_of(v) for v in a.row], int(a.lane is HCCL)]
                    for a in detail.shown],
        "gaps": [list(gap) for gap in detail.gaps],
    }


def _text(table: Table) -> dict:
    return {"headers": table.headers, "rows": table.text_rows()}


def _stream_order(stream) -> tuple:
    """Streams by number, any that is not a number after them, the kernels without a stream last."""
    return (stream is None, not isinstance(stream, int), stream if isinstance(stream, int) else 0, text_of(stream))
