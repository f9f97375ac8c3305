"""The comparison's report (``warehouse compare -o``) as tables (:class:`~.tables.Table`), built as the
run report's are (:mod:`.tables`) so the report's HTML and Markdown writers write it.

Chapters: the two runs, what differs between them and whether they are comparable, how their ranks
pair; the top regressions and the top improvements, a table per item (its
change in the title, its evidence rows in both runs: run, input path, row); then the top
:data:`~.compare.TOP` rows of each compare answer, its columns as the named query names them.
Cells keep their values; each writer escapes their text as it does the run report's.
:func:`write_report` writes it (.html or .md).
"""

from __future__ import annotations

from pathlib import Path

from warehouse.report import html, markdown
from warehouse.report.compare import (
    HEADER_PROPERTIES, TITLE, TOP, Answer, CompareError, Comparison, Item, Run, differences, label_text, rank_pairing,
    verdict,
)
from warehouse.report.tables import AS_GIVEN, Chapter, Column, Table

#: an evidence row's columns: the run it is from, where it is (input, row, table), what it shows
EVIDENCE = [Column(header) for header in ("run", "input", "row", "table", "rank", "step", "what", "value")]


def chapters(comparison: Comparison) -> list[Chapter]:
    """The report's chapters in order: the runs, the regressions, the improvements, the answers."""
    return [
        Chapter("Runs compared", [runs(comparison), differing(comparison), pairing(comparison)]),
        Chapter("Top regressions", items("regression", comparison.regressions, comparison)),
        Chapter("Top improvements", items("improvement", comparison.improvements, comparison)),
        Chapter(f"Answers (top {TOP} rows each)", [answer(a) for a in comparison.answers.values()]),
    ]


def runs(comparison: Comparison) -> Table:
    """The base and the run compared against it, with their labels."""
    rows = [[role, run.run_id, run.name, label_text(run) or None]
            for role, run in (("base", comparison.base), ("run", comparison.run))]
    columns = [Column(header) for header in ("compared", "run_id", "name", "labels")]
    return Table("runs", "Runs", "Base and run", columns, rows)


def differing(comparison: Comparison) -> Table:
    """What differs between the two runs (device, cluster, export, profiler), the verdict in the title."""
    rows = [[HEADER_PROPERTIES[d["property"]], d["base"], d["run"]] for d in differences(comparison)]
    columns = [Column(header) for header in ("property", "base", "run")]
    return Table("differs", "What differs", f"What differs ({verdict(comparison)[1]})", columns, rows)


def pairing(comparison: Comparison) -> Table:
    """How the two runs' ranks pair, and why (compare_runs' rank_pairing)."""
    paired_by, note = rank_pairing(comparison)
    columns = [Column(header) for header in ("paired_by", "how")]
    return Table("pairing", "Rank pairing", "How the ranks pair", columns, [[paired_by, note]])


def items(kind: str, found: list[Item], comparison: Comparison) -> list[Table]:
    """A table per regression or improvement (``kind``): its evidence rows, the base run's first."""
    return [item_table(f"{kind}{index}", item, comparison.base, comparison.run)
            for index, item in enumerate(found, start=1)]


def item_table(key: str, item: Item, base: Run, run: Run) -> Table:
    """One item: what changed and by how much as the title, the rows that show it in both runs."""
    rows = [_evidence_row(base, row) for row in item.base_evidence] + [
        _evidence_row(run, row) for row in item.run_evidence]
    return Table(key, item.kind, f"{item.kind}: {item.subject}: {item.change}", EVIDENCE, rows)


def _evidence_row(owner: Run, row: dict) -> list:
    return [owner.name, row.get("path"), row.get("row"), row.get("table_name"), row.get("rank_id"),
            row.get("step_id"), row.get("what"), row.get("value")]


def answer(found: Answer) -> Table:
    """The top :data:`~.compare.TOP` rows of one compare answer, with how many it has when there are more."""
    shown = found.rows[:TOP]
    more = f" (top {len(shown)} of {len(found.rows)} rows)" if len(found.rows) > len(shown) else ""
    return Table(found.name, found.name, f"{found.name}: {found.title}{more}",
                 [Column(column, AS_GIVEN) for column in found.columns], [list(row) for row in shown])


def write_report(comparison: Comparison, database: str, out: Path) -> Path:
    """Write the report as ``out`` (.html: one self-contained page; .md: Markdown)."""
    try:
        text = render_report(comparison, database, out.suffix)
    except CompareError as exc:
        raise CompareError(f"{out}: {exc}") from None
    out.write_text(text, encoding="utf-8")
    return out


def render_report(comparison: Comparison, database: str, suffix: str) -> str:
    """The report as the writer of ``suffix`` writes it (.html or .md), headed by ``database``'s name."""
    writers = {".html": html.render_chapters, ".htm": html.render_chapters,
               ".md": markdown.render_chapters, ".markdown": markdown.render_chapters}
    writer = writers.get(suffix.lower())
    if writer is None:
        raise CompareError(f"the report is written as .html or .md, not {suffix or 'a name without a suffix'}")
    return writer(TITLE, database, chapters(comparison))
