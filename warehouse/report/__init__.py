"""The diagnosis report (issue 9): ``warehouse report --db X -o report.html|.md|.xlsx [--run RUN]``.

:func:`collect` reads everything the report shows through named queries and the step
breakdown (:mod:`warehouse.analysis.steps`), with each step's kernels and idle intervals
(:mod:`.detail`), one :class:`Report` per run (runs are never added together); :mod:`.tables` lays out their tables once, and :mod:`.html`, :mod:`.markdown`
and :mod:`.xlsx` (issue 18) write them, a chapter each. The summary is computed from the same
rows as the findings. The report only reads: the findings, step classes and layers are
those of the latest ``warehouse analyze``.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from warehouse import ingest_progress as progress
from warehouse.analysis.steps import StepBreakdown, rows_of, step_breakdown
from warehouse.errors import WarehouseError
from warehouse.report.detail import RunDetail, run_detail
from warehouse.report.format import text_of

TOP_KERNELS = 15


@dataclass
class Report:
    """What the report shows, gathered once for the three writers."""

    database: str
    run_id: int
    run_name: str
    analysed_at: str | None
    counts: dict[str, int]
    steps: list[StepBreakdown]
    findings: list[dict]
    evidence: dict[int, list[dict]]
    top_kernels: list[dict]
    bound_families: list[dict]
    communication: list[dict]
    memory: list[dict]
    pipeline: list[dict]
    step_classes: list[dict]
    layers: list[dict]
    detail: RunDetail
    slow_ranks: list[int] = field(default_factory=list)
    slow_collectives: list[str] = field(default_factory=list)
    #: what of the run is still to come while an ``ingest --answers-first`` runs its second stage
    still_coming: str | None = None


def collect(conn: sqlite3.Connection, database: str, run_id: int | None = None) -> list[Report]:
    """One report per run of the warehouse that has steps, kernels or findings (or of ``run_id`` alone)."""
    runs = conn.execute(
        "SELECT run_id, name FROM run WHERE (:run_id IS NULL OR run_id = :run_id) AND (:run_id IS NOT NULL "
        "OR run_id IN (SELECT run_id FROM step_answer UNION SELECT run_id FROM kernel_answer "
        "UNION SELECT run_id FROM finding)) ORDER BY run_id", {"run_id": run_id}).fetchall()
    analysed = conn.execute("SELECT started_at FROM analysis_run ORDER BY id DESC LIMIT 1").fetchone()
    return [_collect_run(conn, database, run, name, analysed[0] if analysed else None) for run, name in runs]


def _collect_run(conn: sqlite3.Connection, database: str, run_id: int, name: str, analysed_at: str | None) -> Report:
    findings = rows_of(conn, "findings", {"run_id": run_id})
    evidence: dict[int, list[dict]] = {}
    mine = {f["id"] for f in findings}
    for row in rows_of(conn, "finding_evidence"):
        if row["finding_id"] in mine:
            evidence.setdefault(row["finding_id"], []).append(row)
    steps = step_breakdown(conn, run_id=run_id)
    counts = {
        "ranks": conn.execute("SELECT count(*) FROM rank WHERE run_id = ? AND rank_id >= 0", (run_id,)).fetchone()[0],
        "steps": len({s.step_id for s in steps}),
        "kernels": conn.execute("SELECT count(*) FROM kernel_answer WHERE run_id = ?", (run_id,)).fetchone()[0],
        "sources": conn.execute("SELECT count(*) FROM source WHERE run_id = ? AND status = 'ok'", (run_id,)).fetchone()[0],
    }
    for severity in ("high", "medium", "low"):
        counts[f"findings_{severity}"] = sum(1 for f in findings if f["severity"] == severity)
    slow = sorted({f["rank_id"] for f in findings if f["finding_type"] == "slow_rank_suspected"})
    collectives = [f"{text_of(f['subject'])} (rank {text_of(f['rank_id'])}, step {text_of(f['step_id'])}, "
                   f"{text_of(f['severity'])})"
                   for f in findings if f["finding_type"] == "communication_collective_slow"]
    params = {"run_id": run_id}
    return Report(
        database=database,
        run_id=run_id,
        run_name=name,
        analysed_at=analysed_at,
        counts=counts,
        steps=steps,
        findings=findings,
        evidence=evidence,
        top_kernels=rows_of(conn, "top_kernels", {**params, "limit": TOP_KERNELS}),
        bound_families=rows_of(conn, "kernel_bound_summary", params),
        communication=rows_of(conn, "communication_ops", params),
        memory=rows_of(conn, "memory_peak", params),
        pipeline=rows_of(conn, "pipeline_coverage", params),
        step_classes=rows_of(conn, "step_classes", params),
        layers=rows_of(conn, "layers", params),
        detail=run_detail(conn, run_id, steps),
        slow_ranks=slow,
        slow_collectives=collectives,
        still_coming=next((progress.still_coming(run) for run in progress.waiting_runs(conn, run_id)), None),
    )


def write(conn: sqlite3.Connection, database: str, out: Path, run_id: int | None = None) -> Path:
    """Write the report (every run, or ``run_id``'s) as HTML, Markdown or an Excel workbook, by the file's suffix."""
    from warehouse.report import html, markdown, xlsx

    renderers = {".html": html.render, ".htm": html.render, ".md": markdown.render, ".xlsx": xlsx.render}
    renderer = renderers.get(out.suffix.lower())
    if renderer is None:
        raise WarehouseError(f"{out}: the report is written as .html, .md or .xlsx")
    content = renderer(database, collect(conn, database, run_id))
    out.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return out
