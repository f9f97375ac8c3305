"""aicore_intermediate_{device}_detail.csv: MindSpore's AI Core time per operator of one device.

MindSpore's operator time parser writes, per operator, its full name with its scope,
``execution_time`` (its mean time, ms) and, but in the oldest version, ``execution_frequency`` (how
often it ran): the profiler's own per-operator table, stored as written in ``mindspore_aicore_op``
(fact aicore_op: it answers before output_op_compute_time_{device}.txt and
output_op_compute_time_detail_{device}.txt). Its versions differ in the full name's header only
(:data:`VERSIONS`): ``full_kernel_time`` (sic) today, ``full_kernel_name`` before (MindInsight's
run_1 resources) and ``full_op_name`` in the oldest (run_2), which MindInsight's integrator wrote by
copying output_op_compute_time_{device}.txt's operators and times, without a count (NULL). The
device is the number in the file name.
"""

from __future__ import annotations

import re

from warehouse.sources.kit.text import Column, CsvTable, integer, ms_to_ns
from warehouse.sources.mindspore.device import device_csv_versions

KIND = "mindspore_aicore_detail_csv"
NAME = re.compile(r"aicore_intermediate_(\d{1,9})_detail\.csv")
#: the full name's header of each version, newest first, and whether the version counts the runs
FULL_NAMES = (("full_kernel_time", True), ("full_kernel_name", True), ("full_op_name", False))
VERSIONS = tuple(
    CsvTable(
        table="mindspore_aicore_op",
        required=frozenset({full_name, "execution_time", *(("execution_frequency",) if counted else ())}),
        columns=(
            Column("full_name", (full_name,)),
            Column("time_ns", ("execution_time",), ms_to_ns),
            Column("count", ("execution_frequency",), integer),
        ),
    )
    for full_name, counted in FULL_NAMES
)

detect, ingest = device_csv_versions(VERSIONS, NAME)
