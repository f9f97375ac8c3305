"""A kernel's PMU figures as MindStudio Insight's Operator table shows them: one column per figure.

The real server adds to each kernel of a level-1 export the figures its input holds, named as the
input names them (``OperatorDetailInfoResponse.pmuHeaders``, the row's other keys): a rank db's
TASK_PMU_INFO names with their values (``server/src/modules/operator/database/DbSummaryDataBase.cpp``
FetchPmuColumnNames: times in ns), or kernel_details.csv's headers from ``aicore_time(us)`` on with
"(us)", "(%)", "(GB/s)", "(KB)" written "_us_", "_PCT_", "_GB_s_", "_KB_" (``operator/parser/
KernelParse.cpp``; the frontend's ``DetailTable.tsx`` modifyTitle writes them back) and their
values (times in us). The warehouse keeps those figures in the kernel's columns (the CSV's headers:
:data:`warehouse.sources.kit.kernel_csv.KERNEL_COLUMNS`; the db's names: ``rank_db/fact_kernel.sql``)
and the others in ``metrics``; here they get their input's names back. A name outside the real
server's white list (letters, digits, spaces, '-' and '_') is left out, as it refuses it.
"""

from __future__ import annotations

import json
import re

from warehouse.sources.kit.kernel_csv import KERNEL_COLUMNS

#: the kernel columns holding PMU figures: the CSV's from aicore_time(us) on
COLUMNS = KERNEL_COLUMNS[[column.name for column in KERNEL_COLUMNS].index("aicore_ns"):]
#: TASK_PMU_INFO names that are not the column's name with "_ns" read "_time" (fact_kernel.sql)
DB_NAMES = {"aicore_ns": "aic_total_time", "aiv_ns": "aiv_total_time", "cube_utilization_pct": "cube_utilization"}
#: how the real server writes a CSV header's units (KernelParse.cpp)
UNITS = (("(us)", "_us_"), ("(%)", "_PCT_"), ("(GB/s)", "_GB_s_"), ("(KB)", "_KB_"))
WHITE_LIST = re.compile(r"^(?!.*--)[a-zA-Z0-9\s\-_]+$")
#: the kernel origins whose figures are named as a CSV's (the others: a rank db's, or none)
CSV_ORIGINS = frozenset({"kernel_details_csv", "op_summary_csv"})
NS_PER_US = 1000


def _csv_name(header: str) -> str:
    for unit, written in UNITS:
        header = header.replace(unit, written)
    return header


def _db_name(column: str) -> str:
    return DB_NAMES.get(column, column[:-3] + "_time" if column.endswith("_ns") else column)


def figures(row: dict) -> dict[str, str]:
    """The PMU figures of a kernel (its ``insight_kernel_pmu`` row: ``origin``, ``pmu``, ``metrics``), by
    their shown names."""
    csv = row["origin"] in CSV_ORIGINS
    if not csv and row["origin"] != "rank_db":
        return {}
    columns = json.loads(row["pmu"])
    found = {}
    for column in COLUMNS:
        value = columns.get(column.name)
        if value is None:
            continue
        if csv:
            in_us = column.name.endswith("_ns")
            found[_csv_name(column.headers[0])] = str(round(value / NS_PER_US, 3) if in_us else value)
        else:
            found[_db_name(column.name)] = str(value)
    for name, value in json.loads(row["metrics"] or "{}").items():
        if not isinstance(value, (list, dict)):  # a short record's raw fields are no figure
            found[_csv_name(name) if csv else name] = str(value)
    return {name: value for name, value in found.items() if WHITE_LIST.match(name)}
