"""aicpu_intermediate_{device}.csv: MindSpore's AI CPU table again, as the CSV MindInsight reads.

MindSpore's integrator (``Integrator._parse_aicpu_time``, integrator.py) copies the task lines of
``output_data_preprocess_aicpu_{device}.txt`` (:mod:`~warehouse.sources.mindspore.aicpu_table`) into a
CSV with Python's csv module (CRLF line ends), the total line left out: ``serial_number``,
``op_type``, ``total_time``, ``dispatch_time`` (ms), in versions since June 2021 ``execution_time`` (ms: run end minus
run start), then ``run_start`` and ``run_end``. MindInsight's test resources name the second
column ``kernel_type`` (run_2), and MindInsight reads the six-column files of older versions too
(analyser.py, AicpuDetailAnalyser). Each record is a row of ``mindspore_aicpu_op`` numbered by its
place (the serial number MindSpore writes), times in ns. The raw DATA_PREPROCESS.dev.AICPU file, then
the text table, answer before it (the fact aicpu_op); the audit ``mindspore_aicpu_agrees`` reconciles
it with the one that answers.
"""

from __future__ import annotations

import re

from warehouse.sources.kit.text import Column, CsvTable, integer, ms_to_ns
from warehouse.sources.mindspore.device import device_csv_source

KIND = "mindspore_aicpu_csv"
NAME = re.compile(r"aicpu_intermediate_(\d{1,9})\.csv")
SPEC = CsvTable(
    table="mindspore_aicpu_op",
    required=frozenset({"serial_number", "total_time", "dispatch_time", "run_start", "run_end"}),
    columns=(
        Column("op_type", ("op_type", "kernel_type")),
        Column("total_ns", ("total_time",), ms_to_ns),
        Column("dispatch_ns", ("dispatch_time",), ms_to_ns),
        Column("execution_ns", ("execution_time",), ms_to_ns),
        Column("run_start", ("run_start",), integer),
        Column("run_end", ("run_end",), integer),
    ),
)

detect, ingest = device_csv_source(SPEC, NAME)
