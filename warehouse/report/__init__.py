"""The diagnosis report (issue 9): ``warehouse report --db X -o report.html|report.md``.

:func:`collect` reads everything the report shows through named queries and the step
breakdown (:mod:`warehouse.analysis.steps`); :mod:`.html` and :mod:`.markdown` render it.
The report only reads: the findings are those of the latest ``warehouse analyze``.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from warehouse.analysis.steps import StepBreakdown, rows_of, step_breakdown
from warehouse.errors import WarehouseError

TOP_KERNELS = 15


@dataclass
class Report:
    """What the report shows, gathered once for both renderers."""

    database: str
    analysed_at: str | None
    counts: dict[str, int]
    steps: list[StepBreakdown]
    findings: list[dict]
    evidence: dict[int, list[dict]]
    top_kernels: list[dict]
    bound_families: list[dict]
    communication: list[dict]
    memory: list[dict]
    slow_ranks: list[int] = field(default_factory=list)
    slow_collectives: list[str] = field(default_factory=list)


def collect(conn: sqlite3.Connection, database: str) -> Report:
    """Gather the report's content from a warehouse."""
    run = conn.execute("SELECT started_at FROM analysis_run ORDER BY id DESC LIMIT 1").fetchone()
    findings = rows_of(conn, "findings")
    evidence: dict[int, list[dict]] = {}
    for row in rows_of(conn, "finding_evidence"):
        evidence.setdefault(row["finding_id"], []).append(row)
    counts = {
        "ranks": conn.execute("SELECT COUNT(DISTINCT rank_id) FROM step_window").fetchone()[0],
        "steps": conn.execute("SELECT COUNT(*) FROM step").fetchone()[0],
        "kernels": conn.execute("SELECT COUNT(*) FROM kernel").fetchone()[0],
        "sources": conn.execute("SELECT COUNT(*) FROM source WHERE status = 'ok'").fetchone()[0],
    }
    for severity in ("high", "medium", "low"):
        counts[f"findings_{severity}"] = sum(1 for f in findings if f["severity"] == severity)
    slow = sorted({f["rank_id"] for f in findings if f["finding_type"] == "slow_rank_suspected"})
    collectives = [f"{f['subject']} (rank {f['rank_id']}, step {f['step_id']})" for f in findings
                   if f["finding_type"] == "communication_collective_slow" and f["severity"] == "high"]
    return Report(
        database=database,
        analysed_at=run[0] if run else None,
        counts=counts,
        steps=step_breakdown(conn),
        findings=findings,
        evidence=evidence,
        top_kernels=rows_of(conn, "top_kernels", {"limit": TOP_KERNELS}),
        bound_families=rows_of(conn, "kernel_bound_summary"),
        communication=rows_of(conn, "communication_ops"),
        memory=rows_of(conn, "memory_peak"),
        slow_ranks=slow,
        slow_collectives=collectives,
    )


def write(conn: sqlite3.Connection, database: str, out: Path) -> Path:
    """Write the report as HTML or Markdown, chosen by the file's suffix."""
    from warehouse.report import html, markdown

    renderers = {".html": html.render, ".htm": html.render, ".md": markdown.render}
    renderer = renderers.get(out.suffix.lower())
    if renderer is None:
        raise WarehouseError(f"{out}: the report is written as .html or .md")
    out.write_text(renderer(collect(conn, database)), encoding="utf-8")
    return out
