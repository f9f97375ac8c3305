"""Framework.host[.vm].graph_desc_info.{device}.slice_{n}: each operator's type and tensors.

MindSpore's host writes a line per operator of ``key:value`` fields
(:func:`~warehouse.sources.mindspore.framework.graph_records` reads it, as the HWTS log's source does
for its kernels): each line is a row of ``mindspore_framework_op``, its tensors joined by ';' in id
order, a data type number named by MindSpore's enumeration (``vm`` in the file name) or GE's. The
device is the number in the file name. A line without ``op_name``, or one ``graph_records`` refuses,
fails the file naming the line.
"""

from __future__ import annotations

from pathlib import Path

from warehouse.errors import IngestError
from warehouse.sources.mindspore.device import device_records_source
from warehouse.sources.mindspore.framework import graph_records, host_file

KIND = "mindspore_framework_graph_desc"
NAME = host_file("graph_desc_info")
COLUMNS = ["op_name", "op_type", "input_shapes", "input_dtypes", "input_formats", "output_shapes", "output_dtypes",
           "output_formats"]


def records(path: Path):
    """(line number, *COLUMNS) of every operator of the file.

    :raises IngestError: naming the line that names no operator (or that :func:`graph_records` refuses).
    """
    for number, operator in graph_records(path, vm=".vm." in path.name):
        if not operator.full_name:
            raise IngestError(f"{path}: line {number}: no 'op_name:' field")
        yield number, operator.full_name, operator.op_type, *operator.tensor_columns()


detect, ingest = device_records_source(NAME, "mindspore_framework_op", COLUMNS, records)
