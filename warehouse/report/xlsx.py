"""The report as an Excel workbook (openpyxl): a sheet per chapter, every run's rows in it, and an
Evidence sheet whose ids (``E{finding}.{position}``) the Findings sheet names.

The sheets hold the tables of :mod:`.tables` (the figures the HTML and Markdown show), each
row led by its run (``run_id``, ``run``): a spreadsheet filters by run where a page needs a
chapter per run. Numbers stay numbers, scaled to the unit their header names (``duration ms``,
``peak reserved GiB``; a share is its 0-1 ratio shown as a percentage), so they sort and sum.
The header row is frozen and bold, each column as wide as its longest text (up to
:data:`MAX_WIDTH`).

Every text is written as a string cell, whatever it starts with: openpyxl would store a text
starting with ``=`` as a formula and ``#N/A`` as an error, so a kernel name from an input could
run as a formula when the workbook opens. What a cell cannot hold is made visible rather than
failing the report: a control character as ``\\xNN``, a text past Excel's 32,767 characters cut
with ``…``, an infinite number as text, an integer a double cannot hold exactly (:data:`EXACT`)
as its digits.
"""

from __future__ import annotations

import io
import math
from numbers import Real

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from warehouse.report import Report
from warehouse.report.format import text_of
from warehouse.report.tables import PLAIN, Column, Table, all_tables, evidence

#: Excel's limit on a cell's text
MAX_TEXT = 32_767
#: the widest a column is made, in characters (longer text wraps nowhere; the cell still holds it all)
MAX_WIDTH = 60
#: the largest integer a spreadsheet's number (a double) holds exactly: past it, an id or a
#: timestamp in ns (an epoch's are ~1.7e18) is written as its digits, so it still finds its row
EXACT = 2**53
RUN_COLUMNS = [Column("run_id"), Column("run")]
BOLD = Font(bold=True)


def render(database: str, reports: list[Report]) -> bytes:
    """The whole report as the bytes of an .xlsx workbook."""
    workbook = Workbook(write_only=True)
    workbook.properties.title = _clean(f"Profiling diagnosis: {database}")
    if not reports:
        sheet = workbook.create_sheet("Summary")
        sheet.append([_cell(sheet, "No run with steps, kernels or findings in this warehouse.", PLAIN)])
    for chapter in zip(*(all_tables(report) + [evidence(report)] for report in reports)):  # one table per run
        rows = [[report.run_id, report.run_name, *row] for report, table in zip(reports, chapter) for row in table.rows]
        _sheet(workbook, chapter[0].name, RUN_COLUMNS + chapter[0].columns, rows)
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def _sheet(workbook: Workbook, name: str, columns: list[Column], rows: list[list]) -> None:
    sheet = workbook.create_sheet(name)
    sheet.freeze_panes = "A2"
    for index, column in enumerate(columns, start=1):
        longest = max([len(column.header)] + [len(column.unit.text(row[index - 1])) for row in rows])
        sheet.column_dimensions[get_column_letter(index)].width = min(longest, MAX_WIDTH) + 2
    header = [_cell(sheet, column.header, PLAIN) for column in columns]
    for cell in header:
        cell.font = BOLD
    sheet.append(header)
    for row in rows:
        sheet.append([_cell(sheet, value, column.unit) for column, value in zip(columns, row)])


def _cell(sheet, value, unit) -> WriteOnlyCell:
    """A number scaled to its unit, or a string cell (never a formula, never an error value)."""
    if value is None:
        return WriteOnlyCell(sheet)
    if isinstance(value, Real) and not isinstance(value, bool) and math.isfinite(value) and abs(value) <= EXACT:
        cell = WriteOnlyCell(sheet, value=value / unit.scale if unit.scale != 1 else value)
        cell.number_format = unit.number_format
        return cell
    cell = WriteOnlyCell(sheet, value=_clean(text_of(value)))
    cell.data_type = "s"  # openpyxl took a leading '=' for a formula, '#N/A' for an error
    return cell


def _clean(text: str) -> str:
    """Text a cell can hold: control characters shown as ``\\xNN``, cut at Excel's limit."""
    text = ILLEGAL_CHARACTERS_RE.sub(lambda m: f"\\x{ord(m[0]):02x}", text)
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT - 1] + "…"
