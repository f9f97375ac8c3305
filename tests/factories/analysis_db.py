"""factory-boy factory that writes torch_npu's ``analysis.db`` (StepTraceTime, CommAnalyzer*).

The tables are declared byte for byte as in the real files (TEXT step and names, NUMERIC
values) and their rows are derived from the text export's documents the way the db's
writer derives them, so one rank can be written both ways: ``AnalysisDbFactory(path=...,
step_trace=csv rows, communication=communication.json document, matrix=communication_matrix.json
document)``; by default the text factories' own documents. The writer drops entries
without ``@`` ("Total Op Info") and transport types whose figures are all zero, flattens
each "Size Distribution" to one row per packet size (one row of zeros when it is empty),
drops the ratios, and stores the JSON's floats (numbers, not the CSV's text).

``omit`` leaves tables out, ``extra_table`` adds one no reader knows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import factory

from tests.factories.rank_db import write_db
from tests.factories.text_exports import CommunicationJsonFactory, CommunicationMatrixFactory, StepTraceTimeFactory

#: The tables' declarations as in the real files (sqlite_master of a torch_npu 2.x analysis.db).
DDL = {
    "StepTraceTime": "step TEXT, computing NUMERIC, communication_not_overlapped NUMERIC, overlapped NUMERIC, "
                     "communication NUMERIC, free NUMERIC, stage NUMERIC, bubble NUMERIC, "
                     "communication_not_overlapped_and_exclude_receive NUMERIC, preparing NUMERIC",
    "CommAnalyzerBandwidth": "hccl_op_name TEXT, group_name TEXT, transport_type TEXT, transit_size NUMERIC, "
                             "transit_time NUMERIC, bandwidth NUMERIC, large_packet_ratio NUMERIC, "
                             "package_size NUMERIC, count NUMERIC, total_duration NUMERIC, step TEXT, type TEXT",
    "CommAnalyzerMatrix": "hccl_op_name TEXT, group_name TEXT, src_rank TEXT, dst_rank TEXT, transport_type TEXT, "
                          "transit_size NUMERIC, transit_time NUMERIC, bandwidth NUMERIC, step TEXT, type TEXT, "
                          "op_name TEXT",
    "CommAnalyzerTime": "hccl_op_name TEXT, group_name TEXT, start_timestamp NUMERIC, elapse_time NUMERIC, "
                        "transit_time NUMERIC, wait_time NUMERIC, synchronization_time NUMERIC, idle_time NUMERIC, "
                        "step TEXT, type TEXT",
}
STEP_TRACE_COLUMNS = (
    "Step", "Computing", "Communication(Not Overlapped)", "Overlapped", "Communication", "Free", "Stage", "Bubble",
    "Communication(Not Overlapped and Exclude Receive)", "Preparing",
)
TIME_FIELDS = ("Start Timestamp(us)", "Elapse Time(ms)", "Transit Time(ms)", "Wait Time(ms)",
               "Synchronization Time(ms)", "Idle Time(ms)")
TRANSFER_FIELDS = ("Transit Size(MB)", "Transit Time(ms)", "Bandwidth(GB/s)", "Large Packet Ratio")
MATRIX_FIELDS = ("Transport Type", "Transit Size(MB)", "Transit Time(ms)", "Bandwidth(GB/s)")


@dataclass
class AnalysisDb:
    """A written analysis.db: its path and each table's DDL and rows."""

    path: Path
    tables: dict[str, tuple[str, list[tuple]]] = field(default_factory=dict)

    def rows(self, table: str) -> list[tuple]:
        return self.tables[table][1] if table in self.tables else []


def number(text):
    """A CSV cell as the writer holds it: int, float, or None for N/A."""
    if text in (None, "", "N/A"):
        return None
    return float(text) if any(mark in text for mark in ".eE") else int(text)


def step_trace_rows(csv_rows: list[dict]) -> list[tuple]:
    return [(row.get("Step"), *(number(row.get(name)) for name in STEP_TRACE_COLUMNS[1:])) for row in csv_rows]


def _entries(document: dict):
    """(step, type, op, group, entry) of the entries with '@' (the writer skips the others)."""
    for step, by_type in document.items():
        for comm_type, entries in by_type.items():
            for key, entry in entries.items():
                if "@" in key:
                    op_name, group_name = key.split("@")
                    yield step, comm_type, op_name, group_name, entry


def time_rows(document: dict) -> list[tuple]:
    return [(op, group, *(entry["Communication Time Info"][name] for name in TIME_FIELDS), step, comm_type)
            for step, comm_type, op, group, entry in _entries(document)]


def bandwidth_rows(document: dict) -> list[tuple]:
    rows = []
    for step, comm_type, op, group, entry in _entries(document):
        for transport, stats in entry["Communication Bandwidth Info"].items():
            transfer = tuple(stats[name] for name in TRANSFER_FIELDS)
            if sum(transfer) == 0:
                continue
            packets = stats["Size Distribution"].items() or [(0, [0, 0])]
            rows += [(op, group, transport, *transfer, size, count, total, step, comm_type)
                     for size, (count, total) in packets]
    return rows


def matrix_rows(document: dict) -> list[tuple]:
    rows = []
    for step, comm_type, op, group, links in _entries(document):
        for link, stats in links.items():
            src, dst = link.split("-")
            rows.append((op, group, src, dst, *(stats[name] for name in MATRIX_FIELDS), step, comm_type,
                         stats.get("Op Name")))
    return rows


class AnalysisDbFactory(factory.Factory):
    """Writes an analysis.db at ``path`` and returns its :class:`AnalysisDb`."""

    class Meta:
        model = AnalysisDb

    path = Path("analysis.db")
    step_trace = factory.LazyFunction(lambda: StepTraceTimeFactory.build(path=None).rows)
    communication = factory.LazyFunction(lambda: CommunicationJsonFactory.build(path=None).document)
    matrix = factory.LazyFunction(lambda: CommunicationMatrixFactory.build(path=None).document)
    omit = ()
    #: (name, ddl, rows) of a table no reader knows
    extra_table = None

    @classmethod
    def _create(cls, model_class, path, step_trace, communication, matrix, omit, extra_table):
        rows = {
            "StepTraceTime": step_trace_rows(step_trace),
            "CommAnalyzerBandwidth": bandwidth_rows(communication),
            "CommAnalyzerMatrix": matrix_rows(matrix),
            "CommAnalyzerTime": time_rows(communication),
        }
        tables = {name: (DDL[name], rows[name]) for name in DDL if name not in omit}
        if extra_table:
            name, ddl, extra_rows = extra_table
            tables[name] = (ddl, extra_rows)
        write_db(Path(path), tables)
        return model_class(Path(path), tables)
