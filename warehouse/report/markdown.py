"""The report as Markdown: the tables, then each finding with its evidence rows.

Every value from an input or the warehouse goes through :func:`md` (a heading, a line of its
own), :func:`cell` (a table cell) or :func:`code` (a path in a line): no raw HTML, link, image,
emphasis or table break reaches a renderer. ``<``, ``>`` and ``&`` become entities; Markdown's
punctuation (``\\ ` * [ ] | ~ $``, and ``_`` at a word's edge) gets a backslash; newlines become
spaces; what a GFM renderer would turn into a link by itself (``http://``, ``www.``,
``name@host``) is broken with an entity. Only the report's own wording
(:class:`~warehouse.report.tables.Fixed`) is written as it is.

Every Markdown table in the tree is written by :func:`table`, each cell through :func:`cell`
(``warehouse compare``'s report, tables alone, by :func:`render_chapters`). A cell is never a
code span: GFM cuts a row at every unescaped ``|``, inside a code span too, and the span's rest
(an ``<img onerror>`` in a path) is then read as raw HTML.
"""

from __future__ import annotations

import re

from warehouse.report import Report
from warehouse.report.format import locator, numbers, text_of
from warehouse.report.tables import Chapter, Fixed, Table, all_tables, evidence_id

#: HTML's own characters, as entities (an entity is shown as its character, never read as markup)
ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
#: punctuation that Markdown (CommonMark, GFM, GitHub's math) reads as markup anywhere in a line:
#: escapes, code, emphasis, links and images, table cells, strikethrough, math
PUNCTUATION = "\\`*[]|~$"
#: ``_`` is emphasis only at a word's edge: intraword (``slow_rank``) it stays as it is
EDGE_UNDERSCORE = re.compile(r"(?<![0-9A-Za-z])_|_(?![0-9A-Za-z])")
#: what GFM's autolink extension links without any markup
AUTOLINKS = (re.compile(r"://"), re.compile(r"(?i)(?<=www)\."), re.compile(r"@"))
AUTOLINK_ENTITIES = {"://": "&#58;//", ".": "&#46;", "@": "&#64;"}
#: what starts a block (heading, list, rule) when it comes first on a line of its own
BLOCK_START = re.compile(r"^([-+=#]|\d+[.)])")


def render(database: str, reports: list[Report]) -> str:
    """The whole report as one Markdown document: a chapter per run."""
    parts = [f"# Profiling diagnosis: {md(database)}\n"]
    if not reports:
        parts.append("No run with steps, kernels or findings in this warehouse.\n")
    for report in reports:
        parts.append(f"## Run {md(report.run_name)} (run_id {md(report.run_id)})\n")
        for table in all_tables(report):
            parts.append(_table(table))
            if table.key == "findings":
                parts.append(_evidence(report))
    return "\n".join(parts)


def render_chapters(title: str, database: str, chapters: list[Chapter]) -> str:
    """A report of tables alone as one Markdown document: a heading per chapter, then its tables ("None." if none)."""
    parts = [f"# {md(title)}: {md(database)}\n"]
    for chapter in chapters:
        parts.append(f"## {md(chapter.title)}\n")
        parts.extend(_table(table) for table in chapter.tables)
        if not chapter.tables:
            parts.append("None.\n")
    return "\n".join(parts)


def md(value) -> str:
    """A value as Markdown text that renders as exactly that text, on one line."""
    if isinstance(value, Fixed):
        return str(value)
    text = " ".join(text_of(value).splitlines())
    text = "".join(ENTITIES.get(c, "\\" + c if c in PUNCTUATION else c) for c in text)
    text = EDGE_UNDERSCORE.sub(r"\\_", text)
    for pattern in AUTOLINKS:
        text = pattern.sub(lambda m: AUTOLINK_ENTITIES[m[0]], text)
    return text


def md_line(value) -> str:
    """A value as a Markdown paragraph of its own: :func:`md`, and no block (heading, list, code) it could start."""
    return BLOCK_START.sub(lambda m: "\\" + m[1] if m[1][0] in "-+=#" else m[1][:-1] + "\\" + m[1][-1],
                           md(value).lstrip(), count=1)


def cell(value) -> str:
    """A value as one table cell: :func:`md`, which leaves no ``|`` that ends the cell, no newline
    that ends the row, and no markup."""
    return md(value)


def table(headers, rows) -> list[str]:
    """A GFM table's lines: the header, the delimiter and a row per item of ``rows`` (a ``-`` row
    when there is none), every header and value through :func:`cell`."""
    lines = ["| " + " | ".join(cell(h) for h in headers) + " |", "|" + " --- |" * len(headers)]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    if not lines[2:]:
        lines.append("| " + " | ".join(["-"] * len(headers)) + " |")
    return lines


def code(value) -> str:
    """A value as a code span (shown verbatim, HTML included, on one line); never in a table (see :func:`cell`)."""
    text = " ".join(text_of(value).splitlines())
    if not text.strip():
        return md(text or "-")
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or (text.startswith(" ") and text.endswith(" ")) else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _table(report_table: Table) -> str:
    lines = [f"### {md(report_table.title)}\n", *table(report_table.headers, report_table.text_rows())]
    return "\n".join(lines) + "\n"


def _evidence(report: Report) -> str:
    lines = ["### Evidence\n"]
    for finding in report.findings:
        lines.append(f"#### Finding {md(finding['id'])}: {md(finding['finding_type'])} ({md(finding['severity'])})\n")
        lines.append(f"{md_line(finding['message'])}\n")
        lines.append(f"Numbers: {md(numbers(finding['numbers']))}\n")
        for row in report.evidence.get(finding["id"], []):
            lines.append(f"- {md(evidence_id(row['finding_id'], row['position']))} {code(row['path'])} "
                         f"({md(locator(row))}): {md(row['note'])}")
        lines.append("")
    return "\n".join(lines)
