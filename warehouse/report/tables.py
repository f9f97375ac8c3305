"""The report's tables, built once as text cells so both renderers show the same figures.

Every cell is a ``str``: a value from an input goes through :func:`text_of` (``None`` as ``-``, a
BLOB as hex) and stays plain text that each renderer escapes; only the report's own wording
that carries Markdown markup is a :class:`Fixed`, which the Markdown renderer writes as it is.
"""

from __future__ import annotations

from dataclasses import dataclass

from warehouse.report import Report
from warehouse.report.format import gib, ms, pct, text_of, us


class Fixed(str):
    """The report's own text (never an input's), written as Markdown as it is (the HTML escapes it)."""


@dataclass
class Table:
    """A titled table of text cells."""

    key: str
    title: str
    headers: list[str]
    rows: list[list[str]]
    #: when set, each row's first cell names an anchor ``{anchor}{cell}`` (the HTML links it)
    anchor: str | None = None


def summary(report: Report) -> Table:
    c = report.counts
    slow = ", ".join(f"rank {r}" for r in report.slow_ranks) or "none suspected"
    rows = [
        ["run", f"{text_of(report.run_name)} (run_id {report.run_id})"],
        ["inputs ingested", str(c["sources"])], ["ranks", str(c["ranks"])], ["steps", str(c["steps"])],
        ["kernels", str(c["kernels"])], ["slow rank", slow],
        ["slow collective", ", ".join(report.slow_collectives) or "none found"],
        ["findings (high / medium / low)", f"{c['findings_high']} / {c['findings_medium']} / {c['findings_low']}"],
        ["analysed at",
         text_of(report.analysed_at) if report.analysed_at else Fixed("never: run `warehouse analyze` first")],
    ]
    return Table("summary", "Summary", ["what", "value"], rows)


def steps(report: Report) -> Table:
    rows = [
        [text_of(s.rank_id), text_of(s.step_id), ms(s.duration_ns), ms(s.preparing_ns), ms(s.computing_ns),
         ms(s.communication_not_overlapped_ns), ms(s.overlapped_ns), ms(s.communication_ns), ms(s.free_ns),
         ms(s.bubble_ns), text_of(s.basis), str(len(s.layers)) if s.layers else "-", ms(s.head_ns), ms(s.main_ns),
         ms(s.tail_ns)]
        for s in report.steps
    ]
    headers = ["rank", "step", "duration ms", "preparing ms", "computing ms", "communication not overlapped ms",
               "overlapped ms", "communication ms", "free ms", "bubble ms", "from", "layers", "head ms", "main ms",
               "tail ms"]
    return Table("steps", "Step breakdown per rank", headers, rows)


def findings(report: Report) -> Table:
    rows = [
        [text_of(f[column]) for column in
         ("id", "severity", "confidence", "finding_type", "rank_id", "step_id", "message", "evidence_rows")]
        for f in report.findings
    ]
    headers = ["#", "severity", "confidence", "finding", "rank", "step", "message", "evidence rows"]
    return Table("findings", "Findings", headers, rows, anchor="finding-")


def top_kernels(report: Report) -> Table:
    rows = [[text_of(k["name"]), text_of(k["op_class"]), text_of(k["count"]), ms(k["total_ns"]), us(k["avg_ns"]),
             pct(k["ratio"])] for k in report.top_kernels]
    return Table("kernels", "Top kernels", ["kernel", "class", "runs", "total ms", "mean us", "share"], rows)


def bound_families(report: Report) -> Table:
    rows = [[text_of(b["bound_family"]), text_of(b["bound_stage"]), text_of(b["count"]), ms(b["total_ns"]),
             pct(b["ratio"]), text_of(b["top_kernel"])] for b in report.bound_families]
    return Table("bound", "Bound families", ["family", "stage", "kernels", "total ms", "share", "top kernel"], rows)


def communication(report: Report) -> Table:
    rows = [[text_of(c["rank_id"]), text_of(c["name"]), text_of(c["count"]), ms(c["total_ns"]), us(c["avg_ns"]),
             us(c["max_ns"])] for c in report.communication]
    return Table("communication", "Communication", ["rank", "operator", "count", "total ms", "mean us", "max us"], rows)


def memory(report: Report) -> Table:
    rows = [[text_of(m["rank_id"]), text_of(m["device_id"]), text_of(m["component"]),
             gib(m["peak_allocated_bytes"]), gib(m["peak_reserved_bytes"]),
             text_of(m["ts_of_peak"] or m["ts_of_reserved_peak"])] for m in report.memory]
    return Table("memory", "Memory (per component: APP the whole process, PTA / GE the framework)",
                 ["rank", "device", "component", "peak allocated", "peak reserved", "at (ns)"], rows)


def all_tables(report: Report) -> list[Table]:
    """Every table in report order."""
    return [summary(report), steps(report), findings(report), top_kernels(report), bound_families(report),
            communication(report), memory(report)]

