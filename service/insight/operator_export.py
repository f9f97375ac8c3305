"""operator/exportDetails: the Operator page's Export button, the whole table of a rank as a CSV file.

The button (Ascend/msinsight ``modules/operator/src/components/operator/DetailTable.tsx`` ExportBtn,
``RequestUtils.ts`` exportOperatorDetail) sends the page's ``rankId``, ``dbPath``, ``group``, ``topK``
and ``isCompare``, and shows the answer's ``filePath`` (an empty one: "export failed") and
``exceedingFileLimit``. The real server (``server/src/modules/operator/handler/ExportOpDetailsHandler.cpp``)
writes every row of the table the page shows, the topK of them, without filters, sorting or
pages: a grouping's rows (``compare`` side; the ``diff`` side in compare mode) under the grouping's
header (opType, accCore, count, totalTime, ... ; CsvHandleStatisticInfoMap), or the operators one by
one (CsvHandleDetailInfoMap: name, type, accCore, startTime, ... then the PMU figures' names for
"Operator"), cells beginning with ``=``, ``+``, ``-`` or ``@`` that are not numbers escaped with a
backslash (CheckColumn); it stops at 1 GB and says so with ``exceedingFileLimit``. The answer is
``{exceedingFileLimit, filePath}`` (``OperatorProtocolUtil.cpp`` ToResponseJson<OperatorExportDetailsResponse>).

The rows here are those of :func:`operator.statistic` and :func:`operator.details` (the named queries
``insight_operator_groups`` and ``insight_operators``), all on one page. Two differences, both so the file
reads back as its table: cells holding a comma or a quote (input shapes do) are quoted as CSV quotes them,
where the real server writes them bare; a PMU figure goes under its own name ("" where a kernel has none),
where the real server writes each kernel's figures in a row whatever their names. The file is written
beside the warehouse database (``operator_detail_group_by_{group}_{rank}_{unix seconds}.csv``, the real
server's name), not beside the profile as the real server does: the warehouse never writes into its
inputs, and a later import of their folder would read the file back.
"""

from __future__ import annotations

import csv
import io
import re
import time
from pathlib import Path, PurePath

from flask import current_app

from service.insight import operator, ranks
from service.insight.baseline import rank_baseline
from service.insight.compare import is_double
from service.insight.protocol import InsightError, Params

#: each grouping's columns, in the file's order (ExportOpDetailsHandler.cpp's headers)
HEADERS = {
    "Operator Type": ("opType", "accCore", "count", "totalTime", "avgTime", "maxTime", "minTime"),
    "Input Shape": ("opName", "inputShape", "accCore", "count", "totalTime", "avgTime", "maxTime", "minTime"),
    "Communication Operator Type": ("opType", "count", "totalTime", "avgTime", "maxTime", "minTime"),
    "Operator": ("name", "type", "accCore", "startTime", "duration", "waitTime", "blockDim", "inputShape",
                 "inputType", "inputFormat", "outputShape", "outputType", "outputFormat"),
    "Communication Operator": ("name", "type", "startTime", "duration", "waitTime"),
}
#: a header whose value the table row keeps under another key
ROW_KEYS = {"blockDim": "blockNum"}
#: where the real server stops writing (ExportOpDetailsHandler.h maxFileSize)
MAX_FILE_BYTES = 1024 * 1024 * 1024
_FORMULA = re.compile(r"[=+\-@]")


def _cell(value: str) -> str:
    """CheckColumn: a text a spreadsheet would read as a formula, escaped."""
    return "\\" + value if not is_double(value) and _FORMULA.match(value) else value


def _line(cells: list[str]) -> str:
    written = io.StringIO()
    csv.writer(written, lineterminator="\n").writerow([_cell(cell) for cell in cells])
    return written.getvalue()


def _table(conn, params: Params) -> tuple[tuple[str, ...], list[dict]]:
    """(the file's columns, the table's rows: the compare side, or the diff side in compare mode)."""
    group = params.text("group")
    if group not in HEADERS:
        raise InsightError(f"group must be one of {', '.join(HEADERS)}, not {group!r}")
    whole = Params({**params.values, "current": 1, "pageSize": 2 ** 62, "filters": [], "orderBy": "", "order": ""},
                   params.session)
    grouped = operator.GROUPS[group][0] is not None
    if grouped and (whole.integer("topK", required=False) or 0) == 0:
        return HEADERS[group], []
    body = operator.statistic(conn, whole) if grouped else operator.details(conn, whole)
    side = "compare" if rank_baseline(conn, params) is None else "diff"
    columns = HEADERS[group] + (tuple(body["pmuHeaders"]) if group == "Operator" else ())
    return columns, [item[side] for item in body["data"]]


def _path(card: ranks.RankCard, group: str) -> Path:
    folder = Path(current_app.config["DATABASE"]).resolve().parent
    return folder / f"operator_detail_group_by_{group}_{PurePath(card.name).stem}_{int(time.time())}.csv"


def export_details(conn, params: Params) -> dict:
    """operator/exportDetails: the rank's table written as a CSV file; its path."""
    card = ranks.asked(conn, params)
    columns, found = _table(conn, params)
    path = _path(card, params.text("group"))
    exceeding, size = False, 0
    try:
        with open(path, "w", encoding="utf-8", newline="") as written:
            for cells in [list(columns), *([row.get(ROW_KEYS.get(c, c), "") for c in columns] for row in found)]:
                line = _line(cells)
                written.write(line)
                size += len(line.encode("utf-8"))
                if size > MAX_FILE_BYTES:
                    exceeding = True
                    break
        path.chmod(0o640)
    except OSError as exc:
        raise InsightError(f"cannot write the export {path}: {exc.strerror or exc}") from None
    return {"exceedingFileLimit": exceeding, "filePath": str(path)}
