"""The report as Markdown: the tables, then each finding with its evidence rows."""

from __future__ import annotations

from warehouse.report import Report
from warehouse.report.format import locator, numbers
from warehouse.report.tables import Table, all_tables


def render(database: str, reports: list[Report]) -> str:
    """The whole report as one Markdown document: a chapter per run."""
    parts = [f"# Profiling diagnosis: {database}\n"]
    if not reports:
        parts.append("No run with steps, kernels or findings in this warehouse.\n")
    for report in reports:
        parts.append(f"## Run {report.run_name} (run_id {report.run_id})\n")
        for table in all_tables(report):
            parts.append(_table(table))
            if table.key == "findings":
                parts.append(_evidence(report))
    return "\n".join(parts)


def _table(table: Table) -> str:
    lines = [f"### {table.title}\n", "| " + " | ".join(table.headers) + " |",
             "|" + "---|" * len(table.headers)]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in table.rows]
    if not table.rows:
        lines.append("| " + " | ".join(["-"] * len(table.headers)) + " |")
    return "\n".join(lines) + "\n"


def _evidence(report: Report) -> str:
    lines = ["### Evidence\n"]
    for finding in report.findings:
        lines.append(f"#### Finding {finding['id']}: {finding['finding_type']} ({finding['severity']})\n")
        lines.append(f"{finding['message']}\n")
        lines.append(f"Numbers: {numbers(finding['numbers'])}\n")
        for row in report.evidence.get(finding["id"], []):
            lines.append(f"- `{row['path']}` ({locator(row)}): {row['note']}")
        lines.append("")
    return "\n".join(lines)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
